/**
 * Read access to the security-event trail. Every read is a GetItem or a Query on exactly one account's
 * partition (of the table or of one GSI), with the time bounds as a key range on the id (a ULID, so its
 * first characters are the creation time): never a Scan, so nothing outside the caller's account or the
 * time range is read. The user-and-type filter is the one that reads more than it returns: it pages
 * through the user's events and keeps those of the type (`FilterExpression`), one Query per page all the
 * same; every other filter reads exactly the matching events.
 */
import { GetCommand, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { decodeTime } from "ulidx";
import type { StoredEvent } from "../audit.js";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import { firstIdAt, lastIdAt } from "../ids.js";
import { eventKeys } from "../tables.js";
import { CSV_COLUMNS, type ExportedEvent } from "./csv.js";
import type { Iso } from "./schema.js";

const T = () => config.tables.events;

/** What selects the events of one Query: the account always, then optional equality filters and bounds. */
export interface EventFilter {
  readonly account: string;
  readonly userId?: string | undefined;
  readonly type?: string | undefined;
  /**
   * The actor's e-mail as recorded (lower-cased): what the console's table shows. Kept by a `FilterExpression`
   * over the partition the other filters select, not by an index of its own (docs/trail.md's write cost): a
   * page reads at most `limit` events and returns those of that e-mail.
   */
  readonly userEmail?: string | undefined;
  /** Inclusive bounds, in the stored `created_at` form. The service raises `from` to the retention. */
  readonly from?: Iso | undefined;
  readonly to?: Iso | undefined;
}

interface IndexChoice {
  /** Undefined: the table itself. */
  readonly name: string | undefined;
  readonly partitionAttr: string;
  readonly partition: string;
  /** An event type to keep out of the partition's events (user and type together). */
  readonly keepType?: string;
}

/** The partition whose events are the account's, narrowed by the equality filters. */
export function indexFor(f: EventFilter): IndexChoice {
  const { account, userId, type } = f;
  if (userId !== undefined)
    return {
      name: "by_user",
      partitionAttr: "g_user",
      partition: eventKeys.accountUser(account, userId),
      ...(type !== undefined && { keepType: type }),
    };
  if (type !== undefined) return { name: "by_type", partitionAttr: "g_type", partition: eventKeys.accountType(account, type) };
  return { name: undefined, partitionAttr: "pk", partition: eventKeys.partition(account) };
}

/** The event id of position `<created_at>#<id>` (a list cursor), or of an id. */
const idOf = (position: string): string => position.slice(position.lastIndexOf("#") + 1);

/** The cursor position of an event id: its creation instant (the ULID's time) and the id. */
export const positionOf = (id: string): string => `${new Date(decodeTime(id)).toISOString()}#${id}`;

/** The Query (without paging) for `f`, newest first. Exported for the unit tests of the index mapping. */
export function queryFor(f: EventFilter): QueryCommandInput {
  const index = indexFor(f);
  const values: Record<string, string> = { ":p": index.partition };
  let range = "";
  if (f.from !== undefined && f.to !== undefined) {
    range = " AND #id BETWEEN :lo AND :hi";
    values[":lo"] = firstIdAt(Date.parse(f.from));
    values[":hi"] = lastIdAt(Date.parse(f.to));
  } else if (f.from !== undefined) {
    range = " AND #id >= :lo";
    values[":lo"] = firstIdAt(Date.parse(f.from));
  } else if (f.to !== undefined) {
    range = " AND #id <= :hi";
    values[":hi"] = lastIdAt(Date.parse(f.to));
  }
  const names: Record<string, string> = { "#p": index.partitionAttr, ...(range && { "#id": "sk" }) };
  const kept: string[] = [];
  if (index.keepType !== undefined) {
    names["#type"] = "event_type";
    values[":type"] = index.keepType;
    kept.push("#type = :type");
  }
  if (f.userEmail !== undefined) {
    names["#email"] = "user_email";
    values[":email"] = f.userEmail;
    kept.push("#email = :email");
  }
  return {
    TableName: T(),
    ...(index.name !== undefined && { IndexName: index.name }),
    KeyConditionExpression: `#p = :p${range}`,
    ...(kept.length > 0 && { FilterExpression: kept.join(" AND ") }),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

/** The start key after the event at `position`, built in the caller's own partition: a cursor carries only the position. */
function startAfter(f: EventFilter, position: string): Record<string, string> {
  const index = indexFor(f);
  return { ...eventKeys.event(idOf(position), f.account), [index.partitionAttr]: index.partition };
}

/** A projection of `fields`, each by placeholder so that none can clash with a DynamoDB reserved word. */
function projection(fields: readonly string[]) {
  const names = Object.fromEntries(fields.map((f) => [`#f_${f}`, f]));
  return { ProjectionExpression: Object.keys(names).join(", "), names };
}

/** The fields of an event in the list response (the contract's): the list's Query reads back only these. */
export const LISTED_FIELDS = ["id", "event_type", "user_email", "ip_address", "details", "created_at", "description"] as const;
export type ListedEvent = Pick<StoredEvent, (typeof LISTED_FIELDS)[number]>;

/** The export reads an event's CSV columns; it merges its streams by id (creation order). */
export type ExportRow = ExportedEvent;
/** The export's projection. */
const EXPORT_PROJECTION = projection([...CSV_COLUMNS]);

/** `queryFor(f)` reading back only what `p` projects. */
function projectedQuery(f: EventFilter, p: ReturnType<typeof projection>): QueryCommandInput {
  const q = queryFor(f);
  return { ...q, ProjectionExpression: p.ProjectionExpression, ExpressionAttributeNames: { ...q.ExpressionAttributeNames, ...p.names } };
}

/**
 * Up to `limit` events matching `f`, newest first, after `after` (a cursor position) when given. One Query.
 * `more` is DynamoDB's own "there may be more" (it stopped at the limit or at 1 MB) and `last` the position
 * it stopped at: with the user-and-type filter that can be an event it read but did not return.
 */
export async function queryEvents(
  f: EventFilter,
  limit: number,
  after?: string,
): Promise<{ rows: ListedEvent[]; more: boolean; last?: string | undefined }> {
  const out = await db.send(
    new QueryCommand({
      ...projectedQuery(f, projection(LISTED_FIELDS)),
      Limit: limit,
      ...(after !== undefined && { ExclusiveStartKey: startAfter(f, after) }),
    }),
  );
  const lastId = out.LastEvaluatedKey?.sk;
  return {
    rows: (out.Items ?? []) as ListedEvent[],
    more: out.LastEvaluatedKey !== undefined,
    last: typeof lastId === "string" ? positionOf(lastId) : undefined,
  };
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

/**
 * Every stored field of the events of `account` created in [`fromMs`, `toMs`), oldest first (by id): the
 * digester's read. One strongly consistent Query per 1 MB, on the account's partition.
 */
export async function periodEvents(account: string, fromMs: number, toMs: number): Promise<StoredEvent[]> {
  return (await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :p AND sk BETWEEN :lo AND :hi",
    ExpressionAttributeValues: { ":p": eventKeys.partition(account), ":lo": firstIdAt(fromMs), ":hi": lastIdAt(toMs - 1) },
    ConsistentRead: true,
  })) as unknown as StoredEvent[];
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
