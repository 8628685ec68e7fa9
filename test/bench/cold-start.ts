/**
 * Section 4: every bundled function of `cdk synth` (cdk.out), its size and the time to import it in a fresh
 * Node process, against a reference bundle that holds only the DynamoDB DocumentClient and one GetItem,
 * built by esbuild with the stack's own bundling options. Every import runs with a preload that records
 * socket connects, DNS lookups and UDP sends: nothing at module scope may touch the network.
 *
 * No shared/ module is imported here, so this runs before the local stack exists.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { ROOT } from "../../infra/local/services.js";
import { type Row, verdict } from "./report.js";
import { fmtBytes, fmtMs, fmtRatio, median } from "./stats.js";

/** Section 4 budget: size and import time, each relative to the reference bundle. */
export const COLD_RATIO = 1.2;
/**
 * Pairs per bundle. The ratio is of fastest imports, so a bundle is misjudged only when every one of its
 * imports meets a busy moment: with 11 that still happened (1.20× for a bundle that measured 1.06×, and
 * 1.25–1.54× for four bundles in a run whose imports took 50–99 ms instead of 48–55 ms).
 */
export const ROUNDS = 21;

const CDK_OUT = join(ROOT, "cdk.out");
const TEMPLATE = join(CDK_OUT, "InstitutionAdminApi.template.json");

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Runs `cdk synth` when cdk.out is missing or older than anything it is built from. */
export function ensureSynth(log: (s: string) => void): { synthesized: boolean; seconds: number } {
  const sources = ["functions", "shared", "infra/stack.ts", "infra/app.ts", "package-lock.json", "cdk.json", "tsconfig.json"];
  const newestSource = Math.max(...sources.map((s) => newestMtime(join(ROOT, s))));
  const built = existsSync(TEMPLATE) ? statSync(TEMPLATE).mtimeMs : 0;
  if (built >= newestSource) return { synthesized: false, seconds: 0 };
  log(built === 0 ? "cdk.out is missing: running cdk synth (~40 s)" : "cdk.out is older than the sources: running cdk synth (~40 s)");
  const t0 = Date.now();
  const res = spawnSync("npx", ["cdk", "synth", "--quiet"], { cwd: ROOT, encoding: "utf8", env: process.env });
  if (res.status !== 0) throw new Error(`cdk synth failed (${res.status}):\n${res.stderr}\n${res.stdout}`);
  return { synthesized: true, seconds: (Date.now() - t0) / 1000 };
}

export interface Bundle {
  readonly name: string;
  readonly file: string;
}

/** The functions of the synthesized template, each with its bundle (`asset.<hash>/index.mjs`). */
export function bundles(): Bundle[] {
  const template = JSON.parse(readFileSync(TEMPLATE, "utf8")) as {
    Resources: Record<string, { Type: string; Metadata?: Record<string, string>; Properties?: { Description?: string } }>;
  };
  const out: Bundle[] = [];
  for (const r of Object.values(template.Resources)) {
    if (r.Type !== "AWS::Lambda::Function") continue;
    const asset = r.Metadata?.["aws:asset:path"];
    const name = r.Properties?.Description?.split(":")[0];
    if (!asset || !name) continue;
    out.push({ name, file: join(CDK_OUT, asset, "index.mjs") });
  }
  if (out.length === 0) throw new Error(`no functions in ${TEMPLATE}`);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const REFERENCE_SOURCE = `
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () =>
  (await db.send(new GetCommand({ TableName: process.env.MAIN_TABLE, Key: { pk: "x", sk: "y" } }))).Item ?? null;
`;

/** The reference: the DocumentClient alone, bundled with the options of infra/stack.ts. */
export async function buildReference(dir: string): Promise<Bundle> {
  const { BUNDLING, ESBUILD_TARGET } = await import("../../infra/stack.js");
  const file = join(dir, "reference", "index.mjs");
  await build({
    stdin: { contents: REFERENCE_SOURCE, resolveDir: ROOT, loader: "ts", sourcefile: "reference.ts" },
    bundle: true,
    platform: "node",
    target: ESBUILD_TARGET,
    format: "esm",
    outfile: file,
    minify: BUNDLING.minify,
    sourcemap: BUNDLING.sourceMap,
    sourcesContent: BUNDLING.sourcesContent,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner },
    external: BUNDLING.externalModules,
    logLevel: "error",
  });
  return { name: "reference (DocumentClient only)", file };
}

const GUARD = `
import net from "node:net";
import dns from "node:dns";
import dgram from "node:dgram";
const calls = [];
globalThis.__benchNetCalls = calls;
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = args[0];
  calls.push({ kind: "connect", target: typeof o === "object" && o ? String(o.host ?? o.path ?? "") + ":" + String(o.port ?? "") : String(o) });
  return connect.apply(this, args);
};
for (const [obj, label] of [[dns, "dns.lookup"], [dns.promises, "dns.promises.lookup"]]) {
  const lookup = obj.lookup;
  obj.lookup = function (host, ...rest) {
    calls.push({ kind: label, target: String(host) });
    return lookup.call(this, host, ...rest);
  };
}
const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (...args) {
  calls.push({ kind: "udp", target: "" });
  return send.apply(this, args);
};
`;

const probe = (url: string, settle: boolean) => `
const t = process.hrtime.bigint();
await import(${JSON.stringify(url)});
const ms = Number(process.hrtime.bigint() - t) / 1e6;
${settle ? "await new Promise((r) => setTimeout(r, 150));" : ""}
process.stdout.write(JSON.stringify({ ms, net: globalThis.__benchNetCalls ?? null }));
`;

/** The environment a deployed function has, minus anything pointing at this machine. */
function lambdaEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    AWS_REGION: "us-east-1",
    AWS_DEFAULT_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "ASIABENCHBENCHBENCH0",
    AWS_SECRET_ACCESS_KEY: "bench",
    AWS_SESSION_TOKEN: "bench",
    AWS_LAMBDA_FUNCTION_NAME: "bench",
    MAIN_TABLE: "bench-main",
    EVENTS_TABLE: "bench-events",
    MAIL_FROM: "no-reply@example.com",
    APP_BASE_URL: "https://app.example.com",
    NODE_OPTIONS: "--enable-source-maps",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}

interface Probe {
  ms: number;
  net: { kind: string; target: string }[] | null;
}

function runProbe(file: string, guard: string, settle: boolean): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", pathToFileURL(guard).href, "--input-type=module", "-e", probe(pathToFileURL(file).href, settle)],
      {
        env: lambdaEnv(),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`import of ${file} failed (${code}): ${err.slice(0, 2000)}`));
      else resolve(JSON.parse(out) as Probe);
    });
  });
}

export interface ColdResult {
  readonly name: string;
  readonly bytes: number;
  readonly importMs: number;
  /** The fastest import. */
  readonly bestMs: number;
  /** This bundle's fastest import over the fastest of the reference imports paired with it (see `measureColdStarts`). */
  readonly timeRatio: number;
  /** The median of the pairs' ratios (shown in the JSON: on a busy machine it moves by ±15% from run to run). */
  readonly pairMedianRatio: number;
  readonly runs: number[];
  readonly network: { kind: string; target: string }[];
}

/**
 * `rounds` imports of each bundle, each right after an import of the reference (a pair), the bundles in a
 * new random order every round. Import times on this shared machine are bimodal (~65 ms, or ~95 ms when
 * the host is busy), and a pair now and then straddles the two: the median of the pairs' ratios read 1.05×
 * in one run and 1.22× in the next for the same bundle. The time ratio is therefore the fastest import of
 * the bundle over the fastest of its paired reference imports (best of N, the usual estimator of a fixed
 * cost under noise that only ever adds); the pairs' median is kept in the JSON. The first round waits a
 * moment after each import, so that anything a module starts at load has time to reach the network guard.
 */
export async function measureColdStarts(
  dir: string,
  opts: { rounds?: number; log?: (s: string) => void } = {},
): Promise<{ reference: ColdResult; functions: ColdResult[] }> {
  mkdirSync(dir, { recursive: true });
  const guard = join(dir, "net-guard.mjs");
  writeFileSync(guard, GUARD);
  const reference = await buildReference(dir);
  const targets = bundles();
  const refRuns: number[] = [];
  const refNetwork: ColdResult["network"] = [];
  const runs = targets.map(() => [] as number[]);
  const ratios = targets.map(() => [] as number[]);
  const pairedRef = targets.map(() => [] as number[]);
  const network = targets.map(() => [] as ColdResult["network"]);
  const rounds = opts.rounds ?? ROUNDS;
  const probeOf = async (file: string, settle: boolean) => {
    const p = await runProbe(file, guard, settle);
    if (p.net === null) throw new Error("the network guard did not load");
    return { ms: p.ms, net: p.net };
  };
  for (let r = 0; r < rounds; r++) {
    const order = targets.map((_, i) => i);
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(Math.random() * (k + 1));
      [order[k], order[j]] = [order[j] as number, order[k] as number];
    }
    for (const i of order) {
      const ref = await probeOf(reference.file, r === 0);
      const fn = await probeOf((targets[i] as Bundle).file, r === 0);
      refRuns.push(ref.ms);
      refNetwork.push(...ref.net);
      (runs[i] as number[]).push(fn.ms);
      (ratios[i] as number[]).push(fn.ms / ref.ms);
      (pairedRef[i] as number[]).push(ref.ms);
      (network[i] as ColdResult["network"]).push(...fn.net);
    }
  }
  const ref: ColdResult = {
    name: reference.name,
    bytes: statSync(reference.file).size,
    importMs: median(refRuns),
    bestMs: Math.min(...refRuns),
    timeRatio: 1,
    pairMedianRatio: 1,
    runs: refRuns,
    network: refNetwork,
  };
  const functions = targets.map(
    (b, i): ColdResult => ({
      name: b.name,
      bytes: statSync(b.file).size,
      importMs: median(runs[i] as number[]),
      bestMs: Math.min(...(runs[i] as number[])),
      timeRatio: Math.min(...(runs[i] as number[])) / Math.min(...(pairedRef[i] as number[])),
      pairMedianRatio: median(ratios[i] as number[]),
      runs: runs[i] as number[],
      network: network[i] as ColdResult["network"],
    }),
  );
  for (const f of functions) {
    opts.log?.(
      `  ${f.name.padEnd(24)} ${fmtBytes(f.bytes).padStart(10)} (${fmtRatio(f.bytes / ref.bytes)})  best ${fmtMs(f.bestMs)} (${fmtRatio(f.timeRatio)})`,
    );
  }
  return { reference: ref, functions };
}

export function coldRows(res: { reference: ColdResult; functions: ColdResult[] }): Row[] {
  const ref = res.reference;
  const rows: Row[] = res.functions.map((f) => {
    const sizeRatio = f.bytes / ref.bytes;
    const timeRatio = f.timeRatio;
    const ok = sizeRatio <= COLD_RATIO && timeRatio <= COLD_RATIO && f.network.length === 0;
    return {
      section: 4,
      endpoint: f.name,
      figure: "size; import; network",
      value: `${fmtBytes(f.bytes)} (${fmtRatio(sizeRatio)}); best ${fmtMs(f.bestMs)} (${fmtRatio(timeRatio)}); ${f.network.length}`,
      floor: `${fmtBytes(ref.bytes)}; best ${fmtMs(ref.bestMs)}`,
      budget: `≤ ${COLD_RATIO}×; ≤ ${COLD_RATIO}×; 0`,
      verdict: verdict(ok),
      data: {
        bytes: f.bytes,
        importMs: f.importMs,
        bestMs: f.bestMs,
        runs: f.runs,
        sizeRatio,
        timeRatio,
        pairMedianRatio: f.pairMedianRatio,
        network: f.network,
      },
    };
  });
  rows.push({
    section: 4,
    endpoint: "reference bundle",
    figure: "network at import",
    value: String(ref.network.length),
    floor: "—",
    budget: "0",
    verdict: verdict(ref.network.length === 0),
    data: { bytes: ref.bytes, importMs: ref.importMs, bestMs: ref.bestMs, runs: ref.runs, network: ref.network },
    note: `${res.functions[0]?.runs.length ?? 0} imports of each bundle, each in a fresh node process right after one of the reference (time ratio: the bundle's best import over the best of its paired reference imports; the pairs' median ratio is in the JSON), NODE_OPTIONS=--enable-source-maps as deployed; reference = DynamoDBDocumentClient + one GetItem, same esbuild options.`,
  });
  return rows;
}
