/**
 * Retention (docs/trail.md): an event past `EVENT_RETENTION_DAYS` is never listed, shown, exported, counted
 * or digested, even while DynamoDB's TTL (days late) has not deleted it yet. The use cases take the clock as
 * an argument: here it is moved past the retention of an older event, and not of a newer one.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { eventExpiry } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { exportSecurityEvents, listSecurityEvents, showSecurityEvent } from "../../shared/security-events/service.js";
import { eventKeys } from "../../shared/tables.js";
import { runDigester } from "../../shared/trail/digester.js";
import { localSignerFromEnv } from "../../shared/trail/local-signer.js";
import { listDigests } from "../../shared/trail/service.js";
import { uniq } from "../support/api.js";
import { seedEvents } from "../support/seed-events.js";

const HOUR = 3_600_000;
const DAY = 86_400_000;

describe("retention", () => {
  it("an event past its retention is not listed, shown, exported, counted or digested", async () => {
    const account = uniq("retention");
    const caller: Caller = {
      id: uniq("u"),
      email: "keeper@example.com",
      name: "Keeper",
      emailVerified: true,
      accountId: account,
      isCohortSuperAdmin: true,
      ip: "192.0.2.9",
    };
    const h0 = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;
    const [old, recent] = await seedEvents(
      [h0 + 60_000, h0 + 2 * HOUR + 60_000].map((ms) => ({
        caller,
        event: { type: "insufficient_privileges" as const, details: { action: "update_institution", required_role: "super_admin" } },
        at: new Date(ms),
      })),
    );
    // Both stored, each with its TTL.
    const stored = await db.send(new GetCommand({ TableName: config.tables.events, Key: eventKeys.event(old as string, account) }));
    expect(stored.Item?.ttl).toBe(eventExpiry(new Date(h0 + 60_000).toISOString()));

    // An hour after the older event's retention ended; the newer one has an hour left.
    const now = new Date(h0 + 60_000 + config.eventRetentionDays * DAY + HOUR);

    for (const query of [
      {},
      { user_id: caller.id },
      { event_type: "insufficient_privileges" },
      { user_id: caller.id, event_type: "insufficient_privileges" },
    ]) {
      const page = await listSecurityEvents(caller, query, now);
      expect(page.events.map((e) => e.id)).toEqual([recent]);
      expect(page.meta.count).toBe(1);
    }
    // Asking for the old instant explicitly does not bring it back either.
    const asked = await listSecurityEvents(caller, { from: new Date(h0).toISOString(), to: new Date(h0 + HOUR).toISOString() }, now);
    expect(asked.events).toEqual([]);

    await expect(showSecurityEvent(caller, old, now)).rejects.toThrow("Security event not found");
    expect((await showSecurityEvent(caller, recent, now)).id).toBe(recent);

    const csv = await exportSecurityEvents(caller, {}, now);
    const rows = csv.csv.trim().split("\r\n").slice(1);
    expect(rows.map((r) => r.split(",")[0])).toEqual([recent]);

    const digests = await runDigester({ now, signer: localSignerFromEnv(), from: h0, until: h0 + 3 * HOUR, accounts: [account] });
    const mine = digests.filter((d) => d.account_id === account);
    expect(mine.map((d) => [d.period_start, d.event_count])).toEqual([[new Date(h0 + 2 * HOUR).toISOString(), 1]]);
    expect((await listDigests(caller, {}, now)).digests.map((d) => d.period_start)).toEqual([new Date(h0 + 2 * HOUR).toISOString()]);
  });
});
