/**
 * The EventBridge side of the events stream (docs/events-out.md): events recorded through the local API reach the
 * bus from DynamoDB Local's real stream, through the stream consumer's selection of events and its bus
 * publishing (not its webhook deliveries: those belong to the local stack's own consumer), each as one entry
 * (`source: institution-admin`, `detail-type: <event_type>`, `detail: <the event as show returns it>`).
 * There is no local EventBridge, so a server on this machine answers PutEvents (AWS JSON 1.1) and keeps what
 * it was sent; it can also refuse entries, which must fail the batch so that the mapping retries it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StreamPoller, startStreamPoller } from "../../infra/local/stream-poller.js";
import { paths } from "../../shared/routes.js";
import type { StreamRecord } from "../../shared/streaming/consumer.js";
import { call, uniq, uniqEmail } from "../support/api.js";
import { createInstitution } from "../support/flows.js";
import { tokenWithoutSignIn } from "../support/jwt.js";
import { until } from "../support/webhook-receiver.js";

interface Entry {
  readonly EventBusName: string;
  readonly Source: string;
  readonly DetailType: string;
  readonly Detail: string;
  readonly Resources: string[];
  readonly Time: number;
}

/** What the fake bus was sent, call by call; it refuses, once, the first call holding an event of `refuseAccount`. */
const calls: Entry[][] = [];
let refuseAccount: string | undefined;
const server: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    expect(req.headers["x-amz-target"]).toBe("AWSEvents.PutEvents");
    const entries = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { Entries: Entry[] }).Entries;
    const failing = refuseAccount !== undefined && entries.some((e) => e.Resources.includes(`institution-admin:account/${refuseAccount}`));
    if (failing) refuseAccount = undefined;
    if (!failing) calls.push(entries);
    res.setHeader("content-type", "application/x-amz-json-1.1");
    res.end(
      JSON.stringify({
        FailedEntryCount: failing ? 1 : 0,
        Entries: entries.map((_, i) =>
          failing && i === 0 ? { ErrorCode: "InternalFailure", ErrorMessage: "refused by the test" } : { EventId: uniq("eb") },
        ),
      }),
    );
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

// Read by shared/streaming/bus.ts when it loads: set before the consumer is imported.
process.env.EVENT_BUS_NAME = "institution-admin-test-bus";
process.env.EVENTBRIDGE_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { eventsOf } = await import("../../shared/streaming/consumer.js");
const { publish } = await import("../../shared/streaming/bus.js");

const BUS = "institution-admin-test-bus";

describe("EventBridge from the events table's stream", () => {
  let poller: StreamPoller;
  /** Batches the consumer refused (its promise rejected): the mapping would retry them. */
  const refused: unknown[] = [];

  beforeAll(async () => {
    poller = await startStreamPoller({
      endpoint: process.env.DYNAMODB_ENDPOINT as string,
      region: process.env.AWS_REGION as string,
      table: process.env.EVENTS_TABLE as string,
      handle: async (records) => {
        try {
          await publish(eventsOf(records as StreamRecord[]));
        } catch (err) {
          refused.push(err);
          throw err;
        }
      },
    });
  });
  afterAll(async () => {
    await poller?.stop();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const entriesOf = (account: string) => calls.flat().filter((e) => e.Resources.includes(`institution-admin:account/${account}`));

  it("puts every recorded event on the bus once, as show returns it, in entries of at most 10 per call", async () => {
    const account = uniq("acct");
    // Minted without a sign-in: the account's events are the ones this test causes (a sign-in would be one more).
    const owner = tokenWithoutSignIn(uniqEmail("eb-owner"), { superAdmin: true, account });
    // 12 events in one account: more than one PutEvents call's worth when they come in one batch.
    for (let i = 0; i < 4; i++) await createInstitution(owner, { name: uniq("Bus U") });
    for (const id of ["01KYYYYYYYYYYYYYYYYYYYYYY1", "01KYYYYYYYYYYYYYYYYYYYYYY2"]) {
      expect((await call("GET", `${paths.institutions}/${id}`, { token: owner })).status).toBe(404);
    }
    const listed = await call("GET", paths.securityEvents, { token: owner, query: { limit: 200 } });
    const ids: string[] = listed.body.events.map((e: { id: string }) => e.id);
    expect(ids.length).toBe(6);

    const entries = await until("every event on the bus", async () => {
      const got = entriesOf(account);
      return got.length >= ids.length ? got : undefined;
    });
    expect(calls.every((c) => c.length >= 1 && c.length <= 10)).toBe(true);
    const byId = new Map(entries.map((e) => [(JSON.parse(e.Detail) as { id: string }).id, e]));
    expect([...byId.keys()].sort()).toEqual([...ids].sort());
    expect(entries.length).toBe(ids.length);
    for (const id of ids) {
      const shown = await call("GET", `${paths.securityEvents}/${id}`, { token: owner });
      const entry = byId.get(id) as Entry;
      expect({ bus: entry.EventBusName, source: entry.Source, type: entry.DetailType, detail: JSON.parse(entry.Detail) }).toEqual({
        bus: BUS,
        source: "institution-admin",
        type: shown.body.event_type,
        detail: shown.body,
      });
      expect(entry.Time * 1000).toBe(Date.parse(shown.body.created_at));
    }
  });

  it("a refused entry fails the batch, which is read again: the event still reaches the bus", async () => {
    const account = uniq("acct");
    const owner = tokenWithoutSignIn(uniqEmail("eb-refused"), { superAdmin: true, account });
    const before = refused.length;
    refuseAccount = account;
    const { id } = await createInstitution(owner, { name: uniq("Refused U") });
    const entries = await until("the event on the bus after the refusal", async () => {
      const got = entriesOf(account);
      return got.length > 0 ? got : undefined;
    });
    expect(refuseAccount, "the batch with the event was refused once").toBeUndefined();
    expect(refused.length).toBeGreaterThan(before);
    expect(entries.length).toBe(1);
    expect(JSON.parse((entries[0] as Entry).Detail)).toMatchObject({ event_type: "institution_created", details: { institution_id: id } });
  });
});
