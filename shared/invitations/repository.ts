/**
 * Data access for invitations. Items in the main table (keys from `shared/tables.ts`):
 * - invitation     `INST#<inst>` / `INV#<id>`                    the record (`Invitation`), kept after use or revoke
 * - token          `TOKEN#<sha256 hex>` / `TOKEN`                → invitation id + institution id (`TokenRef`)
 * - pending slot   `INST#<inst>` / `EMAIL#<email>#SLOT#<n>`      n < limit; `{invitation_id, expires_at}` of its holder
 * - member e-mail  `INST#<inst>` / `EMAIL#<email>#MEMBER`        that e-mail has access (`{user_id}`)
 * - mail counters  `INST#<inst>` / `MAILS#HOUR#<hour>` and `EMAIL#<email>#DAY#<day>`: mails sent in that UTC hour / day
 * - service-wide mail counters `MAILBOX#<mailbox>` / `DAY#<day>` (the ceiling), `ACCOUNT#<account>` /
 *   `MAILBOX#<mailbox>#DAY#<day>` (one account's share of a mailbox) and `ACCOUNT#<account>` / `MAILS#HOUR#<hour>`
 * - sender's record `USER#<sender>` / `SENT#<inst>#<id>` → `{invitation_id, expires_at}`: written by the membership
 *   door with the invitation and its resends, read here for a removal (`activeInvitationsSentBy`)
 *
 * A slot is free when it does not exist or its holder has expired; use, revoke and a failed mail delete it
 * (only if it is still theirs). An invitation is in the `by_invitation_state` index under its institution and
 * state (active or used; a revoked one leaves it), sorted by expiry, so that a page of the list reads only
 * that page. Every write is one transaction with its audit event; a failed condition comes back as a
 * result, by the name of the item that failed.
 */
import { GetCommand, paginateScan, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { keyStillLive } from "../api-keys/repository.js";
import { type AuditEvent, commitWithEvent, commitWithEvents } from "../audit.js";
import { boundedCount, dayOf, hourOf, mailboxOf, nextDay, nextHour } from "../bounds.js";
import { batchGetAll, db, queryAll } from "../clients.js";
import { config } from "../config.js";
import type { Role } from "../roles.js";
import { invitationSenderIndex, invitationStateIndex, keys, withoutKey } from "../tables.js";
import { returnOldOnFailure, type TxItem, type TxItems, type TxResult, type Written } from "../tx.js";
import { type Invitation, type Slot, statusOf, type TokenRef } from "./model.js";

const T = () => config.tables.main;

/** Condition: the invitation exists and is active at `:now`. */
const ACTIVE = "attribute_exists(pk) AND attribute_not_exists(used_at) AND attribute_not_exists(revoked_at) AND expires_at > :now";

/** A revoked invitation leaves both indexes of active invitations (the state index and the sender index). */
const LEAVE_INDEXES = `${invitationStateIndex.partitionKey}, ${invitationSenderIndex.partitionKey}`;

/** The invitation as stored: its key, its index attributes, its record. */
function invitationItem(inv: Invitation, state: "active" | "used"): Record<string, unknown> {
  return {
    ...keys.invitation(inv.institution_id, inv.id),
    ...invitationStateIndex.attributes(inv.institution_id, state, inv.expires_at, inv.id),
    ...(state === "active" && {
      [invitationSenderIndex.partitionKey]: invitationSenderIndex.partition(inv.institution_id, inv.created_by_id),
    }),
    ...inv,
  };
}

/** Frees the slot only if it is still held by this invitation (an expired holder's slot may have been claimed since). */
function releaseSlot(inv: Invitation): TxItem {
  return {
    Delete: {
      TableName: T(),
      Key: keys.invitationSlot(inv.institution_id, inv.email, inv.slot),
      ConditionExpression: "attribute_not_exists(pk) OR invitation_id = :id",
      ExpressionAttributeValues: { ":id": inv.id },
    },
  };
}

function putSlot(inv: Invitation, condition: string, values: Record<string, unknown>): TxItem {
  return {
    Put: {
      TableName: T(),
      Item: { ...keys.invitationSlot(inv.institution_id, inv.email, inv.slot), invitation_id: inv.id, expires_at: inv.expires_at },
      ConditionExpression: condition,
      ExpressionAttributeValues: values,
    },
  };
}

function putToken(inv: Pick<Invitation, "id" | "institution_id">, tokenHash: string): TxItem {
  return {
    Put: {
      TableName: T(),
      Item: { ...keys.token(tokenHash), invitation_id: inv.id, institution_id: inv.institution_id },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
}

/**
 * The mail bounds of one mail to `inv.email` at `now` (docs/contract/invitations.md, docs/contract/limits.md#bounds), each a conditional counter, by
 * the name `MAIL_BOUNDS` gives it. `account` owns the institution: the mailbox bound is that account's share
 * of the mailbox, under a service-wide ceiling, so one tenant cannot spend another's mail to a person. Per
 * institution first: when two bounds are reached at once, the narrower one is the one reported.
 */
function mailCounters(inv: Pick<Invitation, "institution_id" | "email">, account: string, now: Date): TxItems {
  const count = (key: { pk: string; sk: string }, limit: number, periodEnd: Date) => boundedCount(T(), key, "mails", limit, periodEnd);
  return {
    institutionHourly: count(keys.hourlyMails(inv.institution_id, hourOf(now)), config.institutionHourlyMailLimit, nextHour(now)),
    recipientDaily: count(keys.dailyMails(inv.institution_id, inv.email, dayOf(now)), config.recipientDailyMailLimit, nextDay(now)),
    mailboxDaily: count(
      keys.accountMailboxDailyMails(account, mailboxOf(inv.email), dayOf(now)),
      config.mailboxDailyMailLimit,
      nextDay(now),
    ),
    mailboxCeiling: count(keys.mailboxDailyMails(mailboxOf(inv.email), dayOf(now)), config.mailboxDailyCeiling, nextDay(now)),
    accountHourly: count(keys.accountHourlyMails(account, hourOf(now)), config.accountHourlyMailLimit, nextHour(now)),
  };
}

/** Each mail bound: the transaction item that counts it, its limit, and when it lets mail through again. */
export const MAIL_BOUNDS = {
  institution_hourly: { item: "institutionHourly", limit: () => config.institutionHourlyMailLimit, reopens: nextHour },
  recipient_daily: { item: "recipientDaily", limit: () => config.recipientDailyMailLimit, reopens: nextDay },
  mailbox_daily: { item: "mailboxDaily", limit: () => config.mailboxDailyMailLimit, reopens: nextDay },
  mailbox_daily_ceiling: { item: "mailboxCeiling", limit: () => config.mailboxDailyCeiling, reopens: nextDay },
  account_hourly: { item: "accountHourly", limit: () => config.accountHourlyMailLimit, reopens: nextHour },
} as const;

/** The invitation, if it exists in that institution. One strongly consistent GetItem. */
export async function getInvitation(institutionId: string, id: string): Promise<Invitation | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.invitation(institutionId, id), ConsistentRead: true }));
  return out.Item && stripInvitation(out.Item);
}

/** The record without its keys and index attributes. */
function stripInvitation(item: Record<string, unknown>): Invitation {
  const { g_inv_state: _state, g_inv_order: _order, g_inv_sender: _sender, ...rest } = withoutKey<Record<string, unknown>>(item);
  return rest as unknown as Invitation;
}

/** Where a token hash points. One GetItem. */
export async function getTokenRef(hash: string): Promise<TokenRef | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.token(hash), ConsistentRead: true }));
  return out.Item && withoutKey<TokenRef>(out.Item);
}

/**
 * One page of an institution's active (unexpired) or used invitations, newest first, after the position
 * `after` when given. One Query of the state index, reading at most `limit` invitations.
 */
export async function queryInvitationPage(
  institutionId: string,
  state: "active" | "used",
  limit: number,
  now: Date,
  after?: string,
): Promise<{ invitations: Invitation[]; more: boolean }> {
  const index = invitationStateIndex;
  const partition = index.partition(institutionId, state);
  // Expired invitations stay in the active partition: the key condition leaves them unread.
  const unexpired = state === "active";
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      IndexName: index.name,
      KeyConditionExpression: unexpired ? "#p = :p AND #o > :now" : "#p = :p",
      ExpressionAttributeNames: { "#p": index.partitionKey, ...(unexpired && { "#o": index.sortKey }) },
      ExpressionAttributeValues: { ":p": partition, ...(unexpired && { ":now": now.toISOString() }) },
      ScanIndexForward: false,
      Limit: limit,
      ...(after !== undefined && {
        ExclusiveStartKey: {
          ...keys.invitation(institutionId, index.idOf(after)),
          [index.partitionKey]: partition,
          [index.sortKey]: after,
        },
      }),
    }),
  );
  return { invitations: (out.Items ?? []).map(stripInvitation), more: out.LastEvaluatedKey !== undefined };
}

export interface EmailState {
  /** The e-mail already has access to the institution. */
  member: boolean;
  /** Stored slots (held or stale), by number. */
  slots: Slot[];
}

/** The e-mail's member marker and pending slots in the institution. One strongly consistent Query. */
export async function readEmailState(institutionId: string, email: string): Promise<EmailState> {
  const prefix = keys.emailPrefix(email);
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk, ":prefix": prefix },
      ConsistentRead: true,
    }),
  );
  const state: EmailState = { member: false, slots: [] };
  for (const item of out.Items ?? []) {
    const rest = String(item.sk).slice(prefix.length);
    if (rest === "MEMBER") state.member = true;
    const slot = /^SLOT#(\d+)$/.exec(rest);
    if (slot) state.slots.push({ n: Number(slot[1]), invitation_id: String(item.invitation_id), expires_at: String(item.expires_at) });
  }
  return state;
}

/** Why a mail-sending write was refused by a mail bound. */
export type MailBound = keyof typeof MAIL_BOUNDS;

const mailBoundOf = (failed: string | undefined): MailBound | undefined =>
  (Object.keys(MAIL_BOUNDS) as MailBound[]).find((bound) => MAIL_BOUNDS[bound].item === failed);

/** A mail bound refused the write. */
export type BoundReached = { readonly kind: "bound"; readonly bound: MailBound };

/**
 * Why a new invitation was not written: its slot was claimed first (`slot_taken`), the e-mail has gained
 * access (`has_access`), the inviter no longer manages the institution (`institution_changed`), or a mail bound.
 */
export type InsertRefusal =
  | { readonly kind: "slot_taken" }
  | { readonly kind: "has_access" }
  | { readonly kind: "institution_changed" }
  | BoundReached;

/**
 * Creates the invitation with its token item, claims its slot (free, or held by an expired invitation),
 * counts its mail against the mail bounds and writes the event: one transaction. It also checks that the
 * e-mail has not gained access and that the inviter still manages the institution; `sender` is the sender's
 * side, from the membership door (`sentInvitationItems`: its record of the invitation, which a removal reads, the
 * count on its access record that makes a racing removal read again, named `senderCount`, and its own e-mail as a
 * member's). `account` owns the institution
 * (its mails are counted together). An API key's invitation (`apiKey`, docs/api-keys.md) has no sender side: the
 * key's item must still be there instead (a revoked key sends nothing).
 */
export async function insertInvitation(
  inv: Invitation,
  inviter: { id: string; sender: TxItems; apiKey?: string },
  event: AuditEvent,
  now: Date,
  account: string,
): Promise<Written<InsertRefusal>> {
  const result = await commitWithEvent(event, {
    slot: putSlot(inv, "attribute_not_exists(pk) OR expires_at <= :now", { ":now": now.toISOString() }),
    invitation: { Put: { TableName: T(), Item: invitationItem(inv, "active"), ConditionExpression: "attribute_not_exists(pk)" } },
    token: putToken(inv, inv.token_hash),
    notMember: {
      ConditionCheck: {
        TableName: T(),
        Key: keys.memberEmail(inv.institution_id, inv.email),
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    // An API key (docs/api-keys.md) sends as long as it is not revoked; it holds no seat.
    stillManaging: inviter.apiKey
      ? keyStillLive(inv.institution_id, inviter.apiKey)
      : {
          ConditionCheck: {
            TableName: T(),
            Key: keys.institution(inv.institution_id),
            ConditionExpression: "#members.#user = :role",
            ExpressionAttributeNames: { "#members": "members", "#user": inviter.id },
            ExpressionAttributeValues: { ":role": "cohort_super_admin" satisfies Role },
          },
        },
    ...inviter.sender,
    ...mailCounters(inv, account, now),
  });
  if (result.kind !== "failed") return result.kind === "ok" ? result : { kind: "retry" };
  const bound = mailBoundOf(result.item);
  if (bound) return { kind: "bound", bound };
  if (result.item === "slot") return { kind: "slot_taken" };
  if (result.item === "notMember") return { kind: "has_access" };
  if (result.item === "stillManaging" || result.item === "senderCount") return { kind: "institution_changed" };
  return { kind: "retry" };
}

/** A write on one invitation refused because it is no longer in the required state (`current`: as it is now). */
export type Refused = { readonly kind: "refused"; readonly current: Invitation | undefined };

/** A write on one invitation: done, refused, past a mail bound, or to retry. */
export type Outcome = Written<Refused | BoundReached>;

function outcome(result: TxResult): Outcome {
  if (result.kind === "ok") return result;
  if (result.kind === "conflict") return { kind: "retry" };
  if (result.item === "invitation") return { kind: "refused", current: result.old && stripInvitation(result.old) };
  const bound = mailBoundOf(result.item);
  return bound ? { kind: "bound", bound } : { kind: "retry" };
}

/**
 * Items that revoke an active invitation (`reason` saying why, when it was not a user's revoke) and free its
 * slot, named after it, so that one transaction can revoke several. The record stays, out of the state index.
 */
export function revocationItems(inv: Invitation, change: { revokedBy: string; reason: string; at: string }): TxItems {
  return {
    [`invitation ${inv.id}`]: {
      Update: {
        TableName: T(),
        Key: keys.invitation(inv.institution_id, inv.id),
        UpdateExpression: `SET revoked_at = :at, revoked_by = :by, revoke_reason = :reason REMOVE ${LEAVE_INDEXES}`,
        ConditionExpression: ACTIVE,
        ExpressionAttributeValues: { ":at": change.at, ":by": change.revokedBy, ":now": change.at, ":reason": change.reason },
      },
    },
    [`slot ${inv.id}`]: releaseSlot(inv),
  };
}

/**
 * The active (unexpired, unused, unrevoked) invitations of an institution that `userId` sent, as they are now:
 * one strongly consistent Query of the sender's records of them (`keys.sentInvitation`, every page), then one
 * strongly consistent BatchGetItem of those not expired by their record (per 100). Complete for every invitation
 * committed before the Query: each is recorded in its own transaction, and each resend moves its record's expiry
 * with it. Not the `by_invitation_sender` index: a GSI is eventually consistent, so an invitation created a
 * moment before could be missing from it (test/integration/administrators-index-lag.test.ts).
 */
export async function activeInvitationsSentBy(institutionId: string, userId: string, now: Date): Promise<Invitation[]> {
  const at = now.toISOString();
  const sent = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.accessPartition(userId), ":prefix": keys.sentInvitationPrefix(institutionId) },
    ConsistentRead: true,
  });
  // A record outlives its invitation until DynamoDB's TTL deletes it: those expired by now are not read.
  const ids = sent.filter((r) => String(r.expires_at) > at).map((r) => String(r.invitation_id));
  const items =
    ids.length > 0
      ? await batchGetAll(
          T(),
          ids.map((id) => keys.invitation(institutionId, id)),
        )
      : [];
  return items
    .map(stripInvitation)
    .filter((inv) => statusOf(inv, now) === "active")
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Every invitation that was active when sent and is unexpired at `now` (unused and unrevoked, as far as the index
 * has caught up), a page at a time: a Scan of the sparse `by_invitation_sender` index, which holds just those
 * (used and revoked ones leave it; expired ones stay, and the filter leaves them out). For the upgrade's backfill of
 * the senders' records (shared/invitations/backfill.ts), never a request: no request may Scan.
 */
export async function* activeInvitationPages(now: Date): AsyncGenerator<Invitation[]> {
  const pages = paginateScan(
    { client: db },
    {
      TableName: T(),
      IndexName: invitationSenderIndex.name,
      FilterExpression: "expires_at > :now",
      ExpressionAttributeValues: { ":now": now.toISOString() },
      // Pages of 500 items, not 1 MB: each page stays well inside the client's 3 s request timeout (shared/clients.ts).
      Limit: 500,
    },
  );
  for await (const page of pages) yield (page.Items ?? []).map(stripInvitation);
}

/**
 * Marks an active invitation revoked and frees its slot; the record stays (out of the state index). With
 * `expectTokenHash` it only revokes while that token is current, and deletes the token item (used to undo
 * an invitation whose mail failed: that token never reached anyone).
 */
export async function markRevoked(
  inv: Invitation,
  change: { revokedBy: string; reason?: string; expectTokenHash?: string },
  event: AuditEvent,
): Promise<Outcome> {
  const byToken = change.expectTokenHash !== undefined;
  const result = await commitWithEvent(event, {
    invitation: {
      Update: {
        TableName: T(),
        Key: keys.invitation(inv.institution_id, inv.id),
        UpdateExpression: `SET revoked_at = :at, revoked_by = :by${change.reason ? ", revoke_reason = :reason" : ""} REMOVE ${LEAVE_INDEXES}`,
        ConditionExpression: byToken ? `${ACTIVE} AND token_hash = :hash` : ACTIVE,
        ExpressionAttributeValues: {
          ":at": event.createdAt,
          ":by": change.revokedBy,
          ":now": event.createdAt,
          ...(change.reason && { ":reason": change.reason }),
          ...(byToken && { ":hash": change.expectTokenHash }),
        },
        ...returnOldOnFailure,
      },
    },
    slot: releaseSlot(inv),
    token: change.expectTokenHash ? { Delete: { TableName: T(), Key: keys.token(change.expectTokenHash) } } : undefined,
  });
  return outcome(result);
}

/**
 * Uses an invitation: marks it used by `userId` (only while active and `tokenHash` is its current token, so
 * a token is accepted at most once) and frees its slot, with `membership`: what accepting it grants, from the
 * membership door (guarded by the institution's version, read with the inviter still a member; or, when it grants
 * nothing new, a check that the user and the inviter still hold their seats). One transaction.
 */
export async function consumeInvitation(
  inv: Invitation,
  use: { tokenHash: string; userId: string },
  membership: TxItems,
  events: readonly AuditEvent[],
): Promise<Outcome> {
  const event = events.at(-1);
  if (!event) throw new Error("an acceptance is recorded");
  const used: Invitation = { ...inv, used_at: event.createdAt, used_by: use.userId };
  const result = await commitWithEvents(events, {
    invitation: {
      Update: {
        TableName: T(),
        Key: keys.invitation(inv.institution_id, inv.id),
        UpdateExpression: `SET used_at = :at, used_by = :by, #state = :state REMOVE ${invitationSenderIndex.partitionKey}`,
        ConditionExpression: `${ACTIVE} AND token_hash = :hash`,
        ExpressionAttributeNames: { "#state": invitationStateIndex.partitionKey },
        ExpressionAttributeValues: {
          ":at": used.used_at,
          ":by": use.userId,
          ":now": event.createdAt,
          ":hash": use.tokenHash,
          ":state": invitationStateIndex.partition(inv.institution_id, "used"),
        },
        ...returnOldOnFailure,
      },
    },
    slot: releaseSlot(inv),
    ...membership,
  });
  return outcome(result);
}

/**
 * Gives an active invitation a new token: the old token item goes, the new one comes, `sent_at` and
 * `expires_at` restart (on the slot and in the state index too, and on the sender's record of it: `sender`, from
 * the membership door's `sentRecordItems`), and the mail is counted against the mail bounds. Only while
 * `inv.token_hash` is still current and its last mail went out before `cooldownEdge`. `account` owns the
 * institution. One transaction.
 */
export async function reissueToken(
  inv: Invitation,
  next: Pick<Invitation, "token_hash" | "token_preview" | "sent_at" | "expires_at">,
  sender: TxItems,
  event: AuditEvent,
  now: Date,
  cooldownEdge: Date,
  account: string,
): Promise<Outcome> {
  const after: Invitation = { ...inv, ...next };
  const result = await commitWithEvent(event, {
    invitation: {
      Update: {
        TableName: T(),
        Key: keys.invitation(inv.institution_id, inv.id),
        UpdateExpression: "SET token_hash = :new, token_preview = :preview, sent_at = :sent, expires_at = :expires, #order = :order",
        // The cooldown is part of the condition, so that racing resends send one mail.
        ConditionExpression: `${ACTIVE} AND token_hash = :old AND sent_at <= :edge`,
        ExpressionAttributeNames: { "#order": invitationStateIndex.sortKey },
        ExpressionAttributeValues: {
          ":new": next.token_hash,
          ":preview": next.token_preview,
          ":sent": next.sent_at,
          ":expires": next.expires_at,
          ":order": invitationStateIndex.order(next.expires_at, inv.id),
          ":old": inv.token_hash,
          ":now": now.toISOString(),
          ":edge": cooldownEdge.toISOString(),
        },
        ...returnOldOnFailure,
      },
    },
    oldToken: { Delete: { TableName: T(), Key: keys.token(inv.token_hash) } },
    newToken: putToken(inv, next.token_hash),
    slot: putSlot(after, "attribute_not_exists(pk) OR invitation_id = :id", { ":id": inv.id }),
    ...sender,
    ...mailCounters(inv, account, now),
  });
  return outcome(result);
}
