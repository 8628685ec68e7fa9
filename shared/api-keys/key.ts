/**
 * Institution API keys (docs/api-keys.md): `iak_` + 32 random bytes (base64url), shown once and kept only as a
 * SHA-256 hash, which names the key's lookup item (the authorizer's one GetItem).
 */
import { createHash, randomBytes } from "node:crypto";
import { KEY_PREFIX } from "./scopes.js";

export { KEY_PREFIX };

export const newKey = (): string => `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;

export const hashKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex");

/** What a person may see again of a key: its first 8 characters. */
export const keyPreview = (key: string): string => `${key.slice(0, 8)}...`;

/** A string that could be a key: anything else is refused without a read. */
export const plausibleKey = (key: string): boolean => /^iak_[A-Za-z0-9_-]{43}$/.test(key);

/**
 * The key of an `Authorization` header (`Bearer <key>`, the scheme in any case), or undefined. The edge sends
 * only `Bearer iak_…` to the machines' API; anything else there is no key.
 */
export function keyOfHeader(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 512) return undefined;
  const key = /^Bearer +(\S+) *$/i.exec(header.trim())?.[1];
  return key !== undefined && plausibleKey(key) ? key : undefined;
}
