/**
 * The webhook use cases' response bodies (docs/contract/webhooks.md), in valibot: schemas of the API document under these
 * names (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { EventType, Id, Timestamp } from "../responses.js";

const url = v.pipe(v.string(), v.url());

export const Webhook = v.strictObject({
  id: Id,
  url,
  status: v.pipe(v.picklist(["enabled", "disabled"]), v.description("Disabled after its receiver failed every attempt for 24 hours.")),
  created_at: Timestamp,
  failing_since: v.pipe(v.nullable(Timestamp), v.description("Since when every attempt has failed; null while it answers.")),
  disabled_at: v.nullable(Timestamp),
});

export const WebhookList = v.strictObject({ webhooks: v.pipe(v.array(Webhook), v.maxLength(5)) });

export const WebhookCreated = v.strictObject({
  webhook: v.strictObject({
    id: Id,
    url,
    created_at: Timestamp,
    secret: v.pipe(
      v.string(),
      v.regex(/^whsec_[A-Za-z0-9+/=]+$/),
      v.description("Verifies the deliveries' `webhook-signature` (Standard Webhooks). Shown only here: keep it."),
    ),
  }),
});

export const WebhookDelivery = v.strictObject({
  event_id: Id,
  event_type: EventType,
  status: v.pipe(v.picklist(["pending", "delivered", "failed"]), v.description("Pending: a retry is scheduled at `next_attempt_at`.")),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(1)),
  first_attempt_at: Timestamp,
  last_attempt_at: Timestamp,
  last_status_code: v.nullable(v.pipe(v.number(), v.integer())),
  last_error: v.nullable(v.string()),
  next_attempt_at: v.nullable(Timestamp),
});

export const WebhookDeliveries = v.strictObject({ deliveries: v.array(WebhookDelivery) });
