/** The stored shapes of institution API keys (docs/api-keys.md); keys in shared/tables.ts (`apiKeyKeys`). */
import type { Scope } from "./scopes.js";

/** At most this many live (unexpired) keys per institution. */
export const MAX_LIVE_KEYS = 20;
/** A key's name, in code points. */
export const NAME_MAX = 64;

/** One key, `APIKEYS#<institution>` / `KEY#<id>`: what the list shows, and the hash that finds its lookup item. */
export interface ApiKeyRecord {
  id: string;
  institution_id: string;
  account_id: string;
  name: string;
  scopes: Scope[];
  /** SHA-256 (hex) of the key: the key itself is never stored. */
  key_hash: string;
  key_preview: string;
  created_at: string;
  /** The e-mail of the super admin who created it. */
  created_by: string;
  created_by_id: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/**
 * What the key's lookup item (`APIKEYHASH#<sha256>`) holds: everything the authorizer hands the functions, so
 * that a request costs one GetItem.
 */
export interface KeyTarget {
  key_id: string;
  institution_id: string;
  account_id: string;
  name: string;
  scopes: Scope[];
  expires_at: string | null;
}

/** Whether a key that expires at `expiresAt` is still valid at `now`. */
export const unexpired = (expiresAt: string | null, now: Date): boolean => expiresAt === null || Date.parse(expiresAt) > now.getTime();

/** The prefix of a key's actor id (`apikey:<id>`): ids in the trail's index, the probing bound, Idempotency-Key records. */
export const KEY_ACTOR_PREFIX = "apikey:";
export const keyActorId = (keyId: string): string => `${KEY_ACTOR_PREFIX}${keyId}`;
/** Whether an actor or inviter id names a key rather than a person. */
export const isKeyActorId = (id: string): boolean => id.startsWith(KEY_ACTOR_PREFIX);

/**
 * With a custom origin domain, the machines' API is mapped on the people's API's domain under this path
 * (infra/machine-api.ts): the edge's function prefixes a key's request with it. API Gateway strips it before
 * routing, and a function that reads the raw path strips it too.
 */
export const MACHINE_PATH_PREFIX = "/machine";

/** How the trail, an invitation and its mail name a key: `API key 'SIS sync'`. */
export const keyLabel = (name: string): string => `API key '${name}'`;
