/**
 * The full export's response bodies (docs/contract/exports.md), in valibot: schemas of the API document under these names
 * (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { Id, Timestamp } from "../responses.js";

export const ExportFilters = v.strictObject({
  event_type: v.nullable(v.string()),
  user_id: v.nullable(v.string()),
  user_email: v.optional(
    v.pipe(v.string(), v.description("The actor's e-mail, lower-cased; present only when the export was asked for one.")),
  ),
  from: v.nullable(Timestamp),
  to: v.nullable(Timestamp),
});

export const Export = v.strictObject({
  id: Id,
  status: v.picklist(["running", "succeeded", "failed"]),
  format: v.picklist(["csv", "jsonl"]),
  filters: ExportFilters,
  created_at: Timestamp,
  row_count: v.pipe(v.number(), v.integer(), v.minValue(0), v.description("Rows written so far; all of them once succeeded.")),
  completed_at: v.nullable(Timestamp),
  download_url: v.optional(v.pipe(v.string(), v.url(), v.description("Succeeded only: a presigned S3 link, valid 15 minutes."))),
  expires_at: v.optional(v.pipe(Timestamp, v.description("When `download_url` stops working."))),
  file_expires_at: v.optional(v.pipe(Timestamp, v.description("When the file is deleted (7 days after the export)."))),
  reason: v.optional(v.pipe(v.string(), v.description("Failed only: why."))),
});

export const ExportShown = v.strictObject({ export: Export });
