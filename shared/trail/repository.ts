/**
 * Digest storage in the events table: `DIGEST#<account>` / `<period start>` (so a time range is a key range),
 * a sequence claim `DIGESTSEQ#<account>` / `<sequence>` written in the same transaction (so two digesters can
 * never give two digests one sequence number), activity markers by day, and the digester's progress.
 */

import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import { eventKeys, fromKeyPart, keyPart } from "../tables.js";
import type { Written } from "../tx.js";
import type { Digest } from "./digest.js";

const T = () => config.tables.events;

const digestKey = (account: string, periodStart: string) => ({ pk: eventKeys.digestPartition(account), sk: periodStart });
const sequenceKey = (account: string, sequence: number) => ({
  pk: `DIGESTSEQ#${keyPart(account)}`,
  sk: String(sequence).padStart(10, "0"),
});

/** The digest fields of a stored item. */
function digestOf(item: Record<string, unknown>): Digest {
  const { pk: _pk, sk: _sk, ttl: _ttl, ...digest } = item;
  return digest as unknown as Digest;
}

/** The account's newest digest, or undefined. One strongly consistent Query of one item. */
export async function lastDigest(account: string): Promise<Digest | undefined> {
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: "pk = :p",
      ExpressionAttributeValues: { ":p": eventKeys.digestPartition(account) },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  const item = out.Items?.[0];
  return item ? digestOf(item) : undefined;
}

/** The account's digests whose period starts in [`from`, `to`] (ISO), oldest first. */
export async function digestsBetween(account: string, from: string, to: string): Promise<Digest[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :p AND sk BETWEEN :a AND :b",
    ExpressionAttributeValues: { ":p": eventKeys.digestPartition(account), ":a": from, ":b": to },
  });
  return items.map(digestOf);
}

/**
 * Stores a digest and claims its sequence number, both only if new: `taken` when either exists already
 * (another digester got there first).
 */
export async function putDigest(d: Digest, expiresAt: number): Promise<Written<{ readonly kind: "taken" }>> {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: T(),
              Item: { ...digestKey(d.account_id, d.period_start), ...d, ttl: expiresAt },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          {
            Put: {
              TableName: T(),
              Item: { ...sequenceKey(d.account_id, d.sequence), period_start: d.period_start, ttl: expiresAt },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
    return { kind: "ok" };
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.some((r) => r.Code === "ConditionalCheckFailed")) {
      return { kind: "taken" };
    }
    throw err;
  }
}

/** Accounts marked active in periods starting in [`from`, `to`] (ISO, same UTC day `day`): `[period start, account]`. */
export async function activeAccounts(day: string, from: string, to: string): Promise<[string, string][]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :p AND sk BETWEEN :a AND :b",
    ExpressionAttributeValues: { ":p": eventKeys.activityPartition(day), ":a": from, ":b": `${to}#\uffff` },
    ProjectionExpression: "sk",
  });
  return items.map((i) => {
    const sk = String(i.sk);
    const at = sk.indexOf("#");
    return [sk.slice(0, at), fromKeyPart(sk.slice(at + 1))];
  });
}

/** The start (epoch ms) of the first period the digester has not yet looked at, if it ever ran. */
export async function digesterProgress(): Promise<number | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: eventKeys.digester, ConsistentRead: true }));
  const next = out.Item?.next_period_ms;
  return typeof next === "number" ? next : undefined;
}

/** Moves the digester's progress forward (never back). */
export async function saveDigesterProgress(nextPeriodMs: number): Promise<void> {
  try {
    await db.send(
      new PutCommand({
        TableName: T(),
        Item: { ...eventKeys.digester, next_period_ms: nextPeriodMs },
        ConditionExpression: "attribute_not_exists(pk) OR next_period_ms < :n",
        ExpressionAttributeValues: { ":n": nextPeriodMs },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== "ConditionalCheckFailedException") throw err;
  }
}
