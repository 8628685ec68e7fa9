/**
 * Ids are ULIDs: 26 characters of Crockford base32, millisecond time first, so ids created later sort
 * later and ties in `created_at` order stably by id.
 */
import { encodeTime, ulid } from "ulidx";
import { now as clock } from "./clock.js";

/** A new id, time-ordered by `now` (epoch milliseconds). */
export function newId(now = clock().getTime()): string {
  return ulid(now);
}

/** Anything but a ULID is treated exactly like an unknown id. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}

/** The lowest id of epoch millisecond `ms`: a lower key bound for "created at `ms` or later". */
export const firstIdAt = (ms: number): string => `${encodeTime(ms, 10)}${"0".repeat(16)}`;

/** The highest id of epoch millisecond `ms`: an upper key bound for "created at `ms` or earlier". */
export const lastIdAt = (ms: number): string => `${encodeTime(ms, 10)}${"Z".repeat(16)}`;
