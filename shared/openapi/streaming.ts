/**
 * The API document's part for getting events out (DESIGN.md §11): full exports and webhooks. Request
 * schemas come from the valibot schemas the handlers validate with; response schemas are written here once.
 */
import { exportRequest } from "../exports/schema.js";
import { webhookCreate } from "../webhooks/schema.js";
import { convertObject, objectOf } from "./requests.js";
import type { ErrorStatus, Spec } from "./spec.js";

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });
const closed = (properties: Record<string, Schema>, optional: readonly string[] = []): Schema => ({
  type: "object",
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  additionalProperties: false,
});

export const streamingSchemas: Record<string, Schema> = {
  ExportFilters: closed(
    {
      event_type: nullable({ type: "string" }),
      user_id: nullable({ type: "string" }),
      user_email: { type: "string", description: "The actor's e-mail, lower-cased; present only when the export was asked for one." },
      from: nullable(ref("Timestamp")),
      to: nullable(ref("Timestamp")),
    },
    ["user_email"],
  ),
  Export: {
    ...closed(
      {
        id: ref("Id"),
        status: { type: "string", enum: ["running", "succeeded", "failed"] },
        format: { type: "string", enum: ["csv", "jsonl"] },
        filters: ref("ExportFilters"),
        created_at: ref("Timestamp"),
        row_count: { type: "integer", minimum: 0, description: "Rows written so far; all of them once succeeded." },
        completed_at: nullable(ref("Timestamp")),
        download_url: { type: "string", format: "uri", description: "Succeeded only: a presigned S3 link, valid 15 minutes." },
        expires_at: { ...ref("Timestamp"), description: "When `download_url` stops working." },
        file_expires_at: { ...ref("Timestamp"), description: "When the file is deleted (7 days after the export)." },
        reason: { type: "string", description: "Failed only: why." },
      },
      ["download_url", "expires_at", "file_expires_at", "reason"],
    ),
  },
  ExportShown: closed({ export: ref("Export") }),
  Webhook: closed({
    id: ref("Id"),
    url: { type: "string", format: "uri" },
    status: {
      type: "string",
      enum: ["enabled", "disabled"],
      description: "Disabled after its receiver failed every attempt for 24 hours.",
    },
    created_at: ref("Timestamp"),
    failing_since: { ...nullable(ref("Timestamp")), description: "Since when every attempt has failed; null while it answers." },
    disabled_at: nullable(ref("Timestamp")),
  }),
  WebhookList: closed({ webhooks: { type: "array", items: ref("Webhook"), maxItems: 5 } }),
  WebhookCreated: closed({
    webhook: closed({
      id: ref("Id"),
      url: { type: "string", format: "uri" },
      created_at: ref("Timestamp"),
      secret: {
        type: "string",
        pattern: "^whsec_[A-Za-z0-9+/=]+$",
        description: "Verifies the deliveries' `webhook-signature` (Standard Webhooks). Shown only here: keep it.",
      },
    }),
  }),
  WebhookDelivery: closed({
    event_id: ref("Id"),
    event_type: ref("EventType"),
    status: {
      type: "string",
      enum: ["pending", "delivered", "failed"],
      description: "Pending: a retry is scheduled at `next_attempt_at`.",
    },
    attempts: { type: "integer", minimum: 1 },
    first_attempt_at: ref("Timestamp"),
    last_attempt_at: ref("Timestamp"),
    last_status_code: nullable({ type: "integer" }),
    last_error: nullable({ type: "string" }),
    next_attempt_at: nullable(ref("Timestamp")),
  }),
  WebhookDeliveries: closed({ deliveries: { type: "array", items: ref("WebhookDelivery") } }),
};

const example = {
  id: "01JD3Z8Q9X4T7V2N5M8K1C6B0A",
  status: "running",
  format: "csv",
  filters: { event_type: null, user_id: null, from: "2024-06-01T00:00:00.000Z", to: null },
  created_at: "2024-06-01T08:00:00.000Z",
  row_count: 0,
  completed_at: null,
};

const superAdmin = { superAdmin: "Super admin access required" };

/** The operations, by route key. */
export function streamingSpecs(errorMode: "throw" | "ignore"): Record<string, Spec> {
  const sec = "/api/v1/admin/security_events";
  const hooks = "/api/v1/admin/webhooks";
  const errors = (more: Partial<Record<Exclude<ErrorStatus, "422">, Record<string, string>>>) => ({ 403: superAdmin, ...more });
  return {
    [`POST ${sec}/exports`]: {
      operationId: "startSecurityEventExport",
      summary: "Export every matching event to a file",
      description:
        "Cohort super admins; the caller's account only. Starts a full export, as CSV (the columns, quoting and injection guard of the CSV export, without its 10,000-row cap) or JSON Lines (each line the event as `GET /security_events/{id}` shows it), newest first, with the list's filters. Poll `GET …/exports/{id}` for its status and download link. At most 2 exports of an account run at a time. Logs `security_events_exported`.",
      tag: "Security events",
      body: { schema: convertObject(objectOf(exportRequest), errorMode), example: { format: "csv", from: "2024-06-01T00:00:00Z" } },
      success: { status: "202", description: "Started.", schema: ref("ExportShown"), example: { export: example } },
      errors: errors({ 429: { tooMany: "Too many exports running, try again later" } }),
    },
    [`GET ${sec}/exports/{id}`]: {
      operationId: "showSecurityEventExport",
      summary: "Status and download link of an export",
      description: "Cohort super admins; the caller's account only. A succeeded export carries a download link valid for 15 minutes.",
      tag: "Security events",
      parameters: [{ name: "id", in: "path", required: true, description: "The export's id.", schema: { type: "string" } }],
      success: {
        status: "200",
        description: "The export.",
        schema: ref("ExportShown"),
        example: { export: { ...example, status: "succeeded", row_count: 1234, completed_at: "2024-06-01T08:00:04.000Z" } },
      },
      errors: errors({ 404: { export: "Export not found" } }),
    },
    [`GET ${hooks}`]: {
      operationId: "listWebhooks",
      summary: "List the account's webhooks",
      description: "Cohort super admins; the caller's account only. Secrets are never shown again.",
      tag: "Webhooks",
      success: { status: "200", description: "The webhooks.", schema: ref("WebhookList"), example: { webhooks: [hookExample] } },
      errors: errors({}),
    },
    [`POST ${hooks}`]: {
      operationId: "createWebhook",
      summary: "Create a webhook",
      description:
        "Cohort super admins; for the caller's account. Every event recorded in the account from then on is POSTed to `url`, signed per Standard Webhooks (`webhook-id` is the event id, so duplicates can be dropped; payload `{type, timestamp, data}` with `data` the event as show returns it). A receiver must answer 2xx within 5 s; failed deliveries are retried with exponential backoff for 24 hours. https URLs only, to a public host: a host name (not an IP address), no user name or password, port 443 or above 1023, resolving to public addresses only (not loopback, private, link-local, CGNAT or unique-local ones); each delivery resolves the host again and connects only to an address that passes. At most 5 per account. Logs `webhook_created`.",
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
      description: "Cohort super admins; the caller's account only. Pending retries stop. Logs `webhook_deleted`.",
      tag: "Webhooks",
      parameters: [hookId],
      success: { status: "200", description: "Deleted.", schema: ref("Message"), example: { message: "Webhook deleted" } },
      errors: errors({ 404: { webhook: "Webhook not found" } }),
    },
    [`GET ${hooks}/{id}/deliveries`]: {
      operationId: "listWebhookDeliveries",
      summary: "Recent deliveries of a webhook",
      description: "Cohort super admins; the caller's account only. The newest 50 deliveries (one per event), with their attempts so far.",
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
      errors: errors({ 404: { webhook: "Webhook not found" } }),
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
