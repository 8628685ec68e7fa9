/**
 * Checks a stretch of one account's trail against its digests, with the public key alone (docs/trail-verify.md):
 * every signature, the chain (each digest names the hash of the one before, and sequence numbers have no
 * gap), and every period's events against its digest's count and hash. Pure: `npm run verify-trail` feeds it
 * what the API returned.
 */
import { now as clock } from "../clock.js";
import { type Digest, digestHash, type EventBody, eventsHash, signatureValid } from "./digest.js";

export type DiscrepancyKind = "bad signature" | "chain broken" | "digest missing" | "event changed" | "event missing" | "event added";

export interface Discrepancy {
  readonly kind: DiscrepancyKind;
  /** The period it concerns (ISO start). */
  readonly period: string;
  readonly detail: string;
}

export interface Verification {
  /** Every discrepancy, in the order of the periods; the first is what the verifier names. */
  readonly problems: Discrepancy[];
  /** Events covered by a digest that holds, and the digests checked. */
  readonly events: number;
  readonly digests: number;
  /** Periods with events and no digest yet, after the newest digest (the digester has not reached them). */
  readonly pending: string[];
}

const ORDER: readonly DiscrepancyKind[] = [
  "bad signature",
  "digest missing",
  "chain broken",
  "event missing",
  "event added",
  "event changed",
];

/** The verifier's default grace after a period's end before its digest must exist (the digester runs a few minutes after). */
export const VERIFY_GRACE_MS = 10 * 60_000;

const HOUR_MS = 3_600_000;

/**
 * Verifies `digests` (any order) and `events` (the show bodies of every event of the window) with
 * `publicKey` (PEM). Each event belongs to the digest whose period holds it, whatever that digest's length.
 * Coverage: an event no digest holds is `digest missing` once its period has surely ended (plus `graceMs`)
 * at `now`, or when a later period has a digest; otherwise it is pending. Any period length divides the
 * hour, so an event's period ends at the latest with its UTC hour; `periodMs` (default: the newest digest's
 * length) places it sooner. With `fromFirstEvent` (the window starts before the account's first event) the
 * chain must start at #1 with no previous hash, so a deleted first digest is found; without it, events before
 * the first digest's period belong to a period the window cut, and are not judged.
 */
export function verifyTrail(input: {
  readonly digests: readonly Digest[];
  readonly events: readonly EventBody[];
  readonly publicKey: string;
  readonly periodMs?: number;
  readonly now?: number;
  readonly graceMs?: number;
  readonly fromFirstEvent?: boolean;
}): Verification {
  const digests = [...input.digests].sort((a, b) => a.sequence - b.sequence);
  const newest = digests.at(-1);
  const lengthOf = (d: Digest) => Date.parse(d.period_end) - Date.parse(d.period_start);
  const periodMs = input.periodMs ?? (newest ? lengthOf(newest) : HOUR_MS);
  const now = input.now ?? clock().getTime();
  const grace = input.graceMs ?? VERIFY_GRACE_MS;

  // Each event to the digest whose period holds it (periods of one account never overlap).
  const byStart = [...digests].sort((a, b) => (a.period_start < b.period_start ? -1 : 1));
  const holderOf = (createdAt: string): Digest | undefined => {
    let lo = 0;
    let hi = byStart.length - 1;
    let found: Digest | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = byStart[mid] as Digest;
      if (d.period_start <= createdAt) {
        found = d;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found && createdAt < found.period_end ? found : undefined;
  };
  const held = new Map<Digest, EventBody[]>();
  const unheld: EventBody[] = [];
  for (const e of input.events) {
    const d = holderOf(e.created_at);
    if (d) held.set(d, [...(held.get(d) ?? []), e]);
    else unheld.push(e);
  }

  const problems: Discrepancy[] = [];
  const first = digests[0];
  if (first && (input.fromFirstEvent || first.sequence === 1)) {
    const problem = (kind: DiscrepancyKind, detail: string) => problems.push({ kind, period: first.period_start, detail });
    if (first.sequence !== 1)
      problem("digest missing", `the chain starts at #${first.sequence}: ${first.sequence - 1} digest(s) before it are gone`);
    else if (first.previous_digest_hash !== null) problem("chain broken", "digest #1 names a previous digest");
  }
  let covered = 0;
  let previous: Digest | undefined;
  for (const d of digests) {
    const problem = (kind: DiscrepancyKind, detail: string) => problems.push({ kind, period: d.period_start, detail });
    if (!signatureValid(d, input.publicKey)) problem("bad signature", `digest #${d.sequence} (${d.period_start}) is not signed by the key`);
    if (previous) {
      if (d.sequence !== previous.sequence + 1) {
        const missing = d.sequence - previous.sequence - 1;
        problem("digest missing", `${missing > 0 ? `${missing} digest(s)` : "a digest"} between #${previous.sequence} and #${d.sequence}`);
      } else if (d.previous_digest_hash !== digestHash(previous)) {
        problem("chain broken", `digest #${d.sequence} does not name the hash of digest #${previous.sequence}`);
      }
    }
    const events = held.get(d) ?? [];
    if (events.length < d.event_count)
      problem("event missing", `${d.event_count - events.length} of ${d.event_count} event(s) of ${d.period_start} are gone`);
    else if (events.length > d.event_count)
      problem("event added", `${events.length - d.event_count} event(s) in ${d.period_start} that digest #${d.sequence} does not hold`);
    else if (eventsHash(events) !== d.events_hash)
      problem("event changed", `an event of ${d.period_start} differs from what digest #${d.sequence} signed`);
    else covered += events.length;
    previous = d;
  }

  // Events no digest holds, by the period they would have (of the current length): missing once it has surely ended.
  const ended = (ms: number) => {
    const periodEnd = Math.floor(ms / periodMs) * periodMs + periodMs;
    const hourEnd = Math.floor(ms / HOUR_MS) * HOUR_MS + HOUR_MS;
    return Math.min(periodEnd, hourEnd) + grace <= now;
  };
  const byPeriod = new Map<string, EventBody[]>();
  for (const e of unheld) {
    // A window that starts later (`--from`) holds the end of a period whose digest starts before it: not judged.
    if (!input.fromFirstEvent && first && e.created_at < first.period_start) continue;
    const p = new Date(Math.floor(Date.parse(e.created_at) / periodMs) * periodMs).toISOString();
    byPeriod.set(p, [...(byPeriod.get(p) ?? []), e]);
  }
  const pending: string[] = [];
  for (const [period, events] of [...byPeriod].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const missing = events.some((e) => (newest && e.created_at < newest.period_start) || ended(Date.parse(e.created_at)));
    if (missing) problems.push({ kind: "digest missing", period, detail: `${events.length} event(s) of ${period} have no digest` });
    else pending.push(period);
  }
  problems.sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind)));
  return { problems, events: covered, digests: digests.length, pending };
}
