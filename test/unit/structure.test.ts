/**
 * The structure, measured from the imports (madge, type-only imports included): no import circle in shared/,
 * functions/ or infra/, and no module of a feature (`shared/<feature>/`) importing the API document's layer
 * (`shared/openapi/`): the document is built from the domain, never the other way round. And one clock: the
 * current time is read in shared/clock.ts only, so the local stack's clock offset reaches every use of it.
 */
import { readFileSync } from "node:fs";
import madge from "madge";
import { describe, expect, it } from "vitest";

const graph = await madge(["shared", "functions", "infra"], { fileExtensions: ["ts"], tsConfig: "tsconfig.json" });
const imports = graph.obj();

/**
 * Circles known and owned elsewhere, each named exactly, so that the test stays strict for every other module.
 * `document.ts ↔ streaming.ts` goes with the schema-language migration of shared/openapi/ (issue 31 item 2, another
 * engineer's this round): delete the entry then. The test also fails once a listed circle is gone, so the list
 * can only shrink.
 */
const KNOWN_CIRCLES: readonly string[] = [];

const FEATURE = /^shared\/(?!openapi\/)[^/]+\//;

describe("the import graph", () => {
  it("reads every module of shared/, functions/ and infra/", () => {
    expect(graph.warnings().skipped).toEqual([]);
    expect(Object.keys(imports).length).toBeGreaterThan(100);
    expect(imports["shared/tx.ts"]).toContain("shared/clients.ts");
  });

  it("has no import circle", () => {
    const circles = graph.circular().map((c) => c.join(" > "));
    expect(circles.filter((c) => !KNOWN_CIRCLES.includes(c))).toEqual([]);
    expect(KNOWN_CIRCLES.filter((c) => !circles.includes(c))).toEqual([]);
  });

  it("has no arrow from a feature up into shared/openapi/", () => {
    const arrows = Object.entries(imports).flatMap(([from, to]) =>
      FEATURE.test(from) ? to.filter((t) => t.startsWith("shared/openapi/")).map((t) => `${from} -> ${t}`) : [],
    );
    expect(arrows).toEqual([]);
  });
});

/**
 * Reads of the system clock allowed outside shared/clock.ts, by file. shared/idempotency.ts compares with the
 * in-progress expiry Powertools stamped in system time, which the domain's (offset) clock must not judge.
 */
const SYSTEM_TIME = new Set(["shared/idempotency.ts"]);

describe("the clock", () => {
  it("is read in shared/clock.ts only (no `new Date()` or `Date.now()` elsewhere in shared/ and functions/)", () => {
    const modules = Object.keys(imports).filter((f) => /^(shared|functions)\//.test(f) && f !== "shared/clock.ts");
    const reads = modules.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .map((line, i) => ({ at: `${f}:${i + 1}`, line }))
        .filter(({ line }) => /new Date\(\)|Date\.now\(\)/.test(line) && !SYSTEM_TIME.has(f)),
    );
    expect(reads.map((r) => r.at)).toEqual([]);
    expect(modules.length).toBeGreaterThan(50);
  });
});

describe("the route rules", () => {
  it("are applied by the middleware alone: no `requireSuperAdmin(` call outside shared/http.ts (and its definition)", () => {
    const callers = Object.keys(imports).filter(
      (f) => f !== "shared/http.ts" && f !== "shared/refusals.ts" && readFileSync(f, "utf8").includes("requireSuperAdmin("),
    );
    expect(callers).toEqual([]);
    expect(readFileSync("shared/http.ts", "utf8")).toContain("await requireSuperAdmin(");
  });
});
