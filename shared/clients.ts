/**
 * AWS clients as module-scope singletons, so warm invocations reuse connections. Endpoints are
 * overridable for the local stack. Timeouts and retries are bounded on purpose: when DynamoDB is
 * unreachable the caller gets a prompt 503 instead of a hung request.
 */

import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from "@aws-sdk/lib-dynamodb";
import { localCredentials, observe } from "./aws.js";
import { config } from "./config.js";
import type { Key } from "./tables.js";
import { tracer } from "./tracer.js";

/**
 * The DynamoDB timeout and retry policy, chosen so that a DynamoDB that does not answer costs a request at
 * most `maxAttempts × requestTimeoutMs` plus backoff (≤ 0.1 + 0.2 s), about 9.3 s, before its 503: inside
 * the 15 s Lambda timeout and API Gateway's 29 s, which would otherwise answer for us, without our body.
 * - connect: 1 s. A TCP connect to DynamoDB takes milliseconds; no answer in 1 s is a dead endpoint.
 * - request: 3 s from sending to the complete response, and *enforced* (`throwOnRequestTimeout`: without
 *   it the SDK only logs a warning and waits on, up to its 300 s socket timeout: a frozen DynamoDB hung
 *   every request until the gateway gave up, see test/fault/dynamodb.test.ts). Milliseconds in AWS; on
 *   DynamoDB Local on a loaded 2-core test machine a 25-item batch write of the test seeding reaches 1.4 s
 *   (p99 1.3 s), and 2 s was seen to time out three attempts in a row under the full suite.
 * - 3 attempts (the SDK's standard mode): a timed-out or refused attempt is retried on a fresh connection.
 *   Retrying a transaction is safe: the SDK sends the same ClientRequestToken, so DynamoDB applies it once.
 */
export const DYNAMODB_RETRY_POLICY = { connectionTimeoutMs: 1_000, requestTimeoutMs: 3_000, maxAttempts: 3 } as const;

export const dynamo = new DynamoDBClient({
  region: config.region,
  endpoint: config.endpoints.dynamodb,
  ...localCredentials(config.endpoints.dynamodb),
  maxAttempts: DYNAMODB_RETRY_POLICY.maxAttempts,
  requestHandler: {
    connectionTimeout: DYNAMODB_RETRY_POLICY.connectionTimeoutMs,
    requestTimeout: DYNAMODB_RETRY_POLICY.requestTimeoutMs,
    throwOnRequestTimeout: true,
  },
});
observe(dynamo);
tracer.captureAWSv3Client(dynamo); // X-Ray subsegments for every call, the DocumentClient's too (it shares this stack)

export const db = DynamoDBDocumentClient.from(dynamo, {
  // A members map keyed by a user id such as `constructor` is still a map, not a class instance.
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
});

/**
 * Every item a Query matches, following `LastEvaluatedKey`: DynamoDB ends a page at 1 MB, and a list with
 * no pagination in its contract must not silently stop there. One request per page.
 */
export async function queryAll(input: Omit<QueryCommandInput, "ExclusiveStartKey">): Promise<Record<string, unknown>[]> {
  const out: QueryCommandOutput = await db.send(new QueryCommand(input));
  const items = out.Items ?? [];
  for (let start = out.LastEvaluatedKey; start; ) {
    const page: QueryCommandOutput = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) items.push(item);
    start = page.LastEvaluatedKey;
  }
  return items;
}

/** Keys one BatchGetItem may name. */
const BATCH_GET_KEYS = 100;

/**
 * The items of `keys` in `table` that exist, read strongly consistently, in no particular order: one BatchGetItem
 * per 100 keys. Hand-written because the SDK has no paginator for it: keys DynamoDB leaves unprocessed (it may, under
 * load) are sent again after a short pause, at most `maxAttempts` times in all, as the SDK retries a request.
 */
export async function batchGetAll(table: string, keys: readonly Key[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let start = 0; start < keys.length; start += BATCH_GET_KEYS) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(start, start + BATCH_GET_KEYS).map((k) => ({ ...k }));
    for (let attempt = 1; pending && pending.length > 0; attempt++) {
      if (attempt > DYNAMODB_RETRY_POLICY.maxAttempts) throw new Error(`${pending.length} keys left unprocessed by BatchGetItem`);
      if (attempt > 1) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      const out: BatchGetCommandOutput = await db.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of out.Responses?.[table] ?? []) items.push(item);
      pending = out.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return items;
}
