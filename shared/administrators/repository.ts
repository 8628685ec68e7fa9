/**
 * Data access for an institution's administrators. An administrator is three things kept in step, always
 * in one transaction with the institution item's version as its guard:
 * - the access record `USER#<user>` / `INST#<inst>` (role, who the member is; listed through the
 *   `by_institution_member` index, by e-mail);
 * - its seat: the entry in the institution item's `members` map (what visibility, role checks and the
 *   95-administrator limit read);
 * - the member e-mail marker `INST#<inst>` / `EMAIL#<email>#MEMBER` (what the invitation checks read).
 * Every change bumps the institution's `version` under the condition that it is the version read, so a
 * removal, a role change, a transfer and an accept racing one another serialise: the loser reads again.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvent, commitWithEvents, fitsWithEvents } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import type { Institution } from "../institutions/model.js";
import { type AccessRecord, institutionChange, stripAccess, summaryRefreshItems, type TooLarge } from "../institutions/repository.js";
import type { Invitation } from "../invitations/model.js";
import { revocationItems } from "../invitations/repository.js";
import type { Role } from "../roles.js";
import { keys, memberIndex } from "../tables.js";
import type { TxItems, TxResult, Written } from "../tx.js";

const T = () => config.tables.main;

/** What a write came to: done, or to be judged again from a fresh read (the institution or an invitation changed, or a conflict). */
export type MemberWrite = Written;

/**
 * One page of an institution's administrators by e-mail, after the position `after` (an index order value)
 * when given. One Query of the index, reading at most `limit` records.
 */
export async function listMembers(
  institutionId: string,
  limit: number,
  after?: { order: string; userId: string },
): Promise<{ members: AccessRecord[]; more: boolean }> {
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      IndexName: memberIndex.name,
      KeyConditionExpression: "#p = :p",
      ExpressionAttributeNames: { "#p": memberIndex.partitionKey },
      ExpressionAttributeValues: { ":p": institutionId },
      Limit: limit,
      ...(after && {
        ExclusiveStartKey: {
          ...keys.access(after.userId, institutionId),
          [memberIndex.partitionKey]: institutionId,
          [memberIndex.sortKey]: after.order,
        },
      }),
    }),
  );
  return { members: (out.Items ?? []).map(stripAccess), more: out.LastEvaluatedKey !== undefined };
}

const done = (result: TxResult): MemberWrite => (result.kind === "ok" ? result : { kind: "retry" });

/**
 * Removes `target` from `i` as read: its seat (the `members` entry), its access record and its e-mail
 * marker go, and each of `revoke` (active invitations it sent) is revoked with its slot freed; `events`
 * (the removal's and each revocation's) commit with it. One transaction.
 */
export async function removeMember(
  i: Institution,
  target: AccessRecord,
  revoke: { invitations: readonly Invitation[]; revokedBy: string; at: string },
  events: readonly AuditEvent[],
): Promise<MemberWrite> {
  const result = await commitWithEvents(events, {
    institution: institutionChange(i, { remove: "#members.#user", names: { "#members": "members", "#user": target.user_id } }),
    // At the count of invitations it had sent when read: one sent since is not among `revoke`, so judge again.
    access: {
      Delete: {
        TableName: T(),
        Key: keys.access(target.user_id, i.id),
        ConditionExpression:
          target.invitations_sent === undefined ? "attribute_exists(pk) AND attribute_not_exists(#sent)" : "#sent = :sent",
        ExpressionAttributeNames: { "#sent": "invitations_sent" },
        ...(target.invitations_sent !== undefined && { ExpressionAttributeValues: { ":sent": target.invitations_sent } }),
      },
    },
    marker: target.email ? { Delete: { TableName: T(), Key: keys.memberEmail(i.id, target.email) } } : undefined,
    ...Object.assign(
      {},
      ...revoke.invitations.map((inv) =>
        revocationItems(inv, { revokedBy: revoke.revokedBy, reason: "administrator_removed", at: revoke.at }),
      ),
    ),
  });
  return done(result);
}

/**
 * Revokes active invitations `by` sent, with their events, in a transaction of their own: for the ones that
 * do not fit in the removal's transaction (see `service.ts`).
 */
export async function revokeInvitations(invitations: readonly Invitation[], revokedBy: string, at: string, events: readonly AuditEvent[]) {
  const result = await commitWithEvents(
    events,
    Object.assign({}, ...invitations.map((inv) => revocationItems(inv, { revokedBy, reason: "administrator_removed", at }))),
  );
  return done(result);
}

/** Gives `target` the role `role` in `i` as read: the seat and the access record change together. One transaction. */
export async function changeRole(i: Institution, target: AccessRecord, role: Role, event: AuditEvent): Promise<MemberWrite> {
  const result = await commitWithEvent(event, {
    institution: institutionChange(i, {
      set: "#members.#user = :role",
      names: { "#members": "members", "#user": target.user_id },
      values: { ":role": role },
    }),
    access: {
      Update: {
        TableName: T(),
        Key: keys.access(target.user_id, i.id),
        UpdateExpression: "SET #role = :role",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#role": "role" },
        ExpressionAttributeValues: { ":role": role },
      },
    },
  });
  return done(result);
}

/**
 * Makes `after.super_admin_id` the super admin of `before` (still at the version read, so two transfers,
 * or a transfer and the removal of its target, cannot both win), and refreshes the summary on every
 * member's access record. One transaction: the institution, at most 95 access records, the event.
 */
export async function transferInstitution(before: Institution, after: Institution, event: AuditEvent): Promise<MemberWrite | TooLarge> {
  const items: TxItems[] = [
    {
      institution: institutionChange(before, {
        set: "#super = :to, #updated = :updated",
        names: { "#super": "super_admin_id", "#updated": "updated_at" },
        values: { ":to": after.super_admin_id, ":updated": after.updated_at },
      }),
    },
    summaryRefreshItems(before, after),
  ];
  if (!fitsWithEvents([event], ...items)) return { kind: "too_large" };
  return done(await commitWithEvent(event, ...items));
}
