/**
 * One bounded load run against a running stack, and the count afterwards. Used by `npm run load`
 * (bench/load/load.ts, which starts its own stack) and by a short run in the test suite.
 *
 * Every autocannon connection loops over one cycle of requests as a user of the run (round robin over
 * several users in several accounts): it creates an institution and then works on that one only (show,
 * update, cohort create, invitation create, cohort list), with list, security-event list and alerts reads
 * in between: 4 writes and 5 reads per cycle, no two connections writing the same item. After `seconds`
 * the connections only read (a short drain), so that no write is still in flight when autocannon cuts the
 * connections: every write is then answered, and the tables can be counted against the answers.
 *
 * Checks: each request kind got only its expected status (so zero 5xx), no connection errors or timeouts,
 * and afterwards (test/fault/consistency.ts) every change has its event and every event its change, and
 * the numbers match exactly: 201 creates = institutions of the users = institution_created events;
 * 200 updates = institution_updated events; 201 cohorts = cohorts = cohort_created events; 201 invitations =
 * invitations = invitation_created events; and every id answered is among them.
 *
 * Import after the environment points at the stack (shared/config.ts reads it at import).
 */
import autocannon, { type RawRequest, type RequestSpec, type Result } from "autocannon";
import { auditUsers } from "../../test/fault/consistency.js";

export interface LoadUser {
  readonly token: string;
  readonly userId: string;
  readonly accountId: string;
}

export interface LoadOptions {
  /** Must be on loopback. */
  readonly apiUrl: string;
  readonly users: readonly LoadUser[];
  readonly seconds: number;
  readonly connections: number;
  /** Unique per run: names, registration numbers and e-mails carry it. */
  readonly tag: string;
}

export interface KindFigures {
  kind: string;
  expected: number;
  count: number;
  statuses: Map<number, number>;
  p50: number;
  p99: number;
}

export interface LoadReport {
  failures: string[];
  kinds: KindFigures[];
  /** Answered requests of the measured phase (drain excluded) per second, and their latency. */
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  autocannon: Result;
  counts: {
    creates: number;
    institutions: number;
    institutionCreatedEvents: number;
    updates: number;
    institutionUpdatedEvents: number;
    cohortCreates: number;
    cohorts: number;
    cohortCreatedEvents: number;
    invitationCreates: number;
    invitations: number;
    invitationCreatedEvents: number;
  };
}

type Kind = "create" | "show" | "update" | "list" | "cohort" | "events" | "invite" | "alerts" | "cohorts" | "drain";
const EXPECTED: Record<Kind, number> = {
  create: 201,
  show: 200,
  update: 200,
  list: 200,
  cohort: 201,
  events: 200,
  invite: 201,
  alerts: 200,
  cohorts: 200,
  drain: 200,
};

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export async function runLoad(opts: LoadOptions): Promise<LoadReport> {
  const url = new URL(opts.apiUrl);
  if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost")
    throw new Error(`the load run only targets loopback, not ${url.hostname}`);
  if (opts.users.length === 0) throw new Error("no users");

  const statuses = new Map<Kind, Map<number, number>>();
  const latencies = new Map<Kind, number[]>();
  const created = new Map<string, string>(); // institution id → user id
  const updates = new Map<string, number>();
  const cohortIds = new Set<string>();
  const invitationIds = new Set<string>();
  let nextUser = 0;
  let seq = 0;
  let draining = false;

  const json = (body: string) => {
    try {
      return JSON.parse(body);
    } catch {
      return undefined;
    }
  };

  /** One step of the cycle: builds its request from the cycle's context, records its answer. */
  const step = (
    kind: Exclude<Kind, "drain">,
    build: (ctx: Record<string, unknown>) => Omit<RawRequest, "headers">,
    onOk?: (body: unknown, ctx: Record<string, unknown>) => void,
  ): RequestSpec => ({
    setupRequest: (req, ctx) => {
      if (kind === "create") {
        const user = opts.users[nextUser++ % opts.users.length] as LoadUser;
        ctx.user = user;
      }
      const user = ctx.user as LoadUser;
      const k: Kind = draining ? "drain" : kind;
      ctx.kind = k;
      ctx.started = performance.now();
      const built = draining ? { method: "GET", path: "/api/v1/institutions" } : build(ctx);
      req.method = built.method;
      req.path = built.path;
      req.headers = { authorization: `Bearer ${user.token}`, ...(built.body !== undefined && { "content-type": "application/json" }) };
      req.body = built.body;
      return req;
    },
    onResponse: (status, body, ctx) => {
      const k = ctx.kind as Kind;
      const byStatus = statuses.get(k) ?? new Map<number, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      statuses.set(k, byStatus);
      const list = latencies.get(k) ?? [];
      list.push(performance.now() - (ctx.started as number));
      latencies.set(k, list);
      if (k !== "drain" && status === EXPECTED[k]) onOk?.(json(body), ctx);
    },
  });

  const inst = (ctx: Record<string, unknown>) => `/api/v1/institutions/${ctx.id ?? "missing"}`;
  const requests: RequestSpec[] = [
    step(
      "create",
      () => {
        const n = ++seq;
        return {
          method: "POST",
          path: "/api/v1/institutions",
          body: JSON.stringify({
            institution: {
              name: `Load ${opts.tag} ${n}`,
              registration_number: `L-${opts.tag}-${n}`,
              contact_email: `office${n}@load.test`,
            },
          }),
        };
      },
      (body, ctx) => {
        const id = (body as { institution?: { id?: string } } | undefined)?.institution?.id;
        if (id) {
          ctx.id = id;
          created.set(id, (ctx.user as LoadUser).userId);
        }
      },
    ),
    step("show", (ctx) => ({ method: "GET", path: inst(ctx) })),
    step(
      "update",
      (ctx) => ({
        method: "PATCH",
        path: inst(ctx),
        body: JSON.stringify({ institution: { address: `${++seq} Load Street`, settings: { auto_finalize: seq % 2 === 0 } } }),
      }),
      (_b, ctx) => updates.set(ctx.id as string, (updates.get(ctx.id as string) ?? 0) + 1),
    ),
    step("list", () => ({ method: "GET", path: "/api/v1/institutions" })),
    step(
      "cohort",
      (ctx) => ({ method: "POST", path: `${inst(ctx)}/cohorts`, body: JSON.stringify({ cohort: { name: `Cohort ${++seq}` } }) }),
      (body) => {
        const id = (body as { cohort?: { id?: string } } | undefined)?.cohort?.id;
        if (id) cohortIds.add(id);
      },
    ),
    step("events", () => ({ method: "GET", path: "/api/v1/admin/security_events?limit=20" })),
    step(
      "invite",
      (ctx) => ({
        method: "POST",
        path: "/api/v1/admin/invitations",
        body: JSON.stringify({
          institution_id: ctx.id ?? "missing",
          email: `invitee-${opts.tag}-${++seq}@load.test`,
          role: "cohort_admin",
        }),
      }),
      (body) => {
        const id = (body as { invitation?: { id?: string } } | undefined)?.invitation?.id;
        if (id) invitationIds.add(id);
      },
    ),
    step("alerts", () => ({ method: "GET", path: "/api/v1/admin/security_events/alerts" })),
    step("cohorts", (ctx) => ({ method: "GET", path: `${inst(ctx)}/cohorts` })),
  ];

  const drainSeconds = 2;
  const started = performance.now();
  const timer = setTimeout(() => {
    draining = true;
  }, opts.seconds * 1000);
  const instance = autocannon({
    url: url.origin,
    connections: opts.connections,
    duration: opts.seconds + drainSeconds,
    timeout: 10,
    requests,
  });
  const reqErrors: string[] = [];
  instance.on("reqError", (err) => reqErrors.push(err.message));
  const result = await instance;
  clearTimeout(timer);
  const elapsed = (performance.now() - started) / 1000;

  // --- figures -------------------------------------------------------------------------------------------
  const failures: string[] = [];
  const kinds: KindFigures[] = [];
  const measured: number[] = [];
  for (const kind of Object.keys(EXPECTED) as Kind[]) {
    const byStatus = statuses.get(kind) ?? new Map<number, number>();
    const lat = [...(latencies.get(kind) ?? [])].sort((a, b) => a - b);
    if (kind !== "drain") measured.push(...lat);
    const count = [...byStatus.values()].reduce((a, b) => a + b, 0);
    kinds.push({ kind, expected: EXPECTED[kind], count, statuses: byStatus, p50: percentile(lat, 50), p99: percentile(lat, 99) });
    for (const [status, n] of byStatus) {
      if (status >= 500) failures.push(`${kind}: ${n} × ${status} (a 5xx)`);
      else if (status !== EXPECTED[kind]) failures.push(`${kind}: ${n} × ${status}, expected only ${EXPECTED[kind]}`);
    }
    if (kind !== "drain" && count === 0) failures.push(`${kind}: no request answered`);
  }
  if (result.errors > 0 || result.timeouts > 0)
    failures.push(
      `autocannon: ${result.errors} connection error(s), ${result.timeouts} timeout(s) ${[...new Set(reqErrors)].slice(0, 3).join("; ")}`,
    );
  measured.sort((a, b) => a - b);

  // --- the count -----------------------------------------------------------------------------------------
  const report = await auditUsers(opts.users.map((u) => ({ userId: u.userId, accountId: u.accountId })));
  failures.push(...report.problems.map((p) => `audit: ${p}`));
  const ok = (k: Kind) => statuses.get(k)?.get(EXPECTED[k]) ?? 0;
  const existing = [...report.institutions.values()].filter((i) => i.exists);
  const storedCohorts = new Set(existing.flatMap((i) => [...i.cohortIds]));
  const storedInvitations = new Set(existing.flatMap((i) => [...i.invitationIds]));
  const counts = {
    creates: ok("create"),
    institutions: report.counts.institutions,
    institutionCreatedEvents: report.counts.institutionCreatedEvents,
    updates: ok("update"),
    institutionUpdatedEvents: report.counts.institutionUpdatedEvents,
    cohortCreates: ok("cohort"),
    cohorts: report.counts.cohorts,
    cohortCreatedEvents: report.counts.cohortCreatedEvents,
    invitationCreates: ok("invite"),
    invitations: report.counts.invitations,
    invitationCreatedEvents: report.counts.invitationCreatedEvents,
  };
  const same = (what: string, ...values: number[]) => {
    if (new Set(values).size !== 1) failures.push(`count: ${what} differ: ${values.join(" / ")}`);
  };
  same("201 creates / institutions / institution_created events", counts.creates, counts.institutions, counts.institutionCreatedEvents);
  same("200 updates / institution_updated events", counts.updates, counts.institutionUpdatedEvents);
  same("201 cohorts / cohorts / cohort_created events", counts.cohortCreates, counts.cohorts, counts.cohortCreatedEvents);
  same(
    "201 invitations / invitations / invitation_created events",
    counts.invitationCreates,
    counts.invitations,
    counts.invitationCreatedEvents,
  );
  for (const [id, userId] of created) {
    const stored = report.institutions.get(id);
    if (!stored?.exists) failures.push(`institution ${id} answered 201 but is not stored`);
    else if ((updates.get(id) ?? 0) !== stored.updatedEvents)
      failures.push(`institution ${id}: ${updates.get(id) ?? 0} × 200 updates, ${stored.updatedEvents} events`);
    if (!opts.users.some((u) => u.userId === userId)) failures.push(`institution ${id} of an unknown user`);
  }
  for (const id of cohortIds) if (!storedCohorts.has(id)) failures.push(`cohort ${id} answered 201 but is not stored`);
  for (const id of invitationIds) if (!storedInvitations.has(id)) failures.push(`invitation ${id} answered 201 but is not stored`);

  const seconds = Math.min(opts.seconds, elapsed);
  return {
    failures,
    kinds,
    requestsPerSecond: measured.length / seconds,
    p50: percentile(measured, 50),
    p99: percentile(measured, 99),
    max: measured.at(-1) ?? 0,
    total: measured.length,
    autocannon: result,
    counts,
  };
}

/** The report as a short table. */
export function formatReport(r: LoadReport, opts: Pick<LoadOptions, "seconds" | "connections" | "users">): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const lines = [
    `load: ${opts.connections} connections, ${opts.users.length} users in ${new Set(opts.users.map((u) => u.accountId)).size} accounts, ${opts.seconds} s (+2 s read-only drain)`,
    "",
    `${"request".padEnd(10)} ${"count".padStart(6)}  ${"p50".padStart(9)} ${"p99".padStart(9)}  statuses`,
    ...r.kinds.map(
      (k) =>
        `${k.kind.padEnd(10)} ${String(k.count).padStart(6)}  ${ms(k.p50).padStart(9)} ${ms(k.p99).padStart(9)}  ${[...k.statuses].map(([s, n]) => `${s}×${n}`).join(" ")}${[...k.statuses.keys()].every((s) => s === k.expected) ? "" : "  ✗"}`,
    ),
    "",
    `throughput ${r.requestsPerSecond.toFixed(1)} req/s (${r.total} requests, drain excluded); latency p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}`,
    `autocannon (whole run): ${r.autocannon.requests.average.toFixed(1)} req/s, p99 ${r.autocannon.latency.p99} ms, non-2xx ${r.autocannon.non2xx}, errors ${r.autocannon.errors}, timeouts ${r.autocannon.timeouts}`,
    "",
    "after the run                          answered  stored  events",
    `institutions (201 create)              ${String(r.counts.creates).padStart(8)} ${String(r.counts.institutions).padStart(7)} ${String(r.counts.institutionCreatedEvents).padStart(7)}`,
    `updates (200 PATCH)                    ${String(r.counts.updates).padStart(8)} ${"".padStart(7)} ${String(r.counts.institutionUpdatedEvents).padStart(7)}`,
    `cohorts (201 create)                   ${String(r.counts.cohortCreates).padStart(8)} ${String(r.counts.cohorts).padStart(7)} ${String(r.counts.cohortCreatedEvents).padStart(7)}`,
    `invitations (201 create)               ${String(r.counts.invitationCreates).padStart(8)} ${String(r.counts.invitations).padStart(7)} ${String(r.counts.invitationCreatedEvents).padStart(7)}`,
    "",
    r.failures.length === 0
      ? "OK: zero 5xx, only expected statuses, every accepted write stored with its event and nothing else"
      : `FAILED (${r.failures.length}):\n  ${r.failures.slice(0, 30).join("\n  ")}`,
  ];
  return lines.join("\n");
}
