/**
 * The trail as evidence (docs/trail.md): hourly digests written by the digester, read through the API, and
 * `npm run verify-trail`'s check, which catches each kind of tampering done straight in DynamoDB Local and
 * names it. Each trail is a fresh account with events seeded in three ended hours.
 */
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { DeleteCommand, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { verifyRemoteTrail } from "../../infra/verify-trail.js";
import type { Caller } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { eventKeys } from "../../shared/tables.js";
import { type Digest, digestHash, signatureValid } from "../../shared/trail/digest.js";
import { runDigester } from "../../shared/trail/digester.js";
import { localSignerFromEnv } from "../../shared/trail/local-signer.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { tokenWithoutSignIn } from "../support/jwt.js";
import { seedEvents } from "../support/seed-events.js";

const HOUR = 3_600_000;
const DIGESTS = `${paths.securityEvents}/digests`;

interface Trail {
  readonly account: string;
  readonly token: string;
  readonly caller: Caller;
  /** Ids of the seeded events by hour, oldest hour first. */
  readonly ids: string[][];
  readonly hours: number[];
}

/** A fresh account with three events in each of three ended hours (5, 4 and 3 hours ago), digested. */
async function freshTrail(): Promise<Trail> {
  const account = uniq("trail");
  const email = uniqEmail("auditor");
  // Minted without a sign-in: the trail holds the seeded events alone (a sign-in is an event of its own).
  const tok = tokenWithoutSignIn(email, { superAdmin: true, account });
  const caller: Caller = {
    id: uniq("actor"),
    email,
    name: "Auditor",
    accountId: account,
    isCohortSuperAdmin: true,
    emailVerified: true,
    ip: "192.0.2.7",
  };
  const base = Math.floor(Date.now() / HOUR) * HOUR - 5 * HOUR;
  const hours = [base, base + HOUR, base + 2 * HOUR];
  const ids: string[][] = [];
  for (const h of hours) {
    ids.push(
      await seedEvents(
        [0, 1, 2].map((i) => ({
          caller,
          event: { type: "institution_created" as const, details: { institution_id: `I${i}`, name: `College ${i}` } },
          at: new Date(h + 60_000 * (i + 1)),
        })),
      ),
    );
  }
  // This account only: test files run in parallel, and their digests are their own business.
  await runDigester({ now: new Date(), signer: localSignerFromEnv(), from: base, accounts: [account] });
  return { account, token: tok, caller, ids, hours };
}

const verify = (t: Trail) => verifyRemoteTrail({ api: stack.apiUrl, token: t.token });

const eventKey = (t: Trail, hour: number, i: number) => eventKeys.event(t.ids[hour]?.[i] as string, t.account);
const digestKey = (t: Trail, hour: number) => ({
  pk: eventKeys.digestPartition(t.account),
  sk: new Date(t.hours[hour] as number).toISOString(),
});

describe("digests", () => {
  it("one per account and hour with events, chained, signed, served with the public key", async () => {
    const t = await freshTrail();
    const res = await call("GET", DIGESTS, { token: t.token });
    expect(res.status).toBe(200);
    const { digests, public_key } = res.body as { digests: Digest[]; public_key: string };
    expect(digests.map((d) => [d.sequence, d.period_start, d.event_count])).toEqual(
      t.hours.map((h, i) => [i + 1, new Date(h).toISOString(), 3]),
    );
    expect(digests[0]?.previous_digest_hash).toBeNull();
    expect(digests[1]?.previous_digest_hash).toBe(digestHash(digests[0] as Digest));
    expect(digests[2]?.previous_digest_hash).toBe(digestHash(digests[1] as Digest));
    for (const d of digests) expect(signatureValid(d, public_key)).toBe(true);
    expect(public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    // A second run writes nothing new; from/to select by period.
    expect(
      await runDigester({ now: new Date(), signer: localSignerFromEnv(), from: t.hours[0] as number, accounts: [t.account] }),
    ).not.toContainEqual(expect.objectContaining({ account_id: t.account }));
    const middle = await call("GET", DIGESTS, {
      token: t.token,
      // The period holding `from` counts; one starting after `to` does not.
      query: {
        from: new Date((t.hours[1] as number) + 90_000).toISOString(),
        to: new Date((t.hours[1] as number) + 100_000).toISOString(),
      },
    });
    expect((middle.body as { digests: Digest[] }).digests.map((d) => d.sequence)).toEqual([2]);
  });

  it("super admins only", async () => {
    const plain = await token(uniqEmail("plain"));
    const res = await call("GET", DIGESTS, { token: plain });
    expect(res.status).toBe(403);
  });
});

describe("verify-trail", () => {
  it("an untouched trail verifies", async () => {
    const t = await freshTrail();
    expect(await verify(t)).toMatchObject({ code: 0, line: "verified 9 events in 3 hours" });
  });

  it("names an edited event", async () => {
    const t = await freshTrail();
    await db.send(
      new UpdateCommand({
        TableName: config.tables.events,
        Key: eventKey(t, 1, 1),
        UpdateExpression: "SET description = :d",
        ExpressionAttributeValues: { ":d": "nothing happened here" },
      }),
    );
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: event changed: /);
  });

  it("names a deleted event", async () => {
    const t = await freshTrail();
    await db.send(new DeleteCommand({ TableName: config.tables.events, Key: eventKey(t, 2, 0) }));
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: event missing: /);
  });

  it("names an inserted event", async () => {
    const t = await freshTrail();
    await seedEvents([
      {
        caller: t.caller,
        event: { type: "institution_deleted", details: { institution_name: "Forged" } },
        at: new Date((t.hours[0] as number) + 30_000),
      },
    ]);
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: event added: /);
  });

  it("names an altered digest", async () => {
    const t = await freshTrail();
    await db.send(
      new UpdateCommand({
        TableName: config.tables.events,
        Key: digestKey(t, 1),
        UpdateExpression: "SET event_count = :n",
        ExpressionAttributeValues: { ":n": 2 },
      }),
    );
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: bad signature: /);
  });

  it("names a deleted digest", async () => {
    const t = await freshTrail();
    const stored = await db.send(new GetCommand({ TableName: config.tables.events, Key: digestKey(t, 1) }));
    expect(stored.Item).toBeDefined();
    await db.send(new DeleteCommand({ TableName: config.tables.events, Key: digestKey(t, 1) }));
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: digest missing: /);
  });

  it("names a deleted first digest: a window from the first event starts at #1", async () => {
    const t = await freshTrail();
    await db.send(new DeleteCommand({ TableName: config.tables.events, Key: digestKey(t, 0) }));
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: digest missing: /);
  });

  it("names a deleted last digest: the newest ended period with events has its digest", async () => {
    const t = await freshTrail();
    await db.send(new DeleteCommand({ TableName: config.tables.events, Key: digestKey(t, 2) }));
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: digest missing: 3 event\(s\)/);
  });

  it("names events no digest holds after a change of period length, whatever length made the digests", async () => {
    const t = await freshTrail();
    // The period becomes 60 s (events are marked by minute); the digester then digests only the first minutes
    // of the hour after the last digest, and never the rest.
    const settings = config as { digestPeriodSeconds: number };
    const later = (t.hours[2] as number) + HOUR;
    const at = (m: number) => ({
      caller: t.caller,
      event: { type: "institution_created" as const, details: { institution_id: `M${m}`, name: "Minute" } },
      at: new Date(later + m * 60_000 + 5),
    });
    settings.digestPeriodSeconds = 60;
    try {
      await seedEvents([1, 2, 40, 41].map(at));
      const written = await runDigester({
        now: new Date(),
        signer: localSignerFromEnv(),
        from: later,
        until: later + 30 * 60_000,
        accounts: [t.account],
      });
      expect(written.map((d) => Date.parse(d.period_end) - Date.parse(d.period_start))).toEqual([60_000, 60_000]);
    } finally {
      settings.digestPeriodSeconds = 3600;
    }
    const r = await verify(t);
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: digest missing: 1 event\(s\)/);
    // One per undigested minute, and nothing else.
    expect(r.problems).toHaveLength(2);
    expect(r.problems.every((p) => p.startsWith("digest missing: 1 event(s)"))).toBe(true);
  });

  it("with --public-key, names a key other than the pinned one, though the served key verifies the digests", async () => {
    const t = await freshTrail();
    expect((await verify(t)).code).toBe(0);
    const swapped = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    const r = await verifyRemoteTrail({ api: stack.apiUrl, token: t.token, publicKey: swapped });
    expect(r.code).toBe(1);
    expect(r.line).toMatch(/^FAILED: bad signature: /);
    const pinned = readFileSync(stack.trail.publicKeyFile, "utf8");
    expect(await verifyRemoteTrail({ api: stack.apiUrl, token: t.token, publicKey: pinned })).toMatchObject({ code: 0 });
  });
});
