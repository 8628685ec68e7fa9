/**
 * `npm run bench`: what a user of the API waits for, measured on this machine. A script, not a test: it
 * starts what it needs (cdk synth when cdk.out is stale; the local stack on free ports, DynamoDB in
 * memory), measures each figure beside its floor from the same run, prints one table (progress goes to
 * stderr) and writes the same rows to `bench-results.json`. Exits 1 when a row is over its budget.
 *
 *   npm run bench                              # every measure
 *   npm run bench -- --quick                   # fewer rounds and runs, for iterating; the same budgets
 *   npm run bench -- --only=requests,gateway   # some measures (names as in report.ts)
 *   npm run bench -- --only=bundles,cold --functions=scim/authorizer,institutions/create   # some functions' rows
 *
 * Each measure is one module, with its budget as a named constant: bundles.ts, requests.ts, gateway.ts,
 * cold.ts, growth.ts, export.ts, exports.ts, webhooks.ts; sso.ts adds the SSO sign-in's round trips to the requests measure, composition.ts adds the bundles' contents to the bundles measure. The console's measure (console.ts, when present) is run too.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { localHandlerEnv, MEASUREMENT_BOUNDS } from "../infra/local/env.js";
import { ROOT } from "../infra/local/services.js";
import { LOCAL_DIR, startLocalStack } from "../infra/local/stack.js";
import { inProcessGateway, RequestMeter } from "./harness.js";
import { MEASURES, type Measure, type Row, renderTable, verdict, writeResults } from "./report.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const unknown = only?.filter((m) => !(m in MEASURES));
if (unknown?.length) throw new Error(`--only: no measure ${unknown.join(", ")} (there are ${Object.keys(MEASURES).join(", ")})`);
const want = (m: Measure) => !only || only.includes(m);
/** The bundles and cold measures for these functions only (names as in the bench's rows). */
const functions = args
  .find((a) => a.startsWith("--functions="))
  ?.slice("--functions=".length)
  .split(",");
const pick = <T extends { name: string }>(all: T[]): T[] => {
  const missing = functions?.filter((f) => !all.some((b) => b.name === f));
  if (missing?.length) throw new Error(`--functions: no function ${missing.join(", ")}`);
  return functions ? all.filter((b) => functions.includes(b.name)) : all;
};

/** Console budgets (the console's own measure is bench/console.ts). */
export const CONSOLE_FIRST_PAGE_MS = 1_500;
export const CONSOLE_ASSETS_GZIP_KB = 600;
const CONSOLE_MODULE = join(ROOT, "bench/console.ts");

const started = Date.now();
const log = (s: string) => process.stderr.write(`${s}\n`);
const step = (s: string) => log(`[bench ${((Date.now() - started) / 1000).toFixed(0)} s] ${s}`);

/** A measure that fails becomes one `over` row with its error, and the run goes on with the next. */
async function measure(rows: Row[], m: Measure, fn: () => Promise<Row[]>): Promise<void> {
  if (!want(m)) return;
  step(MEASURES[m]);
  try {
    rows.push(...(await fn()));
  } catch (err) {
    log((err as Error).stack ?? String(err));
    rows.push({
      measure: m,
      subject: "(failed)",
      figure: "error",
      value: String(err).slice(0, 160),
      floor: "—",
      budget: "runs",
      verdict: "over",
    });
  }
}

/** Each run keeps its data and service logs under `.local/bench/<run>/`; the three newest are kept. */
function runDir(): string {
  const dir = join(LOCAL_DIR, "bench");
  mkdirSync(dir, { recursive: true });
  const runs = readdirSync(dir)
    .filter((d) => /^\d{8}-\d{6}-\d+$/.test(d))
    .sort();
  for (const d of runs.slice(0, Math.max(0, runs.length - 2))) rmSync(join(dir, d), { recursive: true, force: true });
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  return join(dir, `${stamp.slice(0, 8)}-${stamp.slice(8)}-${process.pid}`);
}

async function main(): Promise<number> {
  const dataDir = runDir();
  const rows: Row[] = [];
  const load = [loadavg()[0] ?? 0];

  // Before the stack starts, so that DynamoDB Local's Java does not compete for the cores with the imports.
  await measure(rows, "bundles", async () => {
    const { measureBundles, bundleRows, clientRows, bundles } = await import("./bundles.js");
    const { measureComposition, compositionRows } = await import("./composition.js");
    const results = await measureBundles(join(dataDir, "bundles"), { ...(quick && { rounds: 3 }), log, pick });
    const composition = await measureComposition(join(dataDir, "composition"), pick(bundles()));
    return [...bundleRows(results), ...clientRows(results), ...compositionRows(composition)];
  });

  if ((["requests", "gateway", "cold", "growth", "export", "exports"] as const).some(want)) {
    step("starting the local stack (DynamoDB Local in memory, cognito-local, SES, s3rver, gateway)");
    const stack = await startLocalStack({
      dataDir,
      persistent: false,
      tablePrefix: "bench",
      // No stream consumer, export worker or retrier in the gateway: no measure uses them, and the consumer
      // reading the stream of the events seeded by the thousand would compete for the cores with the measures.
      handlerEnv: { LOCAL_WORKERS: "" },
    });
    try {
      // shared/config.ts reads these at import: every module that imports shared/ is loaded after this.
      Object.assign(process.env, localHandlerEnv(stack), MEASUREMENT_BOUNDS, {
        // The table goes to stdout; handlers run in this process must not log a line per request there.
        POWERTOOLS_LOG_LEVEL: "WARN",
        MAIL_FROM: "no-reply@institution-admin.local",
        APP_BASE_URL: "http://app.local",
      });
      delete process.env.AWS_SESSION_TOKEN;
      delete process.env.AWS_PROFILE;
      const { dynamo } = await import("../shared/clients.js");
      const meter = new RequestMeter(dynamo);
      const gateway = await inProcessGateway(stack);
      try {
        await measure(rows, "requests", async () => {
          const { measureRequests, requestRows } = await import("./requests.js");
          return requestRows(await measureRequests(stack, gateway, meter, log));
        });
        await measure(rows, "requests", async () => {
          const { measureSso, ssoRows } = await import("./sso.js");
          return ssoRows(await measureSso(stack, gateway, meter, log));
        });
        await measure(rows, "gateway", async () => {
          const { measureGateway, gatewayRows } = await import("./gateway.js");
          return gatewayRows(await measureGateway(stack, { ...(quick && { rounds: 60 }), log }));
        });
        await measure(rows, "cold", async () => {
          const { buildReference, ensureSynth } = await import("./bundles.js");
          const { measureCold, coldRows, memoryRows } = await import("./cold.js");
          ensureSynth(step);
          const reference = await buildReference(join(dataDir, "cold"));
          const cold = await measureCold(stack, gateway.url, reference, { ...(quick && { rounds: 3 }), log, pick });
          return [...coldRows(cold), ...memoryRows(cold)];
        });
        await measure(rows, "growth", async () => {
          const { measureGrowth, growthRows } = await import("./growth.js");
          return growthRows(await measureGrowth(stack, gateway, meter, { ...(quick && { rounds: 50 }), log }));
        });
        await measure(rows, "export", async () => {
          const { ensureSynth } = await import("./bundles.js");
          const { measureExport, exportRows } = await import("./export.js");
          ensureSynth(step);
          return exportRows(await measureExport(join(dataDir, "export"), stack, { ...(quick && { runs: 1 }), log }));
        });
        await measure(rows, "exports", async () => {
          const { ensureSynth } = await import("./bundles.js");
          const { measureExports, exportsRows } = await import("./exports.js");
          ensureSynth(step);
          return exportsRows(await measureExports(join(dataDir, "exports"), stack, { log }));
        });
        if (want("requests")) rows.push((await import("./requests.js")).scanRow(meter));
      } finally {
        await gateway.close();
        meter.remove();
        dynamo.destroy();
      }
    } finally {
      step("stopping the local stack");
      await stack.stop();
    }
  }

  // Its own stack, with the stream consumer and the retrier that the stack above leaves out.
  await measure(rows, "webhooks", async () => {
    const { measureWebhooks, webhookRows, webhooksDataDir } = await import("./webhooks.js");
    return webhookRows(await measureWebhooks(webhooksDataDir(dataDir), { ...(quick && { rounds: 8 }), log }));
  });

  // Optional until the console's measure lands: it runs when its module is there.
  if (existsSync(CONSOLE_MODULE)) {
    await measure(rows, "console", async () => {
      type Figures = { firstPageMs: number; chromiumCpuMs: number; mainThreadMs: number; jsGzipKb: number; cssGzipKb: number };
      const { measureConsole } = (await import(pathToFileURL(CONSOLE_MODULE).href)) as { measureConsole: () => Promise<Figures> };
      const c = await measureConsole();
      const assets = c.jsGzipKb + c.cssGzipKb;
      return [
        {
          measure: "console",
          subject: "console",
          figure: "first page, empty cache",
          // Beside the wall time, the CPU time Chromium spent on it: on a shared machine the wall time is only
          // as good as the share of the CPU it got.
          value: `${c.firstPageMs.toFixed(0)} ms (Chromium CPU ${c.chromiumCpuMs.toFixed(0)} ms, main thread ${c.mainThreadMs.toFixed(0)} ms)`,
          floor: "—",
          budget: `≤ ${CONSOLE_FIRST_PAGE_MS} ms`,
          verdict: verdict(c.firstPageMs <= CONSOLE_FIRST_PAGE_MS),
          data: { ...c },
        },
        {
          measure: "console",
          subject: "console",
          figure: "JS + CSS gzipped",
          value: `${assets.toFixed(0)} KB (JS ${c.jsGzipKb.toFixed(0)}, CSS ${c.cssGzipKb.toFixed(0)})`,
          floor: "—",
          budget: `≤ ${CONSOLE_ASSETS_GZIP_KB} KB`,
          verdict: verdict(assets <= CONSOLE_ASSETS_GZIP_KB),
          data: { ...c },
        },
      ];
    });
  }

  load.push(loadavg()[0] ?? 0);
  const seconds = (Date.now() - started) / 1000;
  const over = rows.filter((r) => r.verdict === "over").length;
  process.stdout.write(`${renderTable(rows)}\n\n`);
  process.stdout.write(
    `${rows.length} rows: ${rows.length - over} within, ${over} over. ${seconds.toFixed(0)} s on ${cpus().length} cores ` +
      `(load ${load.map((l) => l.toFixed(1)).join(" → ")}), Node ${process.version}${quick ? ", --quick" : ""}.\n`,
  );
  writeResults(
    join(ROOT, "bench-results.json"),
    {
      generatedAt: new Date().toISOString(),
      durationSeconds: seconds,
      quick,
      machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverage: load },
    },
    rows,
  );
  step("wrote bench-results.json");
  return over === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error((err as Error).stack ?? err);
    process.exit(2);
  },
);
