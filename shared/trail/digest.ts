/**
 * Digests of the audit trail (docs/trail.md), pure: what a digest holds, how its hashes and its signature
 * are computed, and how they are checked. The digester and the verifier both use this module, and nothing
 * here needs more than node:crypto and RFC 8785 canonical JSON, so anyone can check a digest with standard
 * tools (docs/trail.md).
 */
import { createHash, verify } from "node:crypto";
import canonicalizeModule from "canonicalize";

type Canonicalize = (input: unknown) => string | undefined;
// A CommonJS package whose types declare an ES default export: Node gives the function itself, a bundler may
// give `{ default }`.
const canonicalize: Canonicalize =
  typeof canonicalizeModule === "function"
    ? (canonicalizeModule as Canonicalize)
    : (canonicalizeModule as unknown as { default: Canonicalize }).default;

/** A signed digest of one account's events in one period. */
export interface Digest {
  readonly account_id: string;
  /** 1 for the account's first digest, then +1 each: a deleted digest leaves a gap. */
  readonly sequence: number;
  /** ISO 8601 with milliseconds; the period is [period_start, period_end). */
  readonly period_start: string;
  readonly period_end: string;
  readonly event_count: number;
  /** Lowercase hex SHA-256 of the period's events (`eventsHash`). */
  readonly events_hash: string;
  /** Lowercase hex SHA-256 of the canonical JSON of the account's previous digest, signature included; null for the first. */
  readonly previous_digest_hash: string | null;
  readonly created_at: string;
  /** Names the signing key: a KMS key ARN deployed, `local:<fingerprint>` locally. */
  readonly key_id: string;
  /** Base64 of the DER ECDSA P-256 / SHA-256 signature over `signedText` of the digest. */
  readonly signature: string;
}

export type UnsignedDigest = Omit<Digest, "signature">;

/** One event exactly as `GET <paths.securityEvents>/{id}` returns it. */
export interface EventBody {
  readonly id: string;
  readonly created_at: string;
  readonly [field: string]: unknown;
}

/** RFC 8785 canonical JSON. */
export function canonical(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("cannot canonicalize an undefined value");
  return text;
}

export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** Oldest first: by `created_at`, then by `id`. */
export const oldestFirst = (a: EventBody, b: EventBody): number =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** `events_hash`: SHA-256 of the events' canonical JSON, oldest first, joined by `\n`. */
export function eventsHash(events: readonly EventBody[]): string {
  return sha256Hex([...events].sort(oldestFirst).map(canonical).join("\n"));
}

/** What the next digest's `previous_digest_hash` must be. */
export const digestHash = (d: Digest): string => sha256Hex(canonical(d));

/** The text a digest's signature covers: its canonical JSON without `signature`. */
export function signedText(d: UnsignedDigest | Digest): string {
  const { signature: _signature, ...unsigned } = d as Digest;
  return canonical(unsigned);
}

/** Whether `d.signature` is a valid signature of `d` by the key whose public key (PEM, SPKI) is given. */
export function signatureValid(d: Digest, publicKeyPem: string): boolean {
  try {
    return verify(
      "sha256",
      Buffer.from(signedText(d), "utf8"),
      { key: publicKeyPem, dsaEncoding: "der" },
      Buffer.from(d.signature, "base64"),
    );
  } catch {
    return false;
  }
}

/** Signs digests: with KMS deployed (`ECDSA_SHA_256`), with the local key pair on this machine. */
export interface Signer {
  readonly keyId: string;
  /** Base64 of the DER signature of `message` (ECDSA P-256 over its SHA-256). */
  sign(message: Buffer): Promise<string>;
}
