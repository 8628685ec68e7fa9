/**
 * The API document's security-event operations (the trail's list, CSV export, alerts, digests), by route key (see
 * shared/openapi/spec.ts). The full exports are in exports.ts.
 */
import { paths } from "../../routes.js";
import { schemaRef as ref } from "../components.js";
import { examples } from "../examples.js";
import type { RequestSchemas } from "../requests.js";
import type { Spec } from "../spec.js";
import { idParam, queryParams, superAdmin } from "./common.js";

export function securityEventSpecs(req: RequestSchemas): Record<string, Spec> {
  const sec = paths.securityEvents;
  const eventsFilters = {
    user_id: "Events of this user (equality).",
    user_email:
      "Events of the user with this e-mail, as the list shows it (case-insensitive). Kept from the events a page reads (no index of its own): a page may hold fewer than `limit` events and still have a `next_cursor`.",
    event_type: "Events of this type (equality).",
    from: "Events at or after this instant: ISO 8601 date or date-time; without an offset, UTC.",
    to: "Events at or before this instant, as `from`.",
    limit: "Page size.",
    cursor: "`meta.next_cursor` of the previous page, with the same filters.",
  };
  return {
    [`GET ${sec}`]: {
      operationId: "listSecurityEvents",
      summary: "List security events",
      description:
        "Needs the cohort-super-admin status; the caller's account only. Newest first (ties by id), paged; filters combine with AND. With both `user_id` and `event_type` a page may hold fewer than `limit` events and still have a `next_cursor`. Events past the retention are never listed.",
      tag: "Security events",
      parameters: queryParams(req.securityEventListQuery, eventsFilters),
      success: { status: "200", description: "One page of events.", schema: ref("SecurityEventList"), example: examples.securityEventList },
      errors: { 403: superAdmin },
    },
    [`GET ${sec}/export`]: {
      operationId: "exportSecurityEvents",
      summary: "Export security events as CSV",
      description:
        "Needs the cohort-super-admin status. Columns `id,event_type,created_at,user_id,user_email,ip_address,description,details` (details as JSON), RFC 4180, UTF-8; a cell starting with `= + - @`, tab or CR gets a leading `'`. Newest first, at most 10,000 rows. `event_type` may name several types, comma-separated. Logs `security_events_exported`.",
      tag: "Security events",
      parameters: queryParams(req.securityEventExportQuery, {
        event_type: "One type, or several separated by commas.",
        user_email: "Events of the user with this e-mail (case-insensitive).",
        from: eventsFilters.from,
        to: eventsFilters.to,
      }),
      success: {
        status: "200",
        description: "The CSV file.",
        schema: { type: "string" },
        example: examples.securityEventExport,
        media: "text/csv",
        headers: {
          "Content-Disposition": { $ref: "#/components/headers/ContentDisposition" },
          "X-Export-Truncated": { $ref: "#/components/headers/XExportTruncated" },
        },
      },
      errors: { 403: superAdmin },
    },
    [`GET ${sec}/alerts`]: {
      operationId: "securityAlerts",
      summary: "Alerts of the last hour",
      description:
        "Needs the cohort-super-admin status. Counts of the three counted event types over the last hour, the alerts they reach, and the per-minute series.",
      tag: "Security events",
      success: { status: "200", description: "The alerts.", schema: ref("Alerts"), example: examples.securityAlerts },
      errors: { 403: superAdmin },
    },
    [`GET ${sec}/digests`]: {
      operationId: "listSecurityEventDigests",
      summary: "Signed digests of the trail",
      description:
        "Needs the cohort-super-admin status; the caller's account only. One digest per period (a UTC hour) that had events, oldest first, each chained to the account's previous digest and signed with ECDSA P-256 / SHA-256; `public_key` (PEM, SPKI) checks every signature. `events_hash` is the SHA-256 of the period's events, oldest first, each as the RFC 8785 canonical JSON of what `GET /security_events/{id}` returns, joined by a line feed. Periods that began before the retention are left out. See docs/trail.md and `npm run verify-trail`.",
      tag: "Security events",
      parameters: queryParams(req.securityEventDigestsQuery, {
        from: "Digests of the periods from the one holding this instant (ISO 8601).",
        to: "Digests of the periods that start at or before this instant (ISO 8601).",
      }),
      success: {
        status: "200",
        description: "The digests and the public key.",
        schema: ref("DigestList"),
        example: examples.securityEventDigests,
      },
      errors: { 403: superAdmin },
    },
    [`GET ${sec}/{id}`]: {
      operationId: "showSecurityEvent",
      summary: "Read a security event",
      tag: "Security events",
      parameters: [idParam("The event's id.")],
      success: { status: "200", description: "The event.", schema: ref("SecurityEvent"), example: examples.securityEvent },
      errors: { 403: superAdmin, 404: { event: "Security event not found" } },
    },
  };
}
