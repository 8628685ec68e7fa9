/**
 * Query shapes of the security-event endpoints: the single source of what a client may send and of the
 * 400 messages. Blank values (`?user_id=`) count as absent, as Rails' `present?` would treat them; unknown
 * keys are ignored. Everything here is pure, so it is unit-tested without DynamoDB.
 */
import * as v from "valibot";
import { DEFAULT_LIMIT, limitParam, queryParam } from "../paging.js";
import { recordedText } from "../text.js";

export const QUERY_ERRORS = {
  from: "Invalid from: must be an ISO 8601 timestamp",
  to: "Invalid to: must be an ISO 8601 timestamp",
  range: "Invalid range: from must not be after to",
} as const;

/** An instant of the contract, as the stored `created_at` spells it (UTC, milliseconds). */
export type Iso = string;

// Date, or date and time with optional seconds, fraction (any precision) and offset; no offset means UTC.
// A space stands for `+` in the offset: an unencoded `+` in a query string often arrives decoded as a space.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+\- ])(\d{2}):?(\d{2}))?)?$/;

/**
 * Parses an ISO 8601 timestamp to epoch milliseconds, or `undefined` when it is not one (including
 * impossible dates such as Feb 30). Digits below the millisecond are rounded up for a lower bound and down
 * for an upper bound, so the inclusive bounds never take in an event outside them.
 */
export function parseIso(text: string, round: "up" | "down"): number | undefined {
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", , sign, oh = "00", om = "00"] = m;
  const num = (x: string | undefined) => Number(x);
  if (num(mo) < 1 || num(mo) > 12 || num(h) > 23 || num(mi) > 59 || num(s) > 59 || num(oh) > 23 || num(om) > 59) return undefined;
  let ms = Date.UTC(num(y), num(mo) - 1, num(d), num(h), num(mi), num(s));
  // Date.UTC rolls Feb 30 over into March; refuse it instead. (Years 0–99 are mapped to 19xx by Date.UTC.)
  const check = new Date(ms);
  if (check.getUTCDate() !== num(d) || check.getUTCMonth() !== num(mo) - 1) return undefined;
  if (num(y) < 100) return undefined;
  const millis = Number(`${frac}000`.slice(0, 3));
  const rest = frac.length > 3 && /[1-9]/.test(frac.slice(3));
  ms += millis + (rest && round === "up" ? 1 : 0);
  if (sign) ms -= (sign === "-" ? -1 : 1) * (num(oh) * 60 + num(om)) * 60_000;
  if (!Number.isFinite(ms) || ms < Date.UTC(1000, 0, 1) || ms > Date.UTC(9999, 11, 31, 23, 59, 59, 999)) return undefined;
  return ms;
}

const instant = (message: string, round: "up" | "down") =>
  v.pipe(
    queryParam,
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

const range = <T extends { from?: Iso | undefined; to?: Iso | undefined }>() =>
  v.check<T, string>((q) => q.from === undefined || q.to === undefined || q.from <= q.to, QUERY_ERRORS.range);

/**
 * An e-mail filter as compared and as recorded: trimmed, lower-cased, and clean by the recorded-text rules
 * (docs/security.md), cut at the longest address there is (254), so no filter value floods the trail.
 */
export const emailFilter = (s: string): string => recordedText(s.trim().toLowerCase(), 254);

/**
 * `user_email`: the actor's e-mail as the list shows it, compared as stored (trimmed, lower-cased), so a person
 * filters by what they see rather than by an internal id.
 */
export const userEmailParam = v.pipe(
  queryParam,
  v.transform((s) => (s === undefined ? undefined : emailFilter(s))),
);

/** `GET /security_events`. `from`/`to` come out normalized to the stored `created_at` form. */
export const listQuery = v.pipe(
  v.object({
    user_id: queryParam,
    user_email: userEmailParam,
    event_type: queryParam,
    from: instant(QUERY_ERRORS.from, "up"),
    to: instant(QUERY_ERRORS.to, "down"),
    limit: limitParam,
    // Decoded by `paging.ts`; here only its presence.
    cursor: queryParam,
  }),
  range(),
  // valibot types a key whose schema accepts undefined as optional; the default is already applied.
  v.transform((q) => ({ ...q, limit: q.limit ?? DEFAULT_LIMIT })),
);
export type ListQuery = v.InferOutput<typeof listQuery>;

/** `GET /security_events/export`. `event_types` is `event_type` split on commas (blank parts dropped, duplicates once). */
export const exportQuery = v.pipe(
  v.object({
    event_type: queryParam,
    user_email: userEmailParam,
    from: instant(QUERY_ERRORS.from, "up"),
    to: instant(QUERY_ERRORS.to, "down"),
  }),
  range(),
  v.transform((q) => {
    const types = [...new Set((q.event_type ?? "").split(",").map((t) => t.trim()))].filter((t) => t !== "");
    // `event_type=,` names no type at all: no type filter, like an absent one.
    return { ...q, event_types: types.length > 0 ? types : undefined };
  }),
);
export type ExportQuery = v.InferOutput<typeof exportQuery>;

/** `GET /security_events/digests`: the digests of the periods that start in [`from`, `to`]. */
export const digestsQuery = v.pipe(
  v.object({
    from: instant(QUERY_ERRORS.from, "up"),
    to: instant(QUERY_ERRORS.to, "down"),
  }),
  range(),
);
export type DigestsQuery = v.InferOutput<typeof digestsQuery>;
