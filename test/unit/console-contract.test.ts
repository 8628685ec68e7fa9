/**
 * The console's calls are typed by the API document: a call that drifts from it (a path, a request body,
 * a response field) fails `npm run typecheck`. Shown by compiling, with the console's own settings, a
 * snippet that makes each drift once next to the same calls made right. (An extra key in a body is not
 * one of them: openapi-fetch infers its options generically, and TypeScript checks excess keys only on
 * literals of a declared type.)
 */
import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
// Under node_modules, so `types: ["vite/client"]` resolves as it does for web/.
const dir = join(root, "node_modules/.cache", `console-drift-${process.pid}`);

// The snippet spells its paths as the console does, from the route table's prefixes.
const SNIPPET = `import { client, ok } from "${join(root, "web/src/api")}";
import { paths } from "${join(root, "shared/routes")}";
export async function calls(id: string) {
  ok(await client.GET(\`\${paths.institutions}/{id}\`, { params: { path: { id } } })).institution.name;
  ok(await client.POST(paths.institutions, { body: { institution: { name: "A" } } }));
  ok(await client.GET(paths.invitations, { params: { query: { institution_id: id } } })).meta.next_cursor;
  // DRIFT path: a route the document does not have
  await client.GET(\`\${paths.api}/institution/{id}\`, { params: { path: { id } } });
  // DRIFT body: a required field renamed
  await client.POST(paths.institutions, { body: { institution: { title: "A" } } });
  // DRIFT body: a field of another type
  await client.PATCH(\`\${paths.institutions}/{id}\`, { params: { path: { id } }, body: { institution: { settings: { auto_finalize: "yes" } } } });
  // DRIFT response: a field the response does not have
  ok(await client.GET(\`\${paths.institutions}/{id}\`, { params: { path: { id } } })).institution.owner;
}
`;

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the console's API calls", () => {
  it("fail the typecheck where they drift from the document, and only there", async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "calls.ts"), SNIPPET);
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: join(root, "web/tsconfig.json"), include: [], files: ["calls.ts"] }),
    );
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    const out = await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", join(dir, "tsconfig.json")]).then(
      () => "",
      (err: { stdout: string }) => err.stdout,
    );
    // "calls.ts(7,…): error TS…" → the lines that failed.
    const failed = [...out.matchAll(/calls\.ts\((\d+),\d+\): error/g)].map((m) => Number(m[1]));
    const drifts = SNIPPET.split("\n").flatMap((line, i) => (line.includes("// DRIFT") ? [i + 2] : []));
    expect(drifts).toHaveLength(4);
    expect([...new Set(failed)], out).toEqual(drifts);
  });
});
