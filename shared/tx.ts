/**
 * One TransactWriteItems call, with conditional-check failures turned into a result the repositories can
 * read (which item's condition failed) instead of an exception.
 */
import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { db } from "./clients.js";

export type TxItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

export type TxResult =
  | { ok: true }
  /** `failed[i]` is true when item i's condition failed; `conflict` when another transaction was in the way. */
  | { ok: false; failed: boolean[]; conflict: boolean };

export async function transact(items: TxItem[]): Promise<TxResult> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return { ok: true };
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    const reasons = err.CancellationReasons ?? [];
    const failed = items.map((_, i) => reasons[i]?.Code === "ConditionalCheckFailed");
    const conflict = reasons.some((r) => r.Code === "TransactionConflict");
    if (!failed.includes(true) && !conflict) throw err;
    return { ok: false, failed, conflict };
  }
}
