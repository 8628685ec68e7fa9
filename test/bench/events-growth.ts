/**
 * Growth check of the security-event reads (a script, not a test): seeds one account with N events, then
 * with 10×N, and measures a list page (unfiltered and filtered) and the alerts each time: DynamoDB requests
 * and consumed read capacity, counted at the SDK client with `ReturnConsumedCapacity: TOTAL`. Both must stay
 * the same as the account grows.
 *
 *   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 MAIN_TABLE=main EVENTS_TABLE=events \
 *     npx tsx test/bench/events-growth.ts [N=1000] [--create-tables]
 *
 * `measureEventsGrowth` and `seedEvents` are exported for the project benchmark and the integration tests.
 */
import { pathToFileURL } from "node:url";
import type { Caller } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { listSecurityEvents, securityAlerts } from "../../shared/security-events/service.js";
import { type Seed, seedEvents, spreadSeeds } from "../support/seed-events.js";

export { seedEvents, spreadSeeds };

/** Requests and read capacity of what runs inside `fn`; `perRequest[i]` is the capacity of `requests[i]`. */
export interface Cost {
  readonly requests: string[];
  readonly perRequest: number[];
  readonly capacity: number;
}

const MIDDLEWARE = "events-growth-meter";
let meter: { requests: string[]; perRequest: number[] } | undefined;

function installMeter(): void {
  if (db.middlewareStack.identify().some((m) => m.startsWith(MIDDLEWARE))) return;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (!meter) return next(args);
      const m = meter;
      const i = m.requests.push(String(context.commandName).replace(/Command$/, "")) - 1;
      m.perRequest[i] = 0;
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = "TOTAL";
      const out = await next(args);
      const cc = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      for (const c of Array.isArray(cc) ? cc : cc ? [cc] : []) m.perRequest[i] = (m.perRequest[i] ?? 0) + (c.CapacityUnits ?? 0);
      return out;
    },
    { step: "initialize", name: MIDDLEWARE },
  );
}

/** Runs `fn` and returns what it cost in DynamoDB requests and consumed capacity units. */
export async function measure(fn: () => Promise<unknown>): Promise<Cost> {
  installMeter();
  meter = { requests: [], perRequest: [] };
  try {
    await fn();
    return { requests: meter.requests, perRequest: meter.perRequest, capacity: meter.perRequest.reduce((a, b) => a + b, 0) };
  } finally {
    meter = undefined;
  }
}

export interface GrowthStep {
  readonly events: number;
  /** Unfiltered first page (50). */
  readonly list: Cost;
  /** First page (10) filtered by type, user and `from`: the most specific index. */
  readonly listFiltered: Cost;
  /** Alerts when the window starts on a minute boundary: the counter Query only. */
  readonly alertsOnMinute: Cost;
  /** Alerts 40 s into a minute: the counter Query plus COUNT Queries over the window's first 20 s. */
  readonly alertsMidMinute: Cost;
  /** Counted events inside those 20 s: what the edge COUNT Queries read. */
  readonly edgeEvents: number;
}

export interface GrowthReport {
  readonly account: string;
  readonly steps: readonly [GrowthStep, GrowthStep];
  /**
   * Whether, between N and 10×N events: every measured read made the same requests; the list pages and
   * the on-minute alerts consumed the same capacity; and the mid-minute alerts' counter Query did too (its
   * edge COUNT Queries read only the sub-minute edge, reported in `edgeEvents`).
   */
  readonly flat: boolean;
  readonly checks: Readonly<Record<string, boolean>>;
}

const sameRequests = (a: Cost, b: Cost) => a.requests.join() === b.requests.join();
const same = (a: Cost, b: Cost) => sameRequests(a, b) && a.capacity === b.capacity;
const COUNTED = new Set<string>(["unauthorized_institution_access", "rate_limit_exceeded", "token_validation_failure"]);

/**
 * Seeds a fresh account with `n` events over the last two hours, measures, adds 9×`n` more over the same
 * two hours (10×`n` in all, ten times the rate in the alert window), and measures again.
 *
 * Alerts are measured at two fixed instants: one where the window starts on a minute boundary (counters
 * only), and one 40 s into a minute, where the raw events of the window's first 20 s are counted too —
 * the one read the design lets grow, with the rate in those seconds only (never more than 30 s of events).
 */
export async function measureEventsGrowth(opts: { n?: number; account?: string } = {}): Promise<GrowthReport> {
  const n = opts.n ?? 1000;
  const account = opts.account ?? `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const onMinute = new Date(minute);
  const midMinute = new Date(minute - 60_000 + 40_000);
  // Ends before both instants, so that both see the same window of the same events.
  const end = midMinute.getTime() - 1;
  const spanMs = 2 * 60 * 60 * 1000;
  const admin: Caller = {
    id: "bench-admin",
    email: "admin@example.com",
    name: "Admin",
    accountId: account,
    isCohortSuperAdmin: true,
    ip: "192.0.2.1",
  };
  const from = new Date(end - spanMs / 2).toISOString();
  const edgeFrom = midMinute.getTime() - 60 * 60 * 1000;
  const edgeTo = Math.floor(edgeFrom / 60_000) * 60_000 + 59_999;
  const seeded: Seed[] = [];

  const step = async (): Promise<GrowthStep> => ({
    events: seeded.length,
    list: await measure(() => listSecurityEvents(admin, {})),
    listFiltered: await measure(() =>
      listSecurityEvents(admin, { event_type: "unauthorized_institution_access", user_id: "bench-user-1", from, limit: "10" }),
    ),
    alertsOnMinute: await measure(() => securityAlerts(admin, onMinute)),
    alertsMidMinute: await measure(() => securityAlerts(admin, midMinute)),
    edgeEvents: seeded.filter((s) => COUNTED.has(s.event.type) && s.at.getTime() >= edgeFrom && s.at.getTime() <= edgeTo).length,
  });
  const seed = async (seeds: Seed[]) => {
    await seedEvents(seeds);
    seeded.push(...seeds);
  };

  await seed(spreadSeeds(account, n, end, spanMs));
  const small = await step();
  // Offset by half a slot so the new events interleave with the first ones instead of landing on them.
  await seed(spreadSeeds(account, 9 * n, end - Math.floor(spanMs / (18 * n)), spanMs));
  const large = await step();

  const checks = {
    "list: requests and capacity": same(small.list, large.list),
    "listFiltered: requests and capacity": same(small.listFiltered, large.listFiltered),
    "alertsOnMinute: requests and capacity": same(small.alertsOnMinute, large.alertsOnMinute),
    "alertsMidMinute: requests": sameRequests(small.alertsMidMinute, large.alertsMidMinute),
    "alertsMidMinute: counter Query capacity": small.alertsMidMinute.perRequest[0] === large.alertsMidMinute.perRequest[0],
  };
  return { account, steps: [small, large], flat: Object.values(checks).every(Boolean), checks };
}

function print(report: GrowthReport): void {
  const [a, b] = report.steps;
  const fmt = (c: Cost) =>
    `${c.requests.length} request(s), ${c.capacity} RCU [${c.requests.map((r, i) => `${r} ${c.perRequest[i]}`).join(", ")}]`;
  console.log(`account ${report.account}`);
  for (const key of ["list", "listFiltered", "alertsOnMinute", "alertsMidMinute"] as const) {
    console.log(`${key}:`);
    for (const s of [a, b]) {
      const edge = key === "alertsMidMinute" ? ` (edge: ${s.edgeEvents} counted events in 20 s)` : "";
      console.log(`  ${String(s.events).padStart(7)} events: ${fmt(s[key])}${edge}`);
    }
  }
  for (const [check, ok] of Object.entries(report.checks)) console.log(`${ok ? "same     " : "DIFFERENT"}  ${check}`);
  console.log(report.flat ? "OK: requests and read capacity stay the same at 10x the events" : "NOT FLAT (see above)");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
  if (args.includes("--create-tables")) {
    const { createTables } = await import("../../infra/local/stack.js");
    if (!config.endpoints.dynamodb) throw new Error("--create-tables needs DYNAMODB_ENDPOINT");
    await createTables(config.endpoints.dynamodb, config.region, config.tables);
  }
  const report = await measureEventsGrowth({ n });
  print(report);
  process.exitCode = report.flat ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
