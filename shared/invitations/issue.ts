/**
 * Invitation use cases that send mail: create and resend. Kept apart from `service.ts` so that the
 * functions that never mail (list, revoke, accept) do not load the SES client.
 *
 * Mail strategy: write first, then send, then undo on failure. The invitation, its token item, its
 * pending-limit slot and `invitation_created` commit in one transaction, so the limit is enforced before any
 * mail leaves (sending first would mail a token for every racing request that then loses the slot). If SES
 * fails, a compensating transaction revokes the invitation (`revoke_reason: email_delivery_failed`),
 * deletes its token item and frees its slot, and writes `invitation_revoked` with that reason: the trail
 * stays append-only and true (it was created, then withdrawn), and no active invitation remains. Resend
 * follows the same rule: its old token is already gone, so an invitation whose new mail failed is withdrawn.
 */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { isKeyActorId, keyLabel } from "../api-keys/model.js";
import { secondsUntil } from "../bounds.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { config } from "../config.js";
import { BadGateway, BadRequest, messages, TooManyRequests, Unauthorized, Unprocessable, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { INSTITUTION_FULL, isFull } from "../institutions/model.js";
import type { Visible } from "../institutions/service.js";
import { type Mail, requireMailConfig, sendMail } from "../mail.js";
import { sentInvitationItems, sentRecordItems } from "../membership/repository.js";
import { METRIC } from "../observability.js";
import { recordRefusal } from "../refusals.js";
import { RETRY, withRetries } from "../retry.js";
import { isRole } from "../roles.js";
import { logger, metrics } from "../telemetry.js";
import { invitationMail } from "./message.js";
import { type Invitation, type Slot, slotHeld, statusOf, toIssued } from "./model.js";
import * as repo from "./repository.js";
import type { InvitationIssued, InvitationResent } from "./results.js";
import { EMAIL_INVALID, invitationParams, parseEmail } from "./schema.js";
import { institutionEvent, requireManagedInvitation, requireManaging, requireMayInvite } from "./service.js";
import { newInvitationToken } from "./token.js";

/** The API document's schemas: what each use case answers is typed by the contract. */

export const HAS_ACCESS = "Email already has access to this institution";
export const MAIL_FAILED = "Failed to send invitation email";
export const LIMIT_REACHED = "Too many pending invitations for this email";
export const TOO_MANY_MAILS = "Too many invitation e-mails, try again later";

type Query = Readonly<Record<string, string | undefined>>;

const DAY_MS = 24 * 60 * 60 * 1000;
const expiryFrom = (now: Date) => new Date(now.getTime() + config.invitationValidityDays * DAY_MS).toISOString();

/** Slots numbered below the limit that no unexpired invitation holds, in random order (racing creates spread out). */
export function freeSlots(slots: readonly Slot[], limit: number, now: Date): number[] {
  // The usual case, an e-mail with no invitation pending: a random start, then the rest in order.
  if (slots.length === 0) {
    const start = Math.floor(Math.random() * limit);
    return Array.from({ length: limit }, (_, i) => (start + i) % limit);
  }
  const held = new Set(slots.filter((s) => s.n < limit && slotHeld(s, now)).map((s) => s.n));
  const free = Array.from({ length: limit }, (_, n) => n).filter((n) => !held.has(n));
  for (let i = free.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [free[i], free[j]] = [free[j] as number, free[i] as number];
  }
  return free;
}

/** Seconds until the earliest of the held slots' invitations expires (at least 1). */
export function retryAfterSeconds(slots: readonly Slot[], limit: number, now: Date): number {
  const expiries = slots.filter((s) => s.n < limit && slotHeld(s, now)).map((s) => Date.parse(s.expires_at));
  if (expiries.length === 0) return 1;
  return Math.max(1, Math.ceil((Math.min(...expiries) - now.getTime()) / 1000));
}

/** Which bound refused a mail (`scope` of its `rate_limit_exceeded` event). */
type MailScope = "pending" | "resend" | repo.MailBound;

/**
 * Records `rate_limit_exceeded` (in the institution owner's trail too) and refuses with 429 and `Retry-After`.
 * A refusal like any other (docs/contract/limits.md#bounds): it counts against the caller's probing bound, and past it
 * nothing more is recorded this minute (429 `refused_requests`), so a flood cannot fill an owner's trail.
 */
async function refuseMail(
  caller: Caller,
  visible: Visible,
  email: string,
  scope: MailScope,
  limit: number,
  retryAfter: number,
  now: Date,
): Promise<never> {
  const details = { email, institution_id: visible.institution.id, limit, scope };
  await recordRefusal(caller, institutionEvent(caller, visible, "rate_limit_exceeded", details, now));
  throw new TooManyRequests(scope === "pending" ? LIMIT_REACHED : TOO_MANY_MAILS, retryAfter);
}

/** A mail bound that refused a write, as its limit and the seconds until it lets mail through again. */
function boundRefusal(bound: repo.MailBound, now: Date): { limit: number; retryAfter: number } {
  const { limit, reopens } = repo.MAIL_BOUNDS[bound];
  return { limit: limit(), retryAfter: secondsUntil(reopens(now), now) };
}

/** The invitation mail for `inv`, with its one copy of the token. */
function mailFor(caller: Caller, visible: Visible, inv: Invitation, token: string): Mail {
  return invitationMail({
    to: inv.email,
    institutionName: visible.institution.name,
    inviterName: caller.apiKey ? keyLabel(caller.apiKey.name) : caller.name,
    inviterEmail: caller.email,
    role: inv.role,
    token,
    expiresAt: inv.expires_at,
    appBaseUrl: requireMailConfig().appBaseUrl,
  });
}

/**
 * Sends the invitation mail; if that fails, withdraws the invitation (see the module comment) and throws
 * 502. The token goes into the mail and nowhere else: the log line names only the error's kind.
 */
async function deliver(caller: Caller, visible: Visible, inv: Invitation, mail: Mail): Promise<void> {
  try {
    await sendMail(mail);
    metrics.addMetric(METRIC.mailSent, MetricUnit.Count, 1);
  } catch (err) {
    metrics.addMetric(METRIC.mailFailed, MetricUnit.Count, 1);
    logger.warn("invitation mail failed; withdrawing the invitation", {
      invitation_id: inv.id,
      institution_id: inv.institution_id,
      error: err instanceof Error ? err.name : typeof err,
      code: (err as { code?: unknown } | undefined)?.code,
      status: (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode,
    });
    await withdraw(caller, visible, inv);
    throw new BadGateway(MAIL_FAILED);
  }
}

/** Revokes an invitation whose mail failed, only while its undelivered token is current. Best effort, logged. */
async function withdraw(caller: Caller, visible: Visible, inv: Invitation): Promise<void> {
  try {
    await withRetries("compensation kept conflicting", async () => {
      const details = { invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email, reason: "email_delivery_failed" };
      const event = institutionEvent(caller, visible, "invitation_revoked", details);
      const change = { revokedBy: caller.id, reason: "email_delivery_failed", expectTokenHash: inv.token_hash };
      const out = await repo.markRevoked(inv, change, event);
      if (out.kind === "retry") return RETRY;
      // Refused: someone revoked it or issued a newer token meanwhile; either way this token is no longer live.
      if (out.kind === "ok") metrics.addMetric(METRIC.invitationWithdrawn, MetricUnit.Count, 1);
    });
  } catch (err) {
    // The token never reached anyone, so a leftover invitation is unusable; it only holds its slot until it expires.
    logger.error("could not withdraw an invitation whose mail failed", {
      invitation_id: inv.id,
      institution_id: inv.institution_id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/**
 * Creates an invitation and mails it. Check order: institution (404) → managing (403) → role value (400)
 * → pending limit (429 + `rate_limit_exceeded`) → invitation step: e-mail (422), super-admin role (403),
 * already has access (422), institution full (422, `MAX_MEMBERS`), mail bounds (429) → one transaction →
 * mail (502 and withdrawn on failure).
 * Uncontended cost: the institution GetItem and one Query of the e-mail's items (together), one transaction;
 * a lost slot race reads again (the limit itself is the transaction's condition).
 */
export async function createInvitation(caller: Caller, query: Query, body: unknown): Promise<InvitationIssued> {
  const params = invitationParams(query, body);
  const email = parseEmail(params.email);
  const institutionId = isId(params.institution_id) ? params.institution_id : undefined;
  const limit = config.pendingInvitationLimit;
  const { invitation, token, visible } = await withRetries("Invitation could not be created, please retry", async () => {
    // The e-mail's items are read alongside the lookup (one round trip, not two), and judged only after it.
    const [visible, state] = await Promise.all([
      requireManaging(caller, params.institution_id),
      email && institutionId ? repo.readEmailState(institutionId, email) : undefined,
    ]);
    if (!isRole(params.role)) throw new BadRequest(messages.invalidRole);
    // An invalid e-mail has no pending invitations to limit: it fails the e-mail step at once.
    if (!email || !state) throw new ValidationFailed([EMAIL_INVALID]);
    const now = clock();
    const free = freeSlots(state.slots, limit, now);
    if (free[0] === undefined) await refuseMail(caller, visible, email, "pending", limit, retryAfterSeconds(state.slots, limit, now), now);
    await requireMayInvite(caller, visible, params.role);
    if (email === caller.email || state.member) throw new ValidationFailed([HAS_ACCESS]);
    if (isFull(visible.institution)) throw new ValidationFailed([INSTITUTION_FULL]);
    requireMailConfig();

    const token = newInvitationToken();
    const invitation: Invitation = {
      id: newId(now.getTime()),
      institution_id: visible.institution.id,
      email,
      role: params.role,
      token_hash: token.hash,
      token_preview: token.preview,
      sent_at: now.toISOString(),
      expires_at: expiryFrom(now),
      created_at: now.toISOString(),
      // An API key (docs/api-keys.md) has no e-mail: it is named, as in the trail.
      created_by: caller.email,
      created_by_id: caller.id,
      created_by_name: caller.apiKey ? keyLabel(caller.apiKey.name) : caller.name,
      slot: free[0] as number,
    };
    const details = { invitation_id: invitation.id, institution_id: invitation.institution_id, email, role: invitation.role };
    const event = institutionEvent(caller, visible, "invitation_created", details, now);
    // Counted on the sender's access record by the membership door: a removal racing it reads again ("removal is final").
    // An API key (docs/api-keys.md) holds no seat: its own item must still be there instead (insertInvitation).
    const sender = caller.apiKey ? {} : sentInvitationItems(invitation, { id: caller.id, email: caller.email }, email);
    const inviter = { id: caller.id, sender, ...(caller.apiKey && { apiKey: caller.apiKey.id }) };
    const result = await repo.insertInvitation(invitation, inviter, event, now, visible.institution.account_id);
    if (result.kind === "ok") return { invitation, token: token.token, visible };
    // The key was revoked meanwhile: it no longer opens anything.
    if (result.kind === "institution_changed" && caller.apiKey) throw new Unauthorized();
    if (result.kind === "has_access") throw new ValidationFailed([HAS_ACCESS]);
    if (result.kind === "bound") {
      const { limit: boundLimit, retryAfter } = boundRefusal(result.bound, now);
      await refuseMail(caller, visible, email, result.bound, boundLimit, retryAfter, now);
    }
    // slot_taken: another request claimed that slot first; institution_changed: the next lookup answers 404/403.
    return RETRY;
  });
  await deliver(caller, visible, invitation, mailFor(caller, visible, invitation, token));
  return { invitation: toIssued(invitation), message: `Invitation sent to ${invitation.email}` };
}

/**
 * Issues a new token for an active invitation and mails it again: the old token stops working, `sent_at`
 * is now and `expires_at` restarts; `invitation_resent`. Same caller rule as create; used, revoked or
 * expired → 422; sooner than the cooldown after its last mail, or past a mail bound → 429. A failed mail
 * withdraws the invitation (502), as on create.
 */
export async function resendInvitation(caller: Caller, id: string | undefined, query: Query, body: unknown): Promise<InvitationResent> {
  const params = invitationParams(query, body);
  const cooldownMs = config.resendCooldownSeconds * 1000;
  const { after, token, visible } = await withRetries("Invitation was changed concurrently, please retry", async () => {
    const { visible, invitation: inv } = await requireManagedInvitation(caller, params.institution_id, id);
    await requireMayInvite(caller, visible, inv.role);
    const now = clock();
    const status = statusOf(inv, now);
    if (status !== "active") throw new Unprocessable(`Cannot resend a ${status} invitation`);
    const cooldownEnds = Date.parse(inv.sent_at) + cooldownMs;
    if (now.getTime() < cooldownEnds) {
      await refuseMail(caller, visible, inv.email, "resend", config.resendCooldownSeconds, (cooldownEnds - now.getTime()) / 1000, now);
    }
    requireMailConfig();

    const token = newInvitationToken();
    const next = { token_hash: token.hash, token_preview: token.preview, sent_at: now.toISOString(), expires_at: expiryFrom(now) };
    const details = { invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email };
    const event = institutionEvent(caller, visible, "invitation_resent", details, now);
    const cooldownEdge = new Date(now.getTime() - cooldownMs);
    // The sender's record of it lasts as long as it now may (an API key's invitation has none, docs/api-keys.md).
    const sender = isKeyActorId(inv.created_by_id) ? {} : sentRecordItems(inv.created_by_id, { ...inv, ...next });
    const out = await repo.reissueToken(inv, next, sender, event, now, cooldownEdge, visible.institution.account_id);
    if (out.kind === "ok") return { after: { ...inv, ...next }, token: token.token, visible };
    if (out.kind === "bound") {
      const { limit, retryAfter } = boundRefusal(out.bound, now);
      await refuseMail(caller, visible, inv.email, out.bound, limit, retryAfter, now);
    }
    // Refused (changed since read: a concurrent resend, revoke or accept) or a conflict: judge it again from a fresh read.
    return RETRY;
  });
  await deliver(caller, visible, after, mailFor(caller, visible, after, token));
  return { invitation: { ...toIssued(after), sent_at: after.sent_at }, message: `Invitation resent to ${after.email}` };
}
