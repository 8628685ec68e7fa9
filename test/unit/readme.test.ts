/**
 * The README is a front door (issue 31): at most 300 lines, the rest in docs/, one page per topic. Every
 * relative link of the README and of every page of docs/ (docs/contract/ too) stays inside the repository and
 * names a file that exists,
 * and a link's `#anchor` names a heading of its target. Links with a scheme (https:, mailto:) are not
 * followed: they leave on purpose.
 *
 * Links are read with a small scanner rather than a Markdown parser: these pages use plain inline links
 * only, and no parser is among the dependencies.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const README = join(ROOT, "README.md");
const DOCS = join(ROOT, "docs");
const MAX_README_LINES = 300;

/** Every Markdown page of docs/, in its folders too (docs/contract/). */
const docsPages = (dir = DOCS): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? docsPages(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
  );

const pages = (): string[] => [README, ...docsPages()];

/** The text without fenced code blocks, whose `# …` lines are comments, not headings. */
const withoutFences = (markdown: string): string => markdown.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[^\n]*$/gm, "");

/** The text without fenced code blocks and code spans, where `[a](b)` is code, not a link. */
const prose = (markdown: string): string => withoutFences(markdown).replace(/(`+)[\s\S]*?\1/g, "");

/** The targets of inline links `[text](target "title")` and images, and of reference definitions `[x]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1] ?? "");
  const defined = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? "");
  return [...inline, ...defined];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of withoutFences(readFileSync(file, "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug((m[1] ?? "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1"));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** What is wrong with `target` as a link from `file`, or undefined. */
function problem(file: string, target: string): string | undefined {
  if (target === "") return "an empty link";
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return /^(https?|mailto):/i.test(target) ? undefined : `a ${target.split(":")[0]}: link`;
  }
  if (target.startsWith("//") || isAbsolute(target)) return "an absolute path";
  const [path = "", anchor] = target.split("#", 2);
  const to = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
  const inside = relative(ROOT, to);
  if (inside.startsWith("..") || isAbsolute(inside)) return "a file outside the repository";
  if (!existsSync(to)) return "a file that does not exist";
  if (anchor !== undefined && to.endsWith(".md") && statSync(to).isFile() && !anchorsOf(to).has(anchor.toLowerCase())) {
    return `no heading #${anchor} in ${relative(ROOT, to)}`;
  }
  return undefined;
}

describe("the README as a front door", () => {
  it(`is at most ${MAX_README_LINES} lines`, () => {
    const lines = readFileSync(README, "utf8").replace(/\n$/, "").split("\n").length;
    expect(lines).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it("links, from the README and every page of docs/ (in its folders too), only to files inside the repository that exist", () => {
    const broken: string[] = [];
    let links = 0;
    for (const file of pages()) {
      for (const target of linkTargets(readFileSync(file, "utf8"))) {
        links++;
        const why = problem(file, target);
        if (why) broken.push(`${relative(ROOT, file)}: (${target}) is ${why}`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(20); // the scanner found the links (a scanner that finds none passes nothing)
  });

  it("links to every page of docs/ from the README", () => {
    const linked = new Set(
      linkTargets(readFileSync(README, "utf8"))
        .map((t) => t.split("#")[0] ?? "")
        .filter((t) => t.startsWith("docs/")),
    );
    const missing = readdirSync(DOCS)
      .filter((f) => f.endsWith(".md"))
      .filter((f) => !linked.has(`docs/${f}`));
    expect(missing).toEqual([]);
  });

  it("the scanner tells a link leaving the repository, a missing file and a missing heading from good links", () => {
    const sample = [
      "[notes](../elsewhere/NOTES.md) [ok](docs/deploy.md#stack-outputs) [gone](docs/nowhere.md)",
      "[bad anchor](docs/deploy.md#no-such-heading) [web](https://example.com) [abs](/etc/passwd)",
      "`[code](../not-a-link.md)`",
      "```",
      "[fenced](../not-a-link-either.md)",
      "```",
    ].join("\n");
    const targets = linkTargets(sample);
    expect(targets).toEqual([
      "../elsewhere/NOTES.md",
      "docs/deploy.md#stack-outputs",
      "docs/nowhere.md",
      "docs/deploy.md#no-such-heading",
      "https://example.com",
      "/etc/passwd",
    ]);
    expect(targets.map((t) => problem(README, t))).toEqual([
      "a file outside the repository",
      undefined,
      "a file that does not exist",
      "no heading #no-such-heading in docs/deploy.md",
      undefined,
      "an absolute path",
    ]);
    expect(slug("`sam local invoke` on the synthesized template")).toBe("sam-local-invoke-on-the-synthesized-template");
    expect(slug("Users, accounts and the first super admin")).toBe("users-accounts-and-the-first-super-admin");
  });
});
