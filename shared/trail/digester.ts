/**
 * The digester (docs/trail.md): for every ended period, every account marked active in it gets a digest of
 * its events in that period, chained to its previous digest and signed. Deployed, EventBridge Scheduler runs
 * it a few minutes after each hour (functions/trail/digest.ts, signing with KMS, copying each digest to an
 * S3 bucket under Object Lock); locally the gateway runs it on a timer and `npm run digest` at once.
 *
 * It reads only keys: the day partitions of the activity markers, then each account's own partition for
 * the period. A run is idempotent: an account's period that has its digest, or that is not newer than the
 * account's newest digest, is skipped.
 */
import { periodStartOf } from "../audit.js";
import { now as clock } from "../clock.js";
import { config, retainedSince } from "../config.js";
import { periodEvents } from "../security-events/repository.js";
import { showBody } from "../security-events/service.js";
import { type Digest, digestHash, eventsHash, type Signer, signedText, type UnsignedDigest } from "./digest.js";
import * as repo from "./repository.js";

/** A period is digested once it ended this long ago: requests that started in it have committed by then. */
export const DIGEST_GRACE_MS = 10_000;
/** How far back the first run looks for activity (markers older than this predate the digester). */
const FIRST_RUN_LOOKBACK_MS = 7 * 86_400_000;

export interface DigesterRun {
  readonly now: Date;
  readonly signer: Signer;
  /** Start here (epoch ms) instead of where the last run stopped: `npm run digest` looks over the whole retention. */
  readonly from?: number;
  /** Stop before the period that starts here (epoch ms); the run then leaves the digester's progress alone. */
  readonly until?: number;
  /** Only these accounts (a backfill, or a test that must not digest its neighbours' periods). */
  readonly accounts?: readonly string[];
  /** Keeps a copy of each new digest elsewhere before it is stored (the S3 bucket deployed). */
  readonly copy?: (d: Digest) => Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Runs the digester once; returns the digests it wrote. */
export async function runDigester(run: DigesterRun): Promise<Digest[]> {
  const period = config.digestPeriodSeconds * 1000;
  const now = run.now.getTime();
  // Periods wholly inside the retention; events before it are never digested (nor read).
  const retained = Math.ceil(retainedSince(run.now) / period) * period;
  // The first period not yet ended (with the grace), or `until`.
  const end = Math.min(Math.floor((now - DIGEST_GRACE_MS) / period) * period, run.until ?? Number.POSITIVE_INFINITY);
  const start = Math.max(retained, run.from ?? (await repo.digesterProgress()) ?? now - FIRST_RUN_LOOKBACK_MS);
  const first = Math.floor(start / period) * period;
  if (first >= end) return [];

  const active: [string, string][] = [];
  for (
    let day = Date.UTC(new Date(first).getUTCFullYear(), new Date(first).getUTCMonth(), new Date(first).getUTCDate());
    day < end;
    day += 86_400_000
  ) {
    const from = iso(Math.max(first, day));
    const to = iso(Math.min(end, day + 86_400_000) - period);
    active.push(...(await repo.activeAccounts(iso(day).slice(0, 10), from, to)));
  }
  active.sort(([p1, a1], [p2, a2]) => (p1 < p2 ? -1 : p1 > p2 ? 1 : a1 < a2 ? -1 : a1 > a2 ? 1 : 0));

  const written: Digest[] = [];
  const last = new Map<string, Digest | undefined>();
  for (const [periodStart, account] of active) {
    if (run.accounts && !run.accounts.includes(account)) continue;
    if (!last.has(account)) last.set(account, await repo.lastDigest(account));
    const previous = last.get(account);
    if (previous && previous.period_start >= periodStart) continue;
    const startMs = Date.parse(periodStart);
    const events = await periodEvents(account, startMs, startMs + period);
    // A marker whose transaction failed, or whose events are all past the retention, gets no digest.
    if (events.length === 0) continue;
    const unsigned: UnsignedDigest = {
      account_id: account,
      sequence: (previous?.sequence ?? 0) + 1,
      period_start: periodStart,
      period_end: iso(startMs + period),
      event_count: events.length,
      events_hash: eventsHash(events.map(showBody)),
      previous_digest_hash: previous ? digestHash(previous) : null,
      created_at: iso(clock().getTime()),
      key_id: run.signer.keyId,
    };
    const digest: Digest = { ...unsigned, signature: await run.signer.sign(Buffer.from(signedText(unsigned), "utf8")) };
    await run.copy?.(digest);
    // Kept as long as the events it covers.
    const expiresAt = Math.floor((startMs + period) / 1000) + config.eventRetentionDays * 86_400;
    if ((await repo.putDigest(digest, expiresAt)).kind === "ok") {
      written.push(digest);
      last.set(account, digest);
    } else {
      // Another run wrote this account's digest meanwhile: continue from whatever is newest now.
      last.set(account, await repo.lastDigest(account));
    }
  }
  if (run.until === undefined) await repo.saveDigesterProgress(end);
  return written;
}

/** When the timer should next run the digester: just after the current period ends, plus the grace. */
export function nextRunAt(nowMs: number): number {
  const period = config.digestPeriodSeconds * 1000;
  return Math.floor(nowMs / period) * period + period + DIGEST_GRACE_MS + 1_000;
}

export { periodStartOf };
