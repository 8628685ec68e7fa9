/**
 * A key at the door of the machines' API (docs/api-keys.md): the key authorizer (functions/api-keys/authorizer.ts)
 * finds the key by its hash in one GetItem and hands the functions its institution, account, name, scopes and
 * expiry (shared/caller.ts `keyCallerFrom` builds the caller from them). Its last use is noted at most once a
 * minute per key: this process tries the conditional write only when its own note is a minute old, and the
 * write's condition keeps every other process to the same minute.
 */
import type { KeyContext } from "../caller.js";
import { now as clock } from "../clock.js";
import { hashKey, keyOfHeader } from "./key.js";
import { unexpired } from "./model.js";
import { getKeyTarget, noteUse } from "./repository.js";

/** How often a key's `last_used_at` is written at most. */
export const LAST_USE_EVERY_MS = 60_000;

/** When this process last noted (or tried to note) each key's use, epoch ms. Bounded: the oldest go first. */
const noted = new Map<string, number>();
const NOTED_MAX = 10_000;

/**
 * The context for the functions, or undefined for no key, an unknown, revoked or expired one. Never throws for
 * what the request holds; a DynamoDB failure throws (API Gateway then answers 500, and nothing is let through).
 */
export async function keyContext(authorization: string | undefined): Promise<KeyContext | undefined> {
  const key = keyOfHeader(authorization);
  if (!key) return undefined;
  const target = await getKeyTarget(hashKey(key));
  const now = clock();
  if (!target || !unexpired(target.expires_at, now)) return undefined;
  await noteUsed(target.institution_id, target.key_id, now);
  return {
    api_key_id: target.key_id,
    api_key_name: target.name,
    institution_id: target.institution_id,
    account_id: target.account_id,
    scopes: target.scopes.join(" "),
    expires_at: target.expires_at ?? "",
  };
}

async function noteUsed(institutionId: string, keyId: string, now: Date): Promise<void> {
  const last = noted.get(keyId);
  if (last !== undefined && now.getTime() - last < LAST_USE_EVERY_MS) return;
  noted.delete(keyId);
  noted.set(keyId, now.getTime());
  if (noted.size > NOTED_MAX) noted.delete(noted.keys().next().value as string);
  const since = new Date(now.getTime() - LAST_USE_EVERY_MS).toISOString();
  try {
    await noteUse(institutionId, keyId, now.toISOString(), since);
  } catch (err) {
    // The note is a courtesy: a failed one must not refuse the key.
    console.warn(JSON.stringify({ level: "WARN", message: "could not note an API key's use", error: (err as Error).name }));
  }
}
