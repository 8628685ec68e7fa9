/**
 * Full exports (docs/events-out.md) through the local stack, worker and s3rver included: the CSV equals the
 * synchronous export's, JSON Lines equal what show returns, filters, the link, the event, the bounds (403,
 * 400, 404, 429 with Retry-After) and account isolation.
 */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { streamKeys } from "../../shared/tables.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { awaitExport, EXPORTS, runExport } from "../support/exports.js";
import { type Seed, seedEvents } from "../support/seed-events.js";

const BASE = Date.UTC(2024, 5, 1, 8, 0, 0);

function person(account: string, id: string, email: string, ip: string): Caller {
  return { id, email, name: `Name of ${id}`, accountId: account, isCohortSuperAdmin: false, emailVerified: true, ip };
}

describe("full exports", () => {
  const account = uniq("acct");
  let admin: string;
  let plain: string;
  let otherAdmin: string;
  let ids: string[];

  beforeAll(async () => {
    const seeds: Seed[] = [
      [
        person(account, "u-1", "one@example.com", "203.0.113.5"),
        "institution_created",
        { institution_id: "I1", name: 'Acme, "Best"\r\nCampus' },
      ],
      [person(account, "-u-2", "=cmd@evil.test", "@203.0.113.6"), "unauthorized_institution_access", { attempted_institution_id: "+1234" }],
      [person(account, "u-1", "one@example.com", "203.0.113.5"), "rate_limit_exceeded", { email: "a,b@x.test", limit: 3 }],
      [person(account, "u-3", "three@example.com", "203.0.113.7"), "institution_created", { institution_id: "I2", name: "Ünïcødé ✓ 大学" }],
    ].map(([caller, type, details], i) => ({
      caller: caller as Caller,
      event: { type: type as Seed["event"]["type"], details: details as Record<string, unknown> },
      at: new Date(BASE + i * 60_000),
    }));
    [admin, plain, otherAdmin, ids] = await Promise.all([
      token(uniqEmail("fx-admin"), { superAdmin: true, account }),
      token(uniqEmail("fx-plain"), { account }),
      token(uniqEmail("fx-other"), { superAdmin: true, account: uniq("acct") }),
      seedEvents(seeds),
    ]);
  });

  it("CSV: the synchronous export's file, without its cap, with a link to S3 valid 15 minutes", async () => {
    const filters = { from: "2024-06-01T00:00:00Z", to: "2024-06-02T00:00:00Z" };
    const before = Date.now();
    const { export: e, file } = await runExport(admin, { format: "csv", ...filters });
    expect(e).toMatchObject({ status: "succeeded", format: "csv", row_count: 4 });
    expect(e.filters).toEqual({ event_type: null, user_id: null, from: "2024-06-01T00:00:00.000Z", to: "2024-06-02T00:00:00.000Z" });
    const sync = await call("GET", `${paths.securityEvents}/export`, { token: admin, query: filters });
    expect(file).toBe(sync.text);
    expect(Date.parse(String(e.expires_at)) - before).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(String(e.expires_at)) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(Date.parse(String(e.file_expires_at)) - Date.parse(String(e.completed_at))).toBe(7 * 86_400_000);
    const url = new URL(String(e.download_url));
    expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
  });

  it("JSON Lines: each line is the event as show returns it, newest first, with the list's filters", async () => {
    const { export: e, file } = await runExport(admin, { format: "jsonl", event_type: "institution_created", to: "2024-12-31T00:00:00Z" });
    expect(e.row_count).toBe(2);
    const lines = file
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([ids[3], ids[0]]);
    for (const line of lines) {
      const shown = await call("GET", `${paths.securityEvents}/${line.id}`, { token: admin });
      expect(line).toEqual(shown.body);
    }
    const byUser = await runExport(admin, { format: "jsonl", user_id: "u-1", to: "2024-12-31T00:00:00Z" });
    expect(
      byUser.file
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual([ids[2], ids[0]]);
  });

  it("is recorded as security_events_exported with the export id, format and filters", async () => {
    const res = await call("POST", EXPORTS, { token: admin, body: { format: "jsonl", user_id: "nobody" } });
    expect(res.status).toBe(202);
    const id = res.body.export.id;
    const list = await call("GET", paths.securityEvents, {
      token: admin,
      query: { event_type: "security_events_exported", from: new Date(Date.now() - 60_000).toISOString() },
    });
    const logged = list.body.events.find((ev: { details: { export_id?: string } }) => ev.details.export_id === id);
    expect(logged.details).toEqual({
      export_id: id,
      format: "jsonl",
      filters: { event_type: null, user_id: "nobody", from: null, to: null },
    });
    expect(logged.description).toContain("started a full export (jsonl)");
    const done = await awaitExport(admin, id);
    expect(done.export.row_count).toBe(0);
    expect(done.file).toBe("");
  });

  it("403 for a user who is not a cohort super admin, 400 for a bad body", async () => {
    const res = await call("POST", EXPORTS, { token: plain, body: { format: "csv" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Super admin access required" });
    for (const [body, error] of [
      [{ format: "xlsx" }, "Invalid format: must be csv or jsonl"],
      [{}, "Invalid format: must be csv or jsonl"],
      [{ format: "csv", from: "soon" }, "Invalid from: must be an ISO 8601 timestamp"],
      [{ format: "csv", from: "2024-06-02", to: "2024-06-01" }, "Invalid range: from must not be after to"],
      [{ format: "csv", user_id: 7 }, "Invalid filter: user_id, user_email and event_type must be strings"],
      [{ format: "csv", user_email: ["a@b.test"] }, "Invalid filter: user_id, user_email and event_type must be strings"],
    ] as const) {
      const bad = await call("POST", EXPORTS, { token: admin, body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toEqual({ error });
    }
  });

  it("another account's export, or an unknown id, is 404", async () => {
    const res = await call("POST", EXPORTS, { token: admin, body: { format: "csv" } });
    const id = res.body.export.id;
    for (const [tok, path] of [
      [otherAdmin, `${EXPORTS}/${id}`],
      [admin, `${EXPORTS}/01ARZ3NDEKTSV4RRFFQ69G5FAV`],
      [admin, `${EXPORTS}/nope`],
    ] as const) {
      const r = await call("GET", path, { token: tok });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "Export not found" });
    }
    await awaitExport(admin, id);
  });

  it("at most 2 running exports per account: 429 with Retry-After, free again once a lease is over", async () => {
    const busy = uniq("acct");
    const busyAdmin = await token(uniqEmail("fx-busy"), { superAdmin: true, account: busy });
    const lease = Date.now() + 10 * 60_000;
    const hold = (n: number, until: number) =>
      db.send(
        new PutCommand({
          TableName: config.tables.main,
          Item: { ...streamKeys.exportSlot(busy, n), export_id: `held-${n}`, lease_until: until },
        }),
      );
    await Promise.all([hold(0, lease), hold(1, lease)]);
    const res = await call("POST", EXPORTS, { token: busyAdmin, body: { format: "csv" } });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: "Too many exports running, try again later" });
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(60);
    // A slot whose worker died (lease over) is taken again.
    await hold(1, Date.now() - 1);
    const again = await call("POST", EXPORTS, { token: busyAdmin, body: { format: "csv" } });
    expect(again.status).toBe(202);
    expect((await awaitExport(busyAdmin, again.body.export.id)).export.status).toBe("succeeded");
  });
});
