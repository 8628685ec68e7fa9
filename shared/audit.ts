/**
 * The security-event audit trail, write side, and the one place that knows how an event is stored. A
 * use case builds its event with `auditEvent` and hands it to its repository, which commits the change
 * with it (`commitWithEvent`): one transaction, so the change and its event commit together. This is the one
 * door every event goes through: it notes the activity markers it committed and counts the event
 * (`SecurityEventRecorded`). A read that is recorded uses `recordEvent`; a refused request, shared/refusals.ts.
 */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { keyLabel } from "./api-keys/model.js";
import type { Caller } from "./caller.js";
import { now as clock } from "./clock.js";
import { config } from "./config.js";
import { COUNTED_TYPES, type CountedType, EVENT_TYPES, type EventType } from "./constants.js";
import { DETAIL_KEYS, type EventDetails } from "./event-details.js";
import { newId } from "./ids.js";
import { METRIC } from "./observability.js";
import { RETRY, withRetries } from "./retry.js";
import { eventKeys } from "./tables.js";
import { metrics } from "./telemetry.js";
import { recordedText } from "./text.js";
import { itemCount, MAX_TX_ITEMS, type TxItems, type TxResult, transact } from "./tx.js";

export { COUNTED_TYPES, type CountedType, EVENT_TYPES, type EventType } from "./constants.js";
export type { EventDetails } from "./event-details.js";

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);
const isCounted = (type: EventType): type is CountedType => (COUNTED_TYPES as readonly string[]).includes(type);

/** One security event, as a use case describes it. */
export interface AuditEvent<T extends EventType = EventType> {
  readonly id: string;
  readonly type: T;
  readonly createdAt: string;
  readonly actor: Caller;
  readonly details: EventDetails[T];
  /**
   * The accounts whose trail holds the event: the actor's, and the account that owns the institution it
   * concerns when that is another one (docs/contract/README.md#identity-and-access), under the same id.
   */
  readonly accounts: readonly string[];
}

/** The stored shape of an event (plus its key and index attributes). */
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

/**
 * An event `actor` causes now. `owner` is the account owning the institution the event concerns, when
 * known: a different account records the event too. `institution`: the institution it concerns, as the actor
 * sees it, so that an event of a type that names it (`institution_name` among its `DETAIL_KEYS`) names it by
 * name, in its details and its description, and not by its id alone.
 */
export function auditEvent<T extends EventType>(
  actor: Caller,
  type: T,
  details: EventDetails[T],
  {
    now = clock(),
    owner,
    institution,
  }: { now?: Date; owner?: string | undefined; institution?: { readonly name: string } | undefined } = {},
): AuditEvent<T> {
  const accounts = owner === undefined || owner === actor.accountId ? [actor.accountId] : [actor.accountId, owner];
  const names = institution !== undefined && (DETAIL_KEYS[type] as readonly string[]).includes("institution_name");
  const named = names ? ({ ...details, institution_name: institution.name } as EventDetails[T]) : details;
  return { id: newId(now.getTime()), type, createdAt: now.toISOString(), actor, details: named, accounts };
}

/** Counters outlive the one-hour alert window by a margin, then DynamoDB's TTL removes them. */
const COUNTER_TTL_SECONDS = 3 * 60 * 60;

/** A detail as one line of text (missing: empty), so that no value can forge a line in the trail. */
function text(details: Record<string, unknown>, key: string): string {
  return recordedText(String(details[key] ?? ""), Number.POSITIVE_INFINITY);
}

/** A person's own event's reasons, in words. */
const SIGN_IN_FAILURE: Record<string, string> = {
  wrong_password: "wrong password",
  wrong_code: "wrong code of the second step",
  blocked: "blocked by the user pool's threat protection",
};

/** Why an invitation was revoked, when not by hand. */
const REVOKED_BECAUSE: Record<string, string> = {
  administrator_removed: " (its sender's access was removed)",
  email_delivery_failed: " (its mail could not be sent)",
};

/**
 * Human-readable text, computed once at write time because events are immutable. `actor` is the actor's e-mail
 * (or what stands for an actor that is no person); `actorName` their name, when known: a person's own events name
 * them by both. Institutions are named by name (`institution_name`), people by e-mail; an id only where nothing
 * else may be said (an institution the actor cannot see) or an event recorded before names were.
 */
export function describe(type: EventType, details: Record<string, unknown>, actor: string, actorName?: string | null): string {
  const t = (key: string) => text(details, key);
  const person = actorName ? `${recordedText(actorName)} (${actor})` : actor;
  const institution = details.institution_name !== undefined ? `'${t("institution_name")}'` : t("institution_id");
  const scoped = (what: string) =>
    details.institution_name !== undefined || details.institution_id !== undefined ? `${what} ${institution}` : "";
  switch (type) {
    case "sign_in":
      return `${person} signed in with their password`;
    case "sign_in_failed":
      return `A sign-in as ${person} failed: ${SIGN_IN_FAILURE[t("reason")] ?? t("reason")}`;
    case "password_reset":
      return `${person} reset their forgotten password with a code sent by e-mail`;
    case "password_changed":
      return `${person} changed their password`;
    case "mfa_enabled":
      return `${person} turned on an authenticator app (TOTP) as their second sign-in step`;
    case "mfa_disabled":
      return `${person} turned off their authenticator app (TOTP): the password alone signs them in`;
    case "signed_out_everywhere":
      return `${person} signed out everywhere: every session of theirs must sign in again`;
    case "institution_created":
      return `${actor} created institution '${t("name")}'`;
    case "institution_updated":
      return `${actor} updated institution ${institution} (${(details.changes as string[] | undefined)?.join(", ") ?? ""})`;
    case "institution_deleted":
      return `${actor} deleted institution '${t("institution_name")}'`;
    case "insufficient_privileges": {
      const needed = t("required_role") === "super_admin" ? "the institution's super admin" : "the cohort-super-admin status";
      return `${actor} was refused ${t("action").replace(/_/g, " ")}${scoped(" of institution")}: it needs ${needed}`;
    }
    case "unauthorized_institution_access":
      // Not visible to the actor: the id they tried is all that may be said (its name would tell them more).
      return `${actor} tried to reach an institution they cannot see (id ${t("attempted_institution_id")})`;
    case "rate_limit_exceeded":
      if (details.scope === "refused_requests") return `${actor} was refused more than ${t("limit")} requests in a minute`;
      if (details.scope === "institution_daily") return `${actor} reached the limit of ${t("limit")} institutions created in a day`;
      return `${actor} exceeded the invitation limit (${t("limit")}, ${t("scope") || "pending"}) for ${t("email")}`;
    case "security_events_exported":
      // A full export (docs/events-out.md) is recorded when it starts, before its row count is known.
      if (details.export_id !== undefined) return `${actor} started a full export (${t("format")}) of security events`;
      return `${actor} exported ${t("event_count")} security events`;
    case "token_validation_failure":
      return `${actor} presented an invalid invitation token (${t("reason")})`;
    case "invitation_created":
      return `${actor} invited ${t("email")} as ${t("role")}${scoped(" to")}`;
    case "invitation_revoked":
      return `${actor} revoked the invitation for ${t("email")}${scoped(" to")}${REVOKED_BECAUSE[t("reason")] ?? ""}`;
    case "invitation_resent":
      return `${actor} resent the invitation for ${t("email")}${scoped(" to")}`;
    case "invitation_accepted":
      return `${actor} accepted an invitation${scoped(" to")} as ${t("role")}`;
    case "cohort_created":
      return `${actor} created cohort '${t("name")}'${scoped(" in")}`;
    case "webhook_created":
      return `${actor} created a webhook to ${t("url")}`;
    case "webhook_deleted":
      return `${actor} deleted the webhook to ${t("url")}`;
    case "webhook_disabled":
      return `The webhook to ${t("url")} was disabled after failing since ${t("failing_since")}`;
    case "administrator_removed":
      return details.self === true
        ? `${actor} left institution ${institution}`
        : `${actor} removed ${t("email") || t("user_id")} from institution ${institution}`;
    case "administrator_role_changed":
      return `${actor} changed the role of ${t("email") || t("user_id")} in institution ${institution} from ${t("from")} to ${t("to")}`;
    case "institution_transferred":
      return `${actor} transferred institution ${institution} to ${t("to_email") || t("to_user_id")}`;
    case "account_created":
      return `${actor} created an account from an invitation to institution ${institution}`;
    case "cohort_deleted":
      return `${actor} deleted cohort '${t("name")}'${scoped(" in")}`;
    case "scim_connected":
      return `${actor} connected a directory (SCIM) to institution ${institution}`;
    case "scim_token_rotated":
      return `${actor} rotated the directory (SCIM) token of institution ${institution}`;
    case "scim_role_mappings_changed":
      return `${actor} changed the directory (SCIM) role mappings of institution ${institution}`;
    case "scim_disconnected":
      return `${actor} disconnected the directory (SCIM) of institution ${institution}`;
    case "administrator_provisioned":
      return `${actor} provisioned ${t("email")} as ${t("role")} in institution ${institution}`;
    case "administrator_deprovisioned":
      return `${actor} deprovisioned ${t("email")} from institution ${institution} (${t("reason")})`;
    case "domain_added":
      return `${actor} added the domain ${t("domain")} to institution ${institution}`;
    case "domain_verified":
      return `${actor} verified the domain ${t("domain")} for institution ${institution}`;
    case "domain_verification_failed":
      return details.state === "failed"
        ? `The domain ${t("domain")} of institution ${institution} failed verification (${t("reason")})`
        : `${actor} could not verify the domain ${t("domain")} of institution ${institution} (${t("reason")})`;
    case "domain_removed":
      return `${actor} removed the domain ${t("domain")} from institution ${institution}`;
    case "sso_connected":
      return `${actor} connected ${t("type").toUpperCase()} single sign-on (${t("provider_name")}) to institution ${institution}`;
    case "sso_updated":
      return `${actor} changed the single sign-on of institution ${institution} (${(details.changes as string[] | undefined)?.join(", ") ?? ""})`;
    case "sso_disconnected":
      return `${actor} disconnected the single sign-on (${t("provider_name")}) of institution ${institution}`;
    case "sso_sign_in":
      return `${person} signed in with single sign-on (${t("provider_name")}) to institution ${institution}`;
    case "sso_sign_in_refused":
      return `A single sign-on (${t("provider_name")}) was refused (${t("reason")})`;
    case "api_key_created":
      return `${actor} created API key '${t("name")}' for institution ${institution}`;
    case "api_key_revoked":
      return `${actor} revoked API key '${t("name")}' of institution ${institution}`;
  }
}

/**
 * A value taken from the request that is recorded although it is not a well-formed id (an attempted
 * institution id, say): see `recordedText`.
 */
export function requestValue(value: string | undefined): string | null {
  return value === undefined ? null : recordedText(value);
}

/**
 * Keys whose values are validated e-mail addresses (at most 254 characters, no control or format
 * character): recorded whole, because an address cut short would name someone else.
 */
const WHOLE = new Set(["email", "user_email", "to_email"]);

/**
 * Every string of an event's details as the trail records it (docs/security.md): each a `recordedText`,
 * so that no value from a request, id, filter or name, can flood the trail or forge a line in it.
 */
export function recordedDetails(value: unknown, key = ""): unknown {
  if (typeof value === "string") return recordedText(value, WHOLE.has(key) ? Number.POSITIVE_INFINITY : undefined);
  if (Array.isArray(value)) return value.map((item) => recordedDetails(item));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, recordedDetails(v, k)]));
  }
  return value;
}

/** When an event created at `createdAt` expires: DynamoDB's TTL, in epoch seconds. */
export const eventExpiry = (createdAt: string): number => Math.floor(Date.parse(createdAt) / 1000) + config.eventRetentionDays * 86_400;

/** The start (ISO) of the digest period holding epoch millisecond `ms`; periods are aligned to the epoch. */
export function periodStartOf(ms: number): string {
  const period = config.digestPeriodSeconds * 1000;
  return new Date(Math.floor(ms / period) * period).toISOString();
}

/**
 * How the description names an actor: its e-mail, the directory as what it is, an API key by its name (docs/api-keys.md: "API key 'SIS sync'
 * invited …"), else its id.
 */
function actorText(actor: Caller, email: string | null): string {
  if (actor.apiKey) return keyLabel(recordedText(actor.apiKey.name));
  // The directory is no person (docs/scim.md): named as what it is, not by its connection's id.
  if (actor.directory) return "The directory (SCIM)";
  return email ?? recordedText(actor.id);
}

/** The item of `e` in `account`'s trail. */
function storedItem(e: AuditEvent, account: string): Record<string, unknown> {
  const { actor } = e;
  const key = actor.apiKey;
  // A key is the actor (docs/api-keys.md): every event it causes names it in `details.api_key`.
  const details = recordedDetails(key ? { ...e.details, api_key: { id: key.id, name: key.name } } : e.details) as Record<string, unknown>;
  const email = actor.email ? recordedText(actor.email, Number.POSITIVE_INFINITY) : null;
  const stored: StoredEvent = {
    id: e.id,
    account_id: account,
    event_type: e.type,
    // The directory (docs/scim.md) and an API key (docs/api-keys.md) act as no user: `user_id` null; the id names
    // the actor in the index, the details and description name it.
    user_id: actor.directory || key ? null : actor.id,
    user_email: email,
    user_name: actor.name === null ? null : recordedText(actor.name),
    ip_address: actor.ip,
    details,
    description: describe(e.type, details, actorText(actor, email), actor.directory || key ? null : actor.name),
    created_at: e.createdAt,
  };
  return {
    ...eventKeys.event(e.id, account),
    ...stored,
    g_user: eventKeys.accountUser(account, actor.id),
    g_type: eventKeys.accountType(account, e.type),
    ttl: eventExpiry(e.createdAt),
  };
}

/**
 * Activity markers this process has committed: `<period start>#<account>`. The digester finds the accounts
 * of a period by its markers. Each process writes a marker with its first event of each account and period,
 * in that event's transaction, and not again: so every account and period with an event has its marker,
 * while an audited change costs the marker's 2 WCU only once per function instance, account and period.
 */
const markedPeriods = new Set<string>();
const MARKER_PREFIX = "ACTIVE#";

/** The marker item of `account` for the period holding `e`, unless this process has already committed it. */
function activityItem(e: AuditEvent, account: string): TxItems[string] {
  const start = periodStartOf(Date.parse(e.createdAt));
  if (markedPeriods.has(`${start}#${account}`)) return undefined;
  // Kept as long as the events it points to, so that a late digest run still finds them.
  const item = { ...eventKeys.activity(start, account), period_start: start, account_id: account, ttl: eventExpiry(start) };
  return { Put: { TableName: config.tables.events, Item: item } };
}

/** Called with the event items of a committed transaction: remembers the markers it wrote (see `markedPeriods`). */
function noteCommitted(items: readonly TxItems[string][]): void {
  for (const item of items) {
    const put = item?.Put;
    if (put?.TableName !== config.tables.events || !String(put.Item?.pk).startsWith(MARKER_PREFIX)) continue;
    markedPeriods.add(`${put.Item?.period_start}#${put.Item?.account_id}`);
  }
}

/**
 * The named transaction items that write `e` into each of its accounts' trails (and bump their alert
 * counters). Repositories add them to the change's transaction.
 */
export function eventItems(e: AuditEvent): TxItems {
  const items: TxItems = {};
  for (const account of e.accounts) {
    items[`audit event ${account}`] = {
      Put: { TableName: config.tables.events, Item: storedItem(e, account), ConditionExpression: "attribute_not_exists(pk)" },
    };
    items[`audit period ${account}`] = activityItem(e, account);
    if (isCounted(e.type)) {
      items[`audit counter ${account}`] = {
        Update: {
          TableName: config.tables.events,
          Key: eventKeys.counter(account, e.createdAt.slice(0, 16)),
          UpdateExpression: "ADD #t :one SET #ttl = if_not_exists(#ttl, :ttl)",
          ExpressionAttributeNames: { "#t": e.type, "#ttl": "ttl" },
          ExpressionAttributeValues: { ":one": 1, ":ttl": Math.floor(Date.parse(e.createdAt) / 1000) + COUNTER_TTL_SECONDS },
        },
      };
    }
  }
  return items;
}

/**
 * Records an event on its own: a refused request's (403/404/429, a failed token), or a read that is
 * recorded (an export). Concurrent requests bumping one alert counter conflict, and retry.
 */
export async function recordEvent(e: AuditEvent): Promise<void> {
  await withRetries("Request could not be recorded, please retry", async () => {
    const result = await commitWithEvent(e);
    if (result.kind === "ok") return;
    if (result.kind === "conflict") return RETRY;
    throw new Error(`recording event ${e.id} failed its condition on ${result.item}`);
  });
}

/**
 * Writes the named items of `change` and the event `e` in one transaction, so that a change and its event
 * commit together; once committed, counts the event (`SecurityEventRecorded`, by type, one per trail).
 */
export async function commitWithEvent(e: AuditEvent, ...change: TxItems[]): Promise<TxResult> {
  return commitWithEvents([e], ...change);
}

/** Whether `change` and the items of `events` fit one transaction (DynamoDB takes at most `MAX_TX_ITEMS`). */
export const fitsWithEvents = (events: readonly AuditEvent[], ...change: TxItems[]): boolean =>
  itemCount(...events.map(eventItems), ...change) <= MAX_TX_ITEMS;

/**
 * `commitWithEvent` for a change that is several events (a removal and the revocations it carries): each
 * event's items under names of their own, all in the one transaction.
 */
export async function commitWithEvents(events: readonly AuditEvent[], ...change: TxItems[]): Promise<TxResult> {
  // One activity marker per account and period, however many of the events it marks: DynamoDB refuses a
  // transaction that names one item twice (two events of one account, in a process that has not marked it yet).
  const marked = new Set<string>();
  const named = events.map((e, i) => {
    const items = eventItems(e);
    for (const account of e.accounts) {
      const marker = items[`audit period ${account}`];
      const key = marker && "Put" in marker ? `${marker.Put?.Item?.pk}#${marker.Put?.Item?.sk}` : undefined;
      if (key === undefined) continue;
      if (marked.has(key)) delete items[`audit period ${account}`];
      marked.add(key);
    }
    return i === 0 ? items : Object.fromEntries(Object.entries(items).map(([name, item]) => [`${name} ${e.id}`, item]));
  });
  const result = await transact(...change, ...named);
  if (result.kind !== "ok") return result;
  noteCommitted(named.flatMap((items) => Object.values(items)));
  for (const e of events) countRecorded(e);
  return result;
}

function countRecorded(e: AuditEvent): void {
  for (const _account of e.accounts) {
    const single = metrics.singleMetric();
    single.addDimension("event_type", e.type);
    single.addMetric(METRIC.securityEventRecorded, MetricUnit.Count, 1);
  }
}
