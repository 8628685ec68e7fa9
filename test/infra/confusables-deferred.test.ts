/**
 * The confusables table (shared/institutions/confusables.json, ~40 KB) is evaluated when a registration number is
 * first checked, never at a function's import: a cold start of the institution writes does not pay for it.
 * Two checks: in every function's bundle graph the mapping's module is reached only by a dynamic import; and
 * at run time, a fresh process that imports the create handler has not loaded the data, until a number is
 * keyed (the probe's positive control).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { ESBUILD_TARGET } from "../../infra/api-function.js";
import { ROOT } from "../../infra/local/services.js";
import { handlers } from "../../shared/routes.js";

const MODULE = "shared/institutions/registration-number.ts";
const TABLE = "shared/institutions/confusables.json";
const dir = mkdtempSync(join(tmpdir(), "confusables-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the confusables mapping", () => {
  it("is reached only by a dynamic import, in every function that has it", async () => {
    const { metafile } = await build({
      entryPoints: [...handlers().keys()].map((h) => join(ROOT, "functions", `${h}.ts`)),
      bundle: true,
      platform: "node",
      format: "esm",
      target: ESBUILD_TARGET,
      outdir: join(dir, "graph"),
      write: false,
      metafile: true,
      packages: "external",
      logLevel: "error",
    });
    const edges = Object.entries(metafile.inputs).flatMap(([from, input]) =>
      input.imports
        .filter((i) => i.path === MODULE || i.path === TABLE || i.path.startsWith("unhomoglyph"))
        .map((i) => ({ from, to: i.path, kind: i.kind })),
    );
    // The module itself imports the table statically; everything else reaches the module by import().
    expect(edges).toContainEqual({ from: MODULE, to: TABLE, kind: "import-statement" });
    // No function carries unhomoglyph's full mapping: the table is its part a number's key can reach.
    expect(edges.filter((e) => e.to.startsWith("unhomoglyph"))).toEqual([]);
    const others = edges.filter((e) => e.from !== MODULE);
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((e) => e.kind !== "dynamic-import")).toEqual([]);
  });

  it("is not loaded when the create handler is imported, and is once a number is keyed", () => {
    const log = join(dir, "loaded.txt");
    writeFileSync(log, "");
    // A module loader hook (Node's own) that notes every module URL loaded, in the order loaded.
    const hook = join(dir, "hook.mjs");
    writeFileSync(
      hook,
      `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }`,
    );
    const register = join(dir, "register.mjs");
    writeFileSync(register, `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hook).href)});`);
    const handler = pathToFileURL(join(ROOT, "functions/institutions/create.ts")).href;
    const key = pathToFileURL(join(ROOT, MODULE)).href;
    const script = `
      import { appendFileSync } from "node:fs";
      await import(${JSON.stringify(handler)});
      appendFileSync(${JSON.stringify(log)}, "-- imported\\n");
      const { registrationNumberKey } = await import(${JSON.stringify(key)});
      if (registrationNumberKey("АС-1") !== registrationNumberKey("AC-1")) throw new Error("the skeleton did not fold Cyrillic");`;
    const res = spawnSync(
      process.execPath,
      ["--import", "tsx", "--import", pathToFileURL(register).href, "--input-type=module", "-e", script],
      {
        cwd: ROOT,
        env: { ...process.env, TAKES_IDEMPOTENCY_KEY: "true" },
        encoding: "utf8",
      },
    );
    expect(res.status, res.stderr).toBe(0);
    const [atImport = "", afterwards = ""] = readFileSync(log, "utf8").split("-- imported\n");
    expect(atImport).toContain("functions/institutions/create.ts");
    expect(atImport).not.toContain("confusables.json");
    expect(afterwards).toContain(TABLE);
  }, 60_000);
});
