/**
 * One TransactWriteItems call, with conditional-check failures turned into a result the repositories can
 * read (which item's condition failed, and that item as it was) instead of an exception.
 */
import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { db } from "./clients.js";

export type TxItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

export type TxResult =
  | { ok: true }
  | {
      ok: false;
      /** `failed[i]`: item i's condition failed; `old[i]`: that item as stored, when it existed. */
      failed: boolean[];
      old: (Record<string, unknown> | undefined)[];
      /** Another transaction held one of the items: the caller may retry. */
      conflict: boolean;
    };

/** A cancelled transaction applied nothing, so a conflict is retried as is, a few times, with jitter. */
const CONFLICT_ATTEMPTS = 5;

/** Runs the transaction; conditional failures (and conflicts that outlast the retries) come back as `ok: false`, anything else throws. */
export async function transact(items: TxItem[]): Promise<TxResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await attemptOnce(items);
    if (result.ok || !result.conflict || result.failed.includes(true) || attempt >= CONFLICT_ATTEMPTS) return result;
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
  }
}

async function attemptOnce(items: TxItem[]): Promise<TxResult> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return { ok: true };
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    const reasons = err.CancellationReasons ?? [];
    const failed = items.map((_, i) => reasons[i]?.Code === "ConditionalCheckFailed");
    const conflict = reasons.some((r) => r.Code === "TransactionConflict");
    if (!failed.includes(true) && !conflict) throw err;
    const old = items.map((_, i) => {
      const item = reasons[i]?.Item;
      return item ? unmarshall(item) : undefined;
    });
    return { ok: false, failed, old, conflict };
  }
}

/** Asks DynamoDB to return the stored item when this item's condition fails (see `TxResult.old`). */
export const returnOldOnFailure = { ReturnValuesOnConditionCheckFailure: "ALL_OLD" } as const;
