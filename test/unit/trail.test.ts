/** Digest arithmetic and the verifier's verdicts, without DynamoDB: hashes, signatures, chain, timer. */
import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.MAIN_TABLE ??= "main";
  process.env.EVENTS_TABLE ??= "events";
});

import { canonical, type Digest, digestHash, eventsHash, sha256Hex, signedText, type UnsignedDigest } from "../../shared/trail/digest.js";
import { DIGEST_GRACE_MS, nextRunAt } from "../../shared/trail/digester.js";
import { verifyTrail } from "../../shared/trail/verify.js";

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const publicPem = publicKey.export({ type: "spki", format: "pem" }).toString();
const signed = (d: UnsignedDigest): Digest => ({
  ...d,
  signature: sign("sha256", Buffer.from(signedText(d)), { key: privateKey, dsaEncoding: "der" }).toString("base64"),
});

const HOUR = 3_600_000;
const event = (id: string, at: number, description = "x") => ({
  id,
  event_type: "institution_created",
  user: { id: "u", email: "a@b.c", name: "A" },
  ip_address: "192.0.2.1",
  details: { name: "C" },
  created_at: new Date(at).toISOString(),
  description,
});
const T0 = Date.UTC(2026, 0, 1, 10);

/** A chain of digests over `periods` (lists of events per hour from T0). */
function chain(periods: ReturnType<typeof event>[][]): Digest[] {
  const out: Digest[] = [];
  periods.forEach((events, i) => {
    const previous = out.at(-1);
    out.push(
      signed({
        account_id: "acct",
        sequence: i + 1,
        period_start: new Date(T0 + i * HOUR).toISOString(),
        period_end: new Date(T0 + (i + 1) * HOUR).toISOString(),
        event_count: events.length,
        events_hash: eventsHash(events),
        previous_digest_hash: previous ? digestHash(previous) : null,
        created_at: new Date(T0 + (i + 1) * HOUR + 300_000).toISOString(),
        key_id: "test",
      }),
    );
  });
  return out;
}

describe("digest hashes", () => {
  it("events_hash is over canonical JSON, oldest first, whatever order and key order they come in", () => {
    const a = event("01A", T0 + 1);
    const b = event("01B", T0 + 1);
    const c = event("01C", T0 + 2);
    const expected = sha256Hex([a, b, c].map((e) => canonical(e)).join("\n"));
    expect(eventsHash([c, b, a])).toBe(expected);
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    expect(eventsHash([b, reordered, c])).toBe(expected);
    expect(canonical({ b: 1, a: [1.0, "é"] })).toBe('{"a":[1,"é"],"b":1}');
  });
});

describe("verifyTrail", () => {
  const periods = [[event("01A", T0 + 5)], [event("01B", T0 + HOUR + 5), event("01C", T0 + HOUR + 6)], [event("01D", T0 + 2 * HOUR + 5)]];
  const all = periods.flat();

  it("a whole chain verifies", () => {
    expect(verifyTrail({ digests: chain(periods), events: all, publicKey: publicPem })).toMatchObject({
      problems: [],
      events: 4,
      digests: 3,
    });
  });

  it("a re-signed digest that does not name its predecessor's hash is a broken chain", () => {
    const digests = chain(periods);
    const { signature: _s, ...second } = digests[1] as Digest;
    digests[1] = signed({ ...second, previous_digest_hash: "0".repeat(64) });
    expect(verifyTrail({ digests, events: all, publicKey: publicPem }).problems[0]?.kind).toBe("chain broken");
  });

  it("another key's signature is a bad signature", () => {
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(verifyTrail({ digests: chain(periods), events: all, publicKey: other }).problems[0]?.kind).toBe("bad signature");
  });

  it("events newer than the newest digest are pending, not missing", () => {
    const later = event("01E", T0 + 3 * HOUR + 5);
    const v = verifyTrail({ digests: chain(periods), events: [...all, later], publicKey: publicPem, now: T0 + 3 * HOUR + 60_000 });
    expect(v.problems).toEqual([]);
    expect(v.pending).toEqual([new Date(T0 + 3 * HOUR).toISOString()]);
  });
});

describe("verifyTrail: coverage and the chain's ends", () => {
  const periods = [[event("01A", T0 + 5)], [event("01B", T0 + HOUR + 5)], [event("01C", T0 + 2 * HOUR + 5)]];
  const all = periods.flat();
  const now = T0 + 4 * HOUR;

  it("an ended period's events without a digest (the last one deleted) are a missing digest, once the grace has passed", () => {
    const digests = chain(periods).slice(0, 2);
    expect(verifyTrail({ digests, events: all, publicKey: publicPem, now }).problems[0]?.kind).toBe("digest missing");
    const within = verifyTrail({ digests, events: all, publicKey: publicPem, now: T0 + 3 * HOUR + 60_000, graceMs: 5 * 60_000 });
    expect(within.problems).toEqual([]);
    expect(within.pending).toEqual([new Date(T0 + 2 * HOUR).toISOString()]);
  });

  it("a window from the first event starts at #1: a deleted first digest is found", () => {
    const digests = chain(periods).slice(1);
    const v = verifyTrail({ digests, events: all, publicKey: publicPem, now, fromFirstEvent: true });
    expect(v.problems.map((p) => p.kind)).toEqual(["digest missing", "digest missing"]);
  });
});

describe("the local timer", () => {
  it("runs within 30 s of a period's end plus the 10 s grace", () => {
    for (const offset of [0, 1, 1_800_000, HOUR - 1]) {
      const at = nextRunAt(T0 + offset);
      expect(at).toBeGreaterThanOrEqual(T0 + HOUR + DIGEST_GRACE_MS);
      expect(at).toBeLessThanOrEqual(T0 + HOUR + DIGEST_GRACE_MS + 30_000);
    }
  });
});
