/**
 * The request budget of the security-event reads, counted at the SDK against the local DynamoDB: a list
 * page is one Query, show one GetItem, alerts one counter Query plus at most one COUNT Query per counted
 * type, export one Query per page and type plus its event. Never a Scan, never a FilterExpression, and
 * every Query is on the caller's own partition.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventType } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { dynamo } from "../../shared/clients.js";
import { exportSecurityEvents, listSecurityEvents, securityAlerts, showSecurityEvent } from "../../shared/security-events/service.js";
import { uniq } from "../support/api.js";
import { seedEvents } from "../support/seed-events.js";

const sent: { command: string; input: Record<string, unknown> }[] = [];
const MIDDLEWARE = "security-events-budget";

beforeAll(() => {
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({ command: String(context.commandName).replace(/Command$/, ""), input: { ...(args.input as Record<string, unknown>) } });
      return next(args);
    },
    { step: "initialize", name: MIDDLEWARE },
  );
});
afterAll(() => {
  dynamo.middlewareStack.remove(MIDDLEWARE);
});

async function counted(fn: () => Promise<unknown>) {
  sent.length = 0;
  await fn();
  return [...sent];
}

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

  const onlyOwnPartition = (requests: { command: string; input: Record<string, unknown> }[]) => {
    for (const { command, input } of requests) {
      expect(command).not.toBe("Scan");
      expect(input).not.toHaveProperty("FilterExpression");
      if (command === "Query") {
        const values = JSON.stringify(input.ExpressionAttributeValues);
        expect(values).toContain(account);
      }
    }
  };

  it("list page: one Query, whatever the filters, also with a cursor", async () => {
    for (const query of [
      {},
      { user_id: "u1" },
      { event_type: "rate_limit_exceeded" },
      { user_id: "u2", event_type: "institution_created", from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" },
    ]) {
      let cursor: string | undefined;
      for (let page = 0; page < 3; page++) {
        let next: string | null = null;
        const requests = await counted(async () => {
          next = (await listSecurityEvents(admin, { ...query, limit: "20", ...(cursor && { cursor }) })).meta.next_cursor;
        });
        expect(requests.map((r) => r.command)).toEqual(["Query"]);
        expect(requests[0]?.input.Limit).toBe(21);
        onlyOwnPartition(requests);
        cursor = next ?? undefined;
        if (!cursor) break;
      }
    }
  });

  it("show: one GetItem", async () => {
    const requests = await counted(() => showSecurityEvent(admin, ids[5]));
    expect(requests.map((r) => r.command)).toEqual(["GetItem"]);
  });

  it("alerts: one counter Query plus at most one COUNT Query per counted type", async () => {
    const requests = await counted(() => securityAlerts(admin));
    expect(requests[0]?.command).toBe("Query");
    expect(requests.length).toBeLessThanOrEqual(4);
    for (const r of requests.slice(1)) expect(r.input).toMatchObject({ IndexName: "by_account_type", Select: "COUNT" });
    onlyOwnPartition(requests);
  });

  it("export: one Query per type (pages of up to 1,000), then the event's transaction", async () => {
    const all = await counted(() => exportSecurityEvents(admin, {}));
    expect(all.map((r) => r.command)).toEqual(["Query", "TransactWriteItems"]);
    const typed = await counted(() =>
      exportSecurityEvents(admin, { event_type: "institution_created,rate_limit_exceeded,token_validation_failure" }),
    );
    expect(typed.map((r) => r.command)).toEqual(["Query", "Query", "Query", "TransactWriteItems"]);
    onlyOwnPartition(typed);
  });
});
