/**
 * The SSRF guard as a deployed stack runs it (docs/events-out.md), against DynamoDB Local: this test process has no
 * `WEBHOOK_ALLOW_LOOPBACK_HTTP` (the local stack's gateway has), so the create function and the delivery run
 * here exactly as in AWS. A URL aimed inside is answered 422 with the contract's body and leaves nothing
 * behind: no webhook, no count, no event. A delivery the guard refuses is a failed attempt, retried, then
 * failed; never a crash. Connections these tests could make go to loopback only.
 */
import { type AddressInfo, createServer, type Server } from "node:net";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handler as createHandler } from "../../functions/webhooks/create.js";
import { auditEvent, type StoredEvent } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { eventKeys, streamKeys } from "../../shared/tables.js";
import { webhookConfig } from "../../shared/webhooks/config.js";
import { deliver } from "../../shared/webhooks/deliver.js";
import { GUARD_MESSAGES } from "../../shared/webhooks/guard.js";
import type { WebhookRecord } from "../../shared/webhooks/repository.js";
import { uniq } from "../support/api.js";

const context = (): Context =>
  ({ awsRequestId: crypto.randomUUID(), functionName: "webhooks-create", getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

/** `POST` on `paths.webhooks` as API Gateway hands it to the function, for a super admin of `account`. */
function createEvent(account: string, url: string) {
  return {
    version: "2.0",
    routeKey: `POST ${paths.webhooks}`,
    rawPath: paths.webhooks,
    rawQueryString: "",
    headers: { "content-type": "application/json" },
    requestContext: {
      authorizer: {
        jwt: {
          claims: {
            sub: uniq("guard-admin"),
            email: "guard@example.com",
            email_verified: "true",
            name: "Guard",
            "cognito:groups": "[cohort_super_admin]",
            "custom:account_id": account,
            token_use: "id",
          },
          scopes: null,
        },
      },
      http: { method: "POST", path: paths.webhooks, protocol: "HTTP/1.1", sourceIp: "203.0.113.10", userAgent: "test" },
      requestId: uniq("req"),
      routeKey: `POST ${paths.webhooks}`,
      stage: "$default",
    },
    isBase64Encoded: false,
    body: JSON.stringify({ webhook: { url } }),
  };
}

async function create(account: string, url: string) {
  // biome-ignore lint/suspicious/noExplicitAny: a hand-built API Gateway event.
  const res = await createHandler(createEvent(account, url) as any, context());
  return { status: res.statusCode, body: JSON.parse(res.body ?? "null") };
}

/** Everything stored under the account: its webhooks and their count (main table), its trail (events table). */
async function storedFor(account: string) {
  const [hooks, events] = await Promise.all([
    db.send(
      new QueryCommand({
        TableName: config.tables.main,
        KeyConditionExpression: "pk = :p",
        ExpressionAttributeValues: { ":p": streamKeys.webhookCount(account).pk },
        ConsistentRead: true,
      }),
    ),
    db.send(
      new QueryCommand({
        TableName: config.tables.events,
        KeyConditionExpression: "pk = :p",
        ExpressionAttributeValues: { ":p": eventKeys.partition(account) },
        ConsistentRead: true,
      }),
    ),
  ]);
  return { hooks: hooks.Items ?? [], events: (events.Items ?? []) as StoredEvent[] };
}

describe("webhook SSRF guard, deployed mode", () => {
  it("runs here as deployed: no loopback exception in this process", () => {
    expect(webhookConfig.allowLoopbackHttp).toBe(false);
  });

  it("refuses URLs aimed inside with 422 and the contract's body, writing nothing", async () => {
    const account = uniq("acct-ssrf");
    const cases: [string, string][] = [
      ["https://127.0.0.1/", GUARD_MESSAGES.ipLiteral],
      ["https://169.254.169.254/latest/meta-data/", GUARD_MESSAGES.ipLiteral],
      ["https://[::ffff:10.0.0.1]/", GUARD_MESSAGES.ipLiteral],
      ["https://[fd00:ec2::254]/", GUARD_MESSAGES.ipLiteral],
      ["https://0.0.0.0/", GUARD_MESSAGES.ipLiteral],
      ["https://2130706433/", GUARD_MESSAGES.ipLiteral],
      ["https://user:pw@example.com/", GUARD_MESSAGES.credentials],
      ["https://localhost/", GUARD_MESSAGES.localName],
      ["https://metadata/computeMetadata/v1/", GUARD_MESSAGES.localName],
      ["https://example.com:22/", GUARD_MESSAGES.port],
      ["http://127.0.0.1:8080/hook", GUARD_MESSAGES.scheme],
    ];
    for (const [url, message] of cases) {
      const res = await create(account, url);
      expect(res, url).toEqual({ status: 422, body: { errors: [message] } });
    }
    expect(await storedFor(account)).toEqual({ hooks: [], events: [] });

    // The same function takes a public name (one that does not resolve here passes: deliveries check it),
    // and then the reads above do see the webhook, its count and its event.
    const ok = await create(account, "https://siem.example.test/in");
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const after = await storedFor(account);
    expect(after.hooks.map((h) => h.sk).sort()).toEqual(["COUNT", `HOOK#${ok.body.webhook.id}`]);
    expect(after.events.map((e) => e.event_type)).toEqual(["webhook_created"]);
  });
});

describe("a delivery the guard refuses", () => {
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("is a failed attempt, retried, then failed after the window; nothing connects", async () => {
    const account = uniq("acct-ssrf-dlv");
    const caller: Caller = {
      id: uniq("u"),
      email: "a@example.com",
      name: "A",
      accountId: account,
      isCohortSuperAdmin: true,
      emailVerified: true,
      ip: "203.0.113.1",
    };
    const e = auditEvent(caller, "webhook_created", { webhook_id: "x", url: "https://example.com/" });
    const event: StoredEvent = {
      id: e.id,
      account_id: account,
      event_type: e.type,
      user_id: caller.id,
      user_email: caller.email,
      user_name: caller.name,
      ip_address: caller.ip,
      details: e.details,
      description: "test",
      created_at: e.createdAt,
    };
    // As if stored before the guard existed (or written around it): the delivery checks again.
    const hook: WebhookRecord = {
      id: uniq("hook"),
      account_id: account,
      url: `https://127.0.0.1:${port}/in`,
      secret: `whsec_${Buffer.alloc(32, 1).toString("base64")}`,
      created_at: e.createdAt,
      created_by: caller.id,
      status: "enabled",
    };
    const t0 = new Date();
    const first = await deliver(hook, event, t0);
    expect(first).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect(first.last_error).toBe(`Refused by the address guard: ${GUARD_MESSAGES.ipLiteral}`);
    expect(first.next_attempt_at).not.toBeNull();

    const late = new Date(t0.getTime() + webhookConfig.retryWindowSeconds * 1000 + 60_000);
    const last = await deliver(hook, event, late);
    expect(last).toMatchObject({ status: "failed", attempts: 2, next_attempt_at: null });
    expect(last.last_error).toContain("Refused by the address guard");
    expect(connections).toBe(0);
  });
});
