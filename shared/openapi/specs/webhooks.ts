/**
 * The API document's webhook operations (docs/events-out.md), by route key (see shared/openapi/spec.ts).
 */
import { paths } from "../../routes.js";
import { webhookCreate } from "../../webhooks/schema.js";
import { schemaRef as ref, type Schema } from "../components.js";
import { convertObject } from "../requests.js";
import type { Spec } from "../spec.js";
import { superAdmin } from "./common.js";

export function webhookSpecs(errorMode: "throw" | "ignore"): Record<string, Spec> {
  const hooks = paths.webhooks;
  return {
    [`GET ${hooks}`]: {
      operationId: "listWebhooks",
      summary: "List the account's webhooks",
      description: "Needs the cohort-super-admin status; the caller's account only. Secrets are never shown again.",
      tag: "Webhooks",
      success: { status: "200", description: "The webhooks.", schema: ref("WebhookList"), example: { webhooks: [hookExample] } },
      errors: { 403: superAdmin },
    },
    [`POST ${hooks}`]: {
      operationId: "createWebhook",
      summary: "Create a webhook",
      description:
        "Needs the cohort-super-admin status; for the caller's account. Every event recorded in the account from then on is POSTed to `url`, signed per Standard Webhooks (`webhook-id` is the event id, so duplicates can be dropped; payload `{type, timestamp, data}` with `data` the event as show returns it). A receiver must answer 2xx within 5 s; failed deliveries are retried with exponential backoff for 24 hours. https URLs only, to a public host: a host name (not an IP address), no user name or password, port 443 or above 1023, resolving to public addresses only (not loopback, private, link-local, CGNAT or unique-local ones); each delivery resolves the host again and connects only to an address that passes. At most 5 per account. Logs `webhook_created`.",
      tag: "Webhooks",
      body: {
        schema: { type: "object", properties: { webhook: convertObject(webhookCreate, errorMode) }, required: ["webhook"] },
        example: { webhook: { url: "https://siem.example.com/hooks/institution-admin" } },
      },
      success: {
        status: "201",
        description: "Created; the secret is in this answer only.",
        schema: ref("WebhookCreated"),
        example: {
          webhook: {
            id: hookExample.id,
            url: hookExample.url,
            created_at: hookExample.created_at,
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
          },
        },
      },
      errors: {
        403: superAdmin,
        422: { shape: "errors", examples: { url: { errors: ["Url must be an https URL"] } } },
        429: { tooMany: "At most 5 webhooks per account" },
      },
    },
    [`DELETE ${hooks}/{id}`]: {
      operationId: "deleteWebhook",
      summary: "Delete a webhook",
      description: "Needs the cohort-super-admin status; the caller's account only. Pending retries stop. Logs `webhook_deleted`.",
      tag: "Webhooks",
      parameters: [hookId],
      success: { status: "200", description: "Deleted.", schema: ref("Message"), example: { message: "Webhook deleted" } },
      errors: { 403: superAdmin, 404: { webhook: "Webhook not found" } },
    },
    [`GET ${hooks}/{id}/deliveries`]: {
      operationId: "listWebhookDeliveries",
      summary: "Recent deliveries of a webhook",
      description:
        "Needs the cohort-super-admin status; the caller's account only. The newest 50 deliveries (one per event), with their attempts so far.",
      tag: "Webhooks",
      parameters: [hookId],
      success: {
        status: "200",
        description: "The deliveries, newest event first.",
        schema: ref("WebhookDeliveries"),
        example: {
          deliveries: [
            {
              event_id: "01JD3Z8Q9X4T7V2N5M8K1C6B0B",
              event_type: "institution_created",
              status: "delivered",
              attempts: 1,
              first_attempt_at: "2024-06-01T08:00:01.000Z",
              last_attempt_at: "2024-06-01T08:00:01.000Z",
              last_status_code: 204,
              last_error: null,
              next_attempt_at: null,
            },
          ],
        },
      },
      errors: { 403: superAdmin, 404: { webhook: "Webhook not found" } },
    },
  };
}

const hookId: Schema = { name: "id", in: "path", required: true, description: "The webhook's id.", schema: { type: "string" } };
const hookExample = {
  id: "01JD3Z8Q9X4T7V2N5M8K1C6B0C",
  url: "https://siem.example.com/hooks/institution-admin",
  status: "enabled",
  created_at: "2024-06-01T08:00:00.000Z",
  failing_since: null,
  disabled_at: null,
};
