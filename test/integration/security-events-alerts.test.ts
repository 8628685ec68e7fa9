/**
 * Alerts over HTTP: summary keys always present, each threshold just below and at its value, events older
 * than an hour (also within seconds of the window's edge) not counted, events written by a real endpoint
 * counted, and account isolation. Each case has an account of its own, since counts accumulate.
 */
import { describe, expect, it } from "vitest";
import type { EventType } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { newId } from "../../shared/ids.js";
import { paths } from "../../shared/routes.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { type Seed, seedEvents } from "../support/seed-events.js";

const HOUR = 60 * 60 * 1000;
const ZERO = { unauthorized_institution_access: 0, rate_limit_exceeded: 0, token_validation_failure: 0 };

function seeds(account: string, type: EventType, count: number, at: (i: number) => number): Seed[] {
  const caller: Caller = {
    id: "u-alert",
    email: "alert@example.com",
    name: null,
    accountId: account,
    isCohortSuperAdmin: false,
    emailVerified: true,
    ip: "192.0.2.9",
  };
  return Array.from({ length: count }, (_, i) => ({ caller, event: { type, details: { n: i } }, at: new Date(at(i)) }));
}

/** A fresh account with its super admin's token. */
async function freshAccount() {
  const account = uniq("acct");
  return { account, admin: await token(uniqEmail("alerts"), { superAdmin: true, account }) };
}

async function alerts(tok: string) {
  return ok(await apiClient(tok).GET(`${paths.securityEvents}/alerts`));
}

describe("security events: alerts", () => {
  it("a quiet account: every counted type present at 0, no alerts, the last hour as time_range", async () => {
    const { admin } = await freshAccount();
    const before = Date.now();
    const body = await alerts(admin);
    expect(body.summary).toEqual(ZERO);
    expect(body.alerts).toEqual([]);
    const from = Date.parse(body.time_range.from);
    const to = Date.parse(body.time_range.to);
    expect(to - from).toBe(HOUR);
    expect(to).toBeGreaterThanOrEqual(before - 1000);
    expect(to).toBeLessThanOrEqual(Date.now() + 1000);
    expect(body.time_range.to).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("each threshold: no alert just below it (4, 9, 19), the alert at it (5, 10, 20)", async () => {
    const { account, admin } = await freshAccount();
    const now = Date.now();
    const spread = (i: number) => now - 50 * 60_000 + i * 37_000; // across many minutes of the window
    await seedEvents([
      ...seeds(account, "unauthorized_institution_access", 4, spread),
      ...seeds(account, "rate_limit_exceeded", 9, spread),
      ...seeds(account, "token_validation_failure", 19, spread),
      // Other types are not counted and raise nothing.
      ...seeds(account, "institution_created", 30, spread),
      ...seeds(account, "insufficient_privileges", 30, spread),
    ]);
    const below = await alerts(admin);
    expect(below.summary).toEqual({ unauthorized_institution_access: 4, rate_limit_exceeded: 9, token_validation_failure: 19 });
    expect(below.alerts).toEqual([]);

    await seedEvents([
      ...seeds(account, "unauthorized_institution_access", 1, () => now - 5 * 60_000),
      ...seeds(account, "rate_limit_exceeded", 1, () => now - 5 * 60_000),
      ...seeds(account, "token_validation_failure", 1, () => now - 5 * 60_000),
    ]);
    const at = await alerts(admin);
    expect(at.summary).toEqual({ unauthorized_institution_access: 5, rate_limit_exceeded: 10, token_validation_failure: 20 });
    expect(at.alerts).toEqual([
      { type: "unauthorized_access", severity: "high", count: 5 },
      { type: "rate_limit", severity: "medium", count: 10 },
      { type: "token_failures", severity: "high", count: 20 },
    ]);
  });

  it.each([
    ["unauthorized_institution_access", 5, { type: "unauthorized_access", severity: "high" }],
    ["rate_limit_exceeded", 10, { type: "rate_limit", severity: "medium" }],
    ["token_validation_failure", 20, { type: "token_failures", severity: "high" }],
  ] as const)("%s alone at %i raises only its own alert", async (type, threshold, alert) => {
    const { account, admin } = await freshAccount();
    const now = Date.now();
    await seedEvents(seeds(account, type, threshold - 1, (i) => now - 30 * 60_000 + i * 1000));
    expect((await alerts(admin)).alerts).toEqual([]);
    await seedEvents(seeds(account, type, 1, () => now - 1000));
    const body = await alerts(admin);
    expect(body.summary).toEqual({ ...ZERO, [type]: threshold });
    expect(body.alerts).toEqual([{ ...alert, count: threshold }]);
  });

  it("events older than an hour are not counted, also within seconds of the window's start", async () => {
    const { account, admin } = await freshAccount();
    const now = Date.now();
    // The window moves on by the time of the request, so keep a few seconds' margin either side of its start.
    const inside = [-50 * 60_000, -59 * 60_000, -HOUR + 8_000, -HOUR + 20_000, -HOUR + 35_000, -HOUR + 50_000];
    const outside = [-HOUR - 5_000, -HOUR - 25_000, -HOUR - 45_000, -61 * 60_000, -2 * HOUR, -24 * HOUR];
    await seedEvents([
      ...seeds(account, "unauthorized_institution_access", inside.length, (i) => now + (inside[i] ?? 0)),
      ...seeds(account, "unauthorized_institution_access", outside.length, (i) => now + (outside[i] ?? 0)),
      ...seeds(account, "token_validation_failure", 25, (i) => now - HOUR - 10_000 - i * 60_000),
    ]);
    const body = await alerts(admin);
    expect(body.summary).toEqual({ ...ZERO, unauthorized_institution_access: inside.length });
    expect(body.alerts).toEqual([{ type: "unauthorized_access", severity: "high", count: inside.length }]);
  });

  it("counts events written by the API itself (404s on institutions → unauthorized_institution_access)", async () => {
    const account = uniq("acct");
    const [admin, user] = await Promise.all([
      token(uniqEmail("alerts-admin"), { superAdmin: true, account }),
      token(uniqEmail("alerts-user"), { account }),
    ]);
    for (let i = 0; i < 5; i++) {
      const res = await call("GET", `${paths.institutions}/${newId()}`, { token: user });
      expect(res.status).toBe(404);
    }
    const body = await alerts(admin);
    expect(body.summary.unauthorized_institution_access).toBe(5);
    expect(body.alerts).toEqual([{ type: "unauthorized_access", severity: "high", count: 5 }]);
  });

  it("another account's super admin sees none of these counts", async () => {
    const { account } = await freshAccount();
    const other = await freshAccount();
    const now = Date.now();
    await seedEvents(seeds(account, "token_validation_failure", 25, (i) => now - i * 60_000));
    const body = await alerts(other.admin);
    expect(body.summary).toEqual(ZERO);
    expect(body.alerts).toEqual([]);
  });
});
