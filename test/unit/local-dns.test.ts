/**
 * `npm run dns` and the DNS server `npm start` runs (infra/local/dns.ts, infra/local/dns-server.ts): a record
 * published by the command answers at once through `node:dns`'s Resolver pointed at the running server, as the
 * functions resolve a domain's challenge (shared/domains/dns.ts); nothing else answers; the records outlive the
 * server. Each test works on a records file of its own, never `.local/dns.json`.
 */
import { execFile } from "node:child_process";
import { Resolver } from "node:dns/promises";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LocalDns, startLocalDns } from "../../infra/local/dns-server.js";

const ROOT = resolve(import.meta.dirname, "../..");
const NAME = "_institution-admin-challenge.example.edu";

let dir: string;
let file: string;
let servers: LocalDns[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "local-dns-"));
  file = join(dir, "dns.json");
  servers = [];
});

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function server(opts: { port?: number; orFree?: boolean } = {}): Promise<LocalDns> {
  const started = await startLocalDns({ file, ...opts });
  servers.push(started);
  return started;
}

/** `npm run -s dns -- <args> --file <this test's file>`. */
function dns(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile("npm", ["run", "-s", "dns", "--", ...args, "--file", file], { cwd: ROOT }, (err, stdout, stderr) => {
      done({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/** The TXT lookup as the functions make it, or the resolver's error code. */
async function txt(at: LocalDns, name: string): Promise<string[] | string> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([at.address]);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? "EUNKNOWN";
  }
}

describe("npm run dns, against the running server", () => {
  it("publishes a TXT record that answers at once, adds a second value, lists and removes them", async () => {
    const running = await server();
    expect(await txt(running, NAME)).toBe("ENOTFOUND");

    // A base64url challenge may begin with "-"; the name is taken in any case and with a final dot.
    const published = await dns("txt", "_Institution-Admin-Challenge.Example.EDU.", "-n3N0value");
    expect(published).toMatchObject({ code: 0, stdout: `${NAME}  TXT  "-n3N0value"\n` });
    expect(await txt(running, NAME)).toEqual(["-n3N0value"]);
    expect(running.queries(NAME)).toBe(2);

    // Longer than one TXT string (255 bytes): sent in several, which the resolver's caller joins.
    const long = "v".repeat(300);
    expect((await dns("txt", NAME, long)).code).toBe(0);
    expect((await dns("txt", NAME, long)).code).toBe(0); // kept once
    expect(await txt(running, NAME)).toEqual(["-n3N0value", long]);
    expect((await dns("list")).stdout).toBe(`${NAME}  TXT  "-n3N0value"\n${NAME}  TXT  ${JSON.stringify(long)}\n`);

    // Only what was published: the domain itself and other names are NXDOMAIN.
    expect(await txt(running, "example.edu")).toBe("ENOTFOUND");
    expect(await txt(running, "_institution-admin-challenge.example.org")).toBe("ENOTFOUND");

    expect(await dns("remove", NAME, "-n3N0value")).toMatchObject({ code: 0, stdout: `removed ${NAME} TXT "-n3N0value"\n` });
    expect(await txt(running, NAME)).toEqual([long]);
    expect((await dns("remove", NAME)).code).toBe(0);
    expect(await txt(running, NAME)).toBe("ENOTFOUND");
    expect((await dns("list")).stdout).toMatch(/^no records/);
    const again = await dns("remove", NAME);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${NAME} is not published`);
  });

  it("explains its usage on bad arguments, and writes nothing", async () => {
    for (const args of [
      [],
      ["txt", NAME],
      ["txt", "example", "v"],
      ["txt", `${"a".repeat(64)}.edu`, "v"],
      ["publish", NAME, "v"],
      ["list", NAME],
    ]) {
      const res = await dns(...args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stderr, args.join(" ")).toContain("Usage: npm run dns -- txt <name> <value>");
      expect(res.stdout).toBe("");
    }
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
    expect((await dns("--help")).stdout).toContain("npm run dns -- remove <name> [<value>]");
  });
});

describe("the DNS server", () => {
  it("answers the records kept in its file after a restart, on another port when its own is taken", async () => {
    const first = await server();
    expect((await dns("txt", NAME, "kept")).code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ [NAME]: { txt: ["kept"] } });

    // The port is held (by the first): a set port fails, a default one is replaced by a free one.
    await expect(startLocalDns({ file, port: first.port })).rejects.toThrow(/cannot listen on 127\.0\.0\.1:\d+/);
    const second = await server({ port: first.port, orFree: true });
    expect(second.port).not.toBe(first.port);
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    expect(await txt(second, NAME)).toEqual(["kept"]);
  });

  it("answers SERVFAIL for a name set to fail (the tests') and for a records file it cannot read", async () => {
    const running = await server();
    running.set("fail.example.edu", { servfail: true });
    running.set("empty.example.edu", { txt: [] });
    expect(await txt(running, "fail.example.edu")).toBe("ESERVFAIL");
    // The name exists without TXT records: what the functions read as "not found" too.
    expect(await txt(running, "empty.example.edu")).toBe("ENODATA");
    // A hand-edited file gone wrong: every lookup fails (and the server logs why), and the command says so.
    writeFileSync(file, '{"example.edu": "v"}');
    expect(await txt(running, "fail.example.edu")).toBe("ESERVFAIL");
    expect(await txt(running, "empty.example.edu")).toBe("ESERVFAIL");
    const listed = await dns("list");
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`${file} is not {"<name>": {"txt": ["<value>", …]}}`);
  });
});
