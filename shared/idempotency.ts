/**
 * `Idempotency-Key` on every POST (DESIGN.md §12, Stripe's semantics), one middleware of the one middy stack,
 * on Powertools' idempotency utility and its DynamoDB persistence layer.
 *
 * - The key is scoped: the stored record's id hashes (SHA-256) the caller's `sub`, the route (its route key)
 *   and the header's value, so two callers, or two routes, never share a record.
 * - The request is the path parameters, the query and the parsed body (key order aside): the same key with
 *   another request → 422; while the first is still running → 409.
 * - A replay answers with the first response as the handler returned it (status, headers, body text) and runs
 *   nothing: the rest of the stack then adds the same security headers, so the bytes are the first ones.
 * - Stored: every 2xx, and every 4xx the action answered except 409 and 429, which say "try again" (a retry
 *   with the same key must get its chance). Never a 5xx: the record is deleted, so a retry acts. Answers that
 *   come before the action (401, 413, malformed JSON, a malformed key) are never stored.
 * - Records expire after 24 hours (the table's TTL; Powertools ignores an expired record before TTL removes it).
 *
 * Without the header, or on a method other than POST, it does nothing: no DynamoDB request.
 */

import type { JSONObject } from "@aws-lambda-powertools/commons/types";
import {
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
  IdempotencyValidationError,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { IdempotencyRecord } from "@aws-lambda-powertools/idempotency/persistence";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import type middy from "@middy/core";
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { Caller } from "./caller.js";
import { db, dynamo } from "./clients.js";
import { now } from "./clock.js";
import { config } from "./config.js";
import { IDEMPOTENCY_HEADER } from "./constants.js";
import { BadRequest, Conflict, messages, Unprocessable } from "./errors.js";
import { takesIdempotencyKey } from "./routes.js";
import { logger } from "./telemetry.js";

type Event = APIGatewayProxyEventV2WithJWTAuthorizer;
type Result = APIGatewayProxyStructuredResultV2;
/** The first response of a replayed request, for the handler to return instead of acting. */
export type IdempotencyContext = Context & { caller?: Caller; body?: unknown; idempotentReplay?: Result };

export { IDEMPOTENCY_HEADER };
/** How long a key holds: Stripe's 24 hours. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** 1–255 printable ASCII characters (space to tilde). */
const WELL_FORMED = /^[\x20-\x7e]{1,255}$/;

/**
 * What the persistence layer hashes: `key` ([caller, route, Idempotency-Key]) names the record, `request`
 * ({params, query, body}) is compared on a replay.
 */
type Payload = JSONObject;

/** The payload of one request: exported for the tests, which write a running request's record as it would. */
export function payloadOf(
  callerId: string,
  route: string,
  idempotencyKey: string,
  request: { params: unknown; query: unknown; body: unknown },
): Payload {
  return { key: [callerId, route, idempotencyKey], request: request as JSONObject };
}

/** 2xx, and the 4xx that are the action's answer; not 409/429 ("try again"), never a 5xx. */
export const isStored = (status: number): boolean =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409 && status !== 429);

const idempotencyConfig = new IdempotencyConfig({
  eventKeyJmesPath: "key",
  payloadValidationJmesPath: "request",
  expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
  // Not MD5 (the default): a key value chosen to collide with another caller's must not replay its answer.
  hashFunction: "sha256",
});

let store: DynamoDBPersistenceLayer | undefined;
/** Made on first use, so that a function without POST routes (no table configured) never needs one. */
export function persistence(): DynamoDBPersistenceLayer {
  if (store) return store;
  if (!config.tables.idempotency) throw new Error("IDEMPOTENCY_TABLE is not set for a function with a POST route");
  // The module-scope client: the same endpoint, timeouts, retries and tracing as every other request.
  store = new DynamoDBPersistenceLayer({ tableName: config.tables.idempotency, awsSdkV3Client: dynamo });
  // A fixed prefix, not the function's name: a renamed function keeps its keys.
  store.configure({ config: idempotencyConfig, keyPrefix: "api" });
  return store;
}

/** The requests whose record this invocation wrote (and so must complete or delete). */
const owned = new WeakMap<object, Payload>();

/**
 * Saves the in-progress record, or finds the first request's: its response to replay, 409 while it runs, 422
 * when it was another request. A record that expires meanwhile is taken over on the next round.
 */
async function begin(payload: Payload, remainingMs: number | undefined): Promise<IdempotencyRecord | undefined> {
  const layer = persistence();
  for (let round = 0; round < 3; round++) {
    let record: IdempotencyRecord | undefined;
    try {
      await layer.saveInProgress(payload, remainingMs);
      return undefined;
    } catch (err) {
      if (!(err instanceof IdempotencyItemAlreadyExistsError)) throw err;
      record = err.existingRecord;
    }
    try {
      // Compares the request's hash with the record's (IdempotencyValidationError when they differ).
      if (record) layer.processExistingRecord(record, payload);
      else record = await layer.getRecord(payload);
    } catch (err) {
      if (err instanceof IdempotencyValidationError) throw new Unprocessable(messages.idempotencyKeyReused);
      if (err instanceof IdempotencyItemNotFoundError) continue; // deleted meanwhile: save again
      throw err;
    }
    const status = record.getStatus();
    if (status === IdempotencyRecordStatus.COMPLETED) return record;
    if (status === IdempotencyRecordStatus.INPROGRESS) {
      const until = record.inProgressExpiryTimestamp;
      // An invocation that died mid-way holds its key only until its own timeout.
      if (until === undefined || until > now().getTime()) throw new Conflict(messages.idempotencyKeyInProgress);
      await releaseExpired(record.idempotencyKey, until);
    }
  }
  throw new Conflict(messages.idempotencyKeyInProgress);
}

/**
 * Deletes an in-progress record whose invocation's time is up by the domain's clock, if it is still that
 * record, so that the next round's save takes the key. Powertools' own save condition reads the system
 * clock, so without this a record expired only by the local clock offset (a test) would never be taken over;
 * deployed, this runs only when the timeout passes between that condition and the check above.
 */
async function releaseExpired(idempotencyKey: string, until: number): Promise<void> {
  try {
    await db.send(
      new DeleteCommand({
        TableName: config.tables.idempotency,
        Key: { id: idempotencyKey },
        ConditionExpression: "#status = :inProgress AND #until = :until",
        ExpressionAttributeNames: { "#status": "status", "#until": "in_progress_expiration" },
        ExpressionAttributeValues: { ":inProgress": IdempotencyRecordStatus.INPROGRESS, ":until": until },
      }),
    );
  } catch (err) {
    // Another retry released or took it first: the next round finds whichever record is there now.
    if ((err as Error).name !== "ConditionalCheckFailedException") throw err;
  }
}

/** Stores the response of the request this invocation owns, or releases the key when it is not stored. */
async function finish(request: object, response: Result | undefined): Promise<void> {
  const payload = owned.get(request);
  if (!payload) return;
  owned.delete(request);
  const layer = persistence();
  try {
    if (response && isStored(response.statusCode ?? 200)) await layer.saveSuccess(payload, JSON.stringify(response));
    else await layer.deleteRecord(payload);
  } catch (err) {
    // The action is done and its answer stands. The record stays in progress until this invocation's
    // timeout, after which a retry acts again.
    logger.error("idempotency record not completed", err instanceof Error ? err : String(err));
  }
}

/**
 * The middleware. `errorResult` is the stack's mapping of an error to its response, so that a 4xx the
 * action threw is stored as the client receives it. Use it last, right before the handler, which must
 * return `context.idempotentReplay` when it is set.
 */
export function idempotency(errorResult: (err: unknown) => Result): middy.MiddlewareObj<Event, Result, Error, IdempotencyContext> {
  return {
    before: async (request) => {
      const { event, context } = request;
      const header = event.headers?.[IDEMPOTENCY_HEADER];
      if (header === undefined || !takesIdempotencyKey(event.requestContext.http.method)) return;
      if (!WELL_FORMED.test(header)) throw new BadRequest(messages.idempotencyKeyMalformed);
      const route = event.routeKey || event.requestContext.routeKey;
      const payload = payloadOf(context.caller?.id ?? "", route, header, {
        params: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        body: context.body ?? null,
      });
      const first = await begin(payload, context.getRemainingTimeInMillis?.());
      if (first) {
        context.idempotentReplay = JSON.parse(first.getResponse() as string) as Result;
        logger.info("idempotent replay", { route });
        return;
      }
      owned.set(request, payload);
    },
    after: (request) => finish(request, request.response ?? undefined),
    onError: (request) => finish(request, owned.has(request) ? errorResult(request.error) : undefined),
  };
}
