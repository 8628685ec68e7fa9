/**
 * The repository holds its own contract (issue 41): no tracked file sends a reader to a document outside the
 * repository. The contract is docs/contract/; the design notes it was written from are not in the repository,
 * so a reference to them (by name, or by a relative path that leaves the repository) is one nobody who clones
 * it can follow. That every relative link of README.md and docs/ resolves is test/unit/readme.test.ts.
 *
 * Scope: every tracked text file, the code's comments included: they cite the docs pages.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** The name of the design notes, spelled so that this file does not name them itself. */
const NOTES = ["DESIGN", "md"].join(".");
/** The source specification's file name. */
const SPEC = ["institution-admin-api", "md"].join(".");

/** This file names what it looks for, and package-lock.json lists packages, not documents. */
const inScope = (path: string): boolean => path !== "test/unit/docs-links.test.ts" && path !== "package-lock.json";

const TEXT = /\.(md|ts|tsx|mts|mjs|js|json|css|html|ya?ml|sh)$|^\.ci\/run$/;

function trackedFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => f !== "" && TEXT.test(f));
}

/** What in `text` (of the file at `path`, relative to the repository) points outside the repository. */
function outsideReferences(path: string, text: string): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    const at = `${path}:${i + 1}`;
    if (line.includes(NOTES)) found.push(`${at}: names ${NOTES}`);
    if (line.includes(SPEC)) found.push(`${at}: names ${SPEC}`);
    // A relative path that climbs out of the repository from the file's folder: `../shared/…` from the root.
    for (const m of line.matchAll(/(?:^|[\s("'`[<])((?:\.\.\/)+[\w.@-][\w./@-]*)/g)) {
      const to = resolve(dirname(join(ROOT, path)), m[1] ?? "");
      const inside = relative(ROOT, to);
      if (inside.startsWith("..") || isAbsolute(inside)) found.push(`${at}: ${m[1]} is outside the repository`);
    }
    if (/(?:^|[\s("'`])\/work\//.test(line)) found.push(`${at}: names an absolute path of this machine`);
  }
  return found;
}

describe("no tracked file points outside the repository", () => {
  it("no tracked file names the design notes or the specification, nor a path outside the repository", () => {
    const files = trackedFiles().filter(inScope);
    expect(files.length).toBeGreaterThan(20);
    expect(files).toContain("docs/contract/README.md");
    const found = files.flatMap((f) => outsideReferences(f, readFileSync(join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("tells a reference that leaves the repository from one that stays inside", () => {
    expect(outsideReferences("README.md", `see [it](../shared/${NOTES}) docs/contract/README.md`)).toEqual([
      `README.md:1: names ${NOTES}`,
      `README.md:1: ../shared/${NOTES} is outside the repository`,
    ]);
    expect(outsideReferences("docs/settings.md", "[`shared/settings.ts`](../shared/settings.ts)")).toEqual([]);
    expect(outsideReferences("shared/x.ts", 'import { a } from "../shared/paths.js";')).toEqual([]);
    expect(outsideReferences("shared/x.ts", `// the spec (../../shared/spec/${SPEC})`)).toHaveLength(2);
    expect(outsideReferences("README.md", "cat /work/shared/notes")).toHaveLength(1);
  });
});
