/**
 * One TransactWriteItems call whose items carry names. A failed condition comes back as the name of the
 * item that failed (and that item as stored, when asked for), so a repository turns it into a domain
 * result by name; a conflict with another transaction comes back as `conflict`, for the caller's one
 * retry loop (`retry.ts`).
 */

import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { db } from "./clients.js";

export type TxItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/** Items by name; `undefined` entries (optional items) are left out. */
export type TxItems = Record<string, TxItem | undefined>;

export type TxResult =
  | { readonly kind: "ok" }
  /** `item` names the item whose condition failed; `old` is that item as stored, if it existed and was asked for. */
  | { readonly kind: "failed"; readonly item: string; readonly old: Record<string, unknown> | undefined }
  /** Another transaction held one of the items; nothing was applied, so the caller may retry. */
  | { readonly kind: "conflict" };

/**
 * What a repository's write came to, in the one shape every write has: done, to be tried again (another
 * transaction held an item, or what was read has changed), or one of the write's own refusals.
 */
export type Written<Refusal extends { readonly kind: string } = never> = { readonly kind: "ok" } | { readonly kind: "retry" } | Refusal;

/**
 * Runs one transaction of the named items of `groups`, once. A name given twice is an error (it would
 * silently drop an item). Condition failures and conflicts come back as results; anything else throws.
 */
export async function transact(...groups: TxItems[]): Promise<TxResult> {
  const entries: [string, TxItem][] = [];
  const names = new Set<string>();
  for (const group of groups) {
    for (const [name, item] of Object.entries(group)) {
      if (names.has(name)) throw new Error(`Two transaction items are named ${name}`);
      names.add(name);
      if (item !== undefined) entries.push([name, item]);
    }
  }
  try {
    await db.send(new TransactWriteCommand({ TransactItems: entries.map(([, item]) => item) }));
    return { kind: "ok" };
  } catch (err) {
    if (!(err instanceof TransactionCanceledException)) throw err;
    // CancellationReasons come in the order of the items.
    const reasons = err.CancellationReasons ?? [];
    const at = reasons.findIndex((r) => r.Code === "ConditionalCheckFailed");
    const failed = entries[at];
    if (failed) {
      const item = reasons[at]?.Item;
      return { kind: "failed", item: failed[0], old: item ? unmarshall(item) : undefined };
    }
    if (reasons.some((r) => r.Code === "TransactionConflict")) return { kind: "conflict" };
    throw err;
  }
}

/**
 * The change, with every item and event it must carry, would exceed one transaction (an institution at its seat
 * limit changed by someone whose events go to two trails, docs/security.md): a refusal, never a 500.
 */
export type TooLarge = { readonly kind: "too_large" };

/** DynamoDB's limit of items in one transaction. */
export const MAX_TX_ITEMS = 100;

/** How many items `groups` hold (`undefined` entries are left out, as `transact` leaves them out). */
export const itemCount = (...groups: TxItems[]): number =>
  groups.reduce((n, group) => n + Object.values(group).filter((item) => item !== undefined).length, 0);

/** Asks DynamoDB to return the stored item when this item's condition fails (`TxResult.old`). */
export const returnOldOnFailure = { ReturnValuesOnConditionCheckFailure: "ALL_OLD" } as const;
