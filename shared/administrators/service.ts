/**
 * Administrator use cases (docs/contract/administrators.md): list, change a role, remove (or leave), transfer. Check order:
 * look up among visible (404 + `unauthorized_institution_access`, action `manage_administrators`) → role
 * (403 + `insufficient_privileges`, `required_role: super_admin`) → body (400) → target (404
 * `Administrator not found`) → rule (422) → the change and its event (in the actor's and the owner's
 * trails) in one transaction, guarded by the institution's version, through the membership door
 * (shared/membership/).
 */
import * as v from "valibot";
import { KEYS_GRANT_ADMINS_ONLY, requireKeyMayGrant } from "../api-keys/grants.js";
import { auditEvent, type EventDetails, type EventType } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { BadRequest, messages, NotFound, Unprocessable } from "../errors.js";
import { isId } from "../ids.js";
import { type Institution, memberRole, TOO_MANY_FOR_CHANGE } from "../institutions/model.js";
import { requireSuperAdminOf, requireVisible, type Visible } from "../institutions/service.js";
import { type AccessRecord, commitMembership, MembershipChange } from "../membership/membership.js";
import { getAccess } from "../membership/repository.js";
import { PAGING_ERRORS, parseQuery } from "../paging.js";
import { RETRY, withRetries } from "../retry.js";
import type { Role } from "../roles.js";
import { DIRECTORY_MANAGED } from "../scim/model.js";
import { memberIndex } from "../tables.js";
import * as repo from "./repository.js";
import type { AdministratorList, AdministratorRemoved, AdministratorUpdated, AdministratorView } from "./results.js";
import { administratorListQuery, roleChangeInput } from "./schema.js";

export const ACTION = "manage_administrators";
export const ADMINISTRATOR_NOT_FOUND = "Administrator not found";
export const ONLY_SUPER_ADMIN_MANAGES = "Only the institution's super admin can manage administrators";
export const SUPER_ADMIN_ROLE_FIXED = "The super admin's role cannot be changed";
export const SUPER_ADMIN_NOT_REMOVABLE = "The super admin cannot be removed; transfer the institution first";
export const TRANSFER_TO_SELF = "You are already the institution's super admin";
export const TRANSFER_OTHER_ACCOUNT = "The new super admin must belong to the institution's account";
export const TRANSFER_NEEDS_SUPER_ADMIN_ROLE = "The new super admin must have the role cohort_super_admin";

type Query = Readonly<Record<string, string | undefined>>;

/** An administrator as the list and the role change answer. */
export function toAdministrator(record: AccessRecord, institution: Institution): AdministratorView {
  return {
    user_id: record.user_id,
    email: record.email ?? "",
    name: record.name ?? null,
    account_id: record.user_account_id ?? record.account_id,
    role: record.role,
    is_super_admin: institution.super_admin_id === record.user_id,
    added_at: record.added_at ?? institution.created_at,
    invitation_id: record.invitation_id ?? null,
    managed_by: directoryManaged(record, institution) ? "scim" : null,
  };
}

/** The directory manages the administrator while the connection that gave the access is the institution's (docs/scim.md). */
const directoryManaged = (record: AccessRecord, institution: Institution) =>
  record.managed_by === "scim" && record.scim_connection !== undefined && record.scim_connection === institution.scim_connection_id;

/** An event about the institution of `visible`: in the actor's trail and its owner's. */
export const institutionEvent = <T extends EventType>(caller: Caller, visible: Visible, type: T, details: EventDetails[T], now: Date) =>
  auditEvent(caller, type, details, { now, owner: visible.institution.account_id, institution: visible.institution });

/** A user id from a path or body that could name a member (anything else is as unknown as a stranger's). */
const plausibleUserId = (id: string | undefined): id is string => typeof id === "string" && id !== "" && id.length <= 128;

/** The institution and, read alongside it (one round trip), the access record of `userId` in it. */
export async function lookUp(caller: Caller, institutionId: string | undefined, userId: string | undefined) {
  const [visible, record] = await Promise.all([
    requireVisible(caller, institutionId, ACTION),
    // Only a well-formed institution id reaches a key: anything else is an unknown institution (and too long a key is a 500).
    plausibleUserId(userId) && isId(institutionId) ? getAccess(userId, institutionId) : undefined,
  ]);
  return { visible, record };
}

/** The target among the institution's administrators (its seat and its record), else 404. */
export function requireTarget(visible: Visible, userId: string | undefined, record: AccessRecord | undefined): AccessRecord {
  if (!plausibleUserId(userId) || !memberRole(visible.institution, userId) || !record) throw new NotFound(ADMINISTRATOR_NOT_FOUND);
  return record;
}

/** The super admin only: 403 + `insufficient_privileges` with `action: manage_administrators`. */
export const requireManaging = (caller: Caller, visible: Visible) => requireSuperAdminOf(caller, visible, ACTION, ONLY_SUPER_ADMIN_MANAGES);

/** The list's cursor: the encoded index position of the last administrator returned. */
const encodeCursor = (order: string) => Buffer.from(order, "utf8").toString("base64url");

function decodeCursor(cursor: string): { order: string; userId: string } {
  const order = Buffer.from(cursor, "base64url").toString("utf8");
  const userId = memberIndex.userOf(order);
  // Exactly the encoding of a position: base64url decoding skips what it cannot read, this does not.
  if (!userId || encodeCursor(order) !== cursor || order.length > 700 || /\p{Cc}/u.test(order)) throw new BadRequest(PAGING_ERRORS.cursor);
  return { order, userId };
}

/**
 * A page of an institution's administrators, ordered by e-mail, for any administrator of it. One GetItem and
 * one Query of the administrators index that reads only the page (and one more record, to know whether a
 * next page exists).
 */
export async function listAdministrators(caller: Caller, institutionId: string | undefined, query: Query): Promise<AdministratorList> {
  const { institution } = await requireVisible(caller, institutionId, ACTION);
  const q = parseQuery(administratorListQuery, query);
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  const page = await repo.listMembers(institution.id, q.limit + 1, after);
  const members = page.members.slice(0, q.limit);
  const last = members.at(-1);
  const more = page.members.length > q.limit || page.more;
  return {
    administrators: members.map((m) => toAdministrator(m, institution)),
    meta: {
      count: members.length,
      limit: q.limit,
      next_cursor: last && more ? encodeCursor(memberIndex.order(last.email ?? "", last.user_id)) : null,
    },
  };
}

/**
 * Changes an administrator's role; the institution's super admin only, and never its own role. The same
 * role again changes nothing and records nothing. One read round trip and one transaction.
 */
export async function changeAdministratorRole(
  caller: Caller,
  institutionId: string | undefined,
  userId: string | undefined,
  body: unknown,
): Promise<AdministratorUpdated> {
  return withRetries("Administrator was changed concurrently, please retry", async () => {
    const { visible, record } = await lookUp(caller, institutionId, userId);
    await requireManaging(caller, visible);
    const parsed = v.safeParse(roleChangeInput, body);
    if (!parsed.success) throw new BadRequest(messages.invalidRole);
    const role: Role = parsed.output.role;
    // An API key (docs/api-keys.md) never makes a super admin: that stays with a person.
    await requireKeyMayGrant(caller, visible, role, ACTION, KEYS_GRANT_ADMINS_ONLY);
    const target = requireTarget(visible, userId, record);
    const { institution } = visible;
    if (institution.super_admin_id === target.user_id) throw new Unprocessable(SUPER_ADMIN_ROLE_FIXED);
    if (directoryManaged(target, institution)) throw new Unprocessable(DIRECTORY_MANAGED);
    const from = memberRole(institution, target.user_id) as Role;
    const changed = { ...target, role };
    if (from === role && target.role === role) return { administrator: toAdministrator(changed, institution), message: "Role updated" };
    const change = new MembershipChange(institution, { actor: caller, now: clock(), owner: institution.account_id });
    const step = change.changeRole(target.user_id, role);
    if (step.kind === "owner_out_of_reach") throw new Unprocessable(SUPER_ADMIN_ROLE_FIXED);
    if (step.kind !== "ok") return RETRY;
    change.record("administrator_role_changed", {
      institution_id: institution.id,
      user_id: target.user_id,
      ...(target.email && { email: target.email }),
      from,
      to: role,
    });
    if ((await commitMembership(change)).kind !== "ok") return RETRY;
    return { administrator: toAdministrator(changed, institution), message: "Role updated" };
  });
}

/**
 * Removes an administrator: the super admin may remove anyone but itself, any other administrator only
 * itself (leaving). Through the membership door: its seat, access record and e-mail marker go and every active
 * invitation it sent is revoked (`invitation_revoked`, reason `administrator_removed`), with
 * `administrator_removed`, in one transaction (the revocations that do not fit in it first, in transactions of
 * their own); the person can be invited again.
 */
export async function removeAdministrator(
  caller: Caller,
  institutionId: string | undefined,
  userId: string | undefined,
): Promise<AdministratorRemoved> {
  return withRetries("Administrator was changed concurrently, please retry", async () => {
    const { visible, record } = await lookUp(caller, institutionId, userId);
    const self = userId === caller.id;
    if (!self) await requireManaging(caller, visible);
    const target = requireTarget(visible, userId, record);
    const { institution } = visible;
    if (institution.super_admin_id === target.user_id) throw new Unprocessable(SUPER_ADMIN_NOT_REMOVABLE);
    if (directoryManaged(target, institution)) throw new Unprocessable(DIRECTORY_MANAGED);

    const change = new MembershipChange(institution, { actor: caller, now: clock(), owner: institution.account_id });
    const step = await change.remove(target);
    if (step.kind === "owner_out_of_reach") throw new Unprocessable(SUPER_ADMIN_NOT_REMOVABLE);
    if (step.kind !== "ok") return RETRY;
    change.record("administrator_removed", { institution_id: institution.id, user_id: target.user_id, email: target.email ?? "", self });
    const written = await commitMembership(change);
    if (written.kind === "too_large") throw new Unprocessable(TOO_MANY_FOR_CHANGE);
    if (written.kind === "retry") return RETRY;
    return { message: "Administrator removed", revoked_invitations: change.revoked };
  });
}
