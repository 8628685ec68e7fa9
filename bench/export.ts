/**
 * The export of 10,000 events, as a Lambda runs it: the bundled function (cdk.out) in a fresh Node process,
 * imported, warmed up with one small export, then the measured export including the JSON of its result
 * that the Lambda runtime makes. Figures: its time, and how much its peak RSS grew during it, against the
 * CSV it built. The floor, in a fresh process of its own after each export: paging through the same events
 * with bare Queries (same index, pages of 1,000, the export's projection), which any export must do.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { flattenClaims } from "../infra/local/gateway.js";
import { ROOT } from "../infra/local/services.js";
import type { LocalStack } from "../infra/local/stack.js";
import { CSV_COLUMNS } from "../shared/security-events/csv.js";
import { eventKeys } from "../shared/tables.js";
import { seedEvents, spreadSeeds } from "../test/support/seed-events.js";
import { bundles } from "./bundles.js";
import { jsonChild } from "./child.js";
import { newUser } from "./harness.js";
import { fmtBytes, fmtMs, fmtRatio, median, type Row, verdict } from "./report.js";

export const EXPORT_ROWS = 10_000;

/** The floor pages with the export's own projection: the CSV columns and the sort key it merges by. */
const EXPORT_FIELDS = [...CSV_COLUMNS];
const EXPORT_PROJECTION = {
  ProjectionExpression: EXPORT_FIELDS.map((f) => `#f_${f}`).join(", "),
  names: Object.fromEntries(EXPORT_FIELDS.map((f) => [`#f_${f}`, f])),
};
export const RUNS = 5;
/** Budget: the export's time at most this many times bare paging's. */
export const EXPORT_TIME_RATIO = 1.5;
/**
 * Budget: the export's peak RSS growth at most bare paging's plus this many times the CSV. A buffered
 * response holds its body three times at its peak (the lines, the joined CSV, the runtime's JSON of the
 * result), and V8 lets its heap grow to about twice what is live before it collects.
 */
export const EXPORT_MEMORY_CSV_RATIO = 6;

const CHILD = `
const env = process.env;
const maxRss = () => process.resourceUsage().maxRSS * 1024;
const out = (o) => process.stdout.write(JSON.stringify(o));
if (env.BENCH_MODE === "export") {
  const { handler } = await import(env.BENCH_BUNDLE_URL);
  const ctx = () => ({ awsRequestId: crypto.randomUUID(), functionName: "bench-export", getRemainingTimeInMillis: () => 60_000 });
  const warm = await handler(JSON.parse(env.BENCH_WARM_EVENT), ctx());
  if (warm.statusCode !== 200) throw new Error("warm-up export: " + warm.statusCode + " " + warm.body);
  const before = maxRss();
  const t0 = performance.now();
  const res = await handler(JSON.parse(env.BENCH_EVENT), ctx());
  JSON.stringify(res);
  const ms = performance.now() - t0;
  const body = res.body ?? "";
  out({ ms, rssGrowth: maxRss() - before, rssPeak: maxRss(), status: res.statusCode, csvBytes: Buffer.byteLength(body), rows: body.split("\\r\\n").filter(Boolean).length - 1 });
} else {
  const { DynamoDBClient } = await import("@aws-sdk/client-dynamodb");
  const { DynamoDBDocumentClient, QueryCommand } = await import("@aws-sdk/lib-dynamodb");
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: env.DYNAMODB_ENDPOINT, region: env.AWS_REGION }));
  const projection = JSON.parse(env.BENCH_PROJECTION);
  const query = (start, limit) => new QueryCommand({
    TableName: env.EVENTS_TABLE, KeyConditionExpression: "#p = :p",
    ProjectionExpression: projection.ProjectionExpression,
    ExpressionAttributeNames: { "#p": "pk", ...projection.names }, ExpressionAttributeValues: { ":p": env.BENCH_ACCOUNT },
    ScanIndexForward: false, Limit: limit, ...(start && { ExclusiveStartKey: start }),
  });
  await db.send(query(undefined, 10));
  const before = maxRss();
  const t0 = performance.now();
  let rows = 0;
  let start;
  do {
    const page = await db.send(query(start, 1000));
    rows += page.Items?.length ?? 0;
    start = page.LastEvaluatedKey;
  } while (start && rows < Number(env.BENCH_ROWS));
  out({ ms: performance.now() - t0, rssGrowth: maxRss() - before, rssPeak: maxRss(), rows });
}
`;

interface ChildResult {
  readonly ms: number;
  readonly rssGrowth: number;
  readonly rssPeak: number;
  readonly rows: number;
  readonly status?: number;
  readonly csvBytes?: number;
}

const runChild = (script: string, env: NodeJS.ProcessEnv) => jsonChild<ChildResult>([script], env, "export child");

export interface ExportResults {
  readonly exports: ChildResult[];
  readonly paging: ChildResult[];
}

/**
 * The sample export event of infra/events/, unfiltered, with the claims of `token` as API Gateway hands them
 * to Lambda (the function reads the caller from them; the gateway has verified the token).
 */
function exportEvent(token: string): unknown {
  const sample = JSON.parse(readFileSync(join(ROOT, "infra/events/security-events-export.json"), "utf8"));
  const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  const { queryStringParameters: _, ...event } = sample;
  return {
    ...event,
    rawQueryString: "",
    requestContext: { ...event.requestContext, authorizer: { jwt: { claims: flattenClaims(payload), scopes: null } } },
  };
}

export async function measureExport(
  dir: string,
  stack: LocalStack,
  opts: { runs?: number; log: (s: string) => void },
): Promise<ExportResults> {
  const bundle = bundles().find((b) => b.name === "security-events/export");
  if (!bundle) throw new Error("no security-events/export bundle in cdk.out");
  const run = Date.now().toString(36);
  const admin = await newUser(stack, `export-${run}@bench.test`, `acct-export-${run}`);
  const warm = await newUser(stack, `export-warm-${run}@bench.test`, `acct-export-warm-${run}`);
  await seedEvents(spreadSeeds(admin.account, EXPORT_ROWS, Date.now() - 1000, 6 * 60 * 60 * 1000));

  mkdirSync(dir, { recursive: true });
  const script = join(dir, "export-child.mjs");
  writeFileSync(script, CHILD);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    MAIN_TABLE: stack.tables.main,
    EVENTS_TABLE: stack.tables.events,
    DYNAMODB_ENDPOINT: stack.dynamodbEndpoint,
    AWS_REGION: stack.region,
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    // The child reports on stdout: the request line stays out of it.
    POWERTOOLS_LOG_LEVEL: "WARN",
    POWERTOOLS_METRICS_DISABLED: "true",
    AWS_XRAY_MANUAL_MODE: "true",
    NODE_OPTIONS: "--enable-source-maps",
    BENCH_BUNDLE_URL: pathToFileURL(bundle.file).href,
    BENCH_EVENT: JSON.stringify(exportEvent(admin.token)),
    BENCH_WARM_EVENT: JSON.stringify(exportEvent(warm.token)),
    BENCH_ACCOUNT: eventKeys.partition(admin.account),
    BENCH_PROJECTION: JSON.stringify(EXPORT_PROJECTION),
    BENCH_ROWS: String(EXPORT_ROWS),
  };
  const exports: ChildResult[] = [];
  const paging: ChildResult[] = [];
  for (let r = 0; r < (opts.runs ?? RUNS); r++) {
    const e = await runChild(script, { ...env, BENCH_MODE: "export" });
    if (e.status !== 200 || e.rows !== EXPORT_ROWS) throw new Error(`the export answered ${e.status} with ${e.rows} rows`);
    const p = await runChild(script, { ...env, BENCH_MODE: "paging" });
    exports.push(e);
    paging.push(p);
    opts.log(
      `  export ${fmtMs(e.ms)}, RSS +${fmtBytes(e.rssGrowth)}, CSV ${fmtBytes(e.csvBytes ?? 0)}; paging ${fmtMs(p.ms)}, RSS +${fmtBytes(p.rssGrowth)}`,
    );
  }
  return { exports, paging };
}

export function exportRows(r: ExportResults): Row[] {
  const subject = `GET /api/v1/admin/security_events/export (${EXPORT_ROWS.toLocaleString("en")} rows)`;
  const csv = median(r.exports.map((e) => e.csvBytes ?? 0));
  const time = median(r.exports.map((e) => e.ms));
  const pagingTime = median(r.paging.map((p) => p.ms));
  // Each export over the paging run right after it: a busy stretch of the machine slows both of a pair.
  const ratio = median(r.exports.map((e, i) => e.ms / (r.paging[i]?.ms ?? Number.NaN)));
  const growth = median(r.exports.map((e) => e.rssGrowth));
  const pagingGrowth = median(r.paging.map((p) => p.rssGrowth));
  const data = { csvBytes: csv, exports: r.exports, paging: r.paging };
  return [
    {
      measure: "export",
      subject,
      figure: "time",
      value: `${fmtMs(time)} (${fmtRatio(ratio)})`,
      floor: `paging ${fmtMs(pagingTime)}`,
      budget: `≤ ${EXPORT_TIME_RATIO}× paging`,
      verdict: verdict(ratio <= EXPORT_TIME_RATIO),
      data,
    },
    {
      measure: "export",
      subject,
      figure: "peak RSS growth",
      value: `+${fmtBytes(growth)} (paging + ${fmtRatio((growth - pagingGrowth) / csv)} CSV)`,
      floor: `paging +${fmtBytes(pagingGrowth)}; CSV ${fmtBytes(csv)}`,
      budget: `≤ paging + ${EXPORT_MEMORY_CSV_RATIO}× CSV`,
      verdict: verdict(growth <= pagingGrowth + EXPORT_MEMORY_CSV_RATIO * csv),
      data,
    },
  ];
}
