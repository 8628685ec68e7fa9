/**
 * The one retry loop of a write. A write that loses a race (a transaction conflict, or an item changed
 * since it was read) runs again from a fresh read, at most `MAX_ATTEMPTS` times, after a short random
 * pause so that racing requests do not collide again in lockstep. A request runs its write's loop and at
 * most two more: the withdrawal of an invitation whose mail failed, after it; or the recording of a
 * refusal, from within an attempt that then ends the request, which is one loop, and a second only when
 * the refusal is past the probing bound (`recordRefusal`: its once-a-minute event). So a request makes at
 * most 3 × `MAX_ATTEMPTS` transactions (nested loops that each retried allowed 40).
 */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { Conflict } from "./errors.js";
import { METRIC } from "./observability.js";
import { metrics } from "./telemetry.js";

export const MAX_ATTEMPTS = 8;

/** What an attempt returns to be run again. */
export const RETRY = Symbol("retry");

/**
 * Runs `attempt` until it returns something other than `RETRY`; after `MAX_ATTEMPTS` tries, throws 409
 * with `conflictMessage`.
 */
export async function withRetries<T>(conflictMessage: string, attempt: (n: number) => Promise<T | typeof RETRY>): Promise<T> {
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    const result = await attempt(n);
    if (result !== RETRY) return result;
    metrics.addMetric(METRIC.writeConflict, MetricUnit.Count, 1);
    if (n === MAX_ATTEMPTS) break;
    metrics.addMetric(METRIC.writeRetry, MetricUnit.Count, 1);
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * n));
  }
  throw new Conflict(conflictMessage);
}
