/**
 * Read access to the security-event trail. Every read is a GetItem or a Query on exactly one account's
 * partition (of the table or of one GSI) and, where bounds are given, a key condition on `created_key`:
 * never a Scan, never a FilterExpression, so nothing outside the caller's account or the time range is read.
 */
import { GetCommand, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { StoredEvent } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import { eventKeys } from "../tables.js";
import { CSV_COLUMNS } from "./csv.js";
import { idOf } from "./cursor.js";
import type { Iso } from "./schema.js";

const T = () => config.tables.events;

/** Sorts after every `#<id>` suffix, so `<= to + TOP` keeps events at exactly `to`. */
const TOP = "#\uffff";

/** A stored event with its sort key (the list's cursor position). */
export type EventRow = StoredEvent & { created_key: string };

/** What selects the events of one Query: the account always, then optional equality filters and bounds. */
export interface EventFilter {
  readonly account: string;
  readonly userId?: string | undefined;
  readonly type?: string | undefined;
  /** Inclusive bounds, in the stored `created_at` form. */
  readonly from?: Iso | undefined;
  readonly to?: Iso | undefined;
}

interface IndexChoice {
  readonly name: string;
  readonly partitionAttr: string;
  readonly partition: string;
}

/** The GSI whose partition is exactly the events matching the account and the equality filters. */
export function indexFor(f: EventFilter): IndexChoice {
  const { account, userId, type } = f;
  if (userId !== undefined && type !== undefined)
    return {
      name: "by_account_user_type",
      partitionAttr: "g_account_user_type",
      partition: eventKeys.accountUserType(account, userId, type),
    };
  if (userId !== undefined)
    return { name: "by_account_user", partitionAttr: "g_account_user", partition: eventKeys.accountUser(account, userId) };
  if (type !== undefined)
    return { name: "by_account_type", partitionAttr: "g_account_type", partition: eventKeys.accountType(account, type) };
  return { name: "by_account", partitionAttr: "g_account", partition: eventKeys.account(account) };
}

/** The Query (without paging) for `f`, newest first. Exported for the unit tests of the index mapping. */
export function queryFor(f: EventFilter): QueryCommandInput & { IndexName: string } {
  const index = indexFor(f);
  const values: Record<string, string> = { ":p": index.partition };
  let range = "";
  if (f.from !== undefined && f.to !== undefined) {
    range = " AND #ck BETWEEN :lo AND :hi";
    values[":lo"] = f.from;
    values[":hi"] = f.to + TOP;
  } else if (f.from !== undefined) {
    range = " AND #ck >= :lo";
    values[":lo"] = f.from;
  } else if (f.to !== undefined) {
    range = " AND #ck <= :hi";
    values[":hi"] = f.to + TOP;
  }
  return {
    TableName: T(),
    IndexName: index.name,
    KeyConditionExpression: `#p = :p${range}`,
    ExpressionAttributeNames: { "#p": index.partitionAttr, ...(range && { "#ck": "created_key" }) },
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/** The start key after `createdKey`, built from the caller's own partition: a cursor carries only the position. */
function startAfter(f: EventFilter, createdKey: string): Record<string, string> {
  const index = indexFor(f);
  return { ...eventKeys.event(idOf(createdKey)), [index.partitionAttr]: index.partition, created_key: createdKey };
}

function toRow(item: Record<string, unknown>): EventRow {
  return {
    id: item.id,
    account_id: item.account_id,
    event_type: item.event_type,
    user_id: item.user_id ?? null,
    user_email: item.user_email ?? null,
    user_name: item.user_name ?? null,
    ip_address: item.ip_address,
    details: item.details ?? {},
    description: item.description,
    created_at: item.created_at,
    created_key: item.created_key,
  } as EventRow;
}

/** A ProjectionExpression of `fields`, each by placeholder so that none can clash with a DynamoDB reserved word. */
function projection(prefix: string, fields: readonly string[]) {
  const names: Record<string, string> = Object.fromEntries(fields.map((f, i) => [`#${prefix}${i}`, f]));
  return { names, expression: Object.keys(names).join(", ") };
}

/** The fields of an event in the list response (the contract's): the list's Query reads back only these. */
export const LISTED_FIELDS = ["id", "event_type", "user_email", "ip_address", "details", "created_at", "description"] as const;
export type ListedEvent = Pick<StoredEvent, (typeof LISTED_FIELDS)[number]>;
const LISTED = projection("l", LISTED_FIELDS);

/**
 * The export's projection: an event's CSV columns and its sort key, by which the export merges its streams.
 * Exported for the bench, whose floor pages with the same projection.
 */
export const EXPORTED = projection("x", [...CSV_COLUMNS, "created_key"]);
export type ExportedEvent = Pick<StoredEvent, (typeof CSV_COLUMNS)[number]> & { created_key: string };

/**
 * Up to `limit` events matching `f`, newest first, after `after` (a `created_key`) when given. One Query.
 * `more` is DynamoDB's own "there may be more" (it stopped at the limit or at 1 MB). The rows hold exactly
 * the list's fields (a projection), so they are the response's events as they come: nothing to copy, and
 * less to transfer and unmarshall.
 */
export async function queryEvents(f: EventFilter, limit: number, after?: string): Promise<{ rows: ListedEvent[]; more: boolean }> {
  const q = queryFor(f);
  const out = await db.send(
    new QueryCommand({
      ...q,
      ProjectionExpression: LISTED.expression,
      ExpressionAttributeNames: { ...q.ExpressionAttributeNames, ...LISTED.names },
      Limit: limit,
      ...(after !== undefined && { ExclusiveStartKey: startAfter(f, after) }),
    }),
  );
  return { rows: (out.Items ?? []) as ListedEvent[], more: out.LastEvaluatedKey !== undefined };
}

/**
 * Every event matching `f`, newest first, one page (one Query of at most `pageSize`) at a time, fetched
 * only when the consumer asks for it: the export holds one page per stream, never the whole result. The
 * pages hold only the export's fields (a projection), as they come: half the attributes to transfer,
 * unmarshall and hold, and no copy.
 */
export async function* eventPages(f: EventFilter, pageSize: number): AsyncGenerator<ExportedEvent[]> {
  const q = queryFor(f);
  const input = {
    ...q,
    ProjectionExpression: EXPORTED.expression,
    ExpressionAttributeNames: { ...q.ExpressionAttributeNames, ...EXPORTED.names },
  };
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...input, Limit: pageSize, ...(start && { ExclusiveStartKey: start }) }));
    start = out.LastEvaluatedKey;
    const rows = (out.Items ?? []) as ExportedEvent[];
    if (rows.length > 0) yield rows;
  } while (start);
}

/** One event by id, or undefined. One strongly consistent GetItem; the caller checks the account. */
export async function getEvent(id: string): Promise<EventRow | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: eventKeys.event(id), ConsistentRead: true }));
  return out.Item ? toRow(out.Item) : undefined;
}

/** Per-minute counters of the account from minute `first` to `last` (inclusive, `YYYY-MM-DDTHH:MM`). One Query. */
export async function minuteCounters(account: string, first: string, last: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  // At most 61 items of a few dozen bytes: always one page; the loop only guards against the impossible.
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: T(),
        KeyConditionExpression: "pk = :p AND sk BETWEEN :a AND :b",
        ExpressionAttributeValues: { ":p": eventKeys.counterPartition(account), ":a": first, ":b": last },
        ConsistentRead: true,
        ...(start && { ExclusiveStartKey: start }),
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * How many events of `type` the account has with `from <= created_at <= to`. A COUNT Query on the
 * account-and-type partition: it reads only those events (the alerts call it for under a minute of them).
 */
export async function countEvents(account: string, type: string, from: Iso, to: Iso): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({ ...queryFor({ account, type, from, to }), Select: "COUNT", ...(start && { ExclusiveStartKey: start }) }),
    );
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
