/**
 * Data access for an institution's administrators: the page of the list, and the transfer. Granting, role
 * changes and removals go through the membership door (shared/membership/), as for every other way in.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvent, fitsWithEvents } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import type { Institution } from "../institutions/model.js";
import { institutionChange } from "../institutions/version.js";
import type { AccessRecord } from "../membership/model.js";
import { stripAccess, summaryRefreshItems } from "../membership/repository.js";
import { keys, memberIndex } from "../tables.js";
import type { TooLarge, TxItems, Written } from "../tx.js";

const T = () => config.tables.main;

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

/**
 * Makes `after.super_admin_id` the super admin of `before` (still at the version read, so two transfers,
 * or a transfer and the removal of its target, cannot both win), and refreshes the summary on every
 * member's access record. One transaction: the institution, at most 95 access records, the event.
 */
export async function transferInstitution(before: Institution, after: Institution, event: AuditEvent): Promise<Written<TooLarge>> {
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
  const result = await commitWithEvent(event, ...items);
  return result.kind === "ok" ? result : { kind: "retry" };
}
