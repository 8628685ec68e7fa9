/**
 * The list's opaque page cursor: `<position>.<mac>`, both base64url. The position is only the last
 * returned event's `created_key` (`<created_at>#<id>`); the MAC (HMAC-SHA256, 128 bits) binds it to the
 * caller's account and the filters of the request that produced it.
 *
 * Isolation does not rest on the MAC: the repository rebuilds the ExclusiveStartKey from the caller's own
 * index partition, so a cursor can only ever move the start inside the caller's own result set. The MAC
 * makes a cursor from another account or another filter, or an edited one, a clear 400 instead of a
 * silently different page. `CURSOR_SECRET` (optional) keys it; without it a fixed key is used, which lets
 * someone who reads this source mint a cursor for their own account and filters — a position they could
 * reach with `to` anyway.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { BadRequest } from "../errors.js";
import { isId } from "../ids.js";
import type { EventFilter } from "./repository.js";
import { messages } from "./schema.js";

/**
 * HMAC-SHA256 (RFC 2104) with the key's inner and outer pad states hashed once, at load: each MAC copies
 * them instead of setting up a keyed context (with OpenSSL 3, `createHmac` costs 2–3× as much on a cold
 * CPU). `cursor.test` checks it against `createHmac`.
 */
export function hmacSha256(key: Buffer): (message: string) => Buffer {
  const block = Buffer.alloc(64);
  (key.length > 64 ? createHash("sha256").update(key).digest() : key).copy(block);
  const inner = createHash("sha256").update(block.map((b) => b ^ 0x36));
  const outer = createHash("sha256").update(block.map((b) => b ^ 0x5c));
  return (message) => outer.copy().update(inner.copy().update(message, "utf8").digest()).digest();
}

const hmac = hmacSha256(Buffer.from(process.env.CURSOR_SECRET || "institution-admin-api:security-events:cursor:v1", "utf8"));
const MAC_BYTES = 16;
const MAX_CURSOR_CHARS = 256;
const CREATED_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([^#]+)$/;

/** A cursor is valid only for the filter of the query it came from: the account and every filter. */
export type CursorScope = EventFilter;

function mac(scope: CursorScope, position: string): Buffer {
  // JSON of a fixed-order array: no separator in a value can make two scopes collide.
  const message = JSON.stringify([
    1,
    scope.account,
    scope.userId ?? null,
    scope.type ?? null,
    scope.from ?? null,
    scope.to ?? null,
    position,
  ]);
  return hmac(message).subarray(0, MAC_BYTES);
}

/** The cursor that continues after the event with `createdKey`, for this scope only. */
export function signCursor(scope: CursorScope, createdKey: string): string {
  return `${Buffer.from(createdKey, "utf8").toString("base64url")}.${mac(scope, createdKey).toString("base64url")}`;
}

/**
 * The `created_key` a cursor continues after, if it was issued for exactly this scope; otherwise 400
 * `Invalid cursor` (malformed, edited, or from another account or filter).
 */
export function verifyCursor(scope: CursorScope, cursor: string): string {
  const invalid = () => new BadRequest(messages.cursor);
  if (cursor.length > MAX_CURSOR_CHARS) throw invalid();
  const [encoded, sig, ...extra] = cursor.split(".");
  if (encoded === undefined || sig === undefined || extra.length > 0) throw invalid();
  if (!/^[A-Za-z0-9_-]+$/.test(encoded) || !/^[A-Za-z0-9_-]+$/.test(sig)) throw invalid();
  const position = Buffer.from(encoded, "base64url").toString("utf8");
  const given = Buffer.from(sig, "base64url");
  const expected = mac(scope, position);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const m = CREATED_KEY.exec(position);
  if (!m || !isId(m[2])) throw invalid();
  // Inside the bounds by construction; checked so that even a leaked key cannot make DynamoDB refuse the start key.
  const at = m[1] as string;
  if ((scope.from !== undefined && at < scope.from) || (scope.to !== undefined && at > scope.to)) throw invalid();
  return position;
}

/** The event id inside a `created_key`. */
export function idOf(createdKey: string): string {
  return createdKey.slice(createdKey.lastIndexOf("#") + 1);
}
