/**
 * The README, run as a newcomer runs it (issue 41): its shell blocks, in order, in one shell, against the test
 * run's stack, skipping only `npm ci`, `npm start` and `npm test` themselves (the stack is already running, and
 * the tests are what runs this). Then the first user signs in as the console does locally (InitiateAuth,
 * USER_PASSWORD_AUTH, against the local Cognito) with the password the README set.
 *
 * A newcomer repeats steps: the whole README runs twice, and the first user still signs in with that password,
 * and holds one "Acme College", not two.
 *
 * The blocks run in a checkout of their own (a temporary directory with the repository's sources, and its
 * node_modules linked), whose `.local/stack.json` names the test run's stack: what the README reads
 * (`.local/stack.json`) and what `npm run token` keeps (`.local/passwords.json`) stay out of this checkout's
 * `.local/`, where a developer's `npm start` may be running.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { CognitoIdentityProviderClient, InitiateAuthCommand } from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../shared/paths.js";
import { call, stack } from "../support/api.js";

const ROOT = resolve(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The commands of the README that this test does not run: the install, the stack, the tests. */
const NOT_RUN = /^(npm ci|npm start|npm test)$/;

interface Block {
  readonly text: string;
  /** The block's commands, without those NOT_RUN names. */
  readonly script: string;
  readonly skipped: readonly string[];
}

/** The README's fenced `sh` blocks, in order. */
function shellBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((m) => {
    const text = m[1] ?? "";
    const skipped: string[] = [];
    const lines = text.split("\n").map((line) => {
      const command = line.replace(/\s+#.*$/, "").trim();
      const parts = command.split(/\s*&&\s*/);
      if (command !== "" && parts.every((p) => NOT_RUN.test(p))) {
        skipped.push(...parts);
        return `# (not run by the test) ${line}`;
      }
      return line;
    });
    return { text, script: lines.join("\n"), skipped };
  });
}

const blocks = shellBlocks(README);

/** The password the README's first command gives its first user. */
function readmeUser(): { email: string; password: string } {
  const m = README.match(/npm run token -- (\S+@\S+) [^\n]*--password '([^']+)'/);
  if (!m?.[1] || !m[2]) throw new Error("the README no longer sets a first user's password with `npm run token … --password '…'`");
  return { email: m[1], password: m[2] };
}

let checkout: string;

/** The environment of a newcomer's shell: no test settings, no npm of ours, the machine's node first on PATH. */
function newcomerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ["HOME", "USER", "LANG", "TERM", "TMPDIR", "SHELL"])
    if (process.env[name] !== undefined) env[name] = process.env[name];
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !dir.includes("node_modules"))
    .join(delimiter);
  return env;
}

function sh(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      "bash",
      ["-eo", "pipefail", "-c", script],
      { cwd: checkout, env: newcomerEnv(), timeout: 150_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

async function signIn(email: string, password: string): Promise<string | undefined> {
  const cognito = new CognitoIdentityProviderClient({
    endpoint: stack.cognitoEndpoint,
    region: stack.region,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });
  try {
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: stack.userPoolClientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    return auth.AuthenticationResult?.IdToken;
  } finally {
    cognito.destroy();
  }
}

async function institutionsNamed(token: string, name: string): Promise<number> {
  const res = await call("GET", paths.institutions, { token });
  expect(res.status).toBe(200);
  return (res.body.institutions as { name: string }[]).filter((i) => i.name === name).length;
}

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), "readme-"));
  for (const dir of ["infra", "shared", "functions"]) cpSync(join(ROOT, dir), join(checkout, dir), { recursive: true });
  for (const file of ["package.json", "tsconfig.json", "README.md"]) cpSync(join(ROOT, file), join(checkout, file));
  symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"), "dir");
  mkdirSync(join(checkout, ".local"));
  writeFileSync(join(checkout, ".local/stack.json"), `${JSON.stringify(stack, null, 2)}\n`);
});

afterAll(() => {
  if (checkout) rmSync(checkout, { recursive: true, force: true });
});

describe("the README, run as a newcomer runs it", () => {
  it("has shell blocks to run, and leaves out exactly npm ci, npm start and npm test", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.flatMap((b) => b.skipped).sort()).toEqual(["npm ci", "npm start", "npm test"]);
    expect(readmeUser().email).toBe("olive@acme.test");
  });

  it("names the local mail page, and its block prints where it is", async () => {
    expect(README).toMatch(/local mail page/);
    const block = blocks.find((b) => b.text.includes("sesEndpoint"));
    expect(block, "a README block that prints the local mail page's address").toBeDefined();
    const { code, stdout } = await sh(block?.script ?? "");
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(stack.sesEndpoint);
    const page = await fetch(`${stdout.trim()}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
  });

  it("runs its blocks in order, twice, and the first user then signs in with the README's password and holds one Acme College", async () => {
    const { email, password } = readmeUser();
    const script = blocks.map((b) => b.script).join("\n");
    for (const round of [1, 2]) {
      const run = await sh(script);
      expect(run.code, `round ${round}: ${run.stderr}`).toBe(0);
      expect(run.stdout, `round ${round}`).toContain('"name":"Acme College"');
      const token = await signIn(email, password);
      expect(token, `round ${round}: ${email} signs in with the README's password`).toBeTruthy();
      expect(await institutionsNamed(token ?? "", "Acme College"), `round ${round}`).toBe(1);
    }
  }, 300_000);

  it("a token for a user whose password it does not know changes nothing, and says it needs --password", async () => {
    const { email, password } = readmeUser();
    rmSync(join(checkout, ".local/passwords.json"), { force: true });
    const run = await sh(`npm run -s token -- ${email} --super-admin --account acme`);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/--password/);
    expect(await signIn(email, password)).toBeTruthy();
  }, 120_000);

  it("a token for an existing user keeps their account when none is given", async () => {
    const { email, password } = readmeUser();
    const run = await sh(`npm run -s token -- ${email} --super-admin --password '${password}'`);
    expect(run.code, run.stderr).toBe(0);
    const claims = JSON.parse(Buffer.from(run.stdout.trim().split(".")[1] ?? "", "base64url").toString("utf8"));
    expect(claims["custom:account_id"]).toBe("acme");
    expect(claims["cognito:groups"]).toContain("cohort_super_admin");
  }, 120_000);
});
