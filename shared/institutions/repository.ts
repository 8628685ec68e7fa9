/**
 * Data access for institutions, their access records, registration-number guards and cohorts. Every write
 * takes the audit items of its event and commits them in the same transaction. Conditional failures come
 * back as domain results, never as exceptions.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import type { Role } from "../roles.js";
import { type Key, keys } from "../tables.js";
import { returnOldOnFailure, type TxItem, transact } from "../tx.js";
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

export type WriteResult = "ok" | "registration_number_taken" | "stale" | "gone" | "has_cohorts";

function strip<T extends object>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}

/**
 * The item: its key, then the record's fields. Not `{ ...key, ...record }`: an object literal with two
 * spreads where the second has more than a few fields takes V8 5–30 µs (a slow path), Object.assign < 1 µs.
 */
const withKey = <R extends object>(key: Key, record: R): Key & R => Object.assign(key, record);

const guardKey = (i: Pick<Institution, "account_id" | "registration_number">) =>
  i.registration_number ? keys.registrationNumber(i.account_id, i.registration_number) : undefined;

function accessItem(i: Institution, userId: string, role: Role): TxItem {
  const record: AccessRecord = { account_id: i.account_id, user_id: userId, institution_id: i.id, role, institution: toSummary(i) };
  return { Put: { TableName: T(), Item: withKey(keys.access(userId, i.id), record) } };
}

/** Reads one institution (strongly consistent: a client may read right after it wrote). One GetItem. */
export async function getInstitution(id: string): Promise<Institution | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.institution(id), ConsistentRead: true }));
  return strip<Institution>(out.Item);
}

/** Every access record of a user, with the institution summaries. One Query (continued past a 1 MB page). */
export async function listAccess(userId: string): Promise<AccessRecord[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.accessPartition(userId), ":prefix": keys.accessPrefix },
  });
  return items.map((item) => strip<AccessRecord>(item) as AccessRecord);
}

/** Creates the institution, the creator's access record, the number guard and the event: one transaction. */
export async function insertInstitution(i: Institution, audit: TxItem[]): Promise<WriteResult> {
  const guard = guardKey(i);
  const items: TxItem[] = [
    { Put: { TableName: T(), Item: withKey(keys.institution(i.id), i), ConditionExpression: "attribute_not_exists(pk)" } },
    accessItem(i, i.super_admin_id, "cohort_super_admin"),
    ...(guard
      ? [{ Put: { TableName: T(), Item: { ...guard, institution_id: i.id }, ConditionExpression: "attribute_not_exists(pk)" } }]
      : []),
    ...audit,
  ];
  const result = await transact(items);
  if (result.ok) return "ok";
  if (guard && result.failed[2]) return "registration_number_taken";
  return "stale";
}

/**
 * Applies `after` over `before` if nobody changed the institution since it was read (`version`), refreshes
 * the summary on every member's access record, and moves the number guard when the number changed.
 */
/** The fields an update writes, and the parts of its UpdateItem that do not depend on the values (built once). */
const UPDATED_FIELDS = ["name", "registration_number", "address", "contact_email", "contact_phone", "settings", "updated_at"] as const;
const UPDATE_EXPRESSION = `SET ${UPDATED_FIELDS.map((f) => `#${f} = :${f}`).join(", ")}, #version = :next`;
const UPDATE_NAMES: Readonly<Record<string, string>> = Object.fromEntries([...UPDATED_FIELDS, "version"].map((f) => [`#${f}`, f]));

export async function updateInstitution(before: Institution, after: Institution, audit: TxItem[]): Promise<WriteResult> {
  const oldGuard = guardKey(before);
  const newGuard = guardKey(after);
  const guardMoved = oldGuard?.pk !== newGuard?.pk;
  const values: Record<string, unknown> = { ":version": before.version, ":next": before.version + 1 };
  for (const f of UPDATED_FIELDS) values[`:${f}`] = after[f];
  const items: TxItem[] = [
    {
      Update: {
        TableName: T(),
        Key: keys.institution(before.id),
        UpdateExpression: UPDATE_EXPRESSION,
        ConditionExpression: "#version = :version",
        ExpressionAttributeNames: UPDATE_NAMES,
        ExpressionAttributeValues: values,
        ...returnOldOnFailure,
      },
    },
    ...(guardMoved && newGuard
      ? [{ Put: { TableName: T(), Item: { ...newGuard, institution_id: after.id }, ConditionExpression: "attribute_not_exists(pk)" } }]
      : []),
    ...(guardMoved && oldGuard ? [{ Delete: { TableName: T(), Key: oldGuard } }] : []),
    ...Object.entries(before.members).map(
      ([userId]): TxItem => ({
        Update: {
          TableName: T(),
          Key: keys.access(userId, before.id),
          UpdateExpression: "SET #inst = :summary",
          ExpressionAttributeNames: { "#inst": "institution" },
          ExpressionAttributeValues: { ":summary": toSummary(after) },
        },
      }),
    ),
    ...audit,
  ];
  const result = await transact(items);
  if (result.ok) return "ok";
  if (result.failed[0]) return result.old[0] ? "stale" : "gone";
  if (guardMoved && newGuard && result.failed[1]) return "registration_number_taken";
  return "stale";
}

/**
 * Deletes the institution with its access records and number guard, only if it has no cohort and is
 * unchanged since read; a cohort created concurrently makes the delete fail, never orphans the cohort.
 */
export async function deleteInstitution(i: Institution, audit: TxItem[]): Promise<WriteResult> {
  const guard = guardKey(i);
  const items: TxItem[] = [
    {
      Delete: {
        TableName: T(),
        Key: keys.institution(i.id),
        ConditionExpression: "#version = :version AND (attribute_not_exists(#cohorts) OR #cohorts = :zero)",
        ExpressionAttributeNames: { "#version": "version", "#cohorts": "cohort_count" },
        ExpressionAttributeValues: { ":version": i.version, ":zero": 0 },
        ...returnOldOnFailure,
      },
    },
    ...Object.keys(i.members).map((userId): TxItem => ({ Delete: { TableName: T(), Key: keys.access(userId, i.id) } })),
    ...(guard ? [{ Delete: { TableName: T(), Key: guard } }] : []),
    ...audit,
  ];
  const result = await transact(items);
  if (result.ok) return "ok";
  const old = result.old[0] as Partial<Institution> | undefined;
  if (result.failed[0] && !old) return "gone";
  if ((old?.cohort_count ?? 0) > 0) return "has_cohorts";
  return "stale";
}

/**
 * Transaction items that give `userId` the `role` in `i` (access record + members map), guarded by the
 * institution's version so the access record's summary cannot be stale. For invitation acceptance.
 */
export function grantAccessItems(i: Institution, userId: string, role: Role): TxItem[] {
  return [
    {
      Update: {
        TableName: T(),
        Key: keys.institution(i.id),
        UpdateExpression: "SET #members.#user = :role, #version = :next",
        ConditionExpression: "#version = :version",
        ExpressionAttributeNames: { "#members": "members", "#user": userId, "#version": "version" },
        ExpressionAttributeValues: { ":role": role, ":version": i.version, ":next": i.version + 1 },
      },
    },
    accessItem(i, userId, role),
  ];
}

/** Creates a cohort and counts it on the institution, so a concurrent delete sees it. */
export async function insertCohort(c: Cohort, audit: TxItem[]): Promise<WriteResult> {
  const result = await transact([
    { Put: { TableName: T(), Item: withKey(keys.cohort(c.institution_id, c.id), c), ConditionExpression: "attribute_not_exists(pk)" } },
    {
      Update: {
        TableName: T(),
        Key: keys.institution(c.institution_id),
        UpdateExpression: "ADD #cohorts :one",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#cohorts": "cohort_count" },
        ExpressionAttributeValues: { ":one": 1 },
      },
    },
    ...audit,
  ]);
  if (result.ok) return "ok";
  return result.failed[1] ? "gone" : "stale";
}

/** The institution's cohorts, oldest first. One Query (continued past a 1 MB page). */
export async function listCohorts(institutionId: string): Promise<Cohort[]> {
  const items = await queryAll({
    TableName: T(),
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk, ":prefix": keys.cohortPrefix },
  });
  return items.map((item) => strip<Cohort>(item) as Cohort).sort((a, b) => a.created_at.localeCompare(b.created_at));
}
