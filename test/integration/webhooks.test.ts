/**
 * Webhooks end to end (docs/events-out.md): a receiver on this machine gets every event of the account from the
 * events table's stream (DynamoDB Local's, polled by the local stack), each signature verified with the
 * `standardwebhooks` verifier; it fails its first three attempts, and the retries still deliver every event.
 * Also the API: create (secret once), list, delete, deliveries, the bounds and account isolation, and a
 * receiver that keeps failing for the retry window: disabled, with its event.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asFunction } from "../../infra/local/function-scope.js";
import { paths } from "../../shared/routes.js";
import { webhookConfig } from "../../shared/webhooks/config.js";
import { deliver } from "../../shared/webhooks/deliver.js";
import { getWebhook } from "../../shared/webhooks/repository.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { createInstitution } from "../support/flows.js";
import { tokenWithoutSignIn } from "../support/jwt.js";
import { type Received, receiver, until } from "../support/webhook-receiver.js";
import { eventsOf } from "./helpers.js";

const HOOKS = paths.webhooks;
const HOOK = `${paths.webhooks}/{id}` as const;

describe("webhooks", () => {
  const account = uniq("acct");
  let admin: string;
  let plain: string;
  let other: string;
  let hook: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    // Tokens minted without a sign-in: the account's trail holds the events this file causes alone.
    admin = tokenWithoutSignIn(uniqEmail("wh-admin"), { superAdmin: true, account });
    plain = tokenWithoutSignIn(uniqEmail("wh-plain"), { account });
    other = tokenWithoutSignIn(uniqEmail("wh-other"), { superAdmin: true, account: uniq("acct") });
    hook = await receiver(3);
  });
  afterAll(() => hook?.close());

  it("delivers every event of the account, signed, through three failed attempts", async () => {
    const api = apiClient(admin);
    const { id, secret } = ok(await api.POST(HOOKS, { body: { webhook: { url: hook.url } } }), 201).webhook;
    expect(secret).toMatch(/^whsec_/);

    // Events in the account: an institution created, two lookups refused, a refused export by a plain admin.
    ok(await api.POST(paths.institutions, { body: { institution: { name: `Hooked ${uniq("i")}` } } }), 201);
    for (const bad of ["01KYYYYYYYYYYYYYYYYYYYYYY1", "01KYYYYYYYYYYYYYYYYYYYYYY2"]) {
      expect((await call("GET", `${paths.institutions}/${bad}`, { token: admin })).status).toBe(404);
    }
    const list = ok(await api.GET(paths.securityEvents, { params: { query: { limit: 200 } } }));
    const ids = list.events.map((e) => e.id);
    expect(ids.length).toBe(4); // webhook_created, institution_created, 2 × unauthorized_institution_access

    const verifier = new Webhook(secret);
    const delivered = await until("every event delivered", async () => {
      const done = new Set(hook.received.filter((r) => r.answered === 204).map((r) => r.headers["webhook-id"]));
      return ids.every((i) => done.has(i)) ? done : undefined;
    });
    expect([...delivered].sort()).toEqual([...ids].sort());
    expect(hook.received.slice(0, 3).map((r) => r.answered)).toEqual([500, 500, 500]);

    for (const r of hook.received) {
      const payload = verifier.verify(r.body, r.headers) as { type: string; timestamp: string; data: { id: string } };
      expect(payload.data.id).toBe(r.headers["webhook-id"]);
      const shown = ok(await api.GET(`${paths.securityEvents}/{id}`, { params: { path: { id: payload.data.id } } }));
      expect(payload).toEqual({ type: shown.event_type, timestamp: shown.created_at, data: shown });
    }
    // A forged body does not verify.
    const sample = hook.received.at(-1) as Received;
    expect(() => verifier.verify(sample.body.replace("}", ',"x":1}'), sample.headers)).toThrow();

    const { deliveries } = ok(await api.GET(`${HOOK}/deliveries`, { params: { path: { id } } }));
    expect(deliveries.map((d) => d.event_id).sort()).toEqual([...ids].sort());
    expect(deliveries.every((d) => d.status === "delivered")).toBe(true);
    const retried = deliveries.filter((d) => d.attempts > 1);
    expect(retried.length).toBeGreaterThan(0);
  });

  it("lists without secrets, deletes with an event; other accounts see none of it", async () => {
    const api = apiClient(admin);
    const { id } = ok(await api.POST(HOOKS, { body: { webhook: { url: "https://siem.example.test/in" } } }), 201).webhook;
    const list = ok(await api.GET(HOOKS));
    expect(list.webhooks.map((w) => w.id)).toContain(id);
    expect(JSON.stringify(list)).not.toContain("whsec_");
    expect(ok(await apiClient(other).GET(HOOKS)).webhooks).toEqual([]);
    expect((await call("DELETE", `${HOOKS}/${id}`, { token: other })).status).toBe(404);
    expect((await call("GET", `${HOOKS}/${id}/deliveries`, { token: other })).status).toBe(404);

    expect(ok(await api.DELETE(HOOK, { params: { path: { id } } }))).toEqual({ message: "Webhook deleted" });
    expect((await call("DELETE", `${HOOKS}/${id}`, { token: admin })).status).toBe(404);
    const events = ok(await api.GET(paths.securityEvents, { params: { query: { event_type: "webhook_deleted" } } }));
    expect(events.events[0]?.details).toEqual({ webhook_id: id, url: "https://siem.example.test/in" });
  });

  it("https only (loopback http on the local stack), a super admin's, at most 5 per account", async () => {
    const mine = uniq("acct");
    const tok = await token(uniqEmail("wh-five"), { superAdmin: true, account: mine });
    for (const [body, status] of [
      [{ webhook: { url: "http://siem.example.test/in" } }, 422],
      [{ webhook: { url: "ftp://siem.example.test/in" } }, 422],
      [{ webhook: { url: "https://user:pw@siem.example.test/in" } }, 422],
      // The SSRF guard holds on the local stack too, but for loopback (webhooks-guard.test.ts: as deployed).
      [{ webhook: { url: "https://169.254.169.254/latest/meta-data/" } }, 422],
      [{ webhook: { url: "https://[::ffff:10.0.0.1]/" } }, 422],
      [{ webhook: { url: "http://192.168.1.1/" } }, 422],
      [{ webhook: { url: "not a url" } }, 422],
      [{ url: "https://siem.example.test/in" }, 400],
    ] as const) {
      const res = await call("POST", HOOKS, { token: tok, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect((await call("POST", HOOKS, { token: plain, body: { webhook: { url: "https://a.example.test/" } } })).status).toBe(403);
    expect((await call("GET", HOOKS, { token: plain })).status).toBe(403);
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", HOOKS, { token: tok, body: { webhook: { url: `https://siem.example.test/${i}` } } });
      expect(res.status).toBe(201);
    }
    const sixth = await call("POST", HOOKS, { token: tok, body: { webhook: { url: "https://siem.example.test/6" } } });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: "At most 5 webhooks per account" });
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
    expect((await call("GET", HOOKS, { token: tok })).body.webhooks).toHaveLength(5);
  });

  // Either function that delivers may make the disabling attempt: each runs as itself, so the IAM check holds its
  // writes (webhook_disabled included) to its own role (docs/iam.md).
  for (const disabler of ["webhooks/retry", "streaming/consume"] as const) {
    it(`a receiver failing for the whole retry window is disabled (by ${disabler}), recorded as webhook_disabled, and gets nothing more`, async () => {
      const mine = uniq("acct");
      const tok = await token(uniqEmail("wh-dead"), { superAdmin: true, account: mine });
      const dead = await receiver(Number.POSITIVE_INFINITY);
      try {
        const created = await call("POST", HOOKS, { token: tok, body: { webhook: { url: dead.url } } });
        expect(created.status).toBe(201);
        const id: string = created.body.webhook.id;
        // The stack's consumer fails its first delivery: the webhook is failing from then on.
        const failing = await until(
          "the webhook failing",
          async () => {
            const listed = (await call("GET", HOOKS, { token: tok })).body.webhooks.find((w: { id: string }) => w.id === id);
            return listed?.failing_since ? listed : undefined;
          },
          20_000,
        );
        expect(failing).toMatchObject({ status: "enabled", disabled_at: null });

        // A day later (this process delivers with a clock of its own; its attempts fail too): one more failure.
        const [event] = await eventsOf(tok);
        const record = await getWebhook(mine, id);
        if (!event || !record) throw new Error("no event or no webhook record");
        const later = new Date(Date.parse(failing.failing_since) + webhookConfig.retryWindowSeconds * 1000 + 60_000);
        const attempt = await asFunction(disabler, () => deliver(record, { ...event, id: `${event.id}-later` }, later));
        expect(attempt.status).not.toBe("delivered");

        const listed = (await call("GET", HOOKS, { token: tok })).body.webhooks.find((w: { id: string }) => w.id === id);
        expect(listed).toMatchObject({ status: "disabled", failing_since: failing.failing_since, disabled_at: later.toISOString() });
        const trail = await call("GET", paths.securityEvents, { token: tok, query: { event_type: "webhook_disabled" } });
        expect(trail.body.events).toHaveLength(1);
        expect(trail.body.events[0].details).toMatchObject({ webhook_id: id, url: dead.url, failing_since: failing.failing_since });

        // Disabled: the next event of the account reaches a healthy webhook of the account, and not this one.
        const healthy = await receiver(0);
        try {
          expect((await call("POST", HOOKS, { token: tok, body: { webhook: { url: healthy.url } } })).status).toBe(201);
          const attempts = dead.received.length;
          const made = await call("POST", paths.institutions, { token: tok, body: { institution: { name: uniq("After U") } } });
          expect(made.status).toBe(201);
          await until("the new event at the healthy webhook", async () =>
            healthy.received.some((r) => r.body.includes(made.body.institution.id)) ? true : undefined,
          );
          expect(dead.received.length).toBe(attempts);
        } finally {
          await healthy.close();
        }
      } finally {
        await dead.close();
      }
    });
  }

  it("receivers are isolated: a delivery to a healthy receiver completes while a slow one (5 s) still holds its own", async () => {
    const slowAccount = uniq("acct");
    const healthyAccount = uniq("acct");
    const [slowAdmin, healthyAdmin, slow, healthy] = await Promise.all([
      token(uniqEmail("wh-slow"), { superAdmin: true, account: slowAccount }),
      token(uniqEmail("wh-healthy"), { superAdmin: true, account: healthyAccount }),
      receiver(0, { delayMs: 5_000 }),
      receiver(0),
    ]);
    try {
      const slowHook = await call("POST", HOOKS, { token: slowAdmin, body: { webhook: { url: slow.url } } });
      expect(slowHook.status).toBe(201);
      expect((await call("POST", HOOKS, { token: healthyAdmin, body: { webhook: { url: healthy.url } } })).status).toBe(201);
      // The slow receiver's first delivery: it answers in 5 s, and the service notes the receiver is slow.
      await createInstitution(slowAdmin);
      await until("the slow receiver's first answer", async () => slow.received[0]?.answeredAt);
      await until("the receiver noted slow", async () => (await getWebhook(slowAccount, slowHook.body.webhook.id))?.slow_since);
      // Then an event for the slow receiver, and once its request is held open, one for the healthy receiver.
      await createInstitution(slowAdmin);
      const held = await until("the slow receiver's second request", async () => slow.received[1]);
      await createInstitution(healthyAdmin);
      const got = await until("the healthy receiver's delivery", async () => healthy.received[0]);
      // The healthy delivery arrived while the slow receiver still held its request: nothing waited for it.
      // (Compared by time, not read as "still unanswered" now: on a busy machine the 5 s may end between the two reads.)
      expect(got.arrivedAt).toBeLessThan(held.answeredAt ?? Number.POSITIVE_INFINITY);
    } finally {
      await Promise.all([slow.close(), healthy.close()]);
    }
  }, 120_000);
});
