/**
 * Data access for institutions, their access records, registration-number guards and cohorts. Every write
 * is one transaction that carries its audit event; a failed condition comes back as a domain result, by
 * the name of the item that failed.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvent } from "../audit.js";
import { boundedCount, dayOf, nextDay } from "../bounds.js";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import type { Role } from "../roles.js";
import { keys, memberIndex, withoutKey } from "../tables.js";
import { returnOldOnFailure, type TxItem, type TxItems, type Written } from "../tx.js";
import { type Institution, type InstitutionSummary, toSummary } from "./model.js";
import { registrationGuard } from "./registration-number.js";

const T = () => config.tables.main;

/** Who a member is, as the access record keeps it (from the verified claims when access was granted). */
export interface Member {
  user_id: string;
  /** Lower-cased; empty when the token carried none. */
  email: string;
  name: string | null;
  /** The member's own account (the institution's may differ). */
  user_account_id: string;
  role: Role;
  added_at: string;
  /** The invitation that granted the access; null for the institution's creator. */
  invitation_id: string | null;
}

/**
 * Stored access record: one user's role in one institution, with that institution's summary and who the
 * user is. `account_id` is the institution's account. Records written before the member fields existed
 * lack them (and so are not in the administrators index).
 */
export interface AccessRecord extends Partial<Omit<Member, "user_id" | "role">> {
  account_id: string;
  user_id: string;
  institution_id: string;
  role: Role;
  institution: InstitutionSummary;
}

export interface Cohort {
  id: string;
  institution_id: string;
  name: string;
  created_at: string;
}

/** The registration number is another institution's in the account. */
export type NumberTaken = { readonly kind: "registration_number_taken" };
/** The institution no longer exists. */
export type Gone = { readonly kind: "gone" };
/** The institution still has cohorts. */
export type HasCohorts = { readonly kind: "has_cohorts" };
/** The account has created its `config.accountDailyInstitutionLimit` institutions of the UTC day. */
export type DailyLimit = { readonly kind: "daily_limit" };

const guardKey = (i: Pick<Institution, "account_id" | "registration_number">) =>
  i.registration_number ? registrationGuard(i.account_id, i.registration_number) : undefined;

function putGuard(i: Institution): TxItem | undefined {
  const key = guardKey(i);
  return key && { Put: { TableName: T(), Item: { ...key, institution_id: i.id }, ConditionExpression: "attribute_not_exists(pk)" } };
}

function putAccess(i: Institution, member: Member): TxItem {
  const record: AccessRecord = { ...member, account_id: i.account_id, institution_id: i.id, institution: toSummary(i) };
  const index = memberIndex.attributes(i.id, member.email, member.user_id);
  return { Put: { TableName: T(), Item: { ...keys.access(member.user_id, i.id), ...index, ...record } } };
}

/** One named item per member, so that a transaction's items stay named. */
const perMember = (i: Institution, item: (userId: string) => TxItem): TxItems =>
  Object.fromEntries(Object.keys(i.members).map((userId) => [`access ${userId}`, item(userId)]));

/** Reads one institution (strongly consistent: a client may read right after it wrote). One GetItem. */
export async function getInstitution(id: string): Promise<Institution | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.institution(id), ConsistentRead: true }));
  return out.Item && withoutKey<Institution>(out.Item);
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

/** One access record (strongly consistent). One GetItem. */
export async function getAccess(userId: string, institutionId: string): Promise<AccessRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.access(userId, institutionId), ConsistentRead: true }));
  return out.Item && stripAccess(out.Item);
}

/** The record without its keys and index attributes. */
export function stripAccess(item: Record<string, unknown>): AccessRecord {
  const { g_member_inst: _inst, g_member_order: _order, ...rest } = withoutKey<Record<string, unknown>>(item);
  return rest as unknown as AccessRecord;
}

/**
 * Creates the institution, the creator's access record and e-mail marker (`creator` is its super admin), the
 * number guard and the event, and counts it against its account's daily creations (`daily_limit` when
 * `config.accountDailyInstitutionLimit` are made already): one transaction.
 */
export async function insertInstitution(i: Institution, creator: Member, event: AuditEvent): Promise<Written<NumberTaken | DailyLimit>> {
  const now = new Date(i.created_at);
  const result = await commitWithEvent(event, {
    institution: { Put: { TableName: T(), Item: { ...keys.institution(i.id), ...i }, ConditionExpression: "attribute_not_exists(pk)" } },
    access: putAccess(i, creator),
    marker: memberMarker(i, creator),
    guard: putGuard(i),
    daily: boundedCount(
      T(),
      keys.accountDailyInstitutions(i.account_id, dayOf(now)),
      "institutions",
      config.accountDailyInstitutionLimit,
      nextDay(now),
    ),
  });
  if (result.kind === "ok") return result;
  if (result.kind === "failed" && result.item === "guard") return { kind: "registration_number_taken" };
  if (result.kind === "failed" && result.item === "daily") return { kind: "daily_limit" };
  return { kind: "retry" };
}

/**
 * Applies `after` over `before` if nobody changed the institution since it was read (`version`), refreshes
 * the summary on every member's access record, and moves the number guard when the number changed.
 */
export async function storeInstitutionUpdate(
  before: Institution,
  after: Institution,
  event: AuditEvent,
): Promise<Written<NumberTaken | Gone>> {
  const guardMoved = guardKey(before)?.pk !== guardKey(after)?.pk;
  const oldGuard = guardKey(before);
  const fields = ["name", "registration_number", "address", "contact_email", "contact_phone", "settings", "updated_at"] as const;
  const result = await commitWithEvent(
    event,
    {
      institution: {
        Update: {
          TableName: T(),
          Key: keys.institution(before.id),
          UpdateExpression: `SET ${fields.map((f) => `#${f} = :${f}`).join(", ")}, #version = :next`,
          ConditionExpression: "#version = :version",
          ExpressionAttributeNames: Object.fromEntries([...fields, "version"].map((f) => [`#${f}`, f])),
          ExpressionAttributeValues: {
            ...Object.fromEntries(fields.map((f) => [`:${f}`, after[f]])),
            ":version": before.version,
            ":next": before.version + 1,
          },
          ...returnOldOnFailure,
        },
      },
      newGuard: guardMoved ? putGuard(after) : undefined,
      oldGuard: guardMoved && oldGuard ? { Delete: { TableName: T(), Key: oldGuard } } : undefined,
    },
    perMember(before, (userId) => ({
      Update: {
        TableName: T(),
        Key: keys.access(userId, before.id),
        UpdateExpression: "SET #inst = :summary",
        ExpressionAttributeNames: { "#inst": "institution" },
        ExpressionAttributeValues: { ":summary": toSummary(after) },
      },
    })),
  );
  if (result.kind === "ok") return result;
  if (result.kind === "failed" && result.item === "institution") return { kind: result.old ? "retry" : "gone" };
  if (result.kind === "failed" && result.item === "newGuard") return { kind: "registration_number_taken" };
  return { kind: "retry" };
}

/**
 * Deletes the institution with its access records and number guard, only if it has no cohort and is
 * unchanged since read; a cohort created concurrently makes the delete fail, never orphans the cohort.
 */
export async function removeInstitution(i: Institution, event: AuditEvent): Promise<Written<Gone | HasCohorts>> {
  const guard = guardKey(i);
  const result = await commitWithEvent(
    event,
    {
      institution: {
        Delete: {
          TableName: T(),
          Key: keys.institution(i.id),
          ConditionExpression: "#version = :version AND (attribute_not_exists(#cohorts) OR #cohorts = :zero)",
          ExpressionAttributeNames: { "#version": "version", "#cohorts": "cohort_count" },
          ExpressionAttributeValues: { ":version": i.version, ":zero": 0 },
          ...returnOldOnFailure,
        },
      },
      guard: guard && { Delete: { TableName: T(), Key: guard } },
    },
    perMember(i, (userId) => ({ Delete: { TableName: T(), Key: keys.access(userId, i.id) } })),
  );
  if (result.kind === "ok") return result;
  if (result.kind !== "failed" || result.item !== "institution") return { kind: "retry" };
  const old = result.old as Partial<Institution> | undefined;
  if (!old) return { kind: "gone" };
  return { kind: (old.cohort_count ?? 0) > 0 ? "has_cohorts" : "retry" };
}

/** The item that marks `member`'s e-mail as one with access to `i` (for the invitation checks); none without an e-mail. */
export function memberMarker(i: Pick<Institution, "id">, member: Pick<Member, "user_id" | "email">): TxItem | undefined {
  return member.email ? { Put: { TableName: T(), Item: { ...keys.memberEmail(i.id, member.email), user_id: member.user_id } } } : undefined;
}

/**
 * Transaction items that give `member` its role in `i` (access record, members map, e-mail marker), guarded
 * by the institution's version so the access record's summary cannot be stale. For invitation acceptance.
 */
export function grantAccessItems(i: Institution, member: Member): { grant: TxItem; access: TxItem; marker: TxItem | undefined } {
  return {
    grant: {
      Update: {
        TableName: T(),
        Key: keys.institution(i.id),
        UpdateExpression: "SET #members.#user = :role, #version = :next",
        ConditionExpression: "#version = :version",
        ExpressionAttributeNames: { "#members": "members", "#user": member.user_id, "#version": "version" },
        ExpressionAttributeValues: { ":role": member.role, ":version": i.version, ":next": i.version + 1 },
      },
    },
    access: putAccess(i, member),
    marker: memberMarker(i, member),
  };
}

/** The institution item's update, only while it is at the version read: every change of its members goes through this. */
export function institutionChange(
  i: Institution,
  update: { set?: string; remove?: string; names?: Record<string, string>; values?: Record<string, unknown> },
): TxItem {
  return {
    Update: {
      TableName: T(),
      Key: keys.institution(i.id),
      UpdateExpression: `SET ${[update.set, "#version = :next"].filter(Boolean).join(", ")}${update.remove ? ` REMOVE ${update.remove}` : ""}`,
      ConditionExpression: "#version = :version",
      ExpressionAttributeNames: { "#version": "version", ...update.names },
      ExpressionAttributeValues: { ":version": i.version, ":next": i.version + 1, ...update.values },
      ...returnOldOnFailure,
    },
  };
}

/** Items that refresh the institution summary on every member's access record (`after` is the institution as it will be). */
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

/** Creates a cohort and counts it on the institution, so a concurrent delete sees it. */
export async function insertCohort(c: Cohort, event: AuditEvent): Promise<Written<Gone>> {
  const result = await commitWithEvent(event, {
    cohort: {
      Put: { TableName: T(), Item: { ...keys.cohort(c.institution_id, c.id), ...c }, ConditionExpression: "attribute_not_exists(pk)" },
    },
    count: {
      Update: {
        TableName: T(),
        Key: keys.institution(c.institution_id),
        UpdateExpression: "ADD #cohorts :one",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#cohorts": "cohort_count" },
        ExpressionAttributeValues: { ":one": 1 },
      },
    },
  });
  if (result.kind === "ok") return result;
  return { kind: result.kind === "failed" && result.item === "count" ? "gone" : "retry" };
}

/** One cohort of an institution, or undefined. One GetItem. */
export async function getCohort(institutionId: string, cohortId: string): Promise<Cohort | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.cohort(institutionId, cohortId) }));
  return out.Item ? withoutKey<Cohort>(out.Item) : undefined;
}

/** The cohort is no longer there (deleted meanwhile). */
export type CohortGone = { readonly kind: "cohort_gone" };

/** Deletes a cohort and uncounts it on the institution, so the institution's delete sees it gone. One transaction. */
export async function removeCohort(c: Cohort, event: AuditEvent): Promise<Written<Gone | CohortGone>> {
  const result = await commitWithEvent(event, {
    cohort: { Delete: { TableName: T(), Key: keys.cohort(c.institution_id, c.id), ConditionExpression: "attribute_exists(pk)" } },
    count: {
      Update: {
        TableName: T(),
        Key: keys.institution(c.institution_id),
        UpdateExpression: "ADD #cohorts :minus",
        ConditionExpression: "attribute_exists(pk) AND #cohorts > :zero",
        ExpressionAttributeNames: { "#cohorts": "cohort_count" },
        ExpressionAttributeValues: { ":minus": -1, ":zero": 0 },
      },
    },
  });
  if (result.kind === "ok") return result;
  if (result.kind === "failed") return { kind: result.item === "cohort" ? "cohort_gone" : "gone" };
  return { kind: "retry" };
}

/** The institution's cohorts, oldest first. One Query (continued past a 1 MB page). */
export async function queryCohorts(institutionId: string): Promise<Cohort[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk, ":prefix": keys.cohortPrefix },
  });
  return items.map((item) => withoutKey<Cohort>(item)).sort((a, b) => a.created_at.localeCompare(b.created_at));
}
