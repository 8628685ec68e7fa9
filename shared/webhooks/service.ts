/**
 * Webhook use cases (docs/contract/webhooks.md), in the contract's check order: cohort-super-admin status (403) → body
 * (400/422, the URL's host resolved by the SSRF guard last) → the per-account bound (429) → the change with
 * its event in one transaction.
 */
import { randomBytes } from "node:crypto";
import { auditEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { NotFound, TooManyRequests, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { RETRY, withRetries } from "../retry.js";
import { parseRoot } from "../validation.js";
import { webhookConfig } from "./config.js";
import { resolvedRefusal } from "./guard.js";
import type { DeliveryRecord, WebhookRecord } from "./repository.js";
import * as repo from "./repository.js";
import type { WebhookCreated, WebhookDeliveries, WebhookDeliveryView, WebhookList, WebhookView } from "./results.js";
import { guardOptions, webhookCreate } from "./schema.js";

export const WEBHOOK_MESSAGES = {
  notFound: "Webhook not found",
  tooMany: `At most ${webhookConfig.perAccount} webhooks per account`,
  deleted: "Webhook deleted",
} as const;

/** How many deliveries the list shows. */
const RECENT = 50;

/** A webhook as the API shows it: never its secret (that only in the create answer). */
export function webhookView(w: WebhookRecord): WebhookView {
  return {
    id: w.id,
    url: w.url,
    status: w.status,
    created_at: w.created_at,
    failing_since: w.failing_since ?? null,
    disabled_at: w.disabled_at ?? null,
  };
}

/** `POST /webhooks` body `{webhook: {url}}` → 201 `{webhook: {id, url, created_at, secret}}`: the secret is shown this once. */
export async function createWebhook(caller: Caller, body: unknown, now = clock()): Promise<WebhookCreated> {
  const input = parseRoot(body, "webhook", webhookCreate);
  const refused = await resolvedRefusal(input.url, guardOptions);
  if (refused !== undefined) throw new ValidationFailed([refused]);
  const record: WebhookRecord = {
    id: newId(now.getTime()),
    account_id: caller.accountId,
    url: input.url,
    secret: `whsec_${randomBytes(32).toString("base64")}`,
    created_at: now.toISOString(),
    created_by: caller.id,
    status: "enabled",
  };
  const event = auditEvent(caller, "webhook_created", { webhook_id: record.id, url: record.url }, { now });
  await withRetries("Webhook could not be created, please retry", async () => {
    const result = await repo.createWebhook(record, webhookConfig.perAccount, event);
    if (result.kind === "full") throw new TooManyRequests(WEBHOOK_MESSAGES.tooMany, 60);
    return result.kind === "ok" ? undefined : RETRY;
  });
  return { webhook: { id: record.id, url: record.url, created_at: record.created_at, secret: record.secret } };
}

/** `GET /webhooks`: the account's webhooks, oldest first. */
export async function listWebhooks(caller: Caller): Promise<WebhookList> {
  const hooks = await repo.listWebhooks(caller.accountId);
  return { webhooks: hooks.map(webhookView) };
}

async function ownWebhook(caller: Caller, id: string | undefined): Promise<WebhookRecord> {
  const w = isId(id) ? await repo.getWebhook(caller.accountId, id) : undefined;
  if (!w) throw new NotFound(WEBHOOK_MESSAGES.notFound);
  return w;
}

/** `DELETE /webhooks/:id`: deletes it, recorded as `webhook_deleted`. Its pending retries find it gone and stop. */
export async function deleteWebhook(caller: Caller, id: string | undefined, now = clock()) {
  const w = await ownWebhook(caller, id);
  const event = auditEvent(caller, "webhook_deleted", { webhook_id: w.id, url: w.url }, { now });
  await withRetries("Webhook could not be deleted, please retry", async () => {
    const result = await repo.deleteWebhook(caller.accountId, w.id, event);
    if (result.kind === "gone") throw new NotFound(WEBHOOK_MESSAGES.notFound);
    return result.kind === "ok" ? undefined : RETRY;
  });
  return { message: WEBHOOK_MESSAGES.deleted };
}

function deliveryView(d: DeliveryRecord): WebhookDeliveryView {
  return {
    event_id: d.event_id,
    event_type: d.event_type,
    status: d.status,
    attempts: d.attempts,
    first_attempt_at: d.first_attempt_at,
    last_attempt_at: d.last_attempt_at,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    next_attempt_at: d.next_attempt_at,
  };
}

/** `GET /webhooks/:id/deliveries`: the newest 50 deliveries (one per event), each with its attempts so far. */
export async function listDeliveries(caller: Caller, id: string | undefined): Promise<WebhookDeliveries> {
  const w = await ownWebhook(caller, id);
  return { deliveries: (await repo.recentDeliveries(w.id, RECENT)).map(deliveryView) };
}
