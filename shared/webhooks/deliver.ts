/**
 * Delivering one event to one webhook, signed per Standard Webhooks (the `standardwebhooks` package):
 * `webhook-id` is the event id (a receiver drops duplicates by it), the payload `{type, timestamp, data}` with
 * `data` the event as `GET /security_events/:id` shows it. An attempt that does not answer 2xx within 5 s has
 * failed: the delivery is retried with exponential backoff until 24 h after its first attempt, then marked
 * failed; a receiver that has failed every attempt for 24 h is disabled, recorded as `webhook_disabled`.
 * A receiver that answers slowly, or not at all, is noted slow (`slow_since`) until it answers promptly again.
 */
import { Webhook } from "standardwebhooks";
import { auditEvent, type StoredEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { showBody } from "../security-events/service.js";
import { logger } from "../telemetry.js";
import { backoffSeconds, webhookConfig } from "./config.js";
import { RefusedDestination } from "./guard.js";
import type { DeliveryRecord, WebhookRecord } from "./repository.js";
import * as repo from "./repository.js";
import { DeliveryTimeout, post } from "./transport.js";

/** The payload of an event's delivery. */
export function payloadOf(e: StoredEvent): string {
  return JSON.stringify({ type: e.event_type, timestamp: e.created_at, data: showBody(e) });
}

/** One HTTP attempt through the SSRF guard: the status code, or the reason there was none. */
async function attempt(w: WebhookRecord, e: StoredEvent, now: Date): Promise<{ code: number | null; error: string | null }> {
  const payload = payloadOf(e);
  const signature = new Webhook(w.secret).sign(e.id, now, payload);
  try {
    const code = await post(w.url, {
      allowLoopback: webhookConfig.allowLoopbackHttp,
      timeoutMs: webhookConfig.timeoutMs,
      headers: {
        "content-type": "application/json",
        "user-agent": "institution-admin-webhooks/1",
        "webhook-id": e.id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: payload,
    });
    return { code, error: code >= 200 && code < 300 ? null : `HTTP ${code}` };
  } catch (err) {
    if (err instanceof RefusedDestination) return { code: null, error: `Refused by the address guard: ${err.message}` };
    if (err instanceof DeliveryTimeout) return { code: null, error: "No answer within 5 s" };
    return { code: null, error: "Connection failed" };
  }
}

/** The service itself, as the actor of the events it records on its own (a webhook disabled). */
const system = (account: string): Caller => ({
  id: "system",
  email: "",
  name: "institution-admin",
  accountId: account,
  isCohortSuperAdmin: false,
  emailVerified: false,
  ip: "internal",
});

/**
 * Attempts `e` to `w` now (the first attempt, or a due retry) and records the outcome: delivered; or the next
 * attempt scheduled; or, past the retry window, failed.
 */
export async function deliver(w: WebhookRecord, e: StoredEvent, now = clock()): Promise<DeliveryRecord> {
  const previous = await repo.getDelivery(w.id, e.id);
  if (previous && previous.status !== "pending") return previous;
  // A duration, not a time of day: the monotonic clock (what shared/clock.ts's offset must not move).
  const started = performance.now();
  const { code, error } = await attempt(w, e, now);
  // Slow (no prompt answer, or none at all) or prompt again: where its next deliveries go (streaming/consumer.ts).
  await repo.markSlow(w, performance.now() - started >= webhookConfig.slowMs || code === null, now.toISOString());
  const attempts = (previous?.attempts ?? 0) + 1;
  const firstAt = previous?.first_attempt_at ?? now.toISOString();
  const base = {
    webhook_id: w.id,
    account_id: w.account_id,
    event_id: e.id,
    event_type: e.event_type,
    attempts,
    first_attempt_at: firstAt,
    last_attempt_at: now.toISOString(),
    last_status_code: code,
    last_error: error,
    ttl: Math.floor(now.getTime() / 1000) + webhookConfig.deliveryDays * 86_400,
  };
  if (error === null) {
    const d: DeliveryRecord = { ...base, status: "delivered", next_attempt_at: null };
    await repo.putDelivery(d);
    if (w.failing_since !== undefined) await repo.markAnswering(w.account_id, w.id);
    return d;
  }
  const next = new Date(now.getTime() + backoffSeconds(attempts) * 1000);
  const windowEnd = Date.parse(firstAt) + webhookConfig.retryWindowSeconds * 1000;
  const retry = next.getTime() <= windowEnd;
  const d: DeliveryRecord = { ...base, status: retry ? "pending" : "failed", next_attempt_at: retry ? next.toISOString() : null };
  await repo.putDelivery(d);
  if (retry) await repo.scheduleRetry(next.toISOString(), { account_id: w.account_id, webhook_id: w.id, event_id: e.id });
  const since = await repo.markFailing(w.account_id, w.id, now.toISOString());
  if (since !== undefined && now.getTime() - Date.parse(since) >= webhookConfig.retryWindowSeconds * 1000) {
    const event = auditEvent(system(w.account_id), "webhook_disabled", { webhook_id: w.id, url: w.url, failing_since: since }, { now });
    if ((await repo.disableWebhook(w.account_id, w.id, now.toISOString(), event)).kind === "ok") {
      logger.warn("webhook disabled", { webhook_id: w.id, failing_since: since });
    }
  }
  return d;
}

/** Whether `w` takes deliveries now. */
export const isEnabled = (w: WebhookRecord | undefined): w is WebhookRecord => w?.status === "enabled";
