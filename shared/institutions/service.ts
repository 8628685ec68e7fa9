/**
 * Institution use cases, in the contract's check order: look up among visible (404 + event) → role
 * (403 + event) → body (400/422) → the change and its event in one transaction.
 */
import { auditItems, draftAudit, recordEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { Conflict, Forbidden, messages, NotFound, Unprocessable, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { whileInFlight } from "../overlap.js";
import type { Role } from "../roles.js";
import { isoTime } from "../time.js";
import { parseRoot, submittedKeys } from "../validation.js";
import { effectiveSettings, type Institution, toRecord, WRITABLE_FIELDS } from "./model.js";
import * as repo from "./repository.js";
import { cohortInput, type InstitutionInput, institutionCreate, institutionInput } from "./schema.js";

/** Optimistic writes retry this often when another writer changed the institution in between. */
const MAX_ATTEMPTS = 4;
const TAKEN = "Registration number has already been taken";

export interface Visible {
  institution: Institution;
  role: Role;
  isSuperAdmin: boolean;
}

/** The institution if the caller has an access record for it. A malformed id is just an unknown one. */
export async function findVisible(caller: Caller, id: string | undefined): Promise<Visible | undefined> {
  if (!isId(id)) return undefined;
  const institution = await repo.getInstitution(id);
  const role = institution?.members[caller.id];
  if (!institution || !role) return undefined;
  return { institution, role, isSuperAdmin: institution.super_admin_id === caller.id };
}

/**
 * Like `findVisible`, but a missing or invisible institution records `unauthorized_institution_access`
 * and throws 404. `action` is set only for the invitation endpoints (`manage_invitations`).
 */
export async function requireVisible(caller: Caller, id: string | undefined, action?: "manage_invitations"): Promise<Visible> {
  const found = await findVisible(caller, id);
  if (found) return found;
  await recordEvent(caller, {
    type: "unauthorized_institution_access",
    details: { attempted_institution_id: id ?? null, ...(action && { action }) },
  });
  throw new NotFound(messages.institutionNotFound);
}

async function requireSuperAdminOf(caller: Caller, v: Visible, action: string, message: string): Promise<void> {
  if (v.isSuperAdmin) return;
  await recordEvent(caller, {
    type: "insufficient_privileges",
    details: { action, required_role: "super_admin", institution_id: v.institution.id },
  });
  throw new Forbidden(message);
}

/** Institutions visible to the caller, with the caller's role. One Query. */
export async function listInstitutions(caller: Caller) {
  const records = await repo.listAccess(caller.id);
  return {
    institutions: records
      .map((r) => ({
        id: r.institution.id,
        name: r.institution.name,
        registration_number: r.institution.registration_number,
        contact_email: r.institution.contact_email,
        role: r.role,
        is_super_admin: r.institution.super_admin_id === caller.id,
        created_at: r.institution.created_at,
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  };
}

/** One institution with the caller's role views and the effective settings. One GetItem. */
export async function showInstitution(caller: Caller, id: string | undefined) {
  const v = await requireVisible(caller, id);
  return {
    institution: toRecord(v.institution),
    role: v.role,
    is_super_admin: v.isSuperAdmin,
    settings: effectiveSettings(v.institution.settings),
  };
}

const nullIfBlank = (s: string | null | undefined) => (s === undefined ? undefined : s === null || s === "" ? null : s);

/** Applies whitelisted input over an institution (or over nothing, for create). */
function apply(base: Institution, input: InstitutionInput): Institution {
  const next = { ...base, settings: { ...base.settings, ...input.settings } };
  for (const f of ["registration_number", "address", "contact_email", "contact_phone"] as const) {
    const value = nullIfBlank(input[f]);
    if (value !== undefined) next[f] = f === "contact_email" && value ? value.toLowerCase() : value;
  }
  if (input.name !== undefined) next.name = input.name;
  return next;
}

/** Creates an institution owned by the caller's account, with the caller as its super admin. One transaction. */
export async function createInstitution(caller: Caller, body: unknown) {
  if (!caller.isCohortSuperAdmin) {
    await recordEvent(caller, {
      type: "insufficient_privileges",
      details: { action: "create_institution", required_role: "cohort_super_admin" },
    });
    throw new Forbidden(messages.superAdminRequired);
  }
  const input = parseRoot(body, "institution", institutionCreate);
  const at = new Date();
  const now = isoTime(at);
  const institution = apply(
    {
      id: newId(at.getTime()),
      name: input.name,
      registration_number: null,
      address: null,
      contact_email: null,
      contact_phone: null,
      settings: {},
      account_id: caller.accountId,
      super_admin_id: caller.id,
      created_at: now,
      updated_at: now,
      version: 1,
      members: { [caller.id]: "cohort_super_admin" },
      cohort_count: 0,
    },
    input,
  );
  const audit = auditItems(
    caller,
    { type: "institution_created", details: { institution_id: institution.id, name: institution.name } },
    at,
  );
  const result = await repo.insertInstitution(institution, audit);
  if (result === "registration_number_taken") throw new ValidationFailed([TAKEN]);
  if (result !== "ok") throw new Conflict("Institution could not be created, please retry");
  return { institution: toRecord(institution), message: "Institution created successfully" };
}

/** PATCH and PUT alike: applies the submitted whitelisted fields. One read and one transaction (more under contention). */
export async function updateInstitution(caller: Caller, id: string | undefined, body: unknown) {
  for (let attempt = 1; ; attempt++) {
    const now = new Date();
    const [v, completeAudit] = await Promise.all([
      requireVisible(caller, id),
      whileInFlight(() => draftAudit(caller, "institution_updated", now)),
    ]);
    await requireSuperAdminOf(caller, v, "update_institution", messages.onlySuperAdminsUpdate);
    const input = parseRoot(body, "institution", institutionInput);
    const after = { ...apply(v.institution, input), updated_at: isoTime(now) };
    const audit = completeAudit({ institution_id: after.id, changes: submittedKeys(body, "institution", WRITABLE_FIELDS) });
    const result = await repo.updateInstitution(v.institution, after, audit);
    if (result === "ok") return { institution: toRecord(after), message: "Institution updated successfully" };
    if (result === "registration_number_taken") throw new ValidationFailed([TAKEN]);
    // "gone" loops once more so that the caller gets the same 404 (and event) as any other unknown id.
    if (attempt >= MAX_ATTEMPTS) throw new Conflict("Institution was changed concurrently, please retry");
  }
}

/** Deletes an institution that has no cohort. One read and one transaction. */
export async function deleteInstitution(caller: Caller, id: string | undefined) {
  for (let attempt = 1; ; attempt++) {
    const [v, completeAudit] = await Promise.all([
      requireVisible(caller, id),
      whileInFlight(() => draftAudit(caller, "institution_deleted")),
    ]);
    await requireSuperAdminOf(caller, v, "destroy_institution", messages.onlySuperAdminsDelete);
    const name = v.institution.name;
    const audit = completeAudit({ institution_name: name });
    const result = await repo.deleteInstitution(v.institution, audit);
    if (result === "ok") return { message: `Institution '${name}' deleted successfully` };
    if (result === "has_cohorts") throw new Unprocessable("Cannot delete institution with existing cohorts");
    if (attempt >= MAX_ATTEMPTS) throw new Conflict("Institution was changed concurrently, please retry");
  }
}

/** Creates a cohort in an institution the caller is super admin of. One read and one transaction. */
export async function createCohort(caller: Caller, institutionId: string | undefined, body: unknown) {
  const now = new Date();
  const [v, completeAudit] = await Promise.all([
    requireVisible(caller, institutionId),
    whileInFlight(() => draftAudit(caller, "cohort_created", now)),
  ]);
  await requireSuperAdminOf(caller, v, "create_cohort", "Only super admins can create cohorts");
  const input = parseRoot(body, "cohort", cohortInput);
  const cohort = { id: newId(now.getTime()), institution_id: v.institution.id, name: input.name, created_at: isoTime(now) };
  const audit = completeAudit({ institution_id: cohort.institution_id, cohort_id: cohort.id, name: cohort.name });
  const result = await repo.insertCohort(cohort, audit);
  if (result === "gone") throw new NotFound(messages.institutionNotFound);
  if (result !== "ok") throw new Conflict("Cohort could not be created, please retry");
  return { cohort: { id: cohort.id, name: cohort.name, created_at: cohort.created_at } };
}

/** Cohorts of an institution visible to the caller. One GetItem and one Query. */
export async function listCohorts(caller: Caller, institutionId: string | undefined) {
  const v = await requireVisible(caller, institutionId);
  const cohorts = await repo.listCohorts(v.institution.id);
  return { cohorts: cohorts.map(({ id, name, created_at }) => ({ id, name, created_at })) };
}
