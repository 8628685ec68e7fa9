/**
 * The API document's full-export operations (docs/events-out.md), by route key (see shared/openapi/spec.ts).
 */
import { exportRequest } from "../../exports/schema.js";
import { paths } from "../../routes.js";
import { schemaRef as ref } from "../components.js";
import { convertObject, objectOf } from "../requests.js";
import type { Spec } from "../spec.js";
import { superAdmin } from "./common.js";

const example = {
  id: "01JD3Z8Q9X4T7V2N5M8K1C6B0A",
  status: "running",
  format: "csv",
  filters: { event_type: null, user_id: null, from: "2024-06-01T00:00:00.000Z", to: null },
  created_at: "2024-06-01T08:00:00.000Z",
  row_count: 0,
  completed_at: null,
};

export function exportSpecs(errorMode: "throw" | "ignore"): Record<string, Spec> {
  const sec = paths.securityEvents;
  return {
    [`POST ${sec}/exports`]: {
      operationId: "startSecurityEventExport",
      summary: "Export every matching event to a file",
      description:
        "Needs the cohort-super-admin status; the caller's account only. Starts a full export, as CSV (the columns, quoting and injection guard of the CSV export, without its 10,000-row cap) or JSON Lines (each line the event as `GET /security_events/{id}` shows it), newest first, with the list's filters. Poll `GET …/exports/{id}` for its status and download link. At most 2 exports of an account run at a time. Logs `security_events_exported`.",
      tag: "Security events",
      body: { schema: convertObject(objectOf(exportRequest), errorMode), example: { format: "csv", from: "2024-06-01T00:00:00Z" } },
      success: { status: "202", description: "Started.", schema: ref("ExportShown"), example: { export: example } },
      errors: { 403: superAdmin, 429: { tooMany: "Too many exports running, try again later" } },
    },
    [`GET ${sec}/exports/{id}`]: {
      operationId: "showSecurityEventExport",
      summary: "Status and download link of an export",
      description:
        "Needs the cohort-super-admin status; the caller's account only. A succeeded export carries a download link valid for 15 minutes.",
      tag: "Security events",
      parameters: [{ name: "id", in: "path", required: true, description: "The export's id.", schema: { type: "string" } }],
      success: {
        status: "200",
        description: "The export.",
        schema: ref("ExportShown"),
        example: { export: { ...example, status: "succeeded", row_count: 1234, completed_at: "2024-06-01T08:00:04.000Z" } },
      },
      errors: { 403: superAdmin, 404: { export: "Export not found" } },
    },
  };
}
