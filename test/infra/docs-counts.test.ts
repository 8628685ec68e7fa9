/**
 * Figures in the docs are derived, never copied by hand (issue 41): the number of Lambda functions, CloudWatch
 * alarms and stack outputs is counted in the synthesized app, dev and prod, over every template of it (the API
 * stack, any stack split from it, such as a monitoring stack, and nested stacks), and each page of README.md and docs/ that
 * names such a count names that one. CDK's own outputs of cross-stack references (`ExportsOutput…`), and a nested
 * stack's outputs (which only its parent reads), are plumbing, not outputs an operator reads, and are left out.
 *
 * A count is found where a page writes it as a number before its noun: "87 alarms", "**87 CloudWatch alarms**",
 * "15 outputs", "43 Lambda functions". Spelled-out counts ("fourteen outputs") are refused, since no test could
 * hold them. The alarm table of operations.md adds up to the alarm count.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { App } from "aws-cdk-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { defineApp } from "../../infra/app.js";
import { consoleBuild, type Json, newApp } from "./support.js";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGES = [
  join(ROOT, "README.md"),
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(ROOT, "docs", f)),
];

interface Counts {
  readonly functions: number;
  readonly alarms: number;
  readonly outputs: number;
  readonly stacks: readonly string[];
}

/** Every stack of the app, as `cdk synth` writes them to cdk.out (CDK's CloudFormation validation skipped). */
function countsOf(app: App): Counts {
  const previous = process.env.CDK_VALIDATION;
  process.env.CDK_VALIDATION = "false";
  try {
    const assembly = app.synth();
    // Every template the assembly holds: each stack's, and any nested stack's (`*.nested.template.json`).
    const files = readdirSync(assembly.directory).filter((f) => f.endsWith(".template.json"));
    expect(files).toEqual(expect.arrayContaining(assembly.stacks.map((s) => s.templateFile)));
    let functions = 0;
    let alarms = 0;
    let outputs = 0;
    for (const file of files) {
      const template = JSON.parse(readFileSync(join(assembly.directory, file), "utf8")) as Json;
      for (const resource of Object.values<Json>(template.Resources ?? {})) {
        if (resource.Type === "AWS::Lambda::Function") functions++;
        if (resource.Type === "AWS::CloudWatch::Alarm") alarms++;
      }
      // A nested stack's outputs are read by its parent only: plumbing as well.
      if (!file.endsWith(".nested.template.json")) {
        outputs += Object.keys(template.Outputs ?? {}).filter((key) => !key.startsWith("ExportsOutput")).length;
      }
    }
    return { functions, alarms, outputs, stacks: assembly.stacks.map((s) => s.stackName) };
  } finally {
    if (previous === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = previous;
  }
}

/** The app `cdk synth` makes (infra/app.ts), offline (no account, no region), for one environment. */
function synthesizedApp(env: "dev" | "prod"): Counts {
  const app = newApp();
  app.node.setContext("env", env);
  defineApp(app, { env: {}, consoleAssetDir: consoleBuild() });
  return countsOf(app);
}

const KINDS = {
  alarms: /\*{0,2}(\d[\d,]*)\*{0,2}\s+(?:CloudWatch\s+)?alarms\b/g,
  outputs: /\b(\d[\d,]*)\s+(?:stack\s+)?outputs\b/g,
  functions: /\b(\d[\d,]*)\s+Lambda functions\b/g,
} as const;

const SPELLED =
  /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-\w+)?\s+(?:CloudWatch\s+)?(?:alarms|outputs|Lambda functions)\b/gi;

/** Every count of `kind` the pages name: [page, number]. */
function named(kind: keyof typeof KINDS): [string, number][] {
  return PAGES.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(KINDS[kind])].map((m): [string, number] => [
      relative(ROOT, file),
      Number((m[1] ?? "").replace(/,/g, "")),
    ]),
  );
}

let dev: Counts;
let prod: Counts;

beforeAll(() => {
  dev = synthesizedApp("dev");
  prod = synthesizedApp("prod");
}, 180_000);

describe("the counts in the docs, derived from the synthesized app", () => {
  it("are the same in dev and prod (the docs say so)", () => {
    expect({ ...prod, stacks: [] }).toEqual({ ...dev, stacks: [] });
    expect(dev.stacks.length).toBeGreaterThanOrEqual(1);
  });

  for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
    it(`names the ${kind} count wherever it names one, and deploy.md names it`, () => {
      const found = named(kind);
      expect(found.filter(([page]) => page === "docs/deploy.md").length, `docs/deploy.md names no count of ${kind}`).toBeGreaterThan(0);
      expect(found.filter(([, n]) => n !== dev[kind])).toEqual([]);
    });
  }

  it("spells no count out in words", () => {
    const spelled = PAGES.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(SPELLED)].map((m) => `${relative(ROOT, file)}: ${m[0]}`),
    );
    expect(spelled).toEqual([]);
  });

  it("adds operations.md's alarm table up to the alarm count", () => {
    const page = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
    const section = page.slice(page.indexOf("## Alarms"), page.indexOf("\n## ", page.indexOf("## Alarms") + 1));
    const rows = [...section.matchAll(/^\|[^\n]*\|\s*(\d+)\s*\|\s*$/gm)].map((m) => Number(m[1]));
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.reduce((a, b) => a + b, 0)).toBe(dev.alarms);
  });

  it("the scanner reads counts as the pages write them", () => {
    const sample = "**87 CloudWatch alarms** and **87 alarms**; the same 15 outputs; 43 Lambda functions; an alarm";
    expect([...sample.matchAll(KINDS.alarms)].map((m) => m[1])).toEqual(["87", "87"]);
    expect([...sample.matchAll(KINDS.outputs)].map((m) => m[1])).toEqual(["15"]);
    expect([...sample.matchAll(KINDS.functions)].map((m) => m[1])).toEqual(["43"]);
    expect("the same fourteen outputs".match(SPELLED)).toEqual(["fourteen outputs"]);
  });
});
