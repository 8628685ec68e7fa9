/**
 * What each bundle is made of: every function bundled again with the stack's esbuild options and its own
 * `define` (test/support/bundle.ts), and esbuild's metafile read for the bytes each input leaves in the
 * output. One row per function with its ten largest inputs, and one row for the packages bundled in more
 * than one copy (two paths under node_modules for one package name, in any bundle).
 *
 * Reads no environment at import: it runs before the local stack exists.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Metafile } from "esbuild";
import { bundlingDefine } from "../infra/api-function.js";
import { ROOT } from "../infra/local/services.js";
import { handlers } from "../shared/routes.js";
import { bundleAsDeployed } from "../test/support/bundle.js";
import type { Bundle } from "./bundles.js";
import { fmtBytes, type Row, verdict } from "./report.js";

export const TOP_INPUTS = 10;

export interface Input {
  /** `@aws-sdk/core/dist-es/…` for a package file, the project path for ours. */
  readonly path: string;
  /** Bytes it leaves in the minified output. */
  readonly bytes: number;
}

export interface Composition {
  readonly name: string;
  /** The rebuilt bundle's size: it must match cdk.out's, else these inputs describe another bundle. */
  readonly bytes: number;
  readonly deployedBytes: number;
  readonly inputs: Input[];
  /** Package name → the node_modules directories it was bundled from. */
  readonly packages: Record<string, string[]>;
}

/** `node_modules/@smithy/core/dist-es/x.js` → `@smithy/core`, with its directory (nested copies differ). */
function packageOf(path: string): { name: string; dir: string } | undefined {
  const m = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(path);
  return m ? { name: m[2] as string, dir: m[1] as string } : undefined;
}

const shortPath = (path: string) => path.replace(/^.*node_modules\//, "");

function compose(name: string, metafile: Metafile, deployedBytes: number): Composition {
  const output = Object.entries(metafile.outputs).find(([file]) => file.endsWith(".mjs"))?.[1];
  if (!output) throw new Error(`${name}: no output in the metafile`);
  const inputs = Object.entries(output.inputs)
    .map(([path, i]) => ({ path: shortPath(path), bytes: i.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  const packages: Record<string, string[]> = {};
  for (const path of Object.keys(output.inputs)) {
    const p = packageOf(path);
    if (!p) continue;
    const dirs = packages[p.name] ?? [];
    if (!dirs.includes(p.dir)) dirs.push(p.dir);
    packages[p.name] = dirs;
  }
  return { name, bytes: output.bytes, deployedBytes, inputs, packages };
}

/** Rebuilds each bundle with its metafile; `define` as the stack gives it (api-function.ts) to API functions. */
export async function measureComposition(dir: string, targets: readonly Bundle[]): Promise<Composition[]> {
  const api = handlers();
  const out: Composition[] = [];
  for (const b of targets) {
    const access = api.get(b.name);
    const metafile = await bundleAsDeployed({
      entryPoints: [join(ROOT, "functions", `${b.name}.ts`)],
      outfile: join(dir, b.name, "index.mjs"),
      // The authorizers (no route of their own) are bundled without the middleware too, as api-function.ts does.
      define: bundlingDefine(access?.idempotency === true),
    });
    out.push(compose(b.name, metafile, statSync(b.file).size));
  }
  return out;
}

/** One row per function: its ten largest inputs; then the packages bundled twice. */
export function compositionRows(results: readonly Composition[]): Row[] {
  const rows: Row[] = results.map((c) => {
    const top = c.inputs.slice(0, TOP_INPUTS);
    // Within 1%: the rebuilt bundle is the deployed one (the banner and paths may differ by a few bytes).
    const same = Math.abs(c.bytes - c.deployedBytes) <= c.deployedBytes * 0.01;
    return {
      measure: "bundles",
      subject: c.name,
      figure: `${TOP_INPUTS} largest inputs`,
      value: top.map((i) => `${i.path} ${fmtBytes(i.bytes)}`).join(", "),
      floor: "—",
      budget: "rebuilt = deployed size",
      verdict: verdict(same),
      data: { bytes: c.bytes, deployedBytes: c.deployedBytes, top, inputs: c.inputs.length },
    };
  });
  const copies = new Map<string, Set<string>>();
  for (const c of results)
    for (const [name, dirs] of Object.entries(c.packages)) for (const d of dirs) copies.set(name, (copies.get(name) ?? new Set()).add(d));
  const twice = [...copies].filter(([, dirs]) => dirs.size > 1);
  rows.push({
    measure: "bundles",
    subject: "every function",
    figure: "packages bundled from two directories",
    value:
      twice.length === 0
        ? "none"
        : twice.map(([name, dirs]) => `${name} (${[...dirs].map((d) => d.replace(/^node_modules\//, "")).join(" | ")})`).join(", "),
    floor: "—",
    budget: "none",
    verdict: verdict(twice.length === 0),
    data: Object.fromEntries(twice.map(([name, dirs]) => [name, [...dirs]])),
  });
  return rows;
}
