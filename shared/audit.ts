/**
 * The security-event audit trail, write side. A change passes `auditItems(...)` into its own
 * TransactWriteItems so the change and its event commit together; a refused request records its event
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

/** Builds the stored event for `caller`; exported for tests and for the security-event readers. */
export function buildEvent(caller: Caller, event: AuditEvent, now = new Date()): StoredEvent {
  const createdAt = isoTime(now);
  return {
    id: newId(now.getTime()),
    account_id: caller.accountId,
    event_type: event.type,
    user_id: caller.id,
    user_email: caller.email || null,
    user_name: caller.name,
    ip_address: caller.ip,
    details: event.details,
    description: describe(event.type, event.details, caller.email || caller.id),
    created_at: createdAt,
  };
}

/** Transaction items that write `event` (and bump its alert counter): include them in the change's transaction. */
export function auditItems(caller: Caller, event: AuditEvent, now = new Date()): TxItem[] {
  const e = buildEvent(caller, event, now);
  const a = e.account_id;
  const user = e.user_id ?? "-";
  const { pk, sk } = eventKeys.event(e.id);
  // Property by property: `{ ...key, ...e, ... }` (two spreads of this size) took ~30 µs per event on V8,
  // a large part of a write handler's own time (npm run bench, section 2); this takes well under 1 µs.
  const item: StoredEvent & Key & Record<`g_${string}` | "created_key", string> = {
    pk,
    sk,
    id: e.id,
    account_id: a,
    event_type: e.event_type,
    user_id: e.user_id,
    user_email: e.user_email,
    user_name: e.user_name,
    ip_address: e.ip_address,
    details: e.details,
    description: e.description,
    created_at: e.created_at,
    g_account: eventKeys.account(a),
    g_account_user: eventKeys.accountUser(a, user),
    g_account_type: eventKeys.accountType(a, e.event_type),
    g_account_user_type: eventKeys.accountUserType(a, user, e.event_type),
    created_key: eventKeys.createdKey(e.created_at, e.id),
  };
  const items: TxItem[] = [{ Put: { TableName: config.tables.events, Item: item, ConditionExpression: "attribute_not_exists(pk)" } }];
  if ((COUNTED_TYPES as readonly string[]).includes(e.event_type)) {
    items.push({
      Update: {
        TableName: config.tables.events,
        Key: eventKeys.counter(a, e.created_at.slice(0, 16)),
        UpdateExpression: "ADD #t :one SET #ttl = if_not_exists(#ttl, :ttl)",
        ExpressionAttributeNames: { "#t": e.event_type, "#ttl": "ttl" },
        ExpressionAttributeValues: { ":one": 1, ":ttl": Math.floor(now.getTime() / 1000) + COUNTER_TTL_SECONDS },
      },
    });
  }
  return items;
}

/** Records the event of a refused request (403/404/429/422 on accept), in a request of its own. */
export async function recordEvent(caller: Caller, event: AuditEvent): Promise<void> {
  // Through `transact`, so concurrent refusals bumping one alert counter retry instead of failing.
  const result = await transact(auditItems(caller, event));
  if (!result.ok) throw new Conflict("Request could not be recorded, please retry");
}
