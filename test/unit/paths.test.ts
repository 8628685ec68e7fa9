/**
 * The API's prefix is spelled in one place: shared/paths.ts `paths` (re-exported by shared/routes.ts). Code and tests build their paths from
 * it, so the prefix written out anywhere else in shared/, functions/, infra/, web/src/ or test/ fails here. The
 * API document (shared/openapi/, which holds the contract's path templates) and docs/ may spell it, and so may
 * data that cannot name a constant: the sample events of infra/events/ (JSON), so only code is read.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";

const ROOTS = ["shared", "functions", "infra", "web/src", "test"];
const ALLOWED = (file: string) => file === "shared/paths.ts" || file.startsWith("shared/openapi/");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith(".") ? [] : files(path);
    return /\.(ts|tsx|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

// Built, not written, so that this file does not spell what it looks for.
const PREFIX = paths.api;

const spelling = ROOTS.flatMap(files)
  .filter((f) => !ALLOWED(f) && readFileSync(f, "utf8").includes(PREFIX))
  .sort();

describe("the API's prefix", () => {
  it("is spelled in shared/paths.ts `paths`", () => {
    expect(PREFIX).toBe(["", "api", "v1"].join("/"));
    expect(Object.values(paths).filter((p) => p.startsWith(`${PREFIX}/`)).length).toBeGreaterThan(5);
  });

  it("appears nowhere else in shared/, functions/, infra/, web/src/ or test/ (beyond the document)", () => {
    expect(spelling, "build the path from `paths` (shared/paths.ts)").toEqual([]);
  });
});
