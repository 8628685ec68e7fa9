/**
 * Data access for memberships: the only module that writes access records and member e-mail markers
 * (test/unit/structure.test.ts checks it). A membership is three things kept in step, always in one transaction
 * with the institution item's version as its guard (`institutions/version.ts`):
 * - the access record `USER#<user>` / `INST#<inst>` (role, who the member is, the institution's summary; listed
 *   through the `by_institution_member` index, by e-mail);
 * - its seat: the entry in the institution item's `members` map (what visibility, role checks and the
 *   95-administrator limit read);
 * - the member e-mail marker `INST#<inst>` / `EMAIL#<email>#MEMBER` (what the invitation checks read).
 * The access record also counts the invitations its member sent (`invitations_sent`): a removal holds only at the
 * count it read, so an invitation sent meanwhile makes it read again ("removal is final", docs/security.md). Each
 * invitation is also recorded in its sender's partition, `USER#<user>` / `SENT#<inst>#<invitation>`
 * (`sentRecordItems`), where the removal reads them with a strongly consistent Query.
 */
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import { type Institution, toSummary } from "../institutions/model.js";
import type { Role } from "../roles.js";
import { keys, memberIndex, withoutKey } from "../tables.js";
import type { TxItem, TxItems } from "../tx.js";
import type { AccessRecord, Member } from "./model.js";

const T = () => config.tables.main;

/** The record without its keys and index attributes. */
export function stripAccess(item: Record<string, unknown>): AccessRecord {
  const { g_member_inst: _inst, g_member_order: _order, ...rest } = withoutKey<Record<string, unknown>>(item);
  return rest as unknown as AccessRecord;
}

/** One access record (strongly consistent). One GetItem. */
export async function getAccess(userId: string, institutionId: string): Promise<AccessRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.access(userId, institutionId), ConsistentRead: true }));
  return out.Item && stripAccess(out.Item);
}

/** Every access record of a user, with the institution summaries. One Query (continued past a 1 MB page). */
export async function listAccess(userId: string): Promise<AccessRecord[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.accessPartition(userId), ":prefix": keys.accessPrefix },
  });
  return items.map((item) => withoutKey<AccessRecord>(item));
}

/** What an access record says of its origin besides the member: the directory that manages it. */
export type Origin = Pick<AccessRecord, "managed_by" | "scim_connection">;

/** A new access record: `member` in `i`, with its institution's summary and its place in the administrators index. */
export function putAccess(i: Institution, member: Member, origin: Origin = {}): TxItem {
  const record: AccessRecord = { ...member, ...origin, account_id: i.account_id, institution_id: i.id, institution: toSummary(i) };
  const index = memberIndex.attributes(i.id, member.email, member.user_id);
  return { Put: { TableName: T(), Item: { ...keys.access(member.user_id, i.id), ...index, ...record } } };
}

/**
 * A new role on an existing access record; `set` and `remove` change its origin with it (a directory taking the
 * access over, an invitation taking it back).
 */
export function updateAccess(
  institutionId: string,
  userId: string,
  role: Role,
  origin: { set?: Record<string, string>; remove?: readonly string[] } = {},
): TxItem {
  const set = { role, ...origin.set };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = Object.entries(set).map(([name, value], n) => {
    names[`#a${n}`] = name;
    values[`:a${n}`] = value;
    return `#a${n} = :a${n}`;
  });
  const removed = (origin.remove ?? []).map((name, n) => {
    names[`#r${n}`] = name;
    return `#r${n}`;
  });
  return {
    Update: {
      TableName: T(),
      Key: keys.access(userId, institutionId),
      UpdateExpression: `SET ${clauses.join(", ")}${removed.length ? ` REMOVE ${removed.join(", ")}` : ""}`,
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Deletes `target`'s access record, only at the count of invitations it had sent when read: an invitation sent
 * since is not among those its removal revokes, so the removal fails and reads again.
 *
 * Why the count stays now that the sent records are read strongly consistently: that read is complete only for the
 * invitations committed before it, and one can commit between it and the removal's commit. Nothing else in the
 * removal's transaction sees such an invitation: DynamoDB has no condition on "no new item in a partition", and the
 * invitation's own check on the sender's seat passes as long as it commits first. The count, moved in the
 * invitation's transaction and read here before the sent records, is the cheapest guard that does: one number on
 * an item the removal deletes anyway. Versioning the institution instead would serialise every invitation with
 * every other change to it.
 */
export function deleteAccess(institutionId: string, target: Pick<AccessRecord, "user_id" | "invitations_sent">): TxItem {
  const sent = target.invitations_sent;
  return {
    Delete: {
      TableName: T(),
      Key: keys.access(target.user_id, institutionId),
      ConditionExpression: sent === undefined ? "attribute_exists(pk) AND attribute_not_exists(#sent)" : "#sent = :sent",
      ExpressionAttributeNames: { "#sent": "invitations_sent" },
      ...(sent !== undefined && { ExpressionAttributeValues: { ":sent": sent } }),
    },
  };
}

/** The item that marks `email` as a member's of `institutionId` (for the invitation checks); none without an e-mail. */
export function putMarker(institutionId: string, userId: string, email: string): TxItem | undefined {
  return email ? { Put: { TableName: T(), Item: { ...keys.memberEmail(institutionId, email), user_id: userId } } } : undefined;
}

/** Deletes the marker of `email` in `institutionId`; none without an e-mail. */
export function deleteMarker(institutionId: string, email: string | undefined): TxItem | undefined {
  return email ? { Delete: { TableName: T(), Key: keys.memberEmail(institutionId, email) } } : undefined;
}

/** The creator's membership of a new institution (its super admin): access record and e-mail marker. */
export function creatorItems(i: Institution, creator: Member): TxItems {
  return { access: putAccess(i, creator), marker: putMarker(i.id, creator.user_id, creator.email) };
}

/** One named item per member of `i`, so that a transaction's items stay named. */
const perMember = (i: Institution, item: (userId: string) => TxItem): TxItems =>
  Object.fromEntries(Object.keys(i.members).map((userId) => [`access ${userId}`, item(userId)]));

/** Items that refresh the institution's summary on every member's access record (`after` is the institution as it will be). */
export function summaryRefreshItems(before: Institution, after: Institution): TxItems {
  return perMember(before, (userId) => ({
    Update: {
      TableName: T(),
      Key: keys.access(userId, before.id),
      UpdateExpression: "SET #inst = :summary",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#inst": "institution" },
      ExpressionAttributeValues: { ":summary": toSummary(after) },
    },
  }));
}

/** Items that delete every member's access record, with the institution they grant access to. */
export const dissolveItems = (i: Institution): TxItems =>
  perMember(i, (userId) => ({ Delete: { TableName: T(), Key: keys.access(userId, i.id) } }));

/** What the sender's record of an invitation needs: which invitation, and until when it may be active. */
type SentInvitation = { readonly id: string; readonly institution_id: string; readonly expires_at: string };

/**
 * The sender's record of an invitation it sent (`keys.sentInvitation`): put with the invitation, and put again by
 * each resend with the new expiry, so that it outlives the invitation (its TTL is the expiry; DynamoDB deletes it
 * some time after). A removal reads these with one strongly consistent Query. Named `sentRecord`.
 */
export function sentRecordItems(senderId: string, inv: SentInvitation): TxItems {
  return { sentRecord: { Put: { TableName: T(), Item: sentRecord(senderId, inv) } } };
}

/** The sender's record of `inv` as stored: which invitation, until when, and its TTL (epoch seconds) at that expiry. */
function sentRecord(senderId: string, inv: SentInvitation): Record<string, unknown> {
  const key = keys.sentInvitation(senderId, inv.institution_id, inv.id);
  return { ...key, invitation_id: inv.id, expires_at: inv.expires_at, ttl: Math.ceil(Date.parse(inv.expires_at) / 1000) };
}

/**
 * The sender's record of an invitation sent before the records were kept (the upgrade's backfill,
 * shared/invitations/backfill.ts), put only where there is none: one written since (by a resend) holds the newer
 * expiry and stays as it is. Not audited: the record is the removal's index of what the person sent, not a change
 * of theirs (the invitation's own event was recorded when it was sent). One conditional PutItem; false when a
 * record was there.
 */
export async function putMissingSentRecord(senderId: string, inv: SentInvitation): Promise<boolean> {
  try {
    await db.send(new PutCommand({ TableName: T(), Item: sentRecord(senderId, inv), ConditionExpression: "attribute_not_exists(pk)" }));
    return true;
  } catch (err) {
    if ((err as Error).name === "ConditionalCheckFailedException") return false;
    throw err;
  }
}

/**
 * The sender's side of a new invitation: its record in the sender's partition (`sentRecordItems`), the count on
 * the sender's access record, which must exist (a removal that read another count is refused and reads the sender's
 * invitations again, so none escapes it), and the sender's own e-mail recorded as a member's. Named `sentRecord`,
 * `senderCount` and `inviterEmail`.
 */
export function sentInvitationItems(inv: SentInvitation, inviter: { id: string; email: string }, invitee: string): TxItems {
  return {
    ...sentRecordItems(inviter.id, inv),
    senderCount: {
      Update: {
        TableName: T(),
        Key: keys.access(inviter.id, inv.institution_id),
        UpdateExpression: "ADD #sent :one",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#sent": "invitations_sent" },
        ExpressionAttributeValues: { ":one": 1 },
      },
    },
    inviterEmail: inviter.email && inviter.email !== invitee ? putMarker(inv.institution_id, inviter.id, inviter.email) : undefined,
  };
}
