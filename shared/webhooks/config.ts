/** Settings of the webhooks (docs/contract/webhooks.md), read and checked once at module load. */
import { readSettings, STREAM } from "../settings.js";

const env = readSettings(STREAM(), [
  "WEBHOOKS_PER_ACCOUNT",
  "WEBHOOK_RETRY_BASE_SECONDS",
  "WEBHOOK_RETRY_WINDOW_SECONDS",
  "WEBHOOK_ALLOW_LOOPBACK_HTTP",
]);

export const webhookConfig = {
  /** At most this many webhooks per account. */
  perAccount: env.WEBHOOKS_PER_ACCOUNT,
  /** A delivery attempt that has no answer after this long has failed. */
  timeoutMs: 5_000,
  /**
   * A receiver that took this long (or failed to answer) is slow: its next deliveries go through the retry
   * schedule instead of the stream consumer, so that it holds up no one else's (docs/contract/webhooks.md).
   */
  slowMs: 1_000,
  /** The first retry waits this long, each next one twice as long (at most an hour). */
  retryBaseSeconds: env.WEBHOOK_RETRY_BASE_SECONDS,
  /** Deliveries are retried this long after their first attempt, then marked failed; a receiver failing this long is disabled. */
  retryWindowSeconds: env.WEBHOOK_RETRY_WINDOW_SECONDS,
  /** Loopback http URLs (a receiver on this machine): the local stack only. */
  allowLoopbackHttp: env.WEBHOOK_ALLOW_LOOPBACK_HTTP,
  /** How long delivery records are kept. */
  deliveryDays: 7,
} as const;

/** The wait before attempt `n + 1`, after `n` failed attempts. */
export function backoffSeconds(failedAttempts: number): number {
  return Math.min(3600, webhookConfig.retryBaseSeconds * 2 ** Math.max(0, failedAttempts - 1));
}
