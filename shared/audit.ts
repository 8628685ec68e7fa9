/**
 * The security-event audit trail, write side. A change passes `auditItems(...)` into its own
 * TransactWriteItems so the change and its event commit together (a change that reads first drafts the
 * event with `draftAudit` during the read and completes it after); a refused request records its event
 * with `recordEvent`, in a request of its own.
 */
import type { Caller } from "./caller.js";
import { config } from "./config.js";
import { Conflict } from "./errors.js";
import { newId } from "./ids.js";
import { eventKeys, type Key } from "./tables.js";
import { isoTime } from "./time.js";
import { type TxItem, transact } from "./tx.js";

/** Event types counted per minute for the alerts summary. */
export const COUNTED_TYPES = ["unauthorized_institution_access", "rate_limit_exceeded", "token_validation_failure"] as const;
export type CountedType = (typeof COUNTED_TYPES)[number];

export type EventType =
  | CountedType
  | "institution_created"
  | "institution_updated"
  | "institution_deleted"
  | "insufficient_privileges"
  | "security_events_exported"
  | "invitation_created"
  | "invitation_revoked"
  | "invitation_resent"
  | "invitation_accepted"
  | "cohort_created";

export interface AuditEvent {
  readonly type: EventType;
  readonly details: Record<string, unknown>;
}

/** The stored shape of an event (plus the key attributes). */
export interface StoredEvent {
  id: string;
  account_id: string;
  event_type: EventType;
  user_id: string | null;
  user_email: string | null;
  user_name: string | null;
  ip_address: string;
  details: Record<string, unknown>;
  description: string;
  created_at: string;
}

/** Counters outlive the one-hour alert window by a margin, then DynamoDB's TTL removes them. */
const COUNTER_TTL_SECONDS = 3 * 60 * 60;

/** A detail as text (missing: empty). */
function text(details: Record<string, unknown>, key: string): string {
  return String(details[key] ?? "");
}

/** Human-readable text, computed once at write time because events are immutable. */
export function describe(type: EventType, details: Record<string, unknown>, actor: string): string {
  switch (type) {
    case "institution_created":
      return `${actor} created institution '${text(details, "name")}'`;
    case "institution_updated":
      return `${actor} updated institution ${text(details, "institution_id")} (${(details.changes as string[] | undefined)?.join(", ") ?? ""})`;
    case "institution_deleted":
      return `${actor} deleted institution '${text(details, "institution_name")}'`;
    case "insufficient_privileges":
      return `${actor} lacked ${text(details, "required_role")} for ${text(details, "action")}`;
    case "unauthorized_institution_access":
      return `${actor} tried to access institution ${text(details, "attempted_institution_id")} without access`;
    case "rate_limit_exceeded":
      return `${actor} exceeded the pending invitation limit (${text(details, "limit")}) for ${text(details, "email")}`;
    case "security_events_exported":
      return `${actor} exported ${text(details, "event_count")} security events`;
    case "token_validation_failure":
      return `${actor} presented an invalid invitation token (${text(details, "reason")})`;
    case "invitation_created":
      return `${actor} invited ${text(details, "email")} as ${text(details, "role")}`;
    case "invitation_revoked":
      return `${actor} revoked the invitation for ${text(details, "email")}`;
    case "invitation_resent":
      return `${actor} resent the invitation for ${text(details, "email")}`;
    case "invitation_accepted":
      return `${actor} accepted an invitation as ${text(details, "role")}`;
    case "cohort_created":
      return `${actor} created cohort '${text(details, "name")}'`;
  }
}

/**
 * The event `caller` is about to cause, with its id, time and keys fixed before its details are known:
 * a request drafts it while a read is in flight (`overlap.ts`) and completes it with the details once the
 * read has answered. Returns the completion: it sets the details and the description, and returns the
 * transaction items that write the event (and bump its alert counter).
 */
export function draftAudit(caller: Caller, type: EventType, now = new Date()): (details: Record<string, unknown>) => TxItem[] {
  const createdAt = isoTime(now);
  const id = newId(now.getTime());
  const a = caller.accountId;
  const { pk, sk } = eventKeys.event(id);
  // Property by property: `{ ...key, ...event, ... }` (two spreads of this size) took ~30 µs per event on
  // V8, a large part of a write handler's own time (npm run bench, section 2); this takes well under 1 µs.
  const item: StoredEvent & Key & Record<`g_${string}` | "created_key", string> = {
    pk,
    sk,
    id,
    account_id: a,
    event_type: type,
    user_id: caller.id,
    user_email: caller.email || null,
    user_name: caller.name,
    ip_address: caller.ip,
    details: {},
    description: "",
    created_at: createdAt,
    g_account: eventKeys.account(a),
    g_account_user: eventKeys.accountUser(a, caller.id),
    g_account_type: eventKeys.accountType(a, type),
    g_account_user_type: eventKeys.accountUserType(a, caller.id, type),
    created_key: eventKeys.createdKey(createdAt, id),
  };
  const items: TxItem[] = [{ Put: { TableName: config.tables.events, Item: item, ConditionExpression: "attribute_not_exists(pk)" } }];
  if ((COUNTED_TYPES as readonly string[]).includes(type)) {
    items.push({
      Update: {
        TableName: config.tables.events,
        Key: eventKeys.counter(a, createdAt.slice(0, 16)),
        UpdateExpression: "ADD #t :one SET #ttl = if_not_exists(#ttl, :ttl)",
        ExpressionAttributeNames: { "#t": type, "#ttl": "ttl" },
        ExpressionAttributeValues: { ":one": 1, ":ttl": Math.floor(now.getTime() / 1000) + COUNTER_TTL_SECONDS },
      },
    });
  }
  const actor = caller.email || caller.id;
  return (details) => {
    item.details = details;
    item.description = describe(type, details, actor);
    return items;
  };
}

/** Transaction items that write `event` (and bump its alert counter): include them in the change's transaction. */
export function auditItems(caller: Caller, event: AuditEvent, now = new Date()): TxItem[] {
  return draftAudit(caller, event.type, now)(event.details);
}

/** Commits the items of one event on their own (a refusal, or a read that is recorded, such as an export). */
export async function commitEvent(items: TxItem[]): Promise<void> {
  // Through `transact`, so concurrent requests bumping one alert counter retry instead of failing.
  const result = await transact(items);
  if (!result.ok) throw new Conflict("Request could not be recorded, please retry");
}

/** Records the event of a refused request (403/404/429/422 on accept), in a request of its own. */
export async function recordEvent(caller: Caller, event: AuditEvent): Promise<void> {
  await commitEvent(auditItems(caller, event));
}
