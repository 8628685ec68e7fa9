/**
 * Invitation use cases that send no mail: list, revoke, accept; and the checks every invitation endpoint
 * shares. Check order (DESIGN.md §2): institution lookup (404 + event) → managing check (403 + event) →
 * the invitation → its state → the change and its event in one transaction.
 */
import * as v from "valibot";
import { draftAudit, recordEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { Conflict, Forbidden, messages, NotFound, Unprocessable } from "../errors.js";
import { isId } from "../ids.js";
import { INSTITUTION_FULL, isFull } from "../institutions/model.js";
import { getInstitution } from "../institutions/repository.js";
import { requireVisible, type Visible } from "../institutions/service.js";
import { whileInFlight } from "../overlap.js";
import type { Role } from "../roles.js";
import { isoTime } from "../time.js";
import { type Invitation, statusOf, strongerRole, toListItem } from "./model.js";
import * as repo from "./repository.js";
import { acceptInput, invitationParams } from "./schema.js";
import { hashToken } from "./token.js";

export const ONLY_SUPER_ADMIN_INVITES_SUPER_ADMINS = "Only the institution's super admin can invite super admins";
export const INVALID_INVITATION = "Invalid or expired invitation";

/** Writes that lost a race are retried from a fresh read this often before the caller gets 409. */
export const MAX_ATTEMPTS = 8;

/** Small random pause before a retry, so that racing requests do not collide again in lockstep. */
export const backoff = (attempt: number) => new Promise((r) => setTimeout(r, 5 + Math.random() * 15 * attempt));

export type TokenFailureReason = "unknown" | "expired" | "used" | "revoked" | "email_mismatch";

/**
 * The institution, looked up among those visible to the caller (404 + `unauthorized_institution_access`
 * with `action: manage_invitations`), then the managing check: cohort-super-admin status and access role
 * `cohort_super_admin` on it (403 + `insufficient_privileges`).
 */
export async function requireManaging(caller: Caller, institutionId: string | undefined): Promise<Visible> {
  const v = await requireVisible(caller, institutionId, "manage_invitations");
  if (caller.isCohortSuperAdmin && v.role === "cohort_super_admin") return v;
  await recordEvent(caller, {
    type: "insufficient_privileges",
    details: { action: "manage_invitations", required_role: "cohort_super_admin", institution_id: v.institution.id },
  });
  throw new Forbidden(messages.superAdminRequired);
}

/**
 * Only the institution's own super admin may hand out the super-admin role (403). The refusal is recorded
 * as `insufficient_privileges` with `required_role: super_admin`, like every other refused role check.
 */
export async function requireMayInvite(caller: Caller, v: Visible, role: Role): Promise<void> {
  if (role !== "cohort_super_admin" || v.isSuperAdmin) return;
  await recordEvent(caller, {
    type: "insufficient_privileges",
    details: { action: "manage_invitations", required_role: "super_admin", institution_id: v.institution.id },
  });
  throw new Forbidden(ONLY_SUPER_ADMIN_INVITES_SUPER_ADMINS);
}

/**
 * The invitation by id within the institution, or undefined; a malformed id is just an unknown one. Read
 * alongside the institution lookup (one round trip), but judged only after it (`requireInvitation`).
 */
export async function lookUpInvitation(institutionId: string | undefined, id: string | undefined): Promise<Invitation | undefined> {
  return isId(institutionId) && isId(id) ? repo.getInvitation(institutionId, id) : undefined;
}

/** 404 unless the invitation was found. */
export function requireInvitation(inv: Invitation | undefined): Invitation {
  if (!inv) throw new NotFound(messages.invitationNotFound);
  return inv;
}

/**
 * Invitations of an institution the caller has access to (no managing check): with `show_used=true` only
 * used ones, otherwise only active ones; newest first. One GetItem and one Query.
 */
export async function listInvitations(caller: Caller, query: Readonly<Record<string, string | undefined>>, body?: unknown) {
  const params = invitationParams(query, body);
  const v = await requireVisible(caller, params.institution_id, "manage_invitations");
  const showUsed = query.show_used === "true";
  const now = new Date();
  const all = await repo.listInvitations(v.institution.id);
  return {
    invitations: all
      .filter((inv) => (showUsed ? inv.used_at !== undefined : statusOf(inv, now) === "active"))
      .sort((a, b) => b.sent_at.localeCompare(a.sent_at) || b.id.localeCompare(a.id))
      .map((inv) => toListItem(inv, now)),
  };
}

/**
 * Revokes an active invitation: the record stays with `revoked_at`, its slot is freed, `invitation_revoked`
 * is written with it. Used, expired or already revoked → 422. The write is conditional on the invitation
 * still being active, so a concurrent accept and revoke cannot both succeed.
 */
export async function revokeInvitation(
  caller: Caller,
  id: string | undefined,
  query: Readonly<Record<string, string | undefined>>,
  body: unknown,
) {
  const institutionId = invitationParams(query, body).institution_id;
  for (let attempt = 1; ; attempt++) {
    const now = new Date();
    // The event is drafted while the reads are in flight (as resend does, both reads again on a retry).
    const [, found, completeAudit] = await Promise.all([
      requireManaging(caller, institutionId),
      lookUpInvitation(institutionId, id),
      whileInFlight(() => draftAudit(caller, "invitation_revoked", now)),
    ]);
    const inv = requireInvitation(found);
    if (statusOf(inv, now) !== "active") throw new Unprocessable(messages.failedToRevoke);
    const audit = completeAudit({ invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email });
    const out = await repo.revokeInvitation(inv, { revokedAt: isoTime(now), revokedBy: caller.id }, audit, now);
    if (out.kind === "ok") return { message: "Invitation revoked" };
    if (out.kind === "refused") {
      if (!out.current) throw new NotFound(messages.invitationNotFound);
      throw new Unprocessable(messages.failedToRevoke);
    }
    if (attempt >= MAX_ATTEMPTS) throw new Conflict("Invitation was changed concurrently, please retry");
    await backoff(attempt);
  }
}

/** Records `token_validation_failure` (the reason only, never the token) and refuses with the one fixed answer. */
async function refuse(caller: Caller, reason: TokenFailureReason): Promise<never> {
  await recordEvent(caller, { type: "token_validation_failure", details: { reason } });
  throw new Unprocessable(INVALID_INVITATION);
}

function failureReason(inv: Invitation, now: Date): TokenFailureReason | undefined {
  const status = statusOf(inv, now);
  return status === "active" ? undefined : status;
}

/**
 * Accepts an invitation with its token, for the user whose verified `email` claim is the invited e-mail.
 * One transaction marks it used (only while active and this token is current: single use under
 * concurrency), frees its slot, records the member's e-mail, grants the role and writes
 * `invitation_accepted`. A user who already has access keeps the stronger of the two roles (a super admin
 * is never demoted by accepting an admin invitation); the invitation is still consumed.
 * Every token failure is 422 with `token_validation_failure {reason}` and changes nothing; a new member
 * of a full institution (`MAX_MEMBERS`) gets 422 `{error}`, and the invitation stays active.
 */
export async function acceptInvitation(caller: Caller, body: unknown) {
  const parsed = v.safeParse(acceptInput, body);
  if (!parsed.success) return refuse(caller, "unknown");
  const tokenHash = hashToken(parsed.output.token);
  for (let attempt = 1; ; attempt++) {
    const ref = await repo.getTokenRef(tokenHash);
    if (!ref) return refuse(caller, "unknown");
    const now = new Date();
    // Its event depends on no read but for its details: drafted while the invitation and institution are
    // read, and used only once every check below has passed.
    const [inv, institution, completeAudit] = await Promise.all([
      repo.getInvitation(ref.institution_id, ref.invitation_id),
      getInstitution(ref.institution_id),
      whileInFlight(() => draftAudit(caller, "invitation_accepted", now)),
    ]);
    // An institution deleted since, or a token superseded by a resend, is as unknown as a made-up one.
    if (!inv || !institution || inv.token_hash !== tokenHash) return refuse(caller, "unknown");
    const reason = failureReason(inv, now) ?? (caller.email !== "" && caller.email === inv.email ? undefined : "email_mismatch");
    if (reason) return refuse(caller, reason);

    const current = institution.members[caller.id];
    // Checked again at accept (invitations pending when the last seat went stay pending, unused); the
    // version guard on the grant makes two accepts racing for the last seat read again, so one gets it.
    if (current === undefined && isFull(institution)) throw new Unprocessable(INSTITUTION_FULL);
    const role = strongerRole(current, inv.role);
    const audit = completeAudit({ invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email, role });
    const out = await repo.useInvitation(
      inv,
      { tokenHash, userId: caller.id, usedAt: isoTime(now), institution, grant: role === current ? undefined : role },
      audit,
      now,
    );
    if (out.kind === "ok") {
      return {
        institution: { id: institution.id, name: institution.name },
        role,
        message: current === role ? `Invitation accepted; you already had access to ${institution.name}` : `Invitation accepted`,
      };
    }
    if (out.kind === "refused") {
      const lost = out.current && out.current.token_hash === tokenHash ? failureReason(out.current, new Date()) : "unknown";
      if (lost) return refuse(caller, lost);
    }
    // The institution changed under us (version) or another transaction held an item: read again.
    if (attempt >= MAX_ATTEMPTS) throw new Conflict("Invitation could not be accepted, please retry");
    await backoff(attempt);
  }
}
