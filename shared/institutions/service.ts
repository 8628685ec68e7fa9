/**
 * Institution use cases, in the contract's check order: look up among visible (404 + event) → role
 * (403 + event) → body (400/422) → the change and its event in one transaction.
 */
import { auditEvent, recordEvent, requestValue } from "../audit.js";
import { nextDay, secondsUntil } from "../bounds.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { config } from "../config.js";
import { Forbidden, messages, NotFound, PreconditionFailed, TooManyRequests, ValidationFailed } from "../errors.js";
import type { VersionCheck } from "../etag.js";
import { isId, newId } from "../ids.js";
import type { Member } from "../membership/model.js";
import { listAccess } from "../membership/repository.js";
import { recordRefusal } from "../refusals.js";
import type { Message } from "../results.js";
import { RETRY, withRetries } from "../retry.js";
import type { Role } from "../roles.js";
import { parseRoot, submittedKeys } from "../validation.js";
import { effectiveSettings, type Institution, memberRole, TOO_MANY_FOR_CHANGE, toRecord, WRITABLE_FIELDS } from "./model.js";
import * as repo from "./repository.js";
import type { CohortCreated, CohortList, InstitutionList, InstitutionShown, InstitutionWritten } from "./results.js";
import { cohortInput, type InstitutionInput, institutionCreate, institutionInput } from "./schema.js";

/** The API document's schemas: what each use case answers is typed by the contract. */
/** A response body with the institution's stored `version` beside it: the handler sends it as the ETag. */
type Versioned<T> = T & { version: number };

const TAKEN = "Registration number has already been taken";
export const TOO_MANY_INSTITUTIONS = "Too many institutions created today, try again later";

export interface Visible {
  institution: Institution;
  role: Role;
  isSuperAdmin: boolean;
}

/** The member `caller` becomes with `role` at `now` (by `invitationId`, or as the creator: null). */
export function memberOf(caller: Caller, role: Role, now: Date, invitationId: string | null): Member {
  return {
    user_id: caller.id,
    email: caller.email,
    name: caller.name,
    user_account_id: caller.accountId,
    role,
    added_at: now.toISOString(),
    invitation_id: invitationId,
  };
}

/**
 * The institution if the caller has an access record for it, else 404 with `unauthorized_institution_access`
 * (also in the owner's trail when the institution exists). A malformed id is just an unknown one. `action`
 * is set only for the invitation and administrator endpoints.
 */
export async function requireVisible(
  caller: Caller,
  id: string | undefined,
  action?: "manage_invitations" | "manage_administrators",
): Promise<Visible> {
  const institution = isId(id) ? await repo.getInstitution(id) : undefined;
  if (caller.apiKey) {
    // An API key sees exactly its institution, with its super admin's rights within its scopes (docs/api-keys.md;
    // the JSON dialect has checked the route's scope): any other id is as unknown as to a stranger.
    if (institution && institution.id === caller.apiKey.institutionId)
      return { institution, role: "cohort_super_admin", isSuperAdmin: true };
  } else {
    const role = institution && memberRole(institution, caller.id);
    if (institution && role) return { institution, role, isSuperAdmin: institution.super_admin_id === caller.id };
  }
  const details = { attempted_institution_id: isId(id) ? id : requestValue(id), ...(action && { action }) };
  await recordRefusal(caller, auditEvent(caller, "unauthorized_institution_access", details, { owner: institution?.account_id }));
  throw new NotFound(messages.institutionNotFound);
}

/** The institution's super admin, else 403 with `insufficient_privileges` (`required_role: super_admin`, in the owner's trail too). */
export async function requireSuperAdminOf(caller: Caller, visible: Visible, action: string, message: string): Promise<void> {
  if (visible.isSuperAdmin) return;
  const { institution } = visible;
  const details = { action, required_role: "super_admin" as const, institution_id: institution.id };
  await recordRefusal(caller, auditEvent(caller, "insufficient_privileges", details, { owner: institution.account_id, institution }));
  throw new Forbidden(message);
}

/** Institutions visible to the caller, with the caller's role. One Query; for an API key, its one institution (one GetItem). */
export async function listInstitutions(caller: Caller): Promise<InstitutionList> {
  const key = caller.apiKey;
  const institution = key && (await repo.getInstitution(key.institutionId));
  // An API key acts as its institution's super admin, within its scopes (as `requireVisible` shows it).
  const records = key
    ? (institution ? [{ institution, role: "cohort_super_admin" as const }] : []).map((r) => ({ ...r, isSuperAdmin: true }))
    : (await listAccess(caller.id)).map((r) => ({ ...r, isSuperAdmin: r.institution.super_admin_id === caller.id }));
  return {
    institutions: records
      .map((r) => ({
        id: r.institution.id,
        name: r.institution.name,
        registration_number: r.institution.registration_number,
        contact_email: r.institution.contact_email,
        role: r.role,
        is_super_admin: r.isSuperAdmin,
        created_at: r.institution.created_at,
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  };
}

/**
 * One institution with the caller's role views and the effective settings, and its stored `version` beside
 * them (the handler's ETag; not part of the body). One GetItem.
 */
export async function showInstitution(caller: Caller, id: string | undefined): Promise<Versioned<InstitutionShown>> {
  const { institution, role, isSuperAdmin } = await requireVisible(caller, id);
  const settings = effectiveSettings(institution.settings);
  return { institution: toRecord(institution), role, is_super_admin: isSuperAdmin, settings, version: institution.version };
}

/**
 * 412 when the request's `If-Match` does not name the version just read. The write that follows holds its
 * condition on that same version, so a writer that got in between makes it fail, and the retry's fresh read
 * then answers 412 here: the check holds under races.
 */
export function requireVersion(institution: Institution, expected: VersionCheck | undefined): void {
  if (expected && !expected(institution.version)) throw new PreconditionFailed(messages.institutionChanged);
}

const nullIfBlank = (s: string | null | undefined) => (s === undefined ? undefined : s === null || s === "" ? null : s);

/** Applies whitelisted input over an institution (or over a new one, for create). */
function apply(base: Institution, input: InstitutionInput): Institution {
  const contactEmail = nullIfBlank(input.contact_email);
  const changes = {
    name: input.name,
    registration_number: nullIfBlank(input.registration_number),
    address: nullIfBlank(input.address),
    contact_email: contactEmail ? contactEmail.toLowerCase() : contactEmail,
    contact_phone: nullIfBlank(input.contact_phone),
  };
  const submitted = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  return { ...base, ...submitted, settings: { ...base.settings, ...input.settings } };
}

/** Creates an institution owned by the caller's account, with the caller as its super admin. One transaction. */
export async function createInstitution(caller: Caller, body: unknown): Promise<Versioned<InstitutionWritten>> {
  if (!caller.isCohortSuperAdmin) {
    const details = { action: "create_institution", required_role: "cohort_super_admin" as const };
    await recordRefusal(caller, auditEvent(caller, "insufficient_privileges", details));
    throw new Forbidden(messages.superAdminRequired);
  }
  const input = parseRoot(body, "institution", institutionCreate);
  return withRetries("Institution could not be created, please retry", async () => {
    const now = clock();
    const institution = apply(
      {
        id: newId(now.getTime()),
        name: input.name,
        registration_number: null,
        address: null,
        contact_email: null,
        contact_phone: null,
        settings: {},
        account_id: caller.accountId,
        super_admin_id: caller.id,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        version: 1,
        members: { [caller.id]: "cohort_super_admin" },
        cohort_count: 0,
      },
      input,
    );
    const event = auditEvent(caller, "institution_created", { institution_id: institution.id, name: institution.name }, { now });
    const creator = memberOf(caller, "cohort_super_admin", now, null);
    const result = await repo.insertInstitution(institution, creator, event);
    if (result.kind === "registration_number_taken") throw new ValidationFailed([TAKEN]);
    if (result.kind === "daily_limit") {
      const limit = config.accountDailyInstitutionLimit;
      await recordEvent(auditEvent(caller, "rate_limit_exceeded", { limit, scope: "institution_daily" }, { now }));
      throw new TooManyRequests(TOO_MANY_INSTITUTIONS, secondsUntil(nextDay(now), now));
    }
    if (result.kind === "retry") return RETRY;
    return { institution: toRecord(institution), message: "Institution created successfully", version: institution.version };
  });
}

/**
 * PATCH and PUT alike: applies the submitted whitelisted fields, if the stored version passes `expected`
 * (`If-Match`; 412 otherwise, after the 404 and 403 checks, before the body's). Returns the new `version`
 * beside the body. One read and one transaction (more under contention).
 */
export async function updateInstitution(
  caller: Caller,
  id: string | undefined,
  body: unknown,
  expected?: VersionCheck,
): Promise<Versioned<InstitutionWritten>> {
  return withRetries("Institution was changed concurrently, please retry", async () => {
    const visible = await requireVisible(caller, id);
    await requireSuperAdminOf(caller, visible, "update_institution", messages.onlySuperAdminsUpdate);
    requireVersion(visible.institution, expected);
    const input = parseRoot(body, "institution", institutionInput);
    const now = clock();
    const before = visible.institution;
    const after = { ...apply(before, input), updated_at: now.toISOString() };
    const changes = submittedKeys(body, "institution", WRITABLE_FIELDS);
    const event = auditEvent(
      caller,
      "institution_updated",
      { institution_id: after.id, changes },
      { now, owner: before.account_id, institution: after },
    );
    const result = await repo.storeInstitutionUpdate(before, after, event);
    if (result.kind === "ok")
      return { institution: toRecord(after), message: "Institution updated successfully", version: before.version + 1 };
    if (result.kind === "registration_number_taken") throw new ValidationFailed([TAKEN]);
    if (result.kind === "too_large") throw new ValidationFailed([TOO_MANY_FOR_CHANGE]);
    // "gone" goes round once more, so that the caller gets the same 404 (and event) as for any other unknown id.
    return RETRY;
  });
}

/** Creates a cohort in an institution the caller is super admin of. One read and one transaction. */
export async function createCohort(caller: Caller, institutionId: string | undefined, body: unknown): Promise<CohortCreated> {
  return withRetries("Cohort could not be created, please retry", async () => {
    const visible = await requireVisible(caller, institutionId);
    await requireSuperAdminOf(caller, visible, "create_cohort", "Only super admins can create cohorts");
    const input = parseRoot(body, "cohort", cohortInput);
    const now = clock();
    const { institution } = visible;
    const cohort = { id: newId(now.getTime()), institution_id: institution.id, name: input.name, created_at: now.toISOString() };
    const details = { institution_id: institution.id, cohort_id: cohort.id, name: cohort.name };
    const event = auditEvent(caller, "cohort_created", details, { now, owner: institution.account_id, institution });
    const result = await repo.insertCohort(cohort, event);
    if (result.kind === "gone") throw new NotFound(messages.institutionNotFound);
    if (result.kind === "retry") return RETRY;
    return { cohort: { id: cohort.id, name: cohort.name, created_at: cohort.created_at } };
  });
}

export const COHORT_NOT_FOUND = "Cohort not found";

/**
 * Deletes a cohort of an institution the caller is super admin of (docs/contract/institutions.md): institution among visible
 * (404 + event) → super admin (403 + event) → the cohort (404 `Cohort not found`; a malformed id is an unknown
 * one) → the delete and `cohort_deleted` in one transaction. Two GetItems (together) and one transaction.
 */
export async function deleteCohort(caller: Caller, institutionId: string | undefined, cohortId: string | undefined): Promise<Message> {
  return withRetries("Cohort could not be deleted, please retry", async () => {
    const [visible, cohort] = await Promise.all([
      requireVisible(caller, institutionId),
      isId(institutionId) && isId(cohortId) ? repo.getCohort(institutionId, cohortId) : undefined,
    ]);
    await requireSuperAdminOf(caller, visible, "destroy_cohort", "Only super admins can delete cohorts");
    if (!cohort) throw new NotFound(COHORT_NOT_FOUND);
    const { institution } = visible;
    const details = { institution_id: institution.id, cohort_id: cohort.id, name: cohort.name };
    const result = await repo.removeCohort(
      cohort,
      auditEvent(caller, "cohort_deleted", details, { owner: institution.account_id, institution }),
    );
    if (result.kind === "ok") return { message: `Cohort '${cohort.name}' deleted` };
    if (result.kind === "cohort_gone") throw new NotFound(COHORT_NOT_FOUND);
    // The institution went meanwhile: read again, for the same 404 (and event) as any unknown id.
    return RETRY;
  });
}

/** Cohorts of an institution visible to the caller. One GetItem and one Query. */
export async function listCohorts(caller: Caller, institutionId: string | undefined): Promise<CohortList> {
  const { institution } = await requireVisible(caller, institutionId);
  const cohorts = await repo.queryCohorts(institution.id);
  return { cohorts: cohorts.map(({ id, name, created_at }) => ({ id, name, created_at })) };
}
