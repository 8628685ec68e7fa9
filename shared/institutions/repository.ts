/**
 * Data access for institutions, their registration-number guards and cohorts. Every write is one transaction
 * that carries its audit event; a failed condition comes back as a domain result, by the name of the item that
 * failed. The access records an institution's changes carry (its creator's, the summaries, their deletion) come
 * from the membership module (shared/membership/repository.ts), the only writer of access records.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { dissolveKeyItems, readKeys } from "../api-keys/repository.js";
import { type AuditEvent, commitWithEvent, fitsWithEvents } from "../audit.js";
import { boundedCount, dayOf, nextDay } from "../bounds.js";
import { db, queryAll } from "../clients.js";
import { config } from "../config.js";
import { dissolveDomainItems, readDomains } from "../domains/repository.js";
import type { Member } from "../membership/model.js";
import { creatorItems, dissolveItems, summaryRefreshItems } from "../membership/repository.js";
import type { Connection } from "../sso/model.js";
import { dissolveConnectionItems, getConnection } from "../sso/repository.js";
import { keys, withoutKey } from "../tables.js";
import { returnOldOnFailure, type TooLarge, type TxItem, type TxItems, type Written } from "../tx.js";
import type { Institution } from "./model.js";
import { institutionChange } from "./version.js";

const T = () => config.tables.main;

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

/** Imported when a number is checked: its confusables table (~40 KB) is off the cold start of every write. */
const guardKey = async (i: Pick<Institution, "account_id" | "registration_number">) =>
  i.registration_number ? (await import("./registration-number.js")).registrationGuard(i.account_id, i.registration_number) : undefined;

async function putGuard(i: Institution): Promise<TxItem | undefined> {
  const key = await guardKey(i);
  return key && { Put: { TableName: T(), Item: { ...key, institution_id: i.id }, ConditionExpression: "attribute_not_exists(pk)" } };
}

/** Reads one institution (strongly consistent: a client may read right after it wrote). One GetItem. */
export async function getInstitution(id: string): Promise<Institution | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: keys.institution(id), ConsistentRead: true }));
  return out.Item && withoutKey<Institution>(out.Item);
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
    ...creatorItems(i, creator),
    guard: await putGuard(i),
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
): Promise<Written<NumberTaken | Gone | TooLarge>> {
  const oldGuard = await guardKey(before);
  const guardMoved = oldGuard?.pk !== (await guardKey(after))?.pk;
  const fields = ["name", "registration_number", "address", "contact_email", "contact_phone", "settings", "updated_at"] as const;
  const items: TxItems[] = [
    {
      institution: institutionChange(before, {
        set: fields.map((f) => `#${f} = :${f}`).join(", "),
        names: Object.fromEntries(fields.map((f) => [`#${f}`, f])),
        values: Object.fromEntries(fields.map((f) => [`:${f}`, after[f]])),
      }),
      newGuard: guardMoved ? await putGuard(after) : undefined,
      oldGuard: guardMoved && oldGuard ? { Delete: { TableName: T(), Key: oldGuard } } : undefined,
    },
    summaryRefreshItems(before, after),
  ];
  if (!fitsWithEvents([event], ...items)) return { kind: "too_large" };
  const result = await commitWithEvent(event, ...items);
  if (result.kind === "ok") return result;
  if (result.kind === "failed" && result.item === "institution") return { kind: result.old ? "retry" : "gone" };
  if (result.kind === "failed" && result.item === "newGuard") return { kind: "registration_number_taken" };
  return { kind: "retry" };
}

/**
 * What an institution leaves beside it when deleted, each as read (`readRemnants`): its verified domains and their
 * head, its SSO connection (leased by the deletion, shared/sso/service.ts), its API keys and their version.
 */
export interface InstitutionRemnants {
  readonly domains: Awaited<ReturnType<typeof readDomains>>;
  readonly connection: { readonly connection: Connection; readonly owner: string } | undefined;
  readonly keys: Awaited<ReturnType<typeof readKeys>>;
}

/** The institution's domains, connection and keys: three reads side by side (two Queries and a GetItem). */
export async function readRemnants(institutionId: string) {
  const [domains, connection, keys] = await Promise.all([
    readDomains(institutionId),
    getConnection(institutionId),
    readKeys(institutionId),
  ]);
  return { domains, connection, keys };
}

/**
 * Deletes the institution with its access records and number guard, and what it leaves beside it (`remnants`:
 * its domains and their guards, its SSO connection and provider item, its API keys), only if it has no cohort and
 * is unchanged since read; a cohort created concurrently makes the delete fail, never orphans the cohort, and a
 * domain or key added concurrently makes it read again.
 */
export async function removeInstitution(
  i: Institution,
  event: AuditEvent,
  remnants: InstitutionRemnants,
): Promise<Written<Gone | HasCohorts | TooLarge>> {
  const guard = await guardKey(i);
  const items: TxItems[] = [
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
    dissolveItems(i),
    dissolveDomainItems(i.id, remnants.domains.head, remnants.domains.domains),
    remnants.connection ? dissolveConnectionItems(remnants.connection.connection, remnants.connection.owner) : {},
    dissolveKeyItems(i.id, remnants.keys.keys, remnants.keys.version),
  ];
  if (!fitsWithEvents([event], ...items)) return { kind: "too_large" };
  const result = await commitWithEvent(event, ...items);
  if (result.kind === "ok") return result;
  if (result.kind !== "failed" || result.item !== "institution") return { kind: "retry" };
  const old = result.old as Partial<Institution> | undefined;
  if (!old) return { kind: "gone" };
  return { kind: (old.cohort_count ?? 0) > 0 ? "has_cohorts" : "retry" };
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
