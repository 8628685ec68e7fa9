/**
 * `Idempotency-Key` on every POST (docs/contract/README.md#retries-and-concurrent-edits, Stripe's semantics), one middleware of the one middy stack,
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
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS as ATTR,
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
  IdempotencyValidationError,
} from "@aws-lambda-powertools/idempotency";
import { BasePersistenceLayer, IdempotencyRecord } from "@aws-lambda-powertools/idempotency/persistence";
import type { IdempotencyRecordStatusValue } from "@aws-lambda-powertools/idempotency/types";
import type middy from "@middy/core";
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { Caller } from "./caller.js";
import { now } from "./clock.js";
import { config } from "./config.js";
import { IDEMPOTENCY_HEADER } from "./constants.js";
import { BadRequest, Conflict, messages, Unprocessable } from "./errors.js";
// Type only: http.ts hands the table's calls over (idempotency-table.ts says why this module imports no client).
import type { IdempotencyTable } from "./idempotency-table.js";
import { IDEMPOTENT_METHOD } from "./routes.js";

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

/** The record's key attribute, Powertools' default. */
const KEY = "id";

const toRecord = (item: Record<string, unknown>): IdempotencyRecord =>
  new IdempotencyRecord({
    idempotencyKey: item[KEY] as string,
    status: item[ATTR.statusAttr] as IdempotencyRecordStatusValue,
    expiryTimestamp: item[ATTR.expiryAttr] as number | undefined,
    inProgressExpiryTimestamp: item[ATTR.inProgressExpiryAttr] as number | undefined,
    responseData: item[ATTR.dataAttr] as string | undefined,
    payloadHash: item[ATTR.validationKeyAttr] as string | undefined,
  });

/**
 * Powertools' DynamoDB persistence layer (its item, its save condition, strongly consistent reads), over the
 * calls http.ts hands over: Powertools' own class imports the DynamoDB client, which this module must not.
 */
class RecordStore extends BasePersistenceLayer {
  constructor(
    private readonly table: IdempotencyTable,
    private readonly tableName: string,
  ) {
    super();
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const item = await this.table.get(this.tableName, idempotencyKey);
    if (!item) throw new IdempotencyItemNotFoundError();
    return toRecord(item);
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const at = Date.now();
    const failed = await this.table.put({
      TableName: this.tableName,
      Item: {
        [KEY]: record.idempotencyKey,
        [ATTR.expiryAttr]: record.expiryTimestamp,
        [ATTR.statusAttr]: record.getStatus(),
        ...(record.inProgressExpiryTimestamp !== undefined && { [ATTR.inProgressExpiryAttr]: record.inProgressExpiryTimestamp }),
        ...(this.isPayloadValidationEnabled() && record.payloadHash !== undefined && { [ATTR.validationKeyAttr]: record.payloadHash }),
      },
      // Powertools' condition: a new key, an expired record, or one in progress whose invocation's time is up.
      ConditionExpression:
        "attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)",
      ExpressionAttributeNames: {
        "#id": KEY,
        "#expiry": ATTR.expiryAttr,
        "#in_progress_expiry": ATTR.inProgressExpiryAttr,
        "#status": ATTR.statusAttr,
      },
      ExpressionAttributeValues: { ":now": at / 1000, ":now_in_millis": at, ":inprogress": IdempotencyRecordStatus.INPROGRESS },
      ReturnValuesOnConditionCheckFailure: "ALL_OLD",
    });
    if (failed) {
      throw new IdempotencyItemAlreadyExistsError(
        `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
        failed.existing && toRecord(failed.existing),
      );
    }
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const names: Record<string, string> = { "#expiry": ATTR.expiryAttr, "#status": ATTR.statusAttr };
    const values: Record<string, unknown> = { ":expiry": record.expiryTimestamp, ":status": record.getStatus() };
    if (record.responseData !== undefined) {
      names["#response_data"] = ATTR.dataAttr;
      values[":response_data"] = record.responseData;
    }
    if (this.isPayloadValidationEnabled()) {
      names["#validation_key"] = ATTR.validationKeyAttr;
      values[":validation_key"] = record.payloadHash;
    }
    const set = Object.keys(names).map((name) => `${name} = :${name.slice(1)}`);
    await this.table.update({
      TableName: this.tableName,
      Key: { [KEY]: record.idempotencyKey },
      UpdateExpression: `SET ${set.join(", ")}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    await this.table.delete({ TableName: this.tableName, Key: { [KEY]: record.idempotencyKey } });
  }
}

let store: { layer: RecordStore; table: IdempotencyTable } | undefined;
/**
 * Made on first use, so that a function without POST routes (no table configured) never needs one; `table`
 * is idempotency-table.ts's, handed over by http.ts (and by the tests).
 */
export function persistence(table: IdempotencyTable): RecordStore {
  if (store) return store.layer;
  if (!config.tables.idempotency) throw new Error("IDEMPOTENCY_TABLE is not set for a function with a POST route");
  const layer = new RecordStore(table, config.tables.idempotency);
  // A fixed prefix, not the function's name: a renamed function keeps its keys.
  layer.configure({ config: idempotencyConfig, keyPrefix: "api" });
  store = { layer, table };
  return layer;
}

/** The table's calls and logger, once `persistence` has them. */
function tableOf(): IdempotencyTable {
  if (!store) throw new Error("the idempotency store is used before it is made");
  return store.table;
}

/** The requests whose record this invocation wrote (and so must complete or delete). */
const owned = new WeakMap<object, Payload>();

/**
 * Saves the in-progress record, or finds the first request's: its response to replay, 409 while it runs, 422
 * when it was another request. A record that expires meanwhile is taken over on the next round.
 */
async function begin(table: IdempotencyTable, payload: Payload, remainingMs: number | undefined): Promise<IdempotencyRecord | undefined> {
  const layer = persistence(table);
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
    await tableOf().delete({
      TableName: config.tables.idempotency,
      Key: { [KEY]: idempotencyKey },
      ConditionExpression: "#status = :inProgress AND #until = :until",
      ExpressionAttributeNames: { "#status": ATTR.statusAttr, "#until": ATTR.inProgressExpiryAttr },
      ExpressionAttributeValues: { ":inProgress": IdempotencyRecordStatus.INPROGRESS, ":until": until },
    });
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
  const table = tableOf();
  const layer = persistence(table);
  try {
    if (response && isStored(response.statusCode ?? 200)) await layer.saveSuccess(payload, JSON.stringify(response));
    else await layer.deleteRecord(payload);
  } catch (err) {
    // The action is done and its answer stands. The record stays in progress until this invocation's
    // timeout, after which a retry acts again.
    table.logger.error("idempotency record not completed", err instanceof Error ? err : String(err));
  }
}

/**
 * The middleware. `errorResult` is the stack's mapping of an error to its response, so that a 4xx the
 * action threw is stored as the client receives it. Use it last, right before the handler, which must
 * return `context.idempotentReplay` when it is set.
 */
export function idempotency(
  errorResult: (err: unknown) => Result,
  table: IdempotencyTable,
): middy.MiddlewareObj<Event, Result, Error, IdempotencyContext> {
  return {
    before: async (request) => {
      const { event, context } = request;
      const header = event.headers?.[IDEMPOTENCY_HEADER];
      if (header === undefined || event.requestContext.http.method !== IDEMPOTENT_METHOD) return;
      if (!WELL_FORMED.test(header)) throw new BadRequest(messages.idempotencyKeyMalformed);
      const route = event.routeKey || event.requestContext.routeKey;
      const payload = payloadOf(context.caller?.id ?? "", route, header, {
        params: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        body: context.body ?? null,
      });
      const first = await begin(table, payload, context.getRemainingTimeInMillis?.());
      if (first) {
        context.idempotentReplay = JSON.parse(first.getResponse() as string) as Result;
        table.logger.info("idempotent replay", { route });
        return;
      }
      owned.set(request, payload);
    },
    after: (request) => finish(request, request.response ?? undefined),
    onError: (request) => finish(request, owned.has(request) ? errorResult(request.error) : undefined),
  };
}
