/**
 * The design's promise for the security-event reads, at the SDK against the local DynamoDB: no Scan and no
 * filter; a list page reads the page (and one more event, to know of a next page), show the one event,
 * alerts at most an hour of minute counters and the events of one minute; an export reads what it writes
 * out and logs itself in one transaction. Every Query is on the caller's own partition.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { EventType } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { dynamo } from "../../shared/clients.js";
import { exportSecurityEvents, listSecurityEvents, securityAlerts, showSecurityEvent } from "../../shared/security-events/service.js";
import { uniq } from "../support/api.js";
import { expectWithinDesign, requestCounter, type SentRequest } from "../support/requests.js";
import { seedEvents } from "../support/seed-events.js";

const counted = requestCounter(dynamo);

const TYPES: EventType[] = ["institution_created", "unauthorized_institution_access", "rate_limit_exceeded", "token_validation_failure"];

describe("security events: request budget", () => {
  const account = uniq("acct");
  const admin: Caller = {
    id: uniq("admin"),
    email: "budget@example.com",
    name: null,
    accountId: account,
    isCohortSuperAdmin: true,
    emailVerified: true,
    ip: "192.0.2.1",
  };
  let ids: string[] = [];

  beforeAll(async () => {
    const now = Date.now();
    ids = await seedEvents(
      Array.from({ length: 240 }, (_, i) => ({
        caller: { ...admin, id: `u${i % 3}` },
        event: { type: TYPES[i % TYPES.length] as EventType, details: { n: i } },
        at: new Date(now - 90 * 60_000 + i * 20_000),
      })),
    );
  });

  const onlyOwnPartition = (requests: readonly SentRequest[]) => {
    for (const { command, input } of requests)
      if (command === "Query") expect(JSON.stringify(input.ExpressionAttributeValues)).toContain(account);
  };

  it("list page: reads the page and one more, whatever the filters, also with a cursor", async () => {
    for (const query of [
      {},
      { user_id: "u1" },
      { event_type: "rate_limit_exceeded" },
      { user_id: "u2", event_type: "institution_created", from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" },
    ]) {
      let cursor: string | undefined;
      for (let page = 0; page < 3; page++) {
        const { result, requests } = await counted(() => listSecurityEvents(admin, { ...query, limit: "20", ...(cursor && { cursor }) }));
        // User and type: a page of the user's events, keeping the type's (the one filter of the design).
        const filter = "user_id" in query && "event_type" in query ? "#type = :type" : undefined;
        expectWithinDesign(requests, { maxItemsRead: 21, change: false, ...(filter && { filter }) });
        onlyOwnPartition(requests);
        cursor = result.meta.next_cursor ?? undefined;
        if (!cursor) break;
      }
    }
  });

  it("show: reads the one event", async () => {
    const { result, requests } = await counted(() => showSecurityEvent(admin, ids[5] ?? ""));
    expect(result.id).toBe(ids[5]);
    expectWithinDesign(requests, { maxItemsRead: 1, change: false });
  });

  it("alerts: at most an hour of minute counters and the events of one minute per counted type", async () => {
    const { requests } = await counted(() => securityAlerts(admin));
    // 61 minutes of counters; the 240 seeded events are 3 a minute, of 4 types.
    expectWithinDesign(requests, { maxItemsRead: 61 + 3 * 3, change: false });
    onlyOwnPartition(requests);
  });

  it("export: reads the rows it writes out, and logs itself in one transaction", async () => {
    const all = await counted(() => exportSecurityEvents(admin, {}));
    expectWithinDesign(all.requests, { maxItemsRead: 240, change: true });
    const typed = await counted(() =>
      exportSecurityEvents(admin, { event_type: "institution_created,rate_limit_exceeded,token_validation_failure" }),
    );
    expectWithinDesign(typed.requests, { maxItemsRead: 180 + 1, change: true });
    onlyOwnPartition(typed.requests);
  });
});
