/**
 * Section 5: list institutions, list security events and alerts, with N and then 10×N in the table.
 * - institutions: one user's list (5 institutions) while the table holds N, then 10×N, other users'
 *   institutions (institution item + access record each, written as the repository shapes them);
 * - events: one account with N events over two hours, then 10×N (seeded with events-growth.ts, so the
 *   events and the per-minute counters are exactly what `auditItems` writes);
 * - alerts: the same account, at a fixed instant on a minute boundary (the counter Query alone) and 40 s
 *   into a minute (the counter Query plus COUNT Queries over the window's first 20 s, which the design lets
 *   grow with the rate in those seconds only: reported, not budgeted).
 * Requests and consumed capacity must be the same; latency (median of many calls) within 20 %. Each call is
 * interleaved with a bare GetItem (the floor), so the latency change is reported raw and relative to the
 * floor measured at the same time; the verdict uses the floor-relative change, which drift on a shared
 * machine does not move.
 *
 * Loaded only after the environment points at the local stack.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { ROOT } from "../../infra/local/services.js";
import { type Caller, callerFrom } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { newId } from "../../shared/ids.js";
import { createInstitution } from "../../shared/institutions/service.js";
import { securityAlerts } from "../../shared/security-events/service.js";
import { keys } from "../../shared/tables.js";
import { putItems } from "../support/seed.js";
import { type ApiEvent, apiEvent, context, userClaims } from "./apigw.js";
import { seedEvents, spreadSeeds } from "./events-growth.js";
import { describeCapacity, describeRequests, type Measurement, type Meter } from "./meter.js";
import { type Row, verdict } from "./report.js";
import { fmtMs, median, ms, now } from "./stats.js";

/**
 * Events at the small size. At least ~1,000 over the two hours, so that every minute of the alert window
 * already has its counter item at N: with fewer, the counter Query reads more items at 10×N only because
 * minutes that had no counted event now have one (more data in the window, not a bigger table).
 */
export const GROWTH_N = 1000;
export const GROWTH_RUNS = 200;
/** Section 5 budget: latency at 10×N within 20 % of N. */
export const GROWTH_LATENCY = 1.2;

type Handler = (event: ApiEvent, ctx: ReturnType<typeof context>) => Promise<APIGatewayProxyStructuredResultV2>;

interface Probe {
  readonly name: string;
  /** One call; returns after checking the answer. */
  readonly call: () => Promise<void>;
}

interface Phase {
  readonly rows: number;
  readonly cost: Record<string, { requests: string[]; capacity: Measurement["capacity"] }>;
  readonly latency: Record<string, number>;
  readonly floor: number;
}

export interface GrowthResult {
  readonly n: number;
  readonly small: Phase;
  readonly large: Phase;
  readonly names: string[];
}

async function handlerOf(name: string): Promise<Handler> {
  return ((await import(pathToFileURL(`${ROOT}functions/${name}.ts`).href)) as { handler: Handler }).handler;
}

/** `count` institutions of other users, each an institution item and its owner's access record. */
async function otherInstitutions(count: number, account: string): Promise<void> {
  const items: Record<string, unknown>[] = [];
  const created = new Date().toISOString();
  for (let i = 0; i < count; i++) {
    const id = newId();
    const user = randomUUID();
    const summary = {
      id,
      name: `Other College ${i}`,
      registration_number: null,
      contact_email: null,
      super_admin_id: user,
      created_at: created,
    };
    items.push({
      ...keys.institution(id),
      ...summary,
      address: null,
      contact_phone: null,
      settings: {},
      account_id: account,
      updated_at: created,
      version: 1,
      members: { [user]: "cohort_super_admin" },
      cohort_count: 0,
    });
    items.push({
      ...keys.access(user, id),
      account_id: account,
      user_id: user,
      institution_id: id,
      role: "cohort_super_admin",
      institution: summary,
    });
  }
  await putItems(config.tables.main, items);
}

export async function measureGrowth(
  meter: Meter,
  opts: { n?: number; runs?: number; log?: (s: string) => void } = {},
): Promise<GrowthResult> {
  const n = opts.n ?? GROWTH_N;
  const runs = opts.runs ?? GROWTH_RUNS;
  const account = `acct-growth-${randomBytes(4).toString("hex")}`;
  const claims = userClaims({ email: "growth@bench.test", name: "Growth", account, superAdmin: true });
  const user: Caller = callerFrom(apiEvent({ method: "GET", route: "/", claims }));
  let first = "";
  for (let k = 0; k < 5; k++) {
    const { institution } = await createInstitution(user, { institution: { name: `Growth College ${k}` } });
    first ||= institution.id;
  }

  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const onMinute = new Date(minute);
  const midMinute = new Date(minute - 60_000 + 40_000);
  const end = midMinute.getTime() - 1;
  const span = 2 * 60 * 60 * 1000;

  const listInstitutions = await handlerOf("institutions/list");
  const listEvents = await handlerOf("security-events/list");
  const ok = (r: APIGatewayProxyStructuredResultV2, what: string) => {
    if (r.statusCode !== 200) throw new Error(`${what}: ${r.statusCode} ${String(r.body).slice(0, 200)}`);
  };
  const probes: Probe[] = [
    {
      name: "GET /api/v1/institutions",
      call: async () =>
        ok(
          await listInstitutions(apiEvent({ method: "GET", route: "/api/v1/institutions", claims }), context("institutions/list")),
          "list institutions",
        ),
    },
    {
      name: "GET /api/v1/admin/security_events",
      call: async () =>
        ok(
          await listEvents(apiEvent({ method: "GET", route: "/api/v1/admin/security_events", claims }), context("security-events/list")),
          "list events",
        ),
    },
    { name: "alerts (window on a minute)", call: async () => void (await securityAlerts(user, onMinute)) },
  ];
  const edgeProbe: Probe = { name: "alerts (window 40 s into a minute)", call: async () => void (await securityAlerts(user, midMinute)) };

  const floorGet = new GetCommand({ TableName: config.tables.main, Key: keys.institution(first), ConsistentRead: true });
  const floor = async () => {
    const t0 = now();
    await db.send(floorGet);
    return ms(now() - t0);
  };

  const phase = async (rows: number): Promise<Phase> => {
    const cost: Phase["cost"] = {};
    for (const p of [...probes, edgeProbe]) {
      await p.call();
      const { m } = await meter.measure(p.call);
      cost[p.name] = { requests: m.requests, capacity: m.capacity };
    }
    const times = probes.map(() => [] as number[]);
    const floors: number[] = [];
    for (let r = 0; r < runs + 20; r++) {
      const f = await floor();
      if (r >= 20) floors.push(f);
      for (const [i, p] of probes.entries()) {
        const t0 = now();
        await p.call();
        if (r >= 20) (times[i] as number[]).push(ms(now() - t0));
      }
    }
    const latency = Object.fromEntries(probes.map((p, i) => [p.name, median(times[i] as number[])]));
    opts.log?.(
      `  ${rows} rows: ${probes.map((p) => `${p.name} ${fmtMs(latency[p.name] ?? Number.NaN)}`).join(", ")}; floor ${fmtMs(median(floors))}`,
    );
    return { rows, cost, latency, floor: median(floors) };
  };

  await Promise.all([otherInstitutions(n, "acct-growth-others"), seedEvents(spreadSeeds(account, n, end, span))]);
  const small = await phase(n);
  // Offset by half a slot so the new events interleave with the first ones instead of landing on them.
  await Promise.all([
    otherInstitutions(9 * n, "acct-growth-others"),
    seedEvents(spreadSeeds(account, 9 * n, end - Math.floor(span / (18 * n)), span)),
  ]);
  const large = await phase(10 * n);
  return { n, small, large, names: [...probes, edgeProbe].map((p) => p.name) };
}

export function growthRows(g: GrowthResult): Row[] {
  const rows: Row[] = [];
  for (const name of g.names) {
    const a = g.small.cost[name];
    const b = g.large.cost[name];
    if (!a || !b) continue;
    const sameRequests = a.requests.join() === b.requests.join();
    const sameCapacity = describeCapacity(a.capacity) === describeCapacity(b.capacity);
    const edge = name.includes("40 s");
    rows.push({
      section: 5,
      endpoint: name,
      figure: edge ? "requests" : "requests; capacity",
      value: `${describeRequests(b.requests)}; ${describeCapacity(b.capacity)} at ${g.large.rows}`,
      floor: `${describeRequests(a.requests)}; ${describeCapacity(a.capacity)} at ${g.small.rows}`,
      budget: edge ? "same requests" : "same",
      verdict: verdict(edge ? sameRequests : sameRequests && sameCapacity),
      data: { small: a, large: b },
      ...(edge && {
        note: `the counter Query plus a COUNT Query per counted type over the window's first 20 s. Those read only the events of those seconds: their capacity follows the event rate in them, not the table (by design; ${describeCapacity(a.capacity)} → ${describeCapacity(b.capacity)} here, with 10× the rate).`,
      }),
    });
    const la = g.small.latency[name];
    const lb = g.large.latency[name];
    if (la === undefined || lb === undefined) continue;
    const raw = lb / la;
    const relative = lb / g.large.floor / (la / g.small.floor);
    rows.push({
      section: 5,
      endpoint: name,
      figure: "latency p50",
      value: `${fmtMs(lb)} at ${g.large.rows} (${raw >= 1 ? "+" : ""}${((raw - 1) * 100).toFixed(0)}%; vs floor ${relative >= 1 ? "+" : ""}${((relative - 1) * 100).toFixed(0)}%)`,
      floor: `${fmtMs(la)} at ${g.small.rows}; GetItem ${fmtMs(g.small.floor)} → ${fmtMs(g.large.floor)}`,
      budget: `≤ +${((GROWTH_LATENCY - 1) * 100).toFixed(0)}%`,
      verdict: verdict(relative <= GROWTH_LATENCY),
      data: { smallMs: la, largeMs: lb, raw, relativeToFloor: relative, floorSmallMs: g.small.floor, floorLargeMs: g.large.floor },
    });
  }
  return rows;
}
