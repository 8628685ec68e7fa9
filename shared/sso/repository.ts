/**
 * Data access for the SSO connection (docs/sso.md). The connection sits beside its institution
 * (`INST#<id>` / `SSO`). Changing it touches the user pool first (its identity provider, the app client's
 * list) and this item after, so a change runs under a lease on the item: taken by a conditional write (no
 * other live lease, the version read), then the pool's calls, then the change with its event in one
 * transaction, conditioned on still holding the lease. A lease left by a crash runs out (`LEASE_MS`).
 *
 * The app client's provider list is one list for every institution; its read-modify-write runs under a lock
 * item of its own (`SSOPOOL` / `CLIENT#<id>`), so two institutions connecting at once lose nothing.
 */

import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvents } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import { ssoKeys, withoutKey } from "../tables.js";
import type { TxItems, Written } from "../tx.js";
import type { Connection } from "./model.js";

const T = () => config.tables.main;

const failedCondition = (err: unknown) =>
  err instanceof ConditionalCheckFailedException || (err as Error).name === "ConditionalCheckFailedException";

/** The connection of an institution (strongly consistent). One GetItem. */
export async function getConnection(institutionId: string, consistent = true): Promise<Connection | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: ssoKeys.connection(institutionId), ConsistentRead: consistent }));
  return out.Item && withoutKey<Connection>(out.Item);
}

/** Whether the lease of `c` is held by someone at `nowMs`. */
export const leased = (c: Pick<Connection, "lease_until">, nowMs: number) => c.lease_until !== undefined && c.lease_until > nowMs;

/**
 * Claims the institution's connection as `pending`, leased to `owner`: only while there is none, or one left
 * pending by an attempt whose lease ran out (`expired`, the one read). `taken` otherwise.
 */
export async function claimConnection(c: Connection, expired: Connection | undefined): Promise<Written<{ kind: "taken" }>> {
  try {
    await db.send(
      new PutCommand({
        TableName: T(),
        Item: { ...ssoKeys.connection(c.institution_id), ...c },
        ...(expired
          ? {
              ConditionExpression: "#version = :version AND #status = :pending",
              ExpressionAttributeNames: { "#version": "version", "#status": "status" },
              ExpressionAttributeValues: { ":version": expired.version, ":pending": "pending" },
            }
          : { ConditionExpression: "attribute_not_exists(pk)" }),
      }),
    );
    return { kind: "ok" };
  } catch (err) {
    if (failedCondition(err)) return { kind: "taken" };
    throw err;
  }
}

/** Takes the lease of an active connection at the version read (nobody else holding a live one). */
export async function lease(c: Connection, owner: string, nowMs: number, ms: number): Promise<Written<{ kind: "busy" }>> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: T(),
        Key: ssoKeys.connection(c.institution_id),
        UpdateExpression: "SET #owner = :owner, #until = :until, #version = :next",
        ConditionExpression: "#version = :version AND (attribute_not_exists(#until) OR #until < :now)",
        ExpressionAttributeNames: { "#owner": "lease_owner", "#until": "lease_until", "#version": "version" },
        ExpressionAttributeValues: { ":owner": owner, ":until": nowMs + ms, ":version": c.version, ":next": c.version + 1, ":now": nowMs },
      }),
    );
    return { kind: "ok" };
  } catch (err) {
    if (failedCondition(err)) return { kind: "busy" };
    throw err;
  }
}

/** Gives the lease back without a change (the pool refused): a pending connection goes altogether. */
export async function release(c: Connection, owner: string): Promise<void> {
  const condition = {
    ConditionExpression: "#owner = :owner",
    ExpressionAttributeNames: { "#owner": "lease_owner" },
    ExpressionAttributeValues: { ":owner": owner },
  };
  try {
    if (c.status === "pending")
      await db.send(new DeleteCommand({ TableName: T(), Key: ssoKeys.connection(c.institution_id), ...condition }));
    else
      await db.send(
        new UpdateCommand({
          TableName: T(),
          Key: ssoKeys.connection(c.institution_id),
          UpdateExpression: "REMOVE #owner, #until",
          ...condition,
          ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, "#until": "lease_until" },
        }),
      );
  } catch (err) {
    // Someone took the lease after it ran out: theirs now.
    if (!failedCondition(err)) throw err;
  }
}

/**
 * Writes `after` (active, no lease, the version after the lease's) with its event, while `owner` still holds the
 * lease: one transaction. `lost` when the lease ran out and someone else took it.
 */
export async function commitConnection(after: Connection, owner: string, event: AuditEvent): Promise<Written<{ kind: "lost" }>> {
  const { lease_owner: _o, lease_until: _u, ...item } = after;
  const result = await commitWithEvents([event], {
    connection: {
      Put: {
        TableName: T(),
        Item: { ...ssoKeys.connection(after.institution_id), ...item },
        ConditionExpression: "#owner = :owner",
        ExpressionAttributeNames: { "#owner": "lease_owner" },
        ExpressionAttributeValues: { ":owner": owner },
      },
    },
    provider: {
      Put: {
        TableName: T(),
        Item: { ...ssoKeys.provider(after.provider_name), institution_id: after.institution_id, provider_name: after.provider_name },
      },
    },
  });
  if (result.kind === "ok") return result;
  return result.kind === "failed" ? { kind: "lost" } : { kind: "retry" };
}

/** The institution whose IdP the pool's provider `providerName` is (the pool's triggers: a sign-in names its provider). */
export async function institutionOfProvider(providerName: string): Promise<string | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: ssoKeys.provider(providerName), ConsistentRead: true }));
  const id = out.Item?.institution_id;
  return typeof id === "string" ? id : undefined;
}

/** Writes a change that needs nothing of the pool (mappings, JIT, require-SSO) at the version read, with its event. */
export async function storeSettings(before: Connection, after: Connection, event: AuditEvent): Promise<Written> {
  const result = await commitWithEvents([event], {
    connection: {
      Put: {
        TableName: T(),
        Item: { ...ssoKeys.connection(after.institution_id), ...after, version: before.version + 1 },
        ConditionExpression: "#version = :version AND (attribute_not_exists(#until) OR #until < :now)",
        ExpressionAttributeNames: { "#version": "version", "#until": "lease_until" },
        ExpressionAttributeValues: { ":version": before.version, ":now": Date.parse(after.updated_at) },
      },
    },
  });
  return { kind: result.kind === "ok" ? "ok" : "retry" };
}

/** Deletes the connection, while `owner` holds its lease, with its event. */
export async function deleteConnection(c: Connection, owner: string, event: AuditEvent): Promise<Written<{ kind: "lost" }>> {
  const result = await commitWithEvents([event], dissolveConnectionItems(c, owner));
  if (result.kind === "ok") return result;
  return result.kind === "failed" ? { kind: "lost" } : { kind: "retry" };
}

/** Takes the app client's list lock for `owner` until `untilMs` (free, or its holder's time ran out). */
export async function lockClient(clientId: string, owner: string, nowMs: number, untilMs: number): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: T(),
        Item: { ...ssoKeys.clientLock(clientId), owner, until: untilMs },
        ConditionExpression: "attribute_not_exists(pk) OR #until < :now",
        ExpressionAttributeNames: { "#until": "until" },
        ExpressionAttributeValues: { ":now": nowMs },
      }),
    );
    return true;
  } catch (err) {
    if (failedCondition(err)) return false;
    throw err;
  }
}

/** Gives the lock back, if `owner` still holds it. */
export async function unlockClient(clientId: string, owner: string): Promise<void> {
  try {
    await db.send(
      new DeleteCommand({
        TableName: T(),
        Key: ssoKeys.clientLock(clientId),
        ConditionExpression: "#owner = :owner",
        ExpressionAttributeNames: { "#owner": "owner" },
        ExpressionAttributeValues: { ":owner": owner },
      }),
    );
  } catch (err) {
    if (!failedCondition(err)) throw err;
  }
}

/**
 * The items that take the connection away (its DELETE, and its institution's deletion, institutions/repository.ts),
 * while `owner` holds its lease: the connection and its provider's item, so the pool's triggers no longer know the
 * provider.
 */
export function dissolveConnectionItems(c: Connection, owner: string): TxItems {
  return {
    connection: {
      Delete: {
        TableName: T(),
        Key: ssoKeys.connection(c.institution_id),
        ConditionExpression: "#owner = :owner",
        ExpressionAttributeNames: { "#owner": "lease_owner" },
        ExpressionAttributeValues: { ":owner": owner },
      },
    },
    "sso provider": { Delete: { TableName: T(), Key: ssoKeys.provider(c.provider_name) } },
  };
}
