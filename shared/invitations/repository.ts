/**
 * Data access for invitations. Items in the main table (keys from `shared/tables.ts`):
 * - invitation     `INST#<inst>` / `INV#<id>`                 the record (`Invitation`), kept after use or revoke
 * - token          `TOKEN#<sha256 hex>` / `TOKEN`             → invitation id + institution id (`TokenRef`)
 * - pending slot   `INST#<inst>` / `EMAIL#<email>#SLOT#<n>`   n < limit; `{invitation_id, expires_at}` of its holder
 * - member e-mail  `INST#<inst>` / `EMAIL#<email>#MEMBER`     that e-mail has access (`{user_id}`)
 *
 * A slot is free when it does not exist or its holder has expired; use, revoke and a failed mail delete it
 * (only if it is still theirs). Every write is one transaction with its audit items; conditional failures
 * come back as results, never as exceptions.
 */
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import type { Institution } from "../institutions/model.js";
import { grantAccessItems } from "../institutions/repository.js";
import type { Role } from "../roles.js";
import { keys } from "../tables.js";
import { isoTime } from "../time.js";
import { returnOldOnFailure, type TxItem, transact } from "../tx.js";
import type { Invitation, Slot, TokenRef } from "./model.js";

const T = () => config.tables.main;

function strip<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}

/** Condition: the invitation exists and is active at `:now`. */
const ACTIVE = "attribute_exists(pk) AND attribute_not_exists(used_at) AND attribute_not_exists(revoked_at) AND expires_at > :now";

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

function slotItem(inv: Invitation): Record<string, unknown> {
  return {
    ...keys.invitationSlot(inv.institution_id, inv.email, inv.slot),
    invitation_id: inv.id,
    expires_at: inv.expires_at,
  };
}

/** The invitation, if it exists in that institution. One strongly consistent GetItem. */
export async function getInvitation(institutionId: string, id: string): Promise<Invitation | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.invitation(institutionId, id), ConsistentRead: true }));
  return strip<Invitation>(out.Item);
}

/** Where a token hash points. One GetItem. */
export async function getTokenRef(hash: string): Promise<TokenRef | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.token(hash), ConsistentRead: true }));
  return strip<TokenRef>(out.Item);
}

/** Every invitation of the institution. One Query (continued only past DynamoDB's 1 MB page). */
export async function listInvitations(institutionId: string): Promise<Invitation[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk, ":prefix": keys.invitationPrefix },
  });
  return items.map((i) => strip<Invitation>(i) as Invitation);
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

export type InsertResult = "ok" | "slot_taken" | "has_access" | "institution_changed" | "conflict";

/**
 * Creates the invitation with its token item, claims its slot (free, or held by an expired invitation)
 * and writes the event: one transaction. It also checks that the e-mail has not gained access and that
 * the inviter still manages the institution, and records the inviter's own e-mail as a member's.
 */
export async function insertInvitation(
  inv: Invitation,
  inviter: { id: string; email: string },
  audit: TxItem[],
  now: Date,
): Promise<InsertResult> {
  const items: TxItem[] = [
    {
      Put: {
        TableName: T(),
        Item: slotItem(inv),
        ConditionExpression: "attribute_not_exists(pk) OR expires_at <= :now",
        ExpressionAttributeValues: { ":now": isoTime(now) },
      },
    },
    {
      Put: {
        TableName: T(),
        // Object.assign, not `{ ...key, ...inv }`: two spreads of this size take V8 a slow path (~10 µs).
        Item: Object.assign(keys.invitation(inv.institution_id, inv.id), inv),
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    {
      Put: {
        TableName: T(),
        Item: { ...keys.token(inv.token_hash), invitation_id: inv.id, institution_id: inv.institution_id },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    {
      ConditionCheck: {
        TableName: T(),
        Key: keys.memberEmail(inv.institution_id, inv.email),
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    {
      ConditionCheck: {
        TableName: T(),
        Key: keys.institution(inv.institution_id),
        ConditionExpression: "#members.#user = :role",
        ExpressionAttributeNames: { "#members": "members", "#user": inviter.id },
        ExpressionAttributeValues: { ":role": "cohort_super_admin" satisfies Role },
      },
    },
    ...(inviter.email && inviter.email !== inv.email
      ? [
          {
            Put: {
              TableName: T(),
              Item: { ...keys.memberEmail(inv.institution_id, inviter.email), user_id: inviter.id },
            },
          },
        ]
      : []),
    ...audit,
  ];
  const result = await transact(items);
  if (result.ok) return "ok";
  if (result.failed[0]) return "slot_taken";
  if (result.failed[3]) return "has_access";
  if (result.failed[4]) return "institution_changed";
  return "conflict";
}

/** A write on one invitation: done, refused because it is no longer in the required state (as it is now), or to retry. */
export type Outcome = { kind: "ok" } | { kind: "refused"; current: Invitation | undefined } | { kind: "retry" };

function outcome(result: Awaited<ReturnType<typeof transact>>): Outcome {
  if (result.ok) return { kind: "ok" };
  if (result.failed[0]) return { kind: "refused", current: strip<Invitation>(result.old[0]) };
  return { kind: "retry" };
}

/**
 * Marks an active invitation revoked and frees its slot; the record stays. With `expectTokenHash` it only
 * revokes while that token is current, and deletes the token item (used to undo an invitation whose mail
 * failed: that token never reached anyone).
 */
export async function revokeInvitation(
  inv: Invitation,
  change: { revokedAt: string; revokedBy: string; reason?: string; expectTokenHash?: string },
  audit: TxItem[],
  now: Date,
): Promise<Outcome> {
  const byToken = change.expectTokenHash !== undefined;
  const result = await transact([
    {
      Update: {
        TableName: T(),
        Key: keys.invitation(inv.institution_id, inv.id),
        UpdateExpression: `SET revoked_at = :at, revoked_by = :by${change.reason ? ", revoke_reason = :reason" : ""}`,
        ConditionExpression: byToken ? `${ACTIVE} AND token_hash = :hash` : ACTIVE,
        ExpressionAttributeValues: {
          ":at": change.revokedAt,
          ":by": change.revokedBy,
          ":now": isoTime(now),
          ...(change.reason && { ":reason": change.reason }),
          ...(byToken && { ":hash": change.expectTokenHash }),
        },
        ...returnOldOnFailure,
      },
    },
    releaseSlot(inv),
    ...(byToken ? [{ Delete: { TableName: T(), Key: keys.token(change.expectTokenHash as string) } }] : []),
    ...audit,
  ]);
  return outcome(result);
}

/**
 * Uses an invitation: marks it used by `userId` (only while active and `tokenHash` is its current token, so
 * a token is accepted at most once), frees its slot, records the e-mail as a member's and, when `grant` is
 * given, gives the user that role (guarded by the institution's version). One transaction.
 */
export async function useInvitation(
  inv: Invitation,
  use: { tokenHash: string; userId: string; usedAt: string; institution: Institution; grant: Role | undefined },
  audit: TxItem[],
  now: Date,
): Promise<Outcome> {
  const keepAccess: TxItem = {
    ConditionCheck: {
      TableName: T(),
      Key: keys.institution(inv.institution_id),
      ConditionExpression: "attribute_exists(#members.#user)",
      ExpressionAttributeNames: { "#members": "members", "#user": use.userId },
    },
  };
  const result = await transact([
    {
      Update: {
        TableName: T(),
        Key: keys.invitation(inv.institution_id, inv.id),
        UpdateExpression: "SET used_at = :at, used_by = :by",
        ConditionExpression: `${ACTIVE} AND token_hash = :hash`,
        ExpressionAttributeValues: { ":at": use.usedAt, ":by": use.userId, ":now": isoTime(now), ":hash": use.tokenHash },
        ...returnOldOnFailure,
      },
    },
    releaseSlot(inv),
    {
      Put: {
        TableName: T(),
        Item: { ...keys.memberEmail(inv.institution_id, inv.email), user_id: use.userId },
      },
    },
    ...(use.grant ? grantAccessItems(use.institution, use.userId, use.grant) : [keepAccess]),
    ...audit,
  ]);
  return outcome(result);
}

/**
 * Gives an active invitation a new token: the old token item goes, the new one comes, `sent_at` and
 * `expires_at` restart (on the slot too). Only while `inv.token_hash` is still current. One transaction.
 */
export async function reissueToken(
  inv: Invitation,
  next: Pick<Invitation, "token_hash" | "token_preview" | "sent_at" | "expires_at">,
  audit: TxItem[],
  now: Date,
): Promise<Outcome> {
  const after: Invitation = Object.assign({}, inv, next);
  const result = await transact([
    {
      Update: {
        TableName: T(),
        Key: keys.invitation(inv.institution_id, inv.id),
        UpdateExpression: "SET token_hash = :new, token_preview = :preview, sent_at = :sent, expires_at = :expires",
        ConditionExpression: `${ACTIVE} AND token_hash = :old`,
        ExpressionAttributeValues: {
          ":new": next.token_hash,
          ":preview": next.token_preview,
          ":sent": next.sent_at,
          ":expires": next.expires_at,
          ":old": inv.token_hash,
          ":now": isoTime(now),
        },
        ...returnOldOnFailure,
      },
    },
    { Delete: { TableName: T(), Key: keys.token(inv.token_hash) } },
    {
      Put: {
        TableName: T(),
        Item: { ...keys.token(next.token_hash), invitation_id: inv.id, institution_id: inv.institution_id },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    {
      Put: {
        TableName: T(),
        Item: slotItem(after),
        ConditionExpression: "attribute_not_exists(pk) OR invitation_id = :id",
        ExpressionAttributeValues: { ":id": inv.id },
      },
    },
    ...audit,
  ]);
  return outcome(result);
}
