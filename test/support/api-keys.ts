/** Institution API keys (docs/api-keys.md) in tests: making one through the API, and the paths they live at. */
import { expect } from "vitest";
import type { Scope } from "../../shared/api-keys/scopes.js";
import { type CallResult, call, uniq } from "./api.js";
import { INST } from "./flows.js";

export const keysPath = (institutionId: string) => `${INST}/${institutionId}/api_keys`;

export interface MadeKey {
  /** The key itself, as the 201 showed it once. */
  readonly key: string;
  readonly id: string;
  readonly name: string;
  readonly created: CallResult;
}

/** Makes a key as the institution's super admin `owner` (201 expected). */
export async function makeKey(
  owner: string,
  institutionId: string,
  scopes: readonly Scope[],
  extra: { name?: string; expires_at?: string | null; clockOffsetMs?: number } = {},
): Promise<MadeKey> {
  const name = extra.name ?? uniq("key");
  const res = await call("POST", keysPath(institutionId), {
    token: owner,
    body: { name, scopes, ...(extra.expires_at !== undefined && { expires_at: extra.expires_at }) },
    ...(extra.clockOffsetMs !== undefined && { clockOffsetMs: extra.clockOffsetMs }),
  });
  expect(res.status, res.text).toBe(201);
  return { key: res.body.key, id: res.body.api_key.id, name, created: res };
}
