/**
 * Checks a stretch of one account's trail against its digests, with the public key alone (DESIGN.md §10):
 * every signature, the chain (each digest names the hash of the one before, and sequence numbers have no
 * gap), and every period's events against its digest's count and hash. Pure: `npm run verify-trail` feeds it
 * what the API returned.
 */
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

/**
 * Verifies `digests` (any order) and `events` (the show bodies of every event from the first digest's
 * period on) with `publicKey` (PEM). `periodMs` places events without a digest in their period.
 */
export function verifyTrail(input: {
  readonly digests: readonly Digest[];
  readonly events: readonly EventBody[];
  readonly publicKey: string;
  readonly periodMs?: number;
}): Verification {
  const digests = [...input.digests].sort((a, b) => a.sequence - b.sequence);
  const first = digests[0];
  const periodMs = input.periodMs ?? (first ? Date.parse(first.period_end) - Date.parse(first.period_start) : 3_600_000);
  const periodOf = (createdAt: string) => new Date(Math.floor(Date.parse(createdAt) / periodMs) * periodMs).toISOString();
  const byPeriod = new Map<string, EventBody[]>();
  for (const e of input.events) {
    const p = periodOf(e.created_at);
    byPeriod.set(p, [...(byPeriod.get(p) ?? []), e]);
  }

  const problems: Discrepancy[] = [];
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
    const events = byPeriod.get(d.period_start) ?? [];
    byPeriod.delete(d.period_start);
    if (events.length < d.event_count)
      problem("event missing", `${d.event_count - events.length} of ${d.event_count} event(s) of ${d.period_start} are gone`);
    else if (events.length > d.event_count)
      problem("event added", `${events.length - d.event_count} event(s) in ${d.period_start} that digest #${d.sequence} does not hold`);
    else if (eventsHash(events) !== d.events_hash)
      problem("event changed", `an event of ${d.period_start} differs from what digest #${d.sequence} signed`);
    else covered += events.length;
    previous = d;
  }

  // Events of periods without a digest: missing when the digester has since digested a later period.
  const newest = digests.at(-1);
  const pending: string[] = [];
  for (const [period, events] of [...byPeriod].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (newest && period < newest.period_start) {
      problems.push({ kind: "digest missing", period, detail: `${events.length} event(s) of ${period} have no digest` });
    } else pending.push(period);
  }
  problems.sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind)));
  return { problems, events: covered, digests: digests.length, pending };
}
