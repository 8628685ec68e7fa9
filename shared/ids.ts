import { randomBytes } from "node:crypto";

/**
 * Time-ordered opaque ids: 10 chars of millisecond time then 16 random chars, both in Crockford base32,
 * so ids created later sort later and ties in `created_at` order stably by id.
 */
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * Random bytes are drawn from a pool refilled 4 KiB at a time: one CSPRNG call per 256 ids instead of one
 * per id (each call is a syscall; on a busy VM that was a third of a write handler's own time).
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

export function newId(now = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = alphabet[t % 32] + time;
    t = Math.floor(t / 32);
  }
  if (offset + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  let rand = "";
  for (let i = offset; i < offset + 16; i++) rand += alphabet[(pool[i] as number) & 31];
  offset += 16;
  return time + rand;
}

/** Ids are 26 chars of the alphabet above; anything else is treated exactly like an unknown id. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}
