/**
 * Full exports to S3 (docs/events-out.md), as AWS runs them: the export worker's bundle (cdk.out) in a fresh Node
 * process per export, invoked with the job `POST /security_events/exports` records, reading DynamoDB Local and
 * writing s3rver by multipart upload. 10,000 and 100,000 events, as CSV and as JSON Lines.
 *
 * Figures: throughput in rows per second (the handler's time, import excluded; the floor is bare paging
 * through the same events with the worker's page size and projection, in a fresh process of its own), and
 * the process's peak RSS (`maxRSS`, import included: what the function's memory size must hold). The
 * worker streams, so 100,000 rows must peak within `EXPORT_RSS_SLACK` of 10,000 rows (beyond what bare paging
 * grows by too): a worker that held the rows or the file would be far over.
 *
 * The events are seeded by BatchWriteItem in the audit trail's own item shape (`eventItems`, keys from
 * shared/tables.ts), not through the API: 110,000 events in about a minute.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { localHandlerEnv } from "../infra/local/env.js";
import type { LocalStack } from "../infra/local/stack.js";
import type { Caller } from "../shared/caller.js";
import { lastIdAt } from "../shared/ids.js";
import { eventKeys } from "../shared/tables.js";
import { seedEvents, spreadSeeds } from "../test/support/seed-events.js";
import { bundles } from "./bundles.js";
import { jsonChild } from "./child.js";
import { fmtBytes, fmtMs, fmtRatio, type Row, verdict } from "./report.js";

export const SIZES = [10_000, 100_000] as const;
export const FORMATS = ["csv", "jsonl"] as const;
/**
 * Budget: the 100,000-row export's peak RSS at most the 10,000-row one's plus what bare paging through the
 * same events grows by between the two sizes (the SDK and V8's young generation warming up over a longer
 * run, not rows held), plus this slack. The worker's own buffers (two 5 MiB parts, one page) are the same at
 * both sizes, so a worker that kept rows, pages or parts alive would be tens of MiB over.
 */
export const EXPORT_RSS_SLACK = 8 * 1024 * 1024;
/** The worker's page size and projection (shared/exports/worker.ts, repository.ts). */
const PAGE = 1_000;
const EVENT_FIELDS = ["id", "event_type", "created_at", "user_id", "user_email", "user_name", "ip_address", "description", "details"];

const CHILD = `
const env = process.env;
const maxRss = () => process.resourceUsage().maxRSS * 1024;
// What the peak is made of: the largest V8 heap and the largest memory outside it (Buffers), sampled.
const parts = { heapTotal: 0, heapUsed: 0, external: 0 };
const sample = () => {
  const m = process.memoryUsage();
  parts.heapTotal = Math.max(parts.heapTotal, m.heapTotal);
  parts.heapUsed = Math.max(parts.heapUsed, m.heapUsed);
  parts.external = Math.max(parts.external, m.external);
};
const out = (o) => process.stdout.write(JSON.stringify({ ...o, parts }));
if (env.BENCH_MODE === "worker") {
  const { handler } = await import(env.BENCH_BUNDLE_URL);
  const rssImported = process.memoryUsage.rss();
  const sampler = setInterval(sample, 10);
  const t0 = performance.now();
  await handler(JSON.parse(env.BENCH_JOB), { awsRequestId: crypto.randomUUID(), functionName: "bench-export-worker", getRemainingTimeInMillis: () => 840_000 });
  const ms = performance.now() - t0;
  clearInterval(sampler);
  out({ ms, rssImported, rssPeak: maxRss() });
} else {
  const { DynamoDBClient } = await import("@aws-sdk/client-dynamodb");
  const { DynamoDBDocumentClient, QueryCommand } = await import("@aws-sdk/lib-dynamodb");
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: env.DYNAMODB_ENDPOINT, region: env.AWS_REGION }));
  const fields = JSON.parse(env.BENCH_FIELDS);
  const names = Object.fromEntries(fields.map((f) => ["#f_" + f, f]));
  const query = (start) => new QueryCommand({
    TableName: env.EVENTS_TABLE,
    KeyConditionExpression: "#p = :p AND #s <= :hi",
    ProjectionExpression: Object.keys(names).join(", "),
    ExpressionAttributeNames: { "#p": "pk", "#s": "sk", ...names }, ExpressionAttributeValues: { ":p": env.BENCH_PARTITION, ":hi": env.BENCH_LAST_ID },
    ScanIndexForward: false, Limit: Number(env.BENCH_PAGE), ...(start && { ExclusiveStartKey: start }),
  });
  const rssImported = process.memoryUsage.rss();
  const sampler = setInterval(sample, 10);
  const t0 = performance.now();
  let rows = 0;
  let start;
  do {
    const page = await db.send(query(start));
    rows += page.Items?.length ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  const ms = performance.now() - t0;
  clearInterval(sampler);
  out({ ms, rssImported, rssPeak: maxRss(), rows });
}
`;

interface ChildResult {
  readonly parts: { heapTotal: number; heapUsed: number; external: number };
  readonly ms: number;
  readonly rssImported: number;
  readonly rssPeak: number;
  readonly rows?: number;
}

const runChild = (script: string, env: NodeJS.ProcessEnv) => jsonChild<ChildResult>([script], env, "export child");

export interface ExportRun {
  readonly format: (typeof FORMATS)[number];
  readonly rows: number;
  readonly fileBytes: number;
  readonly worker: ChildResult;
  readonly paging: ChildResult;
}

export async function measureExports(dir: string, stack: LocalStack, opts: { log: (s: string) => void }): Promise<ExportRun[]> {
  const bundle = bundles().find((b) => b.name === "exports/worker");
  if (!bundle) throw new Error("no exports/worker bundle in cdk.out");
  // The bench process's environment points at the stack (bench.ts): these read it at import.
  const { runInProcess } = await import("../shared/exports/dispatch.js");
  const { startExport } = await import("../shared/exports/start.js");
  const { getExport } = await import("../shared/exports/repository.js");
  const { s3 } = await import("../shared/exports/s3.js");
  const { exportConfig } = await import("../shared/exports/config.js");

  // The request records the export and hands over its job (after the response, as Lambda's asynchronous
  // invocation would); the worker runs in a child, measured.
  let dispatched: (job: { account: string; id: string }) => void = () => {};
  runInProcess(async (job) => dispatched(job));

  const run = Date.now().toString(36);
  // The seeded events end here; each export is filtered to them (\`to\`), leaving out its own
  // \`security_events_exported\` event and the earlier exports' ones.
  const seedEnd = Date.now() - 1000;
  const callers = new Map<number, Caller>();
  for (const n of SIZES) {
    const account = `acct-full-export-${n}-${run}`;
    callers.set(n, {
      id: `bench-exporter-${n}`,
      email: `exporter-${n}@bench.test`,
      name: "Bench Exporter",
      accountId: account,
      isCohortSuperAdmin: true,
      emailVerified: true,
      ip: "192.0.2.20",
    });
    const t0 = performance.now();
    // Within the last six hours: inside any retention.
    await seedEvents(spreadSeeds(account, n, seedEnd, 6 * 60 * 60 * 1000));
    const s = (performance.now() - t0) / 1000;
    opts.log(
      `  seeded ${n.toLocaleString("en")} events by BatchWriteItem in ${s.toFixed(1)} s (${Math.round(n / s).toLocaleString("en")}/s)`,
    );
  }

  mkdirSync(dir, { recursive: true });
  const script = join(dir, "exports-child.mjs");
  writeFileSync(script, CHILD);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...localHandlerEnv(stack),
    POWERTOOLS_LOG_LEVEL: "WARN",
    NODE_OPTIONS: "--enable-source-maps",
  };

  const runs: ExportRun[] = [];
  for (const n of SIZES) {
    const caller = callers.get(n) as Caller;
    for (const format of FORMATS) {
      const handed = new Promise<{ account: string; id: string }>((resolve) => {
        dispatched = resolve;
      });
      const started = await startExport(caller, { format, to: new Date(seedEnd).toISOString() });
      if (started.export.status !== "running") throw new Error(`the export did not start: ${started.export.status}`);
      const job = await handed;
      const worker = await runChild(script, {
        ...env,
        BENCH_MODE: "worker",
        BENCH_BUNDLE_URL: pathToFileURL(bundle.file).href,
        BENCH_JOB: JSON.stringify(job),
      });
      const record = await getExport(job.account, job.id);
      if (record?.status !== "succeeded" || record.row_count !== n) {
        throw new Error(`the ${format} export of ${n} events ended ${record?.status} with ${record?.row_count} rows`);
      }
      const head = await s3.send(new HeadObjectCommand({ Bucket: exportConfig.bucket, Key: record.object_key }));
      const paging = await runChild(script, {
        ...env,
        BENCH_MODE: "paging",
        BENCH_PARTITION: eventKeys.partition(caller.accountId),
        BENCH_FIELDS: JSON.stringify(EVENT_FIELDS),
        BENCH_PAGE: String(PAGE),
        BENCH_LAST_ID: lastIdAt(seedEnd),
      });
      if (paging.rows !== n) throw new Error(`paging read ${paging.rows} of ${n} events`);
      const r: ExportRun = { format, rows: n, fileBytes: head.ContentLength ?? 0, worker, paging };
      runs.push(r);
      opts.log(
        `  ${format} ${n.toLocaleString("en")}: ${fmtMs(worker.ms)} (${rate(r.rows, worker.ms)}), peak RSS ${fmtBytes(worker.rssPeak)}, ` +
          `file ${fmtBytes(r.fileBytes)}; paging ${fmtMs(paging.ms)} (${rate(n, paging.ms)}), peak RSS ${fmtBytes(paging.rssPeak)}; ` +
          `worker heap ${fmtBytes(worker.parts.heapTotal)} (used ${fmtBytes(worker.parts.heapUsed)}), external ${fmtBytes(worker.parts.external)}; ` +
          `paging heap ${fmtBytes(paging.parts.heapTotal)}, external ${fmtBytes(paging.parts.external)}`,
      );
    }
  }
  return runs;
}

const perSecond = (rows: number, ms: number) => rows / (ms / 1000);
const rate = (rows: number, ms: number) => `${Math.round(perSecond(rows, ms)).toLocaleString("en")} rows/s`;

export function exportsRows(runs: readonly ExportRun[]): Row[] {
  const rows: Row[] = [];
  for (const format of FORMATS) {
    const of = (n: number) => runs.find((r) => r.format === format && r.rows === n);
    for (const r of runs.filter((x) => x.format === format)) {
      const subject = `exports/worker, ${format}, ${r.rows.toLocaleString("en")} rows`;
      const data = { ...r };
      rows.push({
        measure: "exports",
        subject,
        figure: "throughput",
        value: `${rate(r.rows, r.worker.ms)} (${fmtMs(r.worker.ms)}, file ${fmtBytes(r.fileBytes)})`,
        floor: `paging ${rate(r.rows, r.paging.ms)}`,
        budget: "—",
        verdict: "within",
        data,
      });
      const small = of(SIZES[0]);
      const large = r.rows === SIZES[1] && small !== undefined;
      const pagingGrowth = small ? r.paging.rssPeak - small.paging.rssPeak : 0;
      const limit = small ? small.worker.rssPeak + Math.max(0, pagingGrowth) + EXPORT_RSS_SLACK : Number.NaN;
      rows.push({
        measure: "exports",
        subject,
        figure: "peak RSS",
        value: `${fmtBytes(r.worker.rssPeak)}${large && small ? ` (${fmtRatio(r.worker.rssPeak / small.worker.rssPeak)} the 10,000-row peak)` : ""}; after import ${fmtBytes(r.worker.rssImported)}`,
        floor: `paging ${fmtBytes(r.paging.rssPeak)}`,
        budget: large
          ? `≤ 10,000-row peak + paging's growth (${fmtBytes(pagingGrowth)}) + ${fmtBytes(EXPORT_RSS_SLACK)} = ${fmtBytes(limit)}`
          : "—",
        verdict: verdict(!large || r.worker.rssPeak <= limit),
        data,
      });
    }
  }
  return rows;
}
