/**
 * Rules of the security-event use cases that the other files do not reach, through the API: a refused
 * caller leaves no trace, an export of unknown types only is its header, the export stops where its
 * response would outgrow a Lambda response, and the alerts' sub-minute arithmetic at either end of a
 * minute (the request runs at a chosen instant through the local clock offset, see shared/clock.ts).
 */
import { describe, expect, it } from "vitest";
import type { EventType } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { paths } from "../../shared/routes.js";
import { MAX_EXPORT_BYTES } from "../../shared/security-events/service.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { parseCsv } from "../support/csv.js";
import { ALERTS, allEvents, EVENTS, EXPORT } from "../support/flows.js";
import { type Seed, seedEvents } from "../support/seed-events.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const HEADER = "id,event_type,created_at,user_id,user_email,ip_address,description,details\r\n";

const someone = (accountId: string): Caller => ({
  id: "u-rules",
  email: "rules@example.com",
  name: null,
  accountId,
  isCohortSuperAdmin: false,
  emailVerified: true,
  ip: "192.0.2.7",
});

const seeds = (account: string, type: EventType, at: readonly number[], details: Record<string, unknown> = {}): Seed[] =>
  at.map((ms, n) => ({ caller: someone(account), event: { type, details: { n, ...details } }, at: new Date(ms) }));

/** A fresh account (counts and trails accumulate) with its super admin's token. */
async function freshAccount() {
  const account = uniq("acct");
  return { account, admin: await token(uniqEmail("rules"), { superAdmin: true, account }) };
}

describe("security events: a refused caller", () => {
  it("gets 403 on all four endpoints, whatever the query, and leaves no event in the trail", async () => {
    const { account, admin } = await freshAccount();
    const plain = await token(uniqEmail("plain"), { account });
    const before = (await allEvents(admin)).map((e) => e.id);
    for (const [path, query] of [
      [EVENTS, { limit: "0" }],
      [`${EVENTS}/bad`, {}],
      [EXPORT, { from: "bad" }],
      [ALERTS, {}],
    ] as const) {
      expect((await call("GET", path, { token: plain, query })).status, path).toBe(403);
    }
    expect((await allEvents(admin)).map((e) => e.id)).toEqual(before);
  });
});

describe("security events: export", () => {
  it("only unknown types: the header row alone", async () => {
    const { account, admin } = await freshAccount();
    await seedEvents(seeds(account, "institution_created", [Date.now() - MINUTE]));
    const res = await call("GET", EXPORT, { token: admin, query: { event_type: "nope,also_nope" } });
    expect(res.status).toBe(200);
    expect(res.text).toBe(HEADER);
  });

  it("stops where the response would outgrow a Lambda response, at as many rows as fit", async () => {
    const { account, admin } = await freshAccount();
    // ~1.5 KB of quotes and line breaks per row, which CSV and then JSON escape again: 6,000 rows are far over.
    // Recorded before values were cut (`legacy`): no event recorded now carries a value this long.
    const heavy = { note: '"quoted", \r\n'.repeat(120) };
    const start = Date.now() - 2 * HOUR;
    await seedEvents(
      seeds(
        account,
        "institution_updated",
        Array.from({ length: 6_000 }, (_, i) => start + i * 1000),
        heavy,
      ),
      { legacy: true },
    );
    const res = await call("GET", EXPORT, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers["x-export-truncated"]).toBe("true");
    // What a Lambda response carries is the body as a JSON string.
    const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2;
    expect(jsonBytes(res.text)).toBeLessThanOrEqual(MAX_EXPORT_BYTES);
    const rows = parseCsv(res.text).slice(1);
    expect(rows.length).toBeGreaterThan(1_000);
    expect(rows.length).toBeLessThan(6_000);
    // Not fewer than fit: one more row of the same kind would have passed the bound.
    const lastRow = res.text.slice(res.text.lastIndexOf(String(rows.at(-1)?.[0])));
    expect(jsonBytes(res.text) + jsonBytes(lastRow)).toBeGreaterThan(MAX_EXPORT_BYTES);
  }, 120_000);
});

describe("security events: alerts within a minute", () => {
  /** The alerts as the API answers them at the instant `at` (a past instant, through the clock offset). */
  async function alertsAt(tok: string, at: number) {
    return ok(await apiClient(tok, { clockOffsetMs: at - Date.now() }).GET(`${paths.securityEvents}/alerts`));
  }
  // A whole minute some time ago, so every seeded instant is in the past.
  const base = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;

  it("early in a minute: of the window's first minute, only the events from its start", async () => {
    const { account, admin } = await freshAccount();
    const now = base + 10_000; // hh:mm:10, the window starts an hour earlier at the same second
    const first = now - HOUR - 10_000; // the first minute of the window
    await seedEvents([
      ...seeds(account, "unauthorized_institution_access", [first + 5_000]), // before the window
      ...seeds(account, "unauthorized_institution_access", [first + 30_000, first + 40_000]),
      ...seeds(account, "unauthorized_institution_access", [first + 30 * MINUTE, first + 30 * MINUTE + 1, first + 30 * MINUTE + 2]),
      ...seeds(
        account,
        "rate_limit_exceeded",
        Array.from({ length: 10 }, (_, i) => first + 30 * MINUTE + i),
      ),
    ]);
    const body = await alertsAt(admin, now);
    expect(body.summary).toEqual({ unauthorized_institution_access: 5, rate_limit_exceeded: 10, token_validation_failure: 0 });
    expect(body.alerts).toEqual([
      { type: "unauthorized_access", severity: "high", count: 5 },
      { type: "rate_limit", severity: "medium", count: 10 },
    ]);
  });

  it("late in a minute: of the window's first minute, only the events from its start", async () => {
    const { account, admin } = await freshAccount();
    const now = base + 50_000; // hh:mm:50
    const first = now - HOUR - 50_000;
    await seedEvents([
      ...seeds(
        account,
        "token_validation_failure",
        Array.from({ length: 5 }, (_, i) => first + 10_000 + i * 1000), // before the window
      ),
      ...seeds(account, "token_validation_failure", [first + 55_000, first + 56_000]),
      ...seeds(
        account,
        "token_validation_failure",
        Array.from({ length: 18 }, (_, i) => now - 45_000 + i * 1000), // the current minute
      ),
    ]);
    const body = await alertsAt(admin, now);
    expect(body.summary.token_validation_failure).toBe(20);
    expect(body.alerts).toEqual([{ type: "token_failures", severity: "high", count: 20 }]);
  });
});
