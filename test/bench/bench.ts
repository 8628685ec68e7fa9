/**
 * `npm run bench`: the measured performance contract of issue 5. A script, not a test: it starts what it
 * needs (cdk synth when cdk.out is missing or stale; the local stack on free ports with DynamoDB in
 * memory), measures each figure side by side with its floor in the same run, prints one table (progress
 * goes to stderr) and writes the same figures to `bench-results.json`. Exit code 1 when a row is over.
 *
 *   npm run bench                  # everything (about ten minutes on 2 cores)
 *   npm run bench -- --quick       # fewer calls and rounds, for iterating; the budgets are the same
 *   npm run bench -- --sections=1,2,3
 *   npm run bench -- --sections=2 --only=invitations/create
 *
 * Budgets live next to what they judge: endpoints.ts (1, 2), gateway-e2e.ts (3), cold-start.ts (4),
 * growth.ts (5), export.ts (6).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { issueToken } from "../../infra/local/cognito.js";
import { ROOT } from "../../infra/local/services.js";
import { LOCAL_DIR, type LocalStack, startLocalStack } from "../../infra/local/stack.js";
import { coldRows, ensureSynth, measureColdStarts } from "./cold-start.js";
import { type Row, renderTable, SECTIONS, verdict } from "./report.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const sectionsArg = args.find((a) => a.startsWith("--sections="))?.split("=")[1];
const sections = new Set((sectionsArg ?? "1,2,3,4,5,6").split(",").map(Number));
const want = (s: number) => sections.has(s);
/** `--only=invitations/` measures sections 1 and 2 for the handlers whose path matches (iterating on a few). */
const onlyArg = args.find((a) => a.startsWith("--only="))?.split("=")[1];
/** `--quick` warms each handler up less: its section 2 figures lie between `early` and the steady state. */
const QUICK_WARMUP = 300;

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const log = (s: string) => process.stderr.write(`${s}\n`);
const step = (s: string) => log(`[bench ${elapsed()}] ${s}`);

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/** A section that fails becomes one `over` row with its error, and the run goes on with the next one. */
async function section(rows: Row[], n: number, what: string, fn: () => Promise<Row[]>): Promise<void> {
  step(what);
  try {
    rows.push(...(await fn()));
  } catch (err) {
    log((err as Error).stack ?? String(err));
    rows.push({
      section: n,
      endpoint: "(section failed)",
      figure: "error",
      value: String((err as Error).message ?? err).slice(0, 120),
      floor: "—",
      budget: "runs",
      verdict: "over",
    });
  }
}

/** Data and service logs of the three newest runs are kept under `.local/bench/` for reading after a run. */
function pruneRuns(dir: string, keep = 3): void {
  mkdirSync(dir, { recursive: true });
  const runs = readdirSync(dir)
    .filter((d) => /^\d{8}-\d{6}-\d+$/.test(d))
    .sort();
  for (const d of runs.slice(0, Math.max(0, runs.length - keep))) rmSync(join(dir, d), { recursive: true, force: true });
}

async function main(): Promise<number> {
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  pruneRuns(join(LOCAL_DIR, "bench"));
  const dataDir = join(LOCAL_DIR, "bench", `${stamp.slice(0, 8)}-${stamp.slice(8)}-${process.pid}`);
  const rows: Row[] = [];
  const load = [loadavg()[0] ?? 0];
  let synth = { synthesized: false, seconds: 0 };

  if (want(4) || want(6)) {
    synth = ensureSynth(step);
    if (synth.synthesized) step(`cdk synth took ${synth.seconds.toFixed(0)} s`);
  }
  // Before the stack starts, so that its Java and Node processes are not competing for the two cores.
  if (want(4)) {
    await section(rows, 4, "section 4: cold start of every bundled function", async () => {
      return coldRows(await measureColdStarts(join(dataDir, "cold"), { ...(quick && { rounds: 3 }), log }));
    });
  }

  step("starting the local stack (DynamoDB Local in memory, cognito-local, SES, gateway)");
  const stack: LocalStack = await startLocalStack({ dataDir, persistent: false, tablePrefix: "bench" });
  try {
    // shared/config.ts reads these at import: everything below that imports shared/ is loaded after this.
    Object.assign(process.env, {
      MAIN_TABLE: stack.tables.main,
      EVENTS_TABLE: stack.tables.events,
      DYNAMODB_ENDPOINT: stack.dynamodbEndpoint,
      SES_ENDPOINT: stack.sesEndpoint,
      AWS_REGION: stack.region,
      AWS_ACCESS_KEY_ID: "local",
      AWS_SECRET_ACCESS_KEY: "local",
      MAIL_FROM: "no-reply@institution-admin.local",
      APP_BASE_URL: "http://app.local",
    });
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;

    const { db, dynamo } = await import("../../shared/clients.js");
    const { ses } = await import("../../shared/mail.js");
    const { Meter } = await import("./meter.js");
    const { claimsOfToken } = await import("./apigw.js");
    const meter = new Meter([dynamo as never, db as never], ses as never);
    const endpoints = await import("./endpoints.js");
    meter.onMail = endpoints.readMailedToken;
    const plan = quick ? { calls: 100, warmup: QUICK_WARMUP, rounds: 1 } : endpoints.DEFAULT_PLAN;

    if (want(1) || want(2)) {
      await section(
        rows,
        2,
        `sections 1 and 2: every handler in-process, ${plan.calls} calls each after ${plan.warmup} warm-up calls, ${plan.rounds} interleaved round(s)`,
        async () => {
          const owner = await issueToken(stack, "bench-owner@bench.test", { superAdmin: true, account: "acct-bench", name: "Bench Owner" });
          const results = await endpoints.measureEndpoints(
            meter,
            { owner: claimsOfToken(owner) },
            { ...plan, ...(onlyArg && { only: new RegExp(onlyArg) }), log },
          );
          return endpoints.endpointRows(results, plan).filter((r) => want(r.section));
        },
      );
    }

    if (want(3)) {
      await section(rows, 3, "section 3: read endpoints end to end through the local gateway vs a bare GetItem", async () => {
        const { measureGateway, gatewayRows } = await import("./gateway-e2e.js");
        const token = await issueToken(stack, "bench-reader@bench.test", {
          superAdmin: true,
          account: "acct-bench-reader",
          name: "Bench Reader",
        });
        return gatewayRows(await measureGateway(stack, { token, claims: claimsOfToken(token) }, { ...(quick && { pairs: 100 }), log }));
      });
    }

    if (want(5)) {
      await section(rows, 5, "section 5: growth to 10x the data", async () => {
        const { measureGrowth, growthRows } = await import("./growth.js");
        return growthRows(await measureGrowth(meter, { ...(quick && { runs: 60 }), log }));
      });
    }

    if (want(6)) {
      await section(rows, 6, "section 6: export of 10,000 events", async () => {
        const { measureExport, exportRows } = await import("./export.js");
        return exportRows(await measureExport(join(dataDir, "export"), stack, { ...(quick && { runs: 1 }), log }));
      });
    }

    rows.push({
      section: 1,
      endpoint: "whole run (bench process)",
      figure: "Scans",
      value: `${meter.scans} of ${meter.totalRequests} DynamoDB requests`,
      floor: "—",
      budget: "0",
      verdict: verdict(meter.scans === 0),
    });
    meter.uninstall();
    dynamo.destroy();
    ses.destroy?.();
  } finally {
    step("stopping the local stack");
    await stack.stop();
  }

  rows.sort((a, b) => a.section - b.section);
  load.push(loadavg()[0] ?? 0);
  const over = rows.filter((r) => r.verdict === "over");
  process.stdout.write(`${renderTable(rows)}\n\n`);
  process.stdout.write(
    `${rows.length} rows: ${rows.length - over.length} within, ${over.length} over. ${elapsed()} on ${cpus().length} cores (load ${load.map((l) => l.toFixed(1)).join(" → ")}), Node ${process.version}${quick ? ", --quick" : ""}.\n`,
  );
  const results = {
    generatedAt: new Date().toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    quick,
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadAverage: load },
    synth,
    sections: SECTIONS,
    summary: { rows: rows.length, within: rows.length - over.length, over: over.length },
    rows,
  };
  writeFileSync(join(ROOT, "bench-results.json"), `${JSON.stringify(results, null, 2)}\n`);
  step(`wrote bench-results.json`);
  return over.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exit(code);
  },
  (err: unknown) => {
    console.error((err as Error).stack ?? err);
    process.exit(2);
  },
);
