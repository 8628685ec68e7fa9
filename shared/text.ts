/**
 * Text is checked as text (docs/contract/institutions.md#bodies-and-validation, docs/contract/events.md#every-event): lengths count Unicode code points, not UTF-16 units, and
 * single-line fields refuse control characters (Cc, line breaks and tab included), invisible format
 * characters (Cf: zero-width, bidi controls), the line and paragraph separators (U+2028, U+2029) and the
 * characters that render as nothing although they are letters or marks (Hangul fillers, the combining
 * grapheme joiner, variation selectors, the blank Braille pattern): any of them could forge lines in mail
 * and in the trail or make look-alike values. Multi-line text may hold line feeds, and no other such character.
 */
import * as v from "valibot";

/**
 * Invisible or line-breaking: Cc, Cf, U+2028/U+2029 (Zl, Zp), the Hangul fillers U+115F, U+1160, U+3164,
 * U+FFA0, the combining grapheme joiner U+034F, the variation selectors U+FE00–U+FE0F and
 * U+E0100–U+E01EF, and the blank Braille pattern U+2800.
 */
const INVISIBLE = "\\p{Cc}\\p{Cf}\\u2028\\u2029\\u115F\\u1160\\u3164\\uFFA0\\u034F\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}\\u2800";
const NOT_PLAIN = new RegExp(`[${INVISIBLE}]`, "u");
const NOT_PLAIN_BUT_LF = new RegExp(`(?!\\n)[${INVISIBLE}]`, "u");

/** The code points of `s`: an emoji counts as one. */
export const codePoints = (s: string): number => [...s].length;

/**
 * At most `max` code points: a check with its own type and its `max` in view, so that the API document
 * can say it (JSON Schema's `maxLength` counts code points too).
 */
export const maxCodePoints = (max: number, message: string) => ({
  ...v.check((s: string) => codePoints(s) <= max, message),
  type: "max_code_points" as const,
  max,
});

/** True when `s` holds no invisible or line-breaking character (with `lines`, but the line feed). */
export const isPlainText = (s: string, { lines = false } = {}): boolean => !(lines ? NOT_PLAIN_BUT_LF : NOT_PLAIN).test(s);

/** No invisible or line-breaking character. */
export const plainText = (message: string) => v.check((s: string) => isPlainText(s), message);

/** CRLF and CR stored as LF: a normalisation of its own type, like `trim`, which the API document skips. */
export const lineFeeds = { ...v.transform((s: string) => s.replace(/\r\n?/g, "\n")), type: "line_feeds" as const };

/** The longest recorded value taken from a request, in code points (docs/contract/institutions.md#bodies-and-validation, docs/contract/events.md#every-event). */
export const RECORDED_MAX = 64;

/** What a recorded value may not hold: every invisible or line-breaking character of `INVISIBLE` (Zl, Zp among them). */
const UNSAFE_IN_RECORD = new RegExp(`[${INVISIBLE}]`, "gu");

/**
 * A value from the request as the trail records it: one line of at most `max` code points, every control,
 * format or line-separator character and every invisible filler (see `INVISIBLE`) replaced by U+FFFD, so that a value can neither flood the trail nor
 * forge or reorder (bidi) a line of it. `max` is `Infinity` only for values the request could not make
 * longer than their validation allows (a validated e-mail address).
 */
export function recordedText(value: string, max = RECORDED_MAX): string {
  const points = [...value];
  return (points.length > max ? points.slice(0, max).join("") : value).replace(UNSAFE_IN_RECORD, "\ufffd");
}
