/**
 * One TransactWriteItems call whose items carry names. A failed condition comes back as the name of the
 * item that failed (and that item as stored, when asked for), so a repository turns it into a domain
 * result by name; a conflict with another transaction comes back as `conflict`, for the caller's one
 * retry loop (`retry.ts`).
 */

import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { noteCommitted } from "./audit.js";
import { db } from "./clients.js";
import { config } from "./config.js";
import { METRIC } from "./observability.js";
import { metrics } from "./telemetry.js";

export type TxItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/** Items by name; `undefined` entries (optional items) are left out. */
export type TxItems = Record<string, TxItem | undefined>;

export type TxResult =
  | { readonly ok: true }
  /** `failed` names the item whose condition failed; `old` is that item as stored, if it existed and was asked for. */
  | { readonly ok: false; readonly failed: string; readonly old: Record<string, unknown> | undefined }
  /** Another transaction held one of the items; nothing was applied, so the caller may retry. */
  | { readonly ok: false; readonly failed: undefined; readonly conflict: true };

/** Runs the transaction once. Condition failures and conflicts come back as results; anything else throws. */
export async function transact(named: TxItems): Promise<TxResult> {
  const entries = Object.entries(named).filter((e): e is [string, TxItem] => e[1] !== undefined);
  try {
    await db.send(new TransactWriteCommand({ TransactItems: entries.map(([, item]) => item) }));
    countEvents(entries.map(([, item]) => item));
    noteCommitted(entries.map(([, item]) => item));
    return { ok: true };
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    // CancellationReasons come in the order of the items.
    const reasons = err.CancellationReasons ?? [];
    const at = reasons.findIndex((r) => r.Code === "ConditionalCheckFailed");
    if (at >= 0) {
      const item = reasons[at]?.Item;
      return { ok: false, failed: entries[at]?.[0] as string, old: item ? unmarshall(item) : undefined };
    }
    if (reasons.some((r) => r.Code === "TransactionConflict")) return { ok: false, failed: undefined, conflict: true };
    throw err;
  }
}

/** Counts the security events a committed transaction wrote, by type: every event is written through here. */
function countEvents(items: TxItem[]): void {
  for (const item of items) {
    const type = item.Put?.TableName === config.tables.events ? item.Put.Item?.event_type : undefined;
    if (typeof type !== "string") continue;
    const single = metrics.singleMetric();
    single.addDimension("event_type", type);
    single.addMetric(METRIC.securityEventRecorded, MetricUnit.Count, 1);
  }
}

/** Asks DynamoDB to return the stored item when this item's condition fails (`TxResult.old`). */
export const returnOldOnFailure = { ReturnValuesOnConditionCheckFailure: "ALL_OLD" } as const;
