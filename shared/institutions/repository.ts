/**
 * Data access for institutions, their access records, registration-number guards and cohorts. Every write
 * is one transaction that carries its audit event; a failed condition comes back as a domain result, by
 * the name of the item that failed.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvent } from "../audit.js";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import type { Role } from "../roles.js";
import { keys, withoutKey } from "../tables.js";
import { returnOldOnFailure, type TxItem, type TxItems, type Written } from "../tx.js";
import { type Institution, type InstitutionSummary, toSummary } from "./model.js";

const T = () => config.tables.main;

/** Stored access record: the caller's role in one institution, with that institution's summary. */
export interface AccessRecord {
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

const guardKey = (i: Pick<Institution, "account_id" | "registration_number">) =>
  i.registration_number ? keys.registrationNumber(i.account_id, i.registration_number) : undefined;

function putGuard(i: Institution): TxItem | undefined {
  const key = guardKey(i);
  return key && { Put: { TableName: T(), Item: { ...key, institution_id: i.id }, ConditionExpression: "attribute_not_exists(pk)" } };
}

function putAccess(i: Institution, userId: string, role: Role): TxItem {
  const record: AccessRecord = { account_id: i.account_id, user_id: userId, institution_id: i.id, role, institution: toSummary(i) };
  return { Put: { TableName: T(), Item: { ...keys.access(userId, i.id), ...record } } };
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

/** Creates the institution, the creator's access record, the number guard and the event: one transaction. */
export async function insertInstitution(i: Institution, event: AuditEvent): Promise<Written<NumberTaken>> {
  const result = await commitWithEvent(event, {
    institution: { Put: { TableName: T(), Item: { ...keys.institution(i.id), ...i }, ConditionExpression: "attribute_not_exists(pk)" } },
    access: putAccess(i, i.super_admin_id, "cohort_super_admin"),
    guard: putGuard(i),
  });
  if (result.kind === "ok") return result;
  return { kind: result.kind === "failed" && result.item === "guard" ? "registration_number_taken" : "retry" };
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

/**
 * Transaction items that give `userId` the `role` in `i` (access record + members map), guarded by the
 * institution's version so the access record's summary cannot be stale. For invitation acceptance.
 */
export function grantAccessItems(i: Institution, userId: string, role: Role): { grant: TxItem; access: TxItem } {
  return {
    grant: {
      Update: {
        TableName: T(),
        Key: keys.institution(i.id),
        UpdateExpression: "SET #members.#user = :role, #version = :next",
        ConditionExpression: "#version = :version",
        ExpressionAttributeNames: { "#members": "members", "#user": userId, "#version": "version" },
        ExpressionAttributeValues: { ":role": role, ":version": i.version, ":next": i.version + 1 },
      },
    },
    access: putAccess(i, userId, role),
  };
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

/** The institution's cohorts, oldest first. One Query (continued past a 1 MB page). */
export async function queryCohorts(institutionId: string): Promise<Cohort[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk, ":prefix": keys.cohortPrefix },
  });
  return items.map((item) => withoutKey<Cohort>(item)).sort((a, b) => a.created_at.localeCompare(b.created_at));
}
