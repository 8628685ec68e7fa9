/**
 * Read access to the security-event trail. Every read is a GetItem or a Query on exactly one account's
 * partition (of the table or of one GSI) and, where bounds are given, a key condition on `created_key`:
 * never a Scan, never a FilterExpression, so nothing outside the caller's account or the time range is read.
 */
import { GetCommand, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { StoredEvent } from "../audit.js";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import { eventKeys } from "../tables.js";
import { CSV_COLUMNS, type ExportedEvent } from "./csv.js";
import type { Iso } from "./schema.js";

const T = () => config.tables.events;

/** Sorts after every `#<id>` suffix, so `<= to + TOP` keeps events at exactly `to`. */
const TOP = "#\uffff";

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

/** The start key after `createdKey`, built in the caller's own partition: a cursor carries only the position. */
function startAfter(f: EventFilter, createdKey: string): Record<string, string> {
  const index = indexFor(f);
  const id = createdKey.slice(createdKey.lastIndexOf("#") + 1);
  return { ...eventKeys.event(id, f.account), [index.partitionAttr]: index.partition, created_key: createdKey };
}

/** A projection of `fields`, each by placeholder so that none can clash with a DynamoDB reserved word. */
function projection(fields: readonly string[]) {
  const names = Object.fromEntries(fields.map((f) => [`#f_${f}`, f]));
  return { ProjectionExpression: Object.keys(names).join(", "), names };
}

/** The fields of an event in the list response (the contract's): the list's Query reads back only these. */
export const LISTED_FIELDS = ["id", "event_type", "user_email", "ip_address", "details", "created_at", "description"] as const;
export type ListedEvent = Pick<StoredEvent, (typeof LISTED_FIELDS)[number]>;

/** The export reads an event's CSV columns and its sort key, by which it merges its streams. */
export type ExportRow = ExportedEvent & { created_key: string };
/** The export's projection. */
const EXPORT_PROJECTION = projection([...CSV_COLUMNS, "created_key"]);

/** `queryFor(f)` reading back only what `p` projects. */
function projectedQuery(f: EventFilter, p: ReturnType<typeof projection>): QueryCommandInput {
  const q = queryFor(f);
  return { ...q, ProjectionExpression: p.ProjectionExpression, ExpressionAttributeNames: { ...q.ExpressionAttributeNames, ...p.names } };
}

/**
 * Up to `limit` events matching `f`, newest first, after `after` (a `created_key`) when given. One Query.
 * `more` is DynamoDB's own "there may be more" (it stopped at the limit or at 1 MB).
 */
export async function queryEvents(f: EventFilter, limit: number, after?: string): Promise<{ rows: ListedEvent[]; more: boolean }> {
  const out = await db.send(
    new QueryCommand({
      ...projectedQuery(f, projection(LISTED_FIELDS)),
      Limit: limit,
      ...(after !== undefined && { ExclusiveStartKey: startAfter(f, after) }),
    }),
  );
  return { rows: (out.Items ?? []) as ListedEvent[], more: out.LastEvaluatedKey !== undefined };
}

/**
 * Every event matching `f`, newest first, one page (one Query of at most `pageSize`) at a time, fetched
 * only when the consumer asks for it: the export holds one page per stream, never the whole result.
 */
export async function* eventPages(f: EventFilter, pageSize: number): AsyncGenerator<ExportRow[]> {
  const input = { ...projectedQuery(f, EXPORT_PROJECTION), Limit: pageSize };
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...input, ...(start && { ExclusiveStartKey: start }) }));
    start = out.LastEvaluatedKey;
    if (out.Items?.length) yield out.Items as ExportRow[];
  } while (start);
}

/** One event of `account`'s trail, or undefined. One strongly consistent GetItem. */
export async function getEvent(id: string, account: string): Promise<StoredEvent | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: eventKeys.event(id, account), ConsistentRead: true }));
  return out.Item as StoredEvent | undefined;
}

/** Per-minute counters of the account from minute `first` to `last` (inclusive, `YYYY-MM-DDTHH:MM`). */
export async function minuteCounters(account: string, first: string, last: string): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :p AND sk BETWEEN :a AND :b",
    ExpressionAttributeValues: { ":p": eventKeys.counterPartition(account), ":a": first, ":b": last },
    ConsistentRead: true,
  });
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
