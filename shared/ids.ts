import { randomBytes } from "node:crypto";

/**
 * Time-ordered opaque ids: 10 chars of millisecond time then 16 random chars, both in Crockford base32,
 * so ids created later sort later and ties in `created_at` order stably by id.
 */
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * Random bytes (ids and invitation tokens) are drawn from a CSPRNG pool refilled 4 KiB at a time: one
 * call per 256 ids instead of one per id (each call is a syscall; on a busy VM that was a third of a write
 * handler's own time). Every byte is handed out once.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** `n` (at most 4096) fresh bytes from the CSPRNG pool, as a view that nothing else will be given. */
export function pooledRandomBytes(n: number): Buffer {
  if (offset + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + n);
  offset += n;
  return bytes;
}

/** The time part of the last id: ids made in one request share their millisecond. */
let lastMs = Number.NaN;
let lastTime = "";

export function newId(now = Date.now()): string {
  if (now !== lastMs) {
    let time = "";
    let t = now;
    for (let i = 0; i < 10; i++) {
      time = alphabet[t % 32] + time;
      t = Math.floor(t / 32);
    }
    lastTime = time;
    lastMs = now;
  }
  const time = lastTime;
  const bytes = pooledRandomBytes(16);
  let rand = "";
  for (let i = 0; i < 16; i++) rand += alphabet[(bytes[i] as number) & 31];
  return time + rand;
}

/** Ids are 26 chars of the alphabet above; anything else is treated exactly like an unknown id. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9A-HJKMNP-TV-Z]{26}$/.test(value);
}
