/**
 * Exports in the main table (keys in shared/tables.ts `streamKeys`): the export record, the account's
 * running-export slots, and the reads of the events the worker writes out.
 */
import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, eventItems, type StoredEvent } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import { type EventFilter, queryFor } from "../security-events/repository.js";
import { streamKeys } from "../tables.js";
import { transact } from "../tx.js";
import type { ExportFormat } from "./schema.js";

const T = () => config.tables.main;

export type ExportStatus = "running" | "succeeded" | "failed";

/** The filters as the client sent them (normalized instants), null when absent. */
export interface ExportFilters {
  event_type: string | null;
  user_id: string | null;
  /** The actor's e-mail, lower-cased; only when asked for (older records lack it). */
  user_email?: string;
  from: string | null;
  to: string | null;
}

/** The stored export (plus its keys). */
export interface ExportRecord {
  id: string;
  account_id: string;
  status: ExportStatus;
  format: ExportFormat;
  filters: ExportFilters;
  created_at: string;
  created_by: string;
  /** Rows written so far (running) or in the file (succeeded). */
  row_count: number;
  /** Epoch ms after which a running export has failed (its slot is free again then too). */
  lease_until: number;
  object_key: string;
  completed_at?: string;
  reason?: string;
  /** Resident set size of the worker process at its start and at its peak, in bytes (operations, never shown). */
  rss_start_bytes?: number;
  rss_peak_bytes?: number;
  ttl: number;
}

export interface Slot {
  readonly n: number;
  readonly exportId: string | undefined;
  readonly leaseUntil: number;
}

/** The account's slots as stored (a slot never taken is absent). One strongly consistent Query. */
export async function slots(account: string): Promise<Slot[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: "pk = :p AND begins_with(sk, :s)",
      ExpressionAttributeValues: { ":p": streamKeys.exportPartition(account), ":s": streamKeys.exportSlotPrefix },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => ({
    n: Number(String(i.sk).slice(streamKeys.exportSlotPrefix.length)),
    exportId: i.export_id as string | undefined,
    leaseUntil: Number(i.lease_until ?? 0),
  }));
}

/**
 * Writes the export, takes slot `n` (free: never taken, released, or its lease over) and records the event, in
 * one transaction. `slot` when another request took the slot first.
 */
export async function createExport(record: ExportRecord, n: number, event: AuditEvent, now: number): Promise<"ok" | "slot" | "conflict"> {
  const result = await transact({
    export: {
      Put: {
        TableName: T(),
        Item: { ...streamKeys.export(record.account_id, record.id), ...record },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    slot: {
      Put: {
        TableName: T(),
        Item: {
          ...streamKeys.exportSlot(record.account_id, n),
          export_id: record.id,
          lease_until: record.lease_until,
          ttl: Math.ceil(record.lease_until / 1000) + 86_400,
        },
        ConditionExpression: "attribute_not_exists(pk) OR attribute_not_exists(export_id) OR lease_until < :now",
        ExpressionAttributeValues: { ":now": now },
      },
    },
    ...eventItems(event),
  });
  if (result.kind === "ok") return "ok";
  if (result.kind === "failed" && result.item === "slot") return "slot";
  if (result.kind === "conflict") return "conflict";
  throw new Error(`export ${record.id}: condition failed on ${result.item}`);
}

export async function getExport(account: string, id: string): Promise<ExportRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: streamKeys.export(account, id), ConsistentRead: true }));
  return out.Item as ExportRecord | undefined;
}

/** The rows written so far, while the export runs. */
export async function noteProgress(account: string, id: string, rows: number, rssPeak: number): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: T(),
      Key: streamKeys.export(account, id),
      UpdateExpression: "SET row_count = :n, rss_peak_bytes = :rss",
      ConditionExpression: "#s = :running",
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: { ":n": rows, ":rss": rssPeak, ":running": "running" },
    }),
  );
}

/**
 * Ends the export (succeeded or failed) and frees its slot, in one transaction. The slot is freed only if this
 * export still holds it (after its lease another export may have taken it).
 */
export async function finishExport(
  account: string,
  id: string,
  end: { status: "succeeded" | "failed"; rows: number; completedAt: string; reason?: string; rssStart: number; rssPeak: number },
): Promise<void> {
  const slotsHeld = (await slots(account)).filter((s) => s.exportId === id);
  await transact({
    export: {
      Update: {
        TableName: T(),
        Key: streamKeys.export(account, id),
        UpdateExpression: `SET #s = :s, row_count = :n, completed_at = :at, rss_start_bytes = :r0, rss_peak_bytes = :r1${end.reason ? ", reason = :why" : ""}`,
        ConditionExpression: "#s = :running",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: {
          ":s": end.status,
          ":n": end.rows,
          ":at": end.completedAt,
          ":r0": end.rssStart,
          ":r1": end.rssPeak,
          ":running": "running",
          ...(end.reason && { ":why": end.reason }),
        },
      },
    },
    ...Object.fromEntries(
      slotsHeld.map((s) => [
        `slot ${s.n}`,
        {
          Update: {
            TableName: T(),
            Key: streamKeys.exportSlot(account, s.n),
            UpdateExpression: "REMOVE export_id SET lease_until = :zero",
            ConditionExpression: "export_id = :id",
            ExpressionAttributeValues: { ":id": id, ":zero": 0 },
          },
        },
      ]),
    ),
  });
}

/** The stored fields of an event, all that the CSV columns and the show body need. */
const EVENT_FIELDS = ["id", "event_type", "created_at", "user_id", "user_email", "user_name", "ip_address", "description", "details"];

/**
 * Every event matching `f`, newest first, one Query of at most `pageSize` at a time, fetched only when the
 * consumer asks for the next page: the worker holds one page, never the whole result.
 */
export async function* exportPages(f: EventFilter, pageSize: number): AsyncGenerator<StoredEvent[]> {
  const q = queryFor(f);
  const names = Object.fromEntries(EVENT_FIELDS.map((name) => [`#f_${name}`, name]));
  const input = {
    ...q,
    ProjectionExpression: Object.keys(names).join(", "),
    ExpressionAttributeNames: { ...q.ExpressionAttributeNames, ...names },
    Limit: pageSize,
  };
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...input, ...(start && { ExclusiveStartKey: start }) }));
    start = out.LastEvaluatedKey;
    if (out.Items?.length) yield out.Items as StoredEvent[];
  } while (start);
}
