/**
 * The data guarantee of docs/contract/README.md#data-guarantees, checked from the tables themselves: for a set of users, every change
 * they made has its event and every event its change. Used by the fault tests (after DynamoDB came back)
 * and by the load run (after the load). No vitest here, so `npm run load` can use it too; it reads through
 * `shared/clients.ts`, so the environment must point at the stack before this module is imported.
 *
 * What is compared, per user (institutions they created, i.e. whose `super_admin_id` they are):
 * - institutions: access records / META items ⇔ `institution_created` events minus `institution_deleted`
 *   (matched by name: callers of this audit give every institution a unique name);
 * - a deleted institution leaves no META, no access record of its creator and no cohort behind;
 * - cohorts: `COHORT#` items ⇔ `cohort_created` events (by cohort id), and `cohort_count` on the META;
 * - updates: `version - 1` = `institution_updated` events (exact when nobody accepted an invitation to it);
 * - invitations: `INV#` items ⇔ `invitation_created` events (by invitation id);
 * - registration numbers: a stored number has its guard item pointing back at the institution.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { StoredEvent } from "../../shared/audit.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { registrationGuard } from "../../shared/institutions/registration-number.js";
import { eventKeys, keys, memberIndex } from "../../shared/tables.js";

export interface AuditedUser {
  readonly userId: string;
  readonly accountId: string;
}

export interface AuditCounts {
  /** Institutions the users created that exist now. */
  institutions: number;
  institutionCreatedEvents: number;
  institutionDeletedEvents: number;
  institutionUpdatedEvents: number;
  cohorts: number;
  cohortCreatedEvents: number;
  invitations: number;
  invitationCreatedEvents: number;
}

export interface AuditReport {
  /** Empty when every change has its event and every event its change. */
  problems: string[];
  counts: AuditCounts;
  /** Per institution id (existing or deleted): what is stored and what the events say. */
  institutions: Map<string, InstitutionAudit>;
  /** Names of the institutions with an `institution_deleted` event. */
  deletedNames: Set<string>;
  /** Every event of the audited users, newest first. */
  events: StoredEvent[];
}

export interface InstitutionAudit {
  id: string;
  name: string;
  exists: boolean;
  version: number | undefined;
  cohortIds: Set<string>;
  invitationIds: Set<string>;
  updatedEvents: number;
}

type Item = Record<string, unknown>;

async function queryAll(input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Item[]> {
  const items: Item[] = [];
  let start: QueryCommandOutput["LastEvaluatedKey"];
  do {
    const out: QueryCommandOutput = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every event one user caused, newest first (every page). */
export async function eventsOfUser(u: AuditedUser): Promise<StoredEvent[]> {
  const items = await queryAll({
    TableName: config.tables.events,
    IndexName: "by_user",
    KeyConditionExpression: "g_user = :k",
    ExpressionAttributeValues: { ":k": eventKeys.accountUser(u.accountId, u.userId) },
    ScanIndexForward: false,
  });
  return items as unknown as StoredEvent[];
}

/** Every item of an institution's partition (META, cohorts, invitations, slots, member markers). */
export async function partitionOf(institutionId: string): Promise<Item[]> {
  return queryAll({
    TableName: config.tables.main,
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk },
    ConsistentRead: true,
  });
}

/** A user's access records. */
export async function accessRecordsOf(userId: string): Promise<Item[]> {
  return queryAll({
    TableName: config.tables.main,
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
    ExpressionAttributeValues: { ":pk": keys.accessPartition(userId), ":p": keys.accessPrefix },
    ConsistentRead: true,
  });
}

const str = (v: unknown) => (typeof v === "string" ? v : String(v));

/** Audits the users' institutions, cohorts, updates and invitations against their events. */
export async function auditUsers(users: readonly AuditedUser[]): Promise<AuditReport> {
  const problems: string[] = [];
  const counts: AuditCounts = {
    institutions: 0,
    institutionCreatedEvents: 0,
    institutionDeletedEvents: 0,
    institutionUpdatedEvents: 0,
    cohorts: 0,
    cohortCreatedEvents: 0,
    invitations: 0,
    invitationCreatedEvents: 0,
  };
  const institutions = new Map<string, InstitutionAudit>();
  const deletedNames = new Set<string>();
  const allEvents: StoredEvent[] = [];
  const about: StoredEvent[] = [];

  for (const u of users) {
    const events = await eventsOfUser(u);
    allEvents.push(...events);
    const byType = (t: string) => events.filter((e) => e.event_type === t);
    const created = byType("institution_created");
    const deleted = byType("institution_deleted");
    counts.institutionCreatedEvents += created.length;
    counts.institutionDeletedEvents += deleted.length;
    const deletedHere = new Map<string, number>();
    for (const e of deleted) {
      const name = str(e.details.institution_name);
      deletedHere.set(name, (deletedHere.get(name) ?? 0) + 1);
      deletedNames.add(name);
    }

    // Every institution the user is super admin of, by its access records (the list endpoint's source).
    const access = await accessRecordsOf(u.userId);
    const ownedByAccess = new Set(
      access.filter((a) => (a.institution as Item | undefined)?.super_admin_id === u.userId).map((a) => str(a.institution_id)),
    );
    const createdIds = new Map<string, string>(created.map((e) => [str(e.details.institution_id), str(e.details.name)]));
    if (createdIds.size !== created.length) problems.push(`user ${u.userId}: duplicate institution_created events`);

    for (const id of ownedByAccess) {
      if (!createdIds.has(id)) problems.push(`institution ${id} of ${u.userId} exists (access record) without institution_created`);
    }
    for (const [name, n] of deletedHere) {
      const matching = [...createdIds.values()].filter((x) => x === name).length;
      if (matching < n) problems.push(`institution_deleted for '${name}' without a matching institution_created`);
    }

    const updated = byType("institution_updated");
    const cohortEvents = byType("cohort_created");
    const invitationEvents = byType("invitation_created");
    const accepted = allEvents.filter((e) => e.event_type === "invitation_accepted");
    counts.institutionUpdatedEvents += updated.length;
    counts.cohortCreatedEvents += cohortEvents.length;
    counts.invitationCreatedEvents += invitationEvents.length;

    for (const [id, name] of createdIds) {
      const items = await partitionOf(id);
      const meta = items.find((i) => i.sk === "META");
      const cohorts = items.filter((i) => str(i.sk).startsWith(keys.cohortPrefix));
      const invitations = items.filter((i) => str(i.sk).startsWith(keys.invitationPrefix));
      const wasDeleted = (deletedHere.get(name) ?? 0) > 0;
      const audit: InstitutionAudit = {
        id,
        name,
        exists: meta !== undefined,
        version: meta ? Number(meta.version) : undefined,
        cohortIds: new Set(cohorts.map((c) => str(c.id))),
        invitationIds: new Set(invitations.map((i) => str(i.id))),
        updatedEvents: updated.filter((e) => e.details.institution_id === id).length,
      };
      institutions.set(id, audit);

      if (wasDeleted) {
        if (meta) problems.push(`institution ${id} ('${name}') has institution_deleted but still exists`);
        if (ownedByAccess.has(id)) problems.push(`deleted institution ${id} still has its creator's access record`);
        if (cohorts.length > 0) problems.push(`deleted institution ${id} left ${cohorts.length} orphaned cohort(s)`);
      } else {
        if (!meta) problems.push(`institution ${id} ('${name}') has institution_created but neither exists nor has institution_deleted`);
        else if (!ownedByAccess.has(id)) problems.push(`institution ${id} exists without its creator's access record`);
      }
      if (meta) {
        counts.institutions++;
        if (Number(meta.cohort_count ?? 0) !== cohorts.length)
          problems.push(`institution ${id}: cohort_count ${meta.cohort_count} but ${cohorts.length} cohort item(s)`);
        const grants = accepted.filter((e) => e.details.institution_id === id).length;
        const bumps = Number(meta.version) - 1;
        if (grants === 0 ? bumps !== audit.updatedEvents : bumps < audit.updatedEvents)
          problems.push(`institution ${id}: version ${meta.version} but ${audit.updatedEvents} institution_updated event(s)`);
        if (meta.registration_number) {
          const guard = await db.send(
            new GetCommand({
              TableName: config.tables.main,
              Key: registrationGuard(str(meta.account_id), str(meta.registration_number)),
              ConsistentRead: true,
            }),
          );
          if (guard.Item?.institution_id !== id) problems.push(`institution ${id}: registration number without its guard`);
        }
      }
      counts.cohorts += cohorts.length;
      counts.invitations += invitations.length;
      const cohortEventIds = new Set(cohortEvents.filter((e) => e.details.institution_id === id).map((e) => str(e.details.cohort_id)));
      for (const c of audit.cohortIds) if (!cohortEventIds.has(c)) problems.push(`cohort ${c} of ${id} without cohort_created`);
      for (const c of cohortEventIds) if (!audit.cohortIds.has(c)) problems.push(`cohort_created ${c} of ${id} without the cohort`);
      const invEventIds = new Set(invitationEvents.filter((e) => e.details.institution_id === id).map((e) => str(e.details.invitation_id)));
      for (const i of audit.invitationIds) if (!invEventIds.has(i)) problems.push(`invitation ${i} of ${id} without invitation_created`);
      for (const i of invEventIds)
        if (!audit.invitationIds.has(i)) problems.push(`invitation_created ${i} of ${id} without the invitation`);
    }
    about.push(...updated, ...cohortEvents, ...invitationEvents);
  }
  // Changes are only made by an institution's creator here, so every change event names an audited institution.
  for (const e of about) {
    const id = str(e.details.institution_id);
    if (!institutions.has(id)) problems.push(`${e.event_type} ${e.id} about institution ${id}, which no audited user created`);
  }
  return { problems, counts, institutions, deletedNames, events: allEvents };
}

/**
 * The membership guarantee of docs/contract/administrators.md, checked from the tables: every seat (`members` entry) has its
 * access record and every access record its seat, with the same role; every member with an e-mail has its
 * e-mail marker and every marker belongs to a member; the administrators index lists exactly the records;
 * the super admin holds a seat as `cohort_super_admin` and every record's summary names it. Empty when all
 * holds.
 */
export async function auditMembership(institutionId: string): Promise<string[]> {
  const problems: string[] = [];
  const items = await partitionOf(institutionId);
  const meta = items.find((i) => i.sk === "META");
  if (!meta) return [`institution ${institutionId} does not exist`];
  const members = (meta.members ?? {}) as Record<string, string>;
  const superAdmin = str(meta.super_admin_id);
  if (members[superAdmin] !== "cohort_super_admin") problems.push(`super admin ${superAdmin} holds no cohort_super_admin seat`);
  const listed = await queryAll({
    TableName: config.tables.main,
    IndexName: memberIndex.name,
    KeyConditionExpression: "#p = :p",
    ExpressionAttributeNames: { "#p": memberIndex.partitionKey },
    ExpressionAttributeValues: { ":p": institutionId },
  });
  const listedIds = new Set(listed.map((r) => str(r.user_id)));
  for (const [userId, role] of Object.entries(members)) {
    const record = (
      await db.send(new GetCommand({ TableName: config.tables.main, Key: keys.access(userId, institutionId), ConsistentRead: true }))
    ).Item;
    if (!record) {
      problems.push(`seat of ${userId} without its access record`);
      continue;
    }
    if (record.role !== role) problems.push(`seat of ${userId} is ${role}, its access record ${str(record.role)}`);
    if ((record.institution as Item | undefined)?.super_admin_id !== superAdmin)
      problems.push(`access record of ${userId} names a stale super admin`);
    if (!listedIds.has(userId)) problems.push(`access record of ${userId} missing from the administrators index`);
    const email = str(record.email ?? "");
    if (email !== "" && !items.some((i) => i.sk === keys.memberEmail(institutionId, email).sk && i.user_id === userId))
      problems.push(`access record of ${userId} without its e-mail marker`);
  }
  for (const id of listedIds) if (!Object.hasOwn(members, id)) problems.push(`access record of ${id} without its seat`);
  for (const marker of items.filter((i) => str(i.sk).endsWith("#MEMBER"))) {
    if (!Object.hasOwn(members, str(marker.user_id)))
      problems.push(`e-mail marker ${str(marker.sk)} of ${str(marker.user_id)}, who holds no seat`);
  }
  return problems;
}
