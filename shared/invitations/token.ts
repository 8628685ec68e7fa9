/**
 * Invitation tokens. The full token leaves this process only inside the invitation e-mail; what is
 * stored is its SHA-256 hash (a database leak yields no usable token), and what is shown is a preview.
 */
import { hash, randomBytes } from "node:crypto";

export interface IssuedToken {
  /** The secret: 32 random bytes, base64url (43 characters). Only ever put into the e-mail. */
  readonly token: string;
  /** Hex SHA-256 of the token: the stored lookup key. */
  readonly hash: string;
  /** First 8 characters and `...`. */
  readonly preview: string;
}

/** SHA-256 of a token, hex. */
export function hashToken(token: string): string {
  return hash("sha256", token, "hex");
}

export function previewOf(token: string): string {
  return `${token.slice(0, 8)}...`;
}

/** A fresh invitation token with its hash and preview. */
export function newInvitationToken(): IssuedToken {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token), preview: previewOf(token) };
}
