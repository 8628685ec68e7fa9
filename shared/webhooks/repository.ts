/**
 * Webhooks and their deliveries in the main table (keys in shared/tables.ts `streamKeys`). A webhook and its
 * event are written in one transaction with the account's count, which the condition keeps at most the limit.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvent } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import type { EventType } from "../constants.js";
import { streamKeys } from "../tables.js";
import type { Written } from "../tx.js";

const T = () => config.tables.main;

export interface WebhookRecord {
  id: string;
  account_id: string;
  url: string;
  /** `whsec_…`: signs the deliveries; shown once, at creation. */
  secret: string;
  created_at: string;
  created_by: string;
  status: "enabled" | "disabled";
  /** Since when every attempt to this receiver has failed; absent while it answers. */
  failing_since?: string;
  /** Since when this receiver has taken long to answer (or not answered); absent while it answers promptly. */
  slow_since?: string;
  disabled_at?: string;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRecord {
  webhook_id: string;
  account_id: string;
  event_id: string;
  event_type: EventType;
  status: DeliveryStatus;
  attempts: number;
  first_attempt_at: string;
  last_attempt_at: string;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  ttl: number;
}

export async function createWebhook(w: WebhookRecord, limit: number, event: AuditEvent): Promise<Written<{ readonly kind: "full" }>> {
  const result = await commitWithEvent(event, {
    webhook: {
      Put: { TableName: T(), Item: { ...streamKeys.webhook(w.account_id, w.id), ...w }, ConditionExpression: "attribute_not_exists(pk)" },
    },
    count: {
      Update: {
        TableName: T(),
        Key: streamKeys.webhookCount(w.account_id),
        UpdateExpression: "ADD #n :one",
        ConditionExpression: "attribute_not_exists(#n) OR #n < :limit",
        ExpressionAttributeNames: { "#n": "count" },
        ExpressionAttributeValues: { ":one": 1, ":limit": limit },
      },
    },
  });
  if (result.kind === "ok") return result;
  if (result.kind === "failed" && result.item === "count") return { kind: "full" };
  if (result.kind === "conflict") return { kind: "retry" };
  throw new Error(`webhook ${w.id}: condition failed on ${result.item}`);
}

/** Deletes the webhook (if it still exists) with its event; `gone` when it did not. */
export async function deleteWebhook(account: string, id: string, event: AuditEvent): Promise<Written<{ readonly kind: "gone" }>> {
  const result = await commitWithEvent(event, {
    webhook: { Delete: { TableName: T(), Key: streamKeys.webhook(account, id), ConditionExpression: "attribute_exists(pk)" } },
    count: {
      Update: {
        TableName: T(),
        Key: streamKeys.webhookCount(account),
        UpdateExpression: "ADD #n :minus",
        ExpressionAttributeNames: { "#n": "count" },
        ExpressionAttributeValues: { ":minus": -1 },
      },
    },
  });
  if (result.kind === "ok") return result;
  if (result.kind === "failed" && result.item === "webhook") return { kind: "gone" };
  if (result.kind === "conflict") return { kind: "retry" };
  throw new Error(`webhook ${id}: condition failed on ${result.item}`);
}

export async function getWebhook(account: string, id: string): Promise<WebhookRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: streamKeys.webhook(account, id), ConsistentRead: true }));
  return out.Item as WebhookRecord | undefined;
}

/** The account's webhooks (at most the limit): one Query. */
export async function listWebhooks(account: string): Promise<WebhookRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: "pk = :p AND begins_with(sk, :h)",
      ExpressionAttributeValues: { ":p": streamKeys.webhookPartition(account), ":h": streamKeys.webhookPrefix },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []) as WebhookRecord[];
}

/** The receiver answered: it is not failing (any more). */
export async function markAnswering(account: string, id: string): Promise<void> {
  await db
    .send(
      new UpdateCommand({
        TableName: T(),
        Key: streamKeys.webhook(account, id),
        UpdateExpression: "REMOVE failing_since",
        ConditionExpression: "attribute_exists(failing_since)",
      }),
    )
    .catch((err: Error) => {
      if (err.name !== "ConditionalCheckFailedException") throw err;
    });
}

/**
 * Notes whether the receiver answers promptly: `slow_since` set (once) when it did not, removed when it did.
 * Only a change is written; a webhook gone meanwhile is left alone.
 */
export async function markSlow(w: Pick<WebhookRecord, "account_id" | "id" | "slow_since">, slow: boolean, at: string): Promise<void> {
  if (slow === (w.slow_since !== undefined)) return;
  await db
    .send(
      new UpdateCommand({
        TableName: T(),
        Key: streamKeys.webhook(w.account_id, w.id),
        UpdateExpression: slow ? "SET slow_since = if_not_exists(slow_since, :at)" : "REMOVE slow_since",
        ConditionExpression: "attribute_exists(pk)",
        ...(slow && { ExpressionAttributeValues: { ":at": at } }),
      }),
    )
    .catch((err: Error) => {
      if (err.name !== "ConditionalCheckFailedException") throw err;
    });
}

/** The receiver failed at `at`: failing since then, unless it already was. Returns since when (undefined: webhook gone). */
export async function markFailing(account: string, id: string, at: string): Promise<string | undefined> {
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: T(),
        Key: streamKeys.webhook(account, id),
        UpdateExpression: "SET failing_since = if_not_exists(failing_since, :at)",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":at": at },
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes?.failing_since as string | undefined;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return undefined;
    throw err;
  }
}

/** Disables the webhook with its event, once (a webhook already disabled or gone: `unchanged`). */
export async function disableWebhook(
  account: string,
  id: string,
  at: string,
  event: AuditEvent,
): Promise<Written<{ readonly kind: "unchanged" }>> {
  const result = await commitWithEvent(event, {
    webhook: {
      Update: {
        TableName: T(),
        Key: streamKeys.webhook(account, id),
        UpdateExpression: "SET #s = :off, disabled_at = :at",
        ConditionExpression: "attribute_exists(pk) AND #s = :on",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":off": "disabled", ":on": "enabled", ":at": at },
      },
    },
  });
  if (result.kind === "ok") return result;
  return result.kind === "failed" ? { kind: "unchanged" } : { kind: "retry" };
}

export async function putDelivery(d: DeliveryRecord): Promise<void> {
  await db.send(new PutCommand({ TableName: T(), Item: { ...streamKeys.delivery(d.webhook_id, d.event_id), ...d } }));
}

export async function getDelivery(webhookId: string, eventId: string): Promise<DeliveryRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: streamKeys.delivery(webhookId, eventId), ConsistentRead: true }));
  return out.Item as DeliveryRecord | undefined;
}

/** The newest `limit` deliveries of a webhook (by event id, so by event time). One Query. */
export async function recentDeliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: "pk = :p AND begins_with(sk, :d)",
      ExpressionAttributeValues: { ":p": streamKeys.deliveryPartition(webhookId), ":d": streamKeys.deliveryPrefix },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []) as DeliveryRecord[];
}

export interface DueRetry {
  readonly sk: string;
  readonly account_id: string;
  readonly webhook_id: string;
  readonly event_id: string;
}

export async function scheduleRetry(due: string, r: Omit<DueRetry, "sk">): Promise<void> {
  await db.send(new PutCommand({ TableName: T(), Item: { ...streamKeys.retry(due, r.webhook_id, r.event_id), ...r } }));
}

/** Retries due at `now`, oldest first: one Query on the schedule's key range. */
export async function dueRetries(now: string, limit: number): Promise<DueRetry[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: "pk = :p AND sk <= :now",
      ExpressionAttributeValues: { ":p": streamKeys.retryPartition, ":now": `${now}#~` },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []) as DueRetry[];
}

/** Takes a due retry off the schedule; false when another retrier took it first. */
export async function takeRetry(sk: string): Promise<boolean> {
  try {
    await db.send(
      new DeleteCommand({ TableName: T(), Key: { pk: streamKeys.retryPartition, sk }, ConditionExpression: "attribute_exists(pk)" }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return false;
    throw err;
  }
}
