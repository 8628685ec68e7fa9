/**
 * Hostile input against the routes that get events out (docs/events-out.md), through the real gateway: random
 * bodies, URLs of any content, filters of any type, prototype-pollution keys, and random path ids.
 *
 * The oracle is the contract's: 403 for a caller without cohort-super-admin status whatever the input; a
 * body that is not the object the route takes → 400; a URL that is not an allowed https URL → 422; an export
 * filter that is not a valid instant → 400; the bounds (5 webhooks, 2 running exports) → 429 with
 * `Retry-After`; anything but a real id of the caller's account → 404; never a 5xx. Afterwards: each 201 or
 * 202 left exactly one record and one event, nothing else was written, and every recorded value keeps the
 * recorded-value rule.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../shared/constants.js";
import { paths } from "../../shared/routes.js";
import { eventsOf } from "../integration/helpers.js";
import { token, uniq, uniqEmail } from "../support/api.js";
import {
  badId,
  eventsOutsideWhitelist,
  hit,
  hostileJson,
  hostileString,
  pollution,
  printTally,
  received,
  runs,
  seg,
  send,
  sometimes,
} from "./support.js";

const HOOKS = paths.webhooks;
const EXPORTS = `${paths.securityEvents}/exports`;

let admin: string;
let plain: string;
let other: string;
let foreignHook: string;
let foreignExport: string;

beforeAll(async () => {
  const account = uniq("acct");
  [admin, plain, other] = await Promise.all([
    token(uniqEmail("hostile-out"), { superAdmin: true, account }),
    token(uniqEmail("hostile-plain"), { account }),
    token(uniqEmail("hostile-other"), { superAdmin: true, account: uniq("acct") }),
  ]);
  foreignHook = (await send("POST", HOOKS, { token: other, json: { webhook: { url: "https://siem.example.test/other" } } })).body.webhook
    .id;
  foreignExport = (await send("POST", EXPORTS, { token: other, json: { format: "csv" } })).body.export.id;
});

afterAll(() => printTally("getting events out"));

/** Bodies of the webhook route: hostile JSON, hostile URLs in the right place, and https URLs with hostile parts. */
const webhookBody: fc.Arbitrary<unknown> = fc.oneof(
  hostileJson,
  fc.record({ webhook: fc.record({ url: hostileString }) }),
  fc.record({ webhook: hostileJson }),
  fc.record({ webhook: fc.record({ url: hostileString.map((s) => `https://siem.example.test/${s}`) }) }),
  fc.record({ webhook: fc.record({ url: hostileString.map((s) => `https://${s}/in`) }) }),
  pollution({ polluted: true }),
);

/** Bodies of the export route: the format and filters of any type, or none. */
const exportBody: fc.Arbitrary<unknown> = fc.oneof(
  hostileJson,
  fc.record(
    {
      format: fc.oneof(fc.constantFrom("csv", "jsonl", "CSV", "xml", ""), hostileJson),
      event_type: sometimes(fc.oneof(fc.constantFrom(...EVENT_TYPES), hostileString, hostileJson), 2),
      user_id: sometimes(fc.oneof(hostileString, hostileJson), 3),
      from: sometimes(
        fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          hostileString,
          hostileJson,
        ),
        3,
      ),
      to: sometimes(
        fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          hostileString,
          hostileJson,
        ),
        3,
      ),
    },
    { requiredKeys: ["format"] },
  ),
  pollution({ polluted: true }),
);

/** The contract's error bodies, by status. */
function expectErrorBody(status: number, body: unknown): void {
  if (status === 422) expect(body).toEqual({ errors: expect.arrayContaining([expect.any(String)]) });
  else expect(body).toEqual({ error: expect.any(String) });
}

describe("hostile input: exports and webhooks", () => {
  let created = 0;
  let started = 0;

  it("POST /webhooks: 201 / 400 / 422 / 429, never 5xx; a caller without the status always 403", async () => {
    await fc.assert(
      fc.asyncProperty(webhookBody, async (body) => {
        const refused = await hit("POST /webhooks", "POST", HOOKS, { token: plain, json: body });
        expect(refused.status).toBe(403);
        const res = await hit("POST /webhooks", "POST", HOOKS, { token: admin, json: body });
        expect([201, 400, 422, 429], res.text).toContain(res.status);
        if (res.status === 201) {
          created++;
          // What the handler read: a lone surrogate arrives as U+FFFD.
          const url = received((body as { webhook: { url: string } }).webhook.url);
          expect(res.body.webhook).toMatchObject({ url: url.trim(), secret: expect.stringMatching(/^whsec_/) });
          expect(url.trim()).toMatch(/^https:\/\//);
        } else {
          expectErrorBody(res.status, res.body);
          if (res.status === 429) expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
        }
      }),
      runs(120),
    );
    const listed = await send("GET", HOOKS, { token: admin });
    expect(listed.body.webhooks).toHaveLength(created);
    expect(created).toBeLessThanOrEqual(5);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
  });

  it("POST /security_events/exports: 202 / 400 / 429, never 5xx; a caller without the status always 403", async () => {
    await fc.assert(
      fc.asyncProperty(exportBody, async (body) => {
        const refused = await hit("POST /security_events/exports", "POST", EXPORTS, { token: plain, json: body });
        expect(refused.status).toBe(403);
        const res = await hit("POST /security_events/exports", "POST", EXPORTS, { token: admin, json: body });
        expect([202, 400, 429], res.text).toContain(res.status);
        if (res.status === 202) {
          started++;
          expect(res.body.export).toMatchObject({ status: "running", format: (body as { format: string }).format });
          const shown = await hit("GET /security_events/exports/{id}", "GET", `${EXPORTS}/${res.body.export.id}`, { token: admin });
          expect(shown.status).toBe(200);
        } else {
          expectErrorBody(res.status, res.body);
          if (res.status === 429) expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
        }
      }),
      // A plain valid body among the random ones, so that the 202 branch is always exercised.
      { ...runs(120), examples: [[{ format: "csv" }]] },
    );
    expect(started).toBeGreaterThan(0);
  });

  it("ids: anything but a real id of the caller's account is 404 (another account's included), never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(badId, fc.constantFrom(foreignHook, foreignExport)), async (id) => {
        for (const [endpoint, method, path] of [
          ["DELETE /webhooks/{id}", "DELETE", `${HOOKS}/${seg(id)}`],
          ["GET /webhooks/{id}/deliveries", "GET", `${HOOKS}/${seg(id)}/deliveries`],
          ["GET /security_events/exports/{id}", "GET", `${EXPORTS}/${seg(id)}`],
        ] as const) {
          const res = await hit(endpoint, method, path, { token: admin });
          if (res.targetBytes > 14_000) expect(res.status).toBeLessThan(500);
          else expect({ path: endpoint, status: res.status }).toEqual({ path: endpoint, status: 404 });
        }
      }),
      runs(80),
    );
    // The other account's webhook and export are untouched.
    expect((await send("GET", HOOKS, { token: other })).body.webhooks.map((w: { id: string }) => w.id)).toContain(foreignHook);
    expect((await send("GET", `${EXPORTS}/${foreignExport}`, { token: other })).status).toBe(200);
  });

  it("afterwards: one event per webhook created and per export started, every recorded value on one line", async () => {
    const events = await eventsOf(admin);
    expect(events.filter((e) => e.event_type === "webhook_created")).toHaveLength(created);
    expect(events.filter((e) => e.event_type === "security_events_exported")).toHaveLength(started);
    expect(eventsOutsideWhitelist(events as unknown as Record<string, unknown>[])).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
