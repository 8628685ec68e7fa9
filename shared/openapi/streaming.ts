/**
 * The API document's part for getting events out (DESIGN.md §11): full exports and webhooks. Request
 * schemas come from the valibot schemas the handlers validate with; response schemas are written here once.
 */
import { exportRequest } from "../exports/schema.js";
import type { ErrorStatus, Spec } from "./document.js";
import { convertObject, objectOf } from "./requests.js";

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
  ExportFilters: closed({
    event_type: nullable({ type: "string" }),
    user_id: nullable({ type: "string" }),
    from: nullable(ref("Timestamp")),
    to: nullable(ref("Timestamp")),
  }),
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
  };
}
