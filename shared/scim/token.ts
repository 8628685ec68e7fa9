/** SCIM bearer tokens: `scim_` + 32 random bytes (base64url), kept only as a SHA-256 hash. */
import { createHash, randomBytes } from "node:crypto";

export const TOKEN_PREFIX = "scim_";

export const newToken = (): string => `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;

export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

/** What a person may see again of a token: its first 12 characters. */
export const tokenPreview = (token: string): string => `${token.slice(0, 12)}...`;

/** A string that could be a token (anything else is refused without a read). */
export const plausibleToken = (token: string): boolean => /^scim_[A-Za-z0-9_-]{43}$/.test(token);
