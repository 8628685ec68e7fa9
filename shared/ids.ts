import { randomBytes } from "node:crypto";

/**
 * Time-ordered opaque ids: 10 chars of millisecond time then 16 random chars, both in Crockford base32,
 * so ids created later sort later and ties in `created_at` order stably by id.
 */
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function newId(now = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = alphabet[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = "";
  for (const b of bytes) rand += alphabet[b & 31];
  return time + rand;
}

/** Ids are 26 chars of the alphabet above; anything else is treated exactly like an unknown id. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}
