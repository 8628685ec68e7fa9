/**
 * Bounds on volume (docs/contract/README.md, docs/contract/limits.md#bounds) as conditional counters: each is one Update inside the transaction
 * of the change it counts, adding 1 only while the counter is below its limit, so a bound holds under
 * concurrent requests without a read. A counter covers one UTC period (minute, hour or day) and
 * expires by TTL a day after it ends.
 */
import type { Key } from "./tables.js";
import type { TxItem } from "./tx.js";

const DAY_SECONDS = 24 * 60 * 60;

/** The start of the next UTC minute / hour / day: when a bound over that period lets requests through again. */
export const nextMinute = (now: Date) => new Date(Math.floor(now.getTime() / 60_000 + 1) * 60_000);
export const nextHour = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000 + 1) * 3_600_000);
export const nextDay = (now: Date) => new Date(Math.floor(now.getTime() / 86_400_000 + 1) * 86_400_000);

/** The UTC minute (`YYYY-MM-DDTHH:MM`), hour (`YYYY-MM-DDTHH`) and day (`YYYY-MM-DD`) of `now`, as counters name them. */
export const minuteOf = (now: Date) => now.toISOString().slice(0, 16);
export const hourOf = (now: Date) => now.toISOString().slice(0, 13);
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** Seconds from `now` until `reopens` (for `Retry-After`). */
export const secondsUntil = (reopens: Date, now: Date) => (reopens.getTime() - now.getTime()) / 1000;

/**
 * Adds 1 to the counter `attribute` of the item `key` in `table`, only while it is below `limit`; the item
 * expires a day after `periodEnd`. A failed condition means the bound is reached.
 */
export function boundedCount(table: string, key: Key, attribute: string, limit: number, periodEnd: Date): TxItem {
  return {
    Update: {
      TableName: table,
      Key: key,
      UpdateExpression: "ADD #n :one SET #ttl = if_not_exists(#ttl, :ttl)",
      ConditionExpression: "attribute_not_exists(#n) OR #n < :limit",
      ExpressionAttributeNames: { "#n": attribute, "#ttl": "ttl" },
      ExpressionAttributeValues: { ":one": 1, ":limit": limit, ":ttl": Math.floor(periodEnd.getTime() / 1000) + DAY_SECONDS },
    },
  };
}

/**
 * The mailbox an address delivers to, for the service-wide bound per mailbox: lower-cased, with any
 * `+tag` removed from the local part (`Victim+1@Target.test` is `victim@target.test`), so that
 * sub-addresses cannot multiply one inbox's mail.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf("+");
  return `${plus < 0 ? local : local.slice(0, plus)}${address.slice(at)}`;
}
