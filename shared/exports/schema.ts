/**
 * The body of `POST /security_events/exports`: the format and the list's filters (docs/contract/exports.md). Problems
 * are 400 `{error}` with the list's messages, as the same filters are in a query string there.
 */
import * as v from "valibot";
import { BadRequest } from "../errors.js";
import { emailFilter, type Iso, parseIso, QUERY_ERRORS } from "../security-events/schema.js";

export const EXPORT_FORMATS = ["csv", "jsonl"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_ERRORS = {
  format: "Invalid format: must be csv or jsonl",
  filter: "Invalid filter: user_id, user_email and event_type must be strings",
} as const;

/** Absent, null or blank: no filter, as in the list's query string. */
const optionalText = (message: string) =>
  v.pipe(
    v.optional(v.nullable(v.string(message)), null),
    v.transform((s) => (s === null || s.trim() === "" ? undefined : s)),
  );

const instant = (message: string, round: "up" | "down") =>
  v.pipe(
    optionalText(message),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (dataset.value === undefined) return undefined;
      const ms = parseIso(dataset.value.trim(), round);
      if (ms === undefined) {
        addIssue({ message });
        return NEVER;
      }
      return new Date(ms).toISOString() as Iso;
    }),
  );

/** The request body; unknown keys are ignored. */
export const exportRequest = v.pipe(
  v.object({
    format: v.picklist(EXPORT_FORMATS, EXPORT_ERRORS.format),
    event_type: optionalText(EXPORT_ERRORS.filter),
    user_id: optionalText(EXPORT_ERRORS.filter),
    // As in the list: the e-mail the trail shows, compared as stored (lower-cased).
    user_email: v.pipe(
      optionalText(EXPORT_ERRORS.filter),
      v.transform((s) => (s === undefined ? undefined : emailFilter(s))),
    ),
    from: instant(QUERY_ERRORS.from, "up"),
    to: instant(QUERY_ERRORS.to, "down"),
  }),
  v.check((q) => q.from === undefined || q.to === undefined || q.from <= q.to, QUERY_ERRORS.range),
);
export type ExportRequest = v.InferOutput<typeof exportRequest>;

/** The body, validated; the first problem is 400 `{error}` (a missing or non-object body: the format's). */
export function parseExportRequest(body: unknown): ExportRequest {
  const value = typeof body === "object" && body !== null && !Array.isArray(body) ? body : {};
  // A missing format is refused with the format's message, not valibot's generic "Invalid key".
  const result = v.safeParse(exportRequest, { format: null, ...value }, { abortEarly: true });
  if (result.success) return result.output;
  throw new BadRequest(result.issues[0]?.message ?? EXPORT_ERRORS.format);
}
