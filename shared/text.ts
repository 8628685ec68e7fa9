/**
 * Text is checked as text (DESIGN.md §3): lengths count Unicode code points, not UTF-16 units, and
 * single-line fields refuse control characters (Cc, line breaks and tab included) and invisible format
 * characters (Cf: zero-width, bidi controls), which could forge lines in mail and in the trail or make
 * look-alike values. Multi-line text may hold line feeds, and no other such character.
 */
import * as v from "valibot";

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
const CONTROL_OR_FORMAT_BUT_LF = /(?!\n)[\p{Cc}\p{Cf}]/u;

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

/** True when `s` holds no control or format character (with `lines`, but the line feed). */
export const isPlainText = (s: string, { lines = false } = {}): boolean => !(lines ? CONTROL_OR_FORMAT_BUT_LF : CONTROL_OR_FORMAT).test(s);

/** No control or format character. */
export const plainText = (message: string) => v.check((s: string) => isPlainText(s), message);

/** CRLF and CR stored as LF: a normalisation of its own type, like `trim`, which the API document skips. */
export const lineFeeds = { ...v.transform((s: string) => s.replace(/\r\n?/g, "\n")), type: "line_feeds" as const };
