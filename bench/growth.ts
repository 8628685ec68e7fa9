/**
 * Growth: the reads whose cost must not depend on how much is stored, with N and then 10×N in the tables.
 * - list institutions: one user's five institutions while the main table holds N, then 10×N, institutions
 *   of other users;
 * - list security events and alerts: one account with N events over the last two hours, then 10×N.
 * Latency end to end through the stack's gateway, each call right after a call of one institution by its
 * id (one GetItem by key, whose cost cannot grow with the data) through the same gateway: the change is
 * judged on each p50 over that reference's p50, so that a machine busier in one phase than in the other
 * does not count as growth. Read capacity per call is counted at the SDK, through the gateway in
 * this process.
 */
import { randomUUID } from "node:crypto";
import type { Gateway } from "../infra/local/gateway.js";
import type { LocalStack } from "../infra/local/stack.js";
import { keys } from "../shared/tables.js";
import { putItems } from "../test/support/seed.js";
import { seedEvents, spreadSeeds } from "../test/support/seed-events.js";
import { Api, createdId, newUser, type RequestMeter } from "./harness.js";
import { fmtChange, fmtMs, median, type Row, verdict } from "./report.js";

/** Budget: latency and read capacity at 10×N at most this much of N's. */
export const GROWTH_RATIO = 1.2;
export const GROWTH_N = 1_000;
export const ROUNDS = 200;
const WARMUP_ROUNDS = 50;

interface Target {
  readonly name: string;
  readonly path: string;
  /**
   * Judged on read capacity too. Not the alerts: by design they also count the events of the window's first
   * minute, whose number follows the event rate (10× here) and where in the minute the window starts.
   */
  readonly capacity: boolean;
}

const TARGETS: Target[] = [
  { name: "GET /api/v1/institutions", path: "/api/v1/institutions", capacity: true },
  { name: "GET /api/v1/admin/security_events", path: "/api/v1/admin/security_events", capacity: true },
  { name: "GET /api/v1/admin/security_events/alerts", path: "/api/v1/admin/security_events/alerts", capacity: false },
];

interface Phase {
  readonly rows: number;
  /** The reference call's p50. */
  readonly referenceMs: number;
  /** Per target: p50 ms, and read capacity of one call. */
  readonly ms: number[];
  readonly rcu: number[];
}

export interface GrowthResults {
  readonly small: Phase;
  readonly large: Phase;
}

/** `count` institutions of other users in the main table: the institution item and its owner's access item. */
async function otherInstitutions(table: string, count: number): Promise<void> {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const user = randomUUID();
    const summary = { id, name: `Other College ${i}`, super_admin_id: user, created_at: new Date().toISOString() };
    items.push({ ...keys.institution(id), ...summary, account_id: "acct-growth-others", settings: {}, version: 1 });
    items.push({ ...keys.access(user, id), user_id: user, institution_id: id, role: "cohort_super_admin", institution: summary });
  }
  await putItems(table, items);
}

export async function measureGrowth(
  stack: LocalStack,
  gateway: Gateway,
  meter: RequestMeter,
  opts: { rounds?: number; log: (s: string) => void },
): Promise<GrowthResults> {
  const api = new Api(stack.apiUrl);
  const counted = new Api(gateway.url);
  const run = Date.now().toString(36);
  const user = await newUser(stack, `growth-${run}@bench.test`, `acct-growth-${run}`);
  const institutions: string[] = [];
  for (let k = 0; k < 5; k++) {
    const body = { institution: { name: `Growth ${k}` } };
    institutions.push(createdId(await api.json("POST", "/api/v1/institutions", { token: user.token, body }, 201), "institution"));
  }
  const reference = `/api/v1/institutions/${institutions[0]}`;
  const rounds = opts.rounds ?? ROUNDS;
  const end = Date.now();
  const span = 2 * 60 * 60 * 1000;

  const phase = async (rows: number): Promise<Phase> => {
    const rcu: number[] = [];
    for (const t of TARGETS) {
      const { count } = await meter.count(() => counted.json("GET", t.path, { token: user.token }, 200));
      rcu.push(Object.values(count.capacity).reduce((sum, x) => sum + x.read, 0));
    }
    const refs: number[] = [];
    const times = TARGETS.map(() => [] as number[]);
    for (let r = 0; r < WARMUP_ROUNDS + rounds; r++) {
      for (const [i, t] of TARGETS.entries()) {
        const ref = await api.send("GET", reference, { token: user.token });
        const res = await api.send("GET", t.path, { token: user.token });
        for (const x of [ref, res]) if (x.status !== 200) throw new Error(`${t.name}: ${x.status} ${x.text.slice(0, 200)}`);
        if (r < WARMUP_ROUNDS) continue;
        refs.push(ref.ms);
        (times[i] as number[]).push(res.ms);
      }
    }
    const ms = times.map(median);
    opts.log(
      `  ${rows} rows: ${TARGETS.map((t, i) => `${t.path.split("/").at(-1)} ${fmtMs(ms[i] ?? Number.NaN)}`).join(", ")}; reference ${fmtMs(median(refs))}`,
    );
    return { rows, referenceMs: median(refs), ms, rcu };
  };

  try {
    await Promise.all([otherInstitutions(stack.tables.main, GROWTH_N), seedEvents(spreadSeeds(user.account, GROWTH_N, end, span))]);
    const small = await phase(GROWTH_N);
    // Half a slot later, so that the new events fall between the first ones instead of on them.
    await Promise.all([
      otherInstitutions(stack.tables.main, 9 * GROWTH_N),
      seedEvents(spreadSeeds(user.account, 9 * GROWTH_N, end - Math.floor(span / (18 * GROWTH_N)), span)),
    ]);
    const large = await phase(10 * GROWTH_N);
    return { small, large };
  } finally {
    api.close();
    counted.close();
  }
}

export function growthRows(g: GrowthResults): Row[] {
  const rows: Row[] = [];
  const { small, large } = g;
  for (const [i, t] of TARGETS.entries()) {
    const a = small.ms[i] ?? Number.NaN;
    const b = large.ms[i] ?? Number.NaN;
    const relative = b / large.referenceMs / (a / small.referenceMs);
    rows.push({
      measure: "growth",
      subject: t.name,
      figure: "p50 at 10×",
      value: `${fmtMs(b)} (${fmtChange(b / a)}; vs reference ${fmtChange(relative)})`,
      floor: `${fmtMs(a)} at 1×; reference ${fmtMs(small.referenceMs)} → ${fmtMs(large.referenceMs)}`,
      budget: `≤ ${fmtChange(GROWTH_RATIO)} vs reference`,
      verdict: verdict(relative <= GROWTH_RATIO),
      data: { rows: [small.rows, large.rows], ms: [a, b], referenceMs: [small.referenceMs, large.referenceMs], relative },
    });
    if (!t.capacity) continue;
    const ra = small.rcu[i] ?? Number.NaN;
    const rb = large.rcu[i] ?? Number.NaN;
    rows.push({
      measure: "growth",
      subject: t.name,
      figure: "read capacity at 10×",
      value: `${+rb.toFixed(2)} RCU (${fmtChange(rb / ra)})`,
      floor: `${+ra.toFixed(2)} RCU at 1×`,
      budget: `≤ ${fmtChange(GROWTH_RATIO)}`,
      verdict: verdict(rb <= GROWTH_RATIO * ra),
      data: { rcu: [ra, rb] },
    });
  }
  return rows;
}
