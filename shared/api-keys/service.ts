/**
 * Institution API keys (docs/api-keys.md): the institution's super admin makes, lists and revokes them. Check order,
 * as every institution route: look up among visible (404 + `unauthorized_institution_access`) → the
 * institution's super admin (403 + `insufficient_privileges`, action `manage_api_keys`) → body (400/422) → the
 * 20-key bound (422) → the change and its event, in the actor's and the owner's trails, in one transaction
 * (shared/audit.ts). A key never reaches these routes (they have no scope, shared/routes.ts).
 */
import { auditEvent, commitWithEvent, type EventDetails, type EventType } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { BadRequest, NotFound, Unprocessable, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { requireSuperAdminOf, requireVisible, type Visible } from "../institutions/service.js";
import type { Message } from "../results.js";
import { RETRY, withRetries } from "../retry.js";
import { parseOrFail } from "../validation.js";
import { hashKey, keyPreview, newKey } from "./key.js";
import { type ApiKeyRecord, type KeyTarget, MAX_LIVE_KEYS, unexpired } from "./model.js";
import * as repo from "./repository.js";
import type { ApiKeyCreated, ApiKeyList, ApiKeyView } from "./results.js";
import { API_KEY_ERRORS, apiKeyCreate } from "./schema.js";
import type { Scope } from "./scopes.js";
import { SCOPES } from "./scopes.js";

export const ACTION = "manage_api_keys";
export const ONLY_SUPER_ADMIN = "Only the institution's super admin can manage its API keys";
export const KEY_NOT_FOUND = "API key not found";
export const TOO_MANY_KEYS = `An institution has at most ${MAX_LIVE_KEYS} live API keys: revoke one first`;
export const NOT_AN_OBJECT = "The body must be a JSON object: {name, scopes, expires_at}";

/** The key as the API shows it: never the key, nor its hash. */
export function toView(k: ApiKeyRecord): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes,
    key_preview: k.key_preview,
    created_at: k.created_at,
    created_by: k.created_by,
    expires_at: k.expires_at,
    last_used_at: k.last_used_at,
  };
}

/** The institution, visible to the caller and with the caller its super admin. */
async function lookUp(caller: Caller, institutionId: string | undefined): Promise<Visible> {
  const visible = await requireVisible(caller, institutionId);
  await requireSuperAdminOf(caller, visible, ACTION, ONLY_SUPER_ADMIN);
  return visible;
}

const event = <T extends EventType>(caller: Caller, visible: Visible, type: T, details: EventDetails[T], now: Date) =>
  auditEvent(caller, type, details, { now, owner: visible.institution.account_id, institution: visible.institution });

/** A calendar year after `now`: the furthest a key may expire. */
function yearAfter(now: Date): number {
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.getTime();
}

/** The body, validated: 400 when it is no object, 422 with every message once; `expires_at` normalised to ISO. */
function parseInput(body: unknown, now: Date): { name: string; scopes: Scope[]; expiresAt: string | null } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadRequest(NOT_AN_OBJECT);
  const input = parseOrFail(apiKeyCreate, body);
  const raw = input.expires_at ?? null;
  const at = raw === null ? Number.NaN : Date.parse(raw);
  if (raw !== null && !Number.isFinite(at)) throw new ValidationFailed([API_KEY_ERRORS.expiresAt]);
  if (raw !== null && at <= now.getTime()) throw new ValidationFailed([API_KEY_ERRORS.expiresPast]);
  if (raw !== null && at > yearAfter(now)) throw new ValidationFailed([API_KEY_ERRORS.expiresFar]);
  // In the order the console lists them, each once.
  const scopes = SCOPES.filter((s) => input.scopes.includes(s));
  return { name: input.name, scopes, expiresAt: raw === null ? null : new Date(at).toISOString() };
}

/**
 * Makes a key (201): the key itself is in this answer only; stored are its SHA-256 hash and its first 8
 * characters. One Query (the institution's keys, beside the lookup) and one transaction.
 */
export async function createApiKey(caller: Caller, institutionId: string | undefined, body: unknown): Promise<ApiKeyCreated> {
  return withRetries("API key could not be created, please retry", async () => {
    const [visible, state] = await Promise.all([
      lookUp(caller, institutionId),
      isId(institutionId) ? repo.readKeys(institutionId) : undefined,
    ]);
    const now = clock();
    const input = parseInput(body, now);
    if (!state) return RETRY;
    const live = state.keys.filter((k) => unexpired(k.expires_at, now)).length;
    if (live >= MAX_LIVE_KEYS) throw new Unprocessable(TOO_MANY_KEYS);
    const { institution } = visible;
    const key = newKey();
    const record: ApiKeyRecord = {
      id: newId(now.getTime()),
      institution_id: institution.id,
      account_id: institution.account_id,
      name: input.name,
      scopes: input.scopes,
      key_hash: hashKey(key),
      key_preview: keyPreview(key),
      created_at: now.toISOString(),
      created_by: caller.email,
      created_by_id: caller.id,
      expires_at: input.expiresAt,
      last_used_at: null,
    };
    const target: KeyTarget = {
      key_id: record.id,
      institution_id: institution.id,
      account_id: institution.account_id,
      name: record.name,
      scopes: record.scopes,
      expires_at: record.expires_at,
    };
    const details = {
      institution_id: institution.id,
      api_key_id: record.id,
      name: record.name,
      scopes: record.scopes,
      expires_at: record.expires_at,
    };
    const result = await commitWithEvent(
      event(caller, visible, "api_key_created", details, now),
      repo.createItems(record, target, state.version),
    );
    // Another create took the version first (read again, and count again), or the institution went (the next look-up answers 404).
    if (result.kind !== "ok") return RETRY;
    return { api_key: toView(record), key };
  });
}

/** The institution's keys, newest first, with their last use; never a key. One GetItem and one Query, side by side. */
export async function listApiKeys(caller: Caller, institutionId: string | undefined): Promise<ApiKeyList> {
  const [, state] = await Promise.all([lookUp(caller, institutionId), isId(institutionId) ? repo.readKeys(institutionId) : undefined]);
  return { api_keys: (state?.keys ?? []).map(toView) };
}

/**
 * Revokes a key: both its items go with `api_key_revoked` in one transaction, so the authorizer's next look-up
 * finds nothing (a cached answer of the machines' API lasts at most a minute more, docs/api-keys.md). An
 * unknown or malformed key id is 404.
 */
export async function revokeApiKey(caller: Caller, institutionId: string | undefined, keyId: string | undefined): Promise<Message> {
  return withRetries("API key could not be revoked, please retry", async () => {
    const [visible, found] = await Promise.all([
      lookUp(caller, institutionId),
      isId(institutionId) && isId(keyId) ? repo.getKey(institutionId, keyId) : undefined,
    ]);
    if (!found) throw new NotFound(KEY_NOT_FOUND);
    const now = clock();
    const details = { institution_id: visible.institution.id, api_key_id: found.id, name: found.name };
    const result = await commitWithEvent(event(caller, visible, "api_key_revoked", details, now), repo.revokeItems(found));
    // Revoked meanwhile: the next read answers 404.
    if (result.kind !== "ok") return RETRY;
    return { message: `API key '${found.name}' revoked` };
  });
}
