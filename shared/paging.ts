/**
 * Paging of the lists that page (security events, invitations): `limit` 1–200 (default 50) and an opaque
 * `cursor` from `meta.next_cursor`. A cursor is the encoded position of the last item returned, a sort key
 * `<ISO instant>#<id>`, not signed: the next page's start key is always built inside the caller's own
 * partition, so a cursor can only move within what the caller may read anyway.
 */
import * as v from "valibot";
import { BadRequest } from "./errors.js";
import { isId } from "./ids.js";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

export const PAGING_ERRORS = {
  limit: `Invalid limit: must be an integer between 1 and ${MAX_LIMIT}`,
  cursor: "Invalid cursor",
} as const;

const present = (s: unknown): s is string => typeof s === "string" && s.trim() !== "";

/** A query parameter: absent or blank → undefined; otherwise the string as sent (equality filters are not trimmed). */
export const queryParam = v.pipe(
  v.optional(v.string()),
  v.transform((s) => (present(s) ? s : undefined)),
);

/** `limit`: an integer 1–200, default 50. */
export const limitParam = v.pipe(
  queryParam,
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    if (dataset.value === undefined) return DEFAULT_LIMIT;
    const text = dataset.value.trim();
    const n = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= 1 && n <= MAX_LIMIT)) {
      addIssue({ message: PAGING_ERRORS.limit });
      return NEVER;
    }
    return n;
  }),
);

/** Validates a query string against `schema`; the first problem becomes 400 `{error}`. */
export function parseQuery<S extends v.GenericSchema>(schema: S, query: Readonly<Record<string, string | undefined>>): v.InferOutput<S> {
  const result = v.safeParse(schema, query ?? {}, { abortEarly: true });
  if (result.success) return result.output;
  throw new BadRequest(result.issues[0]?.message ?? "Invalid query");
}

const POSITION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([0-9A-Z]{26})$/;

/** The cursor that continues after `position`. */
export const encodeCursor = (position: string): string => Buffer.from(position, "utf8").toString("base64url");

/** The position a cursor continues after, and the instant in it; 400 `Invalid cursor` for anything else. */
export function decodeCursor(cursor: string): { position: string; at: string } {
  const m = POSITION.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  // Exactly the encoding of a position: base64url decoding skips what it cannot read, this does not.
  if (!m || !isId(m[2]) || encodeCursor(m[0]) !== cursor) throw new BadRequest(PAGING_ERRORS.cursor);
  return { position: m[0], at: m[1] as string };
}
