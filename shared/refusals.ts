/**
 * Refused requests and the probing bound (docs/contract/limits.md#bounds): a refusal (404 on an institution the caller cannot
 * see, 403, a failed invitation token) records its event, if it has one, through the audited write
 * (shared/audit.ts) together with one more on the caller's refusal counter of the minute.
 */
import { type AuditEvent, auditEvent, commitWithEvent } from "./audit.js";
import { boundedCount, minuteOf, nextMinute, secondsUntil } from "./bounds.js";
import type { Caller } from "./caller.js";
import { now as clock } from "./clock.js";
import { config } from "./config.js";
import { Forbidden, messages, TooManyRequests } from "./errors.js";
import { RETRY, withRetries } from "./retry.js";
import { eventKeys } from "./tables.js";
import { type TxItem, transact } from "./tx.js";

export const TOO_MANY_REFUSALS = "Too many refused requests, try again later";

/** Counts one refused request of `caller` in the minute of `now`, only while below the probing bound. */
function countRefusal(caller: Caller, now: Date): TxItem {
  const key = eventKeys.refusals(caller.id, minuteOf(now));
  return boundedCount(config.tables.events, key, "refused", config.refusedRequestLimit, nextMinute(now));
}

/**
 * 403 for a caller without cohort-super-admin status: no event, but it counts against the probing bound. The
 * routes only super admins may call (the trail, exports, webhooks) all check it so.
 */
export async function requireSuperAdmin(caller: Caller): Promise<void> {
  if (caller.isCohortSuperAdmin) return;
  await recordRefusal(caller, undefined);
  throw new Forbidden(messages.superAdminRequired);
}

/**
 * Records a refused request (404 on an institution the caller cannot see, 403, a failed invitation token)
 * under the probing bound (docs/contract/limits.md#bounds): its event, if it has one, and one more on the caller's counter
 * of refusals in this UTC minute, in one transaction. Past the bound nothing of the request is recorded
 * and it is answered 429 (`Retry-After`: the end of the minute) instead; the first such answer of the
 * minute records `rate_limit_exceeded` with `scope: refused_requests`, once (a flag on the counter), in the
 * trails the refused event would have gone to. So a prober cannot flood an owner's trail and alerts, and a
 * refusal costs one transaction, as before; a successful request never touches the counter.
 */
export async function recordRefusal(caller: Caller, e: AuditEvent | undefined): Promise<void> {
  const now = e ? new Date(e.createdAt) : clock();
  const bounded = await withRetries("Request could not be recorded, please retry", async () => {
    const counted = { refusals: countRefusal(caller, now) };
    const result = e ? await commitWithEvent(e, counted) : await transact(counted);
    if (result.kind === "ok") return false;
    if (result.kind === "conflict") return RETRY;
    if (result.item === "refusals") return true;
    throw new Error(`recording a refusal failed its condition on ${result.item}`);
  });
  if (!bounded) return;
  const limit = config.refusedRequestLimit;
  const reopens = nextMinute(now);
  await withRetries("Request could not be recorded, please retry", async () => {
    const owner = e?.accounts.find((a) => a !== caller.accountId);
    const exceeded = auditEvent(caller, "rate_limit_exceeded", { limit, scope: "refused_requests" }, { now, owner });
    const result = await commitWithEvent(exceeded, {
      once: {
        Update: {
          TableName: config.tables.events,
          Key: eventKeys.refusals(caller.id, minuteOf(now)),
          UpdateExpression: "SET #recorded = :true",
          ConditionExpression: "attribute_not_exists(#recorded)",
          ExpressionAttributeNames: { "#recorded": "recorded" },
          ExpressionAttributeValues: { ":true": true },
        },
      },
    });
    // Already recorded this minute: the answer alone.
    if (result.kind === "ok" || (result.kind === "failed" && result.item === "once")) return;
    if (result.kind === "conflict") return RETRY;
    throw new Error(`recording the probing bound failed its condition on ${result.item}`);
  });
  throw new TooManyRequests(TOO_MANY_REFUSALS, secondsUntil(reopens, now));
}
