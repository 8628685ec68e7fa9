/**
 * Invitation use cases that send no mail: list, revoke, accept; and the checks every invitation endpoint
 * shares. Check order (docs/contract/README.md#identity-and-access): institution lookup (404 + event) → managing check (403 + event) →
 * the invitation → its state → the change and its event in one transaction.
 */
import * as v from "valibot";
import { KEYS_INVITE_ADMINS_ONLY, requireKeyMayGrant } from "../api-keys/grants.js";
import { isKeyActorId } from "../api-keys/model.js";
import { type AuditEvent, auditEvent, type EventDetails, type EventType } from "../audit.js";
import { actingFor, type Caller, VISITOR_ACCOUNT } from "../caller.js";
import { now as clock } from "../clock.js";
import { Conflict, Forbidden, messages, NotFound, Unprocessable } from "../errors.js";
import { isId } from "../ids.js";
import { INSTITUTION_FULL, type Institution, memberRole } from "../institutions/model.js";
import { getInstitution } from "../institutions/repository.js";
import { requireVisible, type Visible } from "../institutions/service.js";
import { MembershipChange } from "../membership/membership.js";
import { decodeCursor, encodeCursor, parseQuery } from "../paging.js";
import { recordRefusal } from "../refusals.js";
import type { Message } from "../results.js";
import { RETRY, withRetries } from "../retry.js";
import type { Role } from "../roles.js";
import { invitationStateIndex } from "../tables.js";
import { inviterName } from "./message.js";
import { type Invitation, statusOf, strongerRole, toListItem } from "./model.js";
import * as repo from "./repository.js";
import type { InvitationAccepted, InvitationList, InvitationPreview } from "./results.js";
import { acceptInput, invitationListQuery, invitationParams } from "./schema.js";
import { hashToken } from "./token.js";

/** The API document's schemas: what each use case answers is typed by the contract. */

export const ONLY_SUPER_ADMIN_INVITES_SUPER_ADMINS = "Only the institution's super admin can invite super admins";
export const INVALID_INVITATION = "Invalid or expired invitation";
export const ALREADY_ACCEPTED = "Invitation already accepted";

/**
 * 409 `{error, institution: {name}}`: the invitation was used by the one asking (docs/joining.md: reopening the
 * link you accepted). Nothing is recorded: it is no failed token, and it must not feed the alerts.
 */
export class AlreadyAccepted extends Conflict {
  constructor(readonly institutionName: string) {
    super(ALREADY_ACCEPTED);
  }
  override body() {
    return { error: this.message, institution: { name: this.institutionName } };
  }
}

export type TokenFailureReason = "unknown" | "expired" | "used" | "revoked" | "email_mismatch" | "email_unverified";

/**
 * Whether the caller is the invitee: its `email` claim is the invitation's e-mail and the identity
 * provider verified it (an unverified address proves nothing about who reads that mailbox).
 */
export function inviteeMismatch(caller: Caller, inv: Pick<Invitation, "email">): TokenFailureReason | undefined {
  if (caller.email === "" || caller.email !== inv.email) return "email_mismatch";
  return caller.emailVerified ? undefined : "email_unverified";
}

/** An event about `visible`'s institution: recorded in its owner's trail too. */
export function institutionEvent<T extends EventType>(caller: Caller, visible: Visible, type: T, details: EventDetails[T], now?: Date) {
  return auditEvent(caller, type, details, { now, owner: visible.institution.account_id, institution: visible.institution });
}

/**
 * The institution, looked up among those visible to the caller (404 + `unauthorized_institution_access`
 * with `action: manage_invitations`), then the managing check: cohort-super-admin status and access role
 * `cohort_super_admin` on it (403 + `insufficient_privileges`).
 */
export async function requireManaging(caller: Caller, institutionId: string | undefined): Promise<Visible> {
  const visible = await requireVisible(caller, institutionId, "manage_invitations");
  // An API key has its scope for this (the JSON dialect checked it) and sees only its own institution.
  if (caller.apiKey || (caller.isCohortSuperAdmin && visible.role === "cohort_super_admin")) return visible;
  const details = { action: "manage_invitations", required_role: "cohort_super_admin" as const, institution_id: visible.institution.id };
  await recordRefusal(caller, institutionEvent(caller, visible, "insufficient_privileges", details));
  throw new Forbidden(messages.superAdminRequired);
}

/**
 * Only the institution's own super admin may hand out the super-admin role (403). The refusal is recorded
 * as `insufficient_privileges` with `required_role: super_admin`, like every other refused role check.
 */
export async function requireMayInvite(caller: Caller, visible: Visible, role: Role): Promise<void> {
  // An API key (docs/api-keys.md) invites cohort_admin only: inviting a super admin stays with a person.
  await requireKeyMayGrant(caller, visible, role, "manage_invitations", KEYS_INVITE_ADMINS_ONLY);
  if (role !== "cohort_super_admin" || visible.isSuperAdmin) return;
  const details = { action: "manage_invitations", required_role: "super_admin" as const, institution_id: visible.institution.id };
  await recordRefusal(caller, institutionEvent(caller, visible, "insufficient_privileges", details));
  throw new Forbidden(ONLY_SUPER_ADMIN_INVITES_SUPER_ADMINS);
}

/**
 * Whether an invitation's inviter still vouches for it: a person while an administrator of the institution (their
 * invitations went with them); an API key's invitation is the institution's, whatever became of the key since.
 */
export const inviterStands = (institution: Institution, inv: Pick<Invitation, "created_by_id">): boolean =>
  isKeyActorId(inv.created_by_id) || memberRole(institution, inv.created_by_id) !== undefined;

/**
 * The institution the caller manages and the invitation in it, read together (one round trip) but judged
 * in the contract's order: institution (404/403), then the invitation (404; a malformed id is an unknown one).
 */
export async function requireManagedInvitation(
  caller: Caller,
  institutionId: string | undefined,
  id: string | undefined,
): Promise<{ visible: Visible; invitation: Invitation }> {
  const [visible, invitation] = await Promise.all([
    requireManaging(caller, institutionId),
    isId(institutionId) && isId(id) ? repo.getInvitation(institutionId, id) : undefined,
  ]);
  if (!invitation) throw new NotFound(messages.invitationNotFound);
  return { visible, invitation };
}

/**
 * A page of the invitations of an institution the caller has access to (no managing check): with
 * `show_used=true` only used ones, otherwise only active ones; newest first. One GetItem and one Query that
 * reads only the page.
 */
export async function listInvitations(
  caller: Caller,
  query: Readonly<Record<string, string | undefined>>,
  body?: unknown,
): Promise<InvitationList> {
  const params = invitationParams(query, body);
  const { institution } = await requireVisible(caller, params.institution_id, "manage_invitations");
  const q = parseQuery(invitationListQuery, query);
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor).position;
  const now = clock();
  const state = q.show_used === "true" ? "used" : "active";
  // One more than the page tells whether a next page exists.
  const page = await repo.queryInvitationPage(institution.id, state, q.limit + 1, now, after);
  const invitations = page.invitations.slice(0, q.limit);
  const last = invitations.at(-1);
  const more = page.invitations.length > q.limit || page.more;
  return {
    invitations: invitations.map((inv) => toListItem(inv, now)),
    meta: {
      count: invitations.length,
      limit: q.limit,
      next_cursor: last && more ? encodeCursor(invitationStateIndex.order(last.expires_at, last.id)) : null,
    },
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
): Promise<Message> {
  const institutionId = invitationParams(query, body).institution_id;
  return withRetries("Invitation was changed concurrently, please retry", async () => {
    const { visible, invitation } = await requireManagedInvitation(caller, institutionId, id);
    const now = clock();
    if (statusOf(invitation, now) !== "active") throw new Unprocessable(messages.failedToRevoke);
    const details = { invitation_id: invitation.id, institution_id: invitation.institution_id, email: invitation.email };
    const event = institutionEvent(caller, visible, "invitation_revoked", details, now);
    const out = await repo.markRevoked(invitation, { revokedBy: caller.id }, event);
    if (out.kind === "ok") return { message: "Invitation revoked" };
    if (out.kind === "refused") {
      if (!out.current) throw new NotFound(messages.invitationNotFound);
      throw new Unprocessable(messages.failedToRevoke);
    }
    return RETRY;
  });
}

/** Records `token_validation_failure` (the reason only, never the token) and refuses with the one fixed answer. */
export async function refuse(caller: Caller, reason: TokenFailureReason, owner?: string): Promise<never> {
  // A visitor (no token) acts toward the invited institution: its failure is recorded in the owner's trail alone.
  const actor = caller.accountId === VISITOR_ACCOUNT && owner !== undefined ? actingFor(caller, owner) : caller;
  await recordRefusal(actor, auditEvent(actor, "token_validation_failure", { reason }, { owner }));
  throw new Unprocessable(INVALID_INVITATION);
}

export function failureReason(inv: Invitation, now: Date): TokenFailureReason | undefined {
  const status = statusOf(inv, now);
  return status === "active" ? undefined : status;
}

/**
 * Why `caller` may not use `inv` now, if it may not: its state, an e-mail that is not the invited one, or
 * an inviter who is no longer an administrator (their invitations were revoked with them; one that a
 * removal could not see yet is as revoked).
 */
function tokenFailure(caller: Caller, inv: Invitation, institution: Institution, now: Date): TokenFailureReason | undefined {
  return failureReason(inv, now) ?? inviteeMismatch(caller, inv) ?? (inviterStands(institution, inv) ? undefined : "revoked");
}

/**
 * The invitee reopening an invitation it has used already: 409 "already accepted", nothing recorded. Anyone
 * else presenting a used token is refused as before (422 + `token_validation_failure`).
 */
function requireUnusedBy(caller: Caller, inv: Invitation, institution: Institution): void {
  if (inv.used_at !== undefined && inv.revoked_at === undefined && inv.used_by === caller.id) throw new AlreadyAccepted(institution.name);
}

/** The invitation a token names, with its institution, when the token is current; else refused as `unknown`. */
export async function invitationOfToken(caller: Caller, tokenHash: string): Promise<{ inv: Invitation; institution: Institution }> {
  const ref = await repo.getTokenRef(tokenHash);
  if (!ref) return refuse(caller, "unknown");
  const [inv, institution] = await Promise.all([
    repo.getInvitation(ref.institution_id, ref.invitation_id),
    getInstitution(ref.institution_id),
  ]);
  // An institution deleted since, or a token superseded by a resend, is as unknown as a made-up one.
  if (!inv || !institution || inv.token_hash !== tokenHash) return refuse(caller, "unknown");
  return { inv, institution };
}

/**
 * What an invitation offers, for the invitee to read before accepting: the institution's name, the role,
 * who invited and until when. The same checks as accept, and every failure is accept's (422 +
 * `token_validation_failure`); it changes nothing. Two GetItems after the token's (together).
 */
export async function previewInvitation(caller: Caller, body: unknown): Promise<InvitationPreview> {
  const parsed = v.safeParse(acceptInput, body);
  if (!parsed.success) return refuse(caller, "unknown");
  const { inv, institution } = await invitationOfToken(caller, hashToken(parsed.output.token));
  requireUnusedBy(caller, inv, institution);
  const reason = tokenFailure(caller, inv, institution, clock());
  if (reason) return refuse(caller, reason, institution.account_id);
  return previewOf(inv, institution);
}

/** What an invitation offers, as preview (and open, invitations/join.ts) show it. */
export function previewOf(inv: Invitation, institution: Institution): InvitationPreview {
  const name = inv.created_by_name ? inviterName(inv.created_by_name) : "";
  return {
    institution: { name: institution.name },
    role: inv.role,
    invited_by: { email: inv.created_by, name: name === "" ? null : name },
    expires_at: inv.expires_at,
  };
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
export async function acceptInvitation(caller: Caller, body: unknown): Promise<InvitationAccepted> {
  const parsed = v.safeParse(acceptInput, body);
  if (!parsed.success) return refuse(caller, "unknown");
  return acceptWithToken(caller, hashToken(parsed.output.token));
}

/** What else commits with an acceptance: the events of the change that led to it (an account created to accept). */
export type WithAcceptance = (inv: Invitation, now: Date) => AuditEvent[];

/**
 * Accept's checks and its one write, for `caller` and the token hashed `tokenHash`: accept itself, and joining
 * (invitations/join.ts), which accepts for the user it has just created, its own events in the same
 * transaction (`also`), its refusals recorded for `refuser` (the visitor, so the probing bound stays keyed by
 * the source address).
 */
export async function acceptWithToken(
  caller: Caller,
  tokenHash: string,
  { also, refuser = caller }: { also?: WithAcceptance; refuser?: Caller } = {},
): Promise<InvitationAccepted> {
  return withRetries("Invitation could not be accepted, please retry", async () => {
    const { inv, institution } = await invitationOfToken(refuser, tokenHash);
    const owner = institution.account_id;
    const now = clock();
    requireUnusedBy(caller, inv, institution);
    const reason = tokenFailure(caller, inv, institution, now);
    if (reason) return refuse(refuser, reason, owner);

    const current = memberRole(institution, caller.id);
    const role = strongerRole(current, inv.role);
    // Through the membership door: a new seat (checked against the limit again: invitations pending when the last
    // seat went stay pending, unused; the version guard makes two accepts racing for the last seat read again, so
    // one gets it), a stronger role, or nothing new; in each case only while the inviter still holds a seat.
    const change = new MembershipChange(institution, { actor: caller, now, owner });
    const person = { user_id: caller.id, email: caller.email, name: caller.name, account_id: caller.accountId };
    const step = change.grant(person, role, { via: "invitation", invitation: inv.id, inviter: inv.created_by_id });
    if (step.kind === "institution_full") throw new Unprocessable(INSTITUTION_FULL);
    // Nothing else refuses an accept (the owner holds the strongest role, so an invitation never changes its seat);
    // a member gone since the read reads again.
    if (step.kind !== "ok") return RETRY;
    const details = { invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email, role };
    const events = [...(also?.(inv, now) ?? []), auditEvent(caller, "invitation_accepted", details, { now, owner, institution })];
    const out = await repo.consumeInvitation(inv, { tokenHash, userId: caller.id }, change.items(), events);
    if (out.kind === "ok") {
      return {
        institution: { id: institution.id, name: institution.name },
        role,
        message: current === role ? `Invitation accepted; you already had access to ${institution.name}` : "Invitation accepted",
      };
    }
    if (out.kind === "refused") {
      const lost = out.current && out.current.token_hash === tokenHash ? failureReason(out.current, clock()) : "unknown";
      // A concurrent accept of this same caller won (a double click): already accepted, as on a reopened link.
      if (lost === "used" && out.current?.used_by === caller.id) throw new AlreadyAccepted(institution.name);
      if (lost) return refuse(refuser, lost, owner);
    }
    // The institution changed under us (version) or another transaction held an item: read again.
    return RETRY;
  });
}
