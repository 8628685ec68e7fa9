/**
 * Data access for institution API keys (docs/api-keys.md); keys in shared/tables.ts (`apiKeyKeys`). An institution's
 * keys and its `META` share one partition (one Query reads them all); each key's lookup item is keyed by the
 * key's hash (the authorizer's one GetItem). Every create bumps `META`'s `version` under the condition that it
 * is the version read, so the 20-key bound holds under races; a revoke needs no such guard (it only frees room).
 * No Scan anywhere.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db } from "../clients.js";
import { config } from "../config.js";
import { apiKeyKeys, keys, withoutKey } from "../tables.js";
import type { TxItem, TxItems } from "../tx.js";
import type { ApiKeyRecord, KeyTarget } from "./model.js";

const T = () => config.tables.main;

/** An institution's keys (newest first) and the version of its key set (0 before its first key). One Query. */
export async function readKeys(institutionId: string): Promise<{ keys: ApiKeyRecord[]; version: number }> {
  const found: ApiKeyRecord[] = [];
  let version = 0;
  let start: QueryCommandOutput["LastEvaluatedKey"];
  do {
    const page: QueryCommandOutput = await db.send(
      new QueryCommand({
        TableName: T(),
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": apiKeyKeys.partition(institutionId) },
        ConsistentRead: true,
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.sk === apiKeyKeys.meta(institutionId).sk) version = Number(item.version ?? 0);
      else if (String(item.sk).startsWith(apiKeyKeys.keyPrefix)) found.push(record(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  // Ids are ULIDs: newest first is the reverse of their order.
  return { keys: found.sort((a, b) => b.id.localeCompare(a.id)), version };
}

/** One key of an institution (strongly consistent). One GetItem. */
export async function getKey(institutionId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: apiKeyKeys.key(institutionId, keyId), ConsistentRead: true }));
  return out.Item && record(out.Item);
}

/** A stored key as the domain reads it: `last_used_at` null until its first noted use. */
function record(item: Record<string, unknown>): ApiKeyRecord {
  const { ttl: _ttl, ...rest } = withoutKey<ApiKeyRecord & { ttl?: number }>(item);
  return { ...rest, last_used_at: rest.last_used_at ?? null };
}

/** The key's target, for the authorizer: one GetItem, eventually consistent (a new key is not used within its first second). */
export async function getKeyTarget(keyHash: string): Promise<KeyTarget | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: apiKeyKeys.hash(keyHash) }));
  if (!out.Item) return undefined;
  const { ttl: _ttl, ...target } = withoutKey<KeyTarget & { ttl?: number }>(out.Item);
  return target;
}

/** When DynamoDB may remove an expired key's items (epoch seconds): 30 days after it stopped working, so the list still shows it a while. */
const ttlOf = (expiresAt: string | null) => (expiresAt === null ? undefined : Math.floor(Date.parse(expiresAt) / 1000) + 30 * 86_400);

/** The items that make a key: the key, its lookup item, the bumped key-set version, and the institution still there. */
export function createItems(k: ApiKeyRecord, target: KeyTarget, version: number): TxItems {
  const ttl = ttlOf(k.expires_at);
  // Never used yet: no `last_used_at` at all, which `noteUse`'s condition reads as "long ago".
  const { last_used_at: _unused, ...stored } = k;
  return {
    key: {
      Put: {
        TableName: T(),
        Item: { ...apiKeyKeys.key(k.institution_id, k.id), ...stored, ...(ttl !== undefined && { ttl }) },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    lookup: {
      Put: {
        TableName: T(),
        Item: { ...apiKeyKeys.hash(k.key_hash), ...target, ...(ttl !== undefined && { ttl }) },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    version: {
      Update: {
        TableName: T(),
        Key: apiKeyKeys.meta(k.institution_id),
        UpdateExpression: "SET #version = :next",
        ConditionExpression: version === 0 ? "attribute_not_exists(#version)" : "#version = :version",
        ExpressionAttributeNames: { "#version": "version" },
        ExpressionAttributeValues: { ":next": version + 1, ...(version !== 0 && { ":version": version }) },
      },
    },
    institution: institutionExists(k.institution_id),
  };
}

/** The items that revoke a key: both of its items go, so the next authorizer run finds nothing. */
export function revokeItems(k: ApiKeyRecord): TxItems {
  return {
    key: { Delete: { TableName: T(), Key: apiKeyKeys.key(k.institution_id, k.id), ConditionExpression: "attribute_exists(pk)" } },
    lookup: { Delete: { TableName: T(), Key: apiKeyKeys.hash(k.key_hash) } },
  };
}

function institutionExists(institutionId: string): TxItem {
  return { ConditionCheck: { TableName: T(), Key: keys.institution(institutionId), ConditionExpression: "attribute_exists(pk)" } };
}

/** A key's item is still there (not revoked): an invitation a key sends commits only with it (invitations/issue.ts). */
export function keyStillLive(institutionId: string, keyId: string): TxItem {
  return { ConditionCheck: { TableName: T(), Key: apiKeyKeys.key(institutionId, keyId), ConditionExpression: "attribute_exists(pk)" } };
}

/**
 * Notes that a key was used at `at`, only when its last noted use is older than `since` and it still exists:
 * at most one write a minute per key, whatever the number of requests or authorizer instances (a refused
 * condition writes nothing). Whether it wrote.
 */
export async function noteUse(institutionId: string, keyId: string, at: string, since: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: T(),
        Key: apiKeyKeys.key(institutionId, keyId),
        UpdateExpression: "SET #used = :at",
        ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(#used) OR #used < :since)",
        ExpressionAttributeNames: { "#used": "last_used_at" },
        ExpressionAttributeValues: { ":at": at, ":since": since },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return false;
    throw err;
  }
}

/**
 * The items that take every key of an institution away with the institution (its deletion,
 * institutions/repository.ts): each key and its lookup item (the authorizer then finds nothing: 401), and the key
 * set's version at the one read, so a key created meanwhile fails the change, which reads again.
 */
export function dissolveKeyItems(institutionId: string, keys: readonly ApiKeyRecord[], version: number): TxItems {
  const items: TxItems = {};
  for (const k of keys) {
    const { key, lookup } = revokeItems(k);
    items[`api key ${k.id}`] = key;
    items[`api key lookup ${k.id}`] = lookup;
  }
  items["api keys version"] =
    version > 0
      ? {
          Delete: {
            TableName: T(),
            Key: apiKeyKeys.meta(institutionId),
            ConditionExpression: "#version = :version",
            ExpressionAttributeNames: { "#version": "version" },
            ExpressionAttributeValues: { ":version": version },
          },
        }
      : // No key was ever made: still none.
        { ConditionCheck: { TableName: T(), Key: apiKeyKeys.meta(institutionId), ConditionExpression: "attribute_not_exists(pk)" } };
  return items;
}
