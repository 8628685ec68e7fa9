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
import { auditItems, draftAudit, recordEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { config } from "../config.js";
import { BadGateway, BadRequest, Conflict, messages, NotFound, TooManyRequests, Unprocessable, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { INSTITUTION_FULL, type Institution, isFull } from "../institutions/model.js";
import { log } from "../log.js";
import { type PreparedMail, prepareMail, requireMailConfig, sendMail } from "../mail.js";
import { whileInFlight } from "../overlap.js";
import { isRole, type Role } from "../roles.js";
import { isoTime } from "../time.js";
import type { TxItem } from "../tx.js";
import { invitationMail } from "./message.js";
import { type Invitation, type Slot, slotHeld, statusOf, toIssued } from "./model.js";
import * as repo from "./repository.js";
import { EMAIL_INVALID, invitationParams, parseEmail } from "./schema.js";
import { backoff, lookUpInvitation, MAX_ATTEMPTS, requireInvitation, requireManaging, requireMayInvite } from "./service.js";
import { issueToken } from "./token.js";

export const HAS_ACCESS = "Email already has access to this institution";
export const MAIL_FAILED = "Failed to send invitation email";
export const LIMIT_REACHED = "Too many pending invitations for this email";

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

async function refuseOverLimit(caller: Caller, institutionId: string, email: string, slots: readonly Slot[], now: Date): Promise<never> {
  const limit = config.pendingInvitationLimit;
  await recordEvent(caller, { type: "rate_limit_exceeded", details: { email, institution_id: institutionId, limit } });
  throw new TooManyRequests(LIMIT_REACHED, retryAfterSeconds(slots, limit, now));
}

/** The invitation mail for `inv`, with its one copy of the token, ready to send. */
function mailFor(caller: Caller, institution: Institution, inv: Invitation, token: string, appBaseUrl: string): PreparedMail {
  const mail = invitationMail({
    to: inv.email,
    institutionName: institution.name,
    inviterName: caller.name,
    inviterEmail: caller.email,
    role: inv.role,
    token,
    expiresAt: inv.expires_at,
    appBaseUrl,
  });
  return prepareMail(mail);
}

/**
 * Sends the invitation mail; if that fails, withdraws the invitation (see the module comment) and throws
 * 502. The token goes into the mail and nowhere else: the log line names only the error's kind.
 */
async function deliver(caller: Caller, inv: Invitation, mail: PreparedMail): Promise<void> {
  try {
    await sendMail(mail);
  } catch (err) {
    log("warn", "invitation mail failed; withdrawing the invitation", {
      invitation_id: inv.id,
      institution_id: inv.institution_id,
      error: err instanceof Error ? err.name : typeof err,
      code: (err as { code?: unknown } | undefined)?.code,
      status: (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode,
    });
    await withdraw(caller, inv);
    throw new BadGateway(MAIL_FAILED);
  }
}

/** Revokes an invitation whose mail failed, only while its undelivered token is current. Best effort, logged. */
async function withdraw(caller: Caller, inv: Invitation): Promise<void> {
  try {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const now = new Date();
      const audit = auditItems(
        caller,
        {
          type: "invitation_revoked",
          details: { invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email, reason: "email_delivery_failed" },
        },
        now,
      );
      const out = await repo.revokeInvitation(
        inv,
        { revokedAt: isoTime(now), revokedBy: caller.id, reason: "email_delivery_failed", expectTokenHash: inv.token_hash },
        audit,
        now,
      );
      // Refused: someone revoked it or issued a newer token meanwhile; either way this token is no longer live.
      if (out.kind !== "retry") return;
      await backoff(attempt);
    }
    throw new Error("compensation kept conflicting");
  } catch (err) {
    // The token never reached anyone, so a leftover invitation is unusable; it only holds its slot until it expires.
    log("error", "could not withdraw an invitation whose mail failed", {
      invitation_id: inv.id,
      institution_id: inv.institution_id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/**
 * Creates an invitation and mails it. Check order: institution (404) → managing (403) → role value (400)
 * → pending limit (429 + `rate_limit_exceeded`) → invitation step: e-mail (422), super-admin role (403),
 * already has access (422), institution full (422, `MAX_MEMBERS`) → one transaction → mail (502 and
 * withdrawn on failure).
 * Uncontended cost: the institution GetItem, one Query of the e-mail's slots, one transaction; a lost slot
 * race reads again (the limit itself is the transaction's condition).
 */
export async function createInvitation(caller: Caller, query: Query, body: unknown) {
  const params = invitationParams(query, body);
  const limit = config.pendingInvitationLimit;
  const email = parseEmail(params.email);
  const institutionId = isId(params.institution_id) ? params.institution_id : undefined;
  const role = isRole(params.role) ? params.role : undefined;
  for (let attempt = 1; ; attempt++) {
    // The e-mail's slots are read alongside the lookup (one round trip, not two), and what the
    // transaction needs that no read decides is drafted meanwhile; both are used only once the lookup and
    // the role have passed, so the check order holds.
    const [v, state, draft] = await Promise.all([
      requireManaging(caller, params.institution_id),
      email && institutionId ? repo.readEmailState(institutionId, email) : undefined,
      email && institutionId && role ? whileInFlight(() => draftInvitation(caller, institutionId, email, role)) : undefined,
    ]);
    if (!role) throw new BadRequest(messages.invalidRole);
    // Past the lookup and the role, `state` and `draft` are there exactly when the e-mail is valid; an
    // invalid one has no pending invitations to limit, so it fails the e-mail step at once.
    if (!state || !draft) throw new ValidationFailed([EMAIL_INVALID]);
    const free = freeSlots(state.slots, limit, draft.now);
    if (free.length === 0) await refuseOverLimit(caller, v.institution.id, draft.invitation.email, state.slots, draft.now);
    await requireMayInvite(caller, v, role);
    const inv = draft.invitation;
    if (inv.email === caller.email || state.member) throw new ValidationFailed([HAS_ACCESS]);
    if (isFull(v.institution)) throw new ValidationFailed([INSTITUTION_FULL]);

    const { appBaseUrl } = requireMailConfig();
    inv.slot = free[0] as number;
    const [result, mail] = await Promise.all([
      repo.insertInvitation(inv, { id: caller.id, email: caller.email }, draft.audit, draft.now),
      whileInFlight(() => mailFor(caller, v.institution, inv, draft.token, appBaseUrl)),
    ]);
    if (result === "ok") {
      await deliver(caller, inv, mail);
      return { invitation: toIssued(inv), message: `Invitation sent to ${inv.email}` };
    }
    if (result === "has_access") throw new ValidationFailed([HAS_ACCESS]);
    // slot_taken: another request claimed that slot first; institution_changed: the next lookup answers 404/403.
    if (attempt >= MAX_ATTEMPTS) throw new Conflict("Invitation could not be created, please retry");
    await backoff(attempt);
  }
}

/** What a new invitation's transaction needs beyond its reads: the token, the record (but its slot) and the event. */
interface Draft {
  readonly now: Date;
  /** The secret, for the mail only. */
  readonly token: string;
  /** `slot` is set once the e-mail's slots are read. */
  readonly invitation: Invitation;
  readonly audit: TxItem[];
}

function draftInvitation(caller: Caller, institutionId: string, email: string, role: Role): Draft {
  const now = new Date();
  const token = issueToken();
  const sentAt = isoTime(now);
  const invitation: Invitation = {
    id: newId(now.getTime()),
    institution_id: institutionId,
    email,
    role,
    token_hash: token.hash,
    token_preview: token.preview,
    sent_at: sentAt,
    expires_at: expiryFrom(now),
    created_at: sentAt,
    created_by: caller.email,
    created_by_id: caller.id,
    slot: -1,
  };
  const audit = auditItems(
    caller,
    { type: "invitation_created", details: { invitation_id: invitation.id, institution_id: institutionId, email, role } },
    now,
  );
  return { now, token: token.token, invitation, audit };
}

/**
 * Issues a new token for an active invitation and mails it again: the old token stops working, `sent_at`
 * is now and `expires_at` restarts; `invitation_resent`. Same caller rule as create; used, revoked or
 * expired → 422. A failed mail withdraws the invitation (502), as on create.
 */
export async function resendInvitation(caller: Caller, id: string | undefined, query: Query, body: unknown) {
  const params = invitationParams(query, body);
  for (let attempt = 1; ; attempt++) {
    const now = new Date();
    // The new token, its times and the event are made while the reads are in flight.
    const [v, found, { token, next, completeAudit }] = await Promise.all([
      requireManaging(caller, params.institution_id),
      lookUpInvitation(params.institution_id, id),
      whileInFlight(() => {
        const token = issueToken();
        const next = { token_hash: token.hash, token_preview: token.preview, sent_at: isoTime(now), expires_at: expiryFrom(now) };
        return { token, next, completeAudit: draftAudit(caller, "invitation_resent", now) };
      }),
    ]);
    const inv = requireInvitation(found);
    await requireMayInvite(caller, v, inv.role);
    if (statusOf(inv, now) !== "active") throw new Unprocessable(`Cannot resend a ${statusOf(inv, now)} invitation`);

    const { appBaseUrl } = requireMailConfig();
    const audit = completeAudit({ invitation_id: inv.id, institution_id: inv.institution_id, email: inv.email });
    const after: Invitation = Object.assign({}, inv, next);
    const [out, mail] = await Promise.all([
      repo.reissueToken(inv, next, audit, now),
      whileInFlight(() => mailFor(caller, v.institution, after, token.token, appBaseUrl)),
    ]);
    if (out.kind === "ok") {
      await deliver(caller, after, mail);
      return { invitation: { ...toIssued(after), sent_at: after.sent_at }, message: `Invitation resent to ${inv.email}` };
    }
    if (out.kind === "refused") {
      if (!out.current) throw new NotFound(messages.invitationNotFound);
      const status = statusOf(out.current, new Date());
      if (status !== "active") throw new Unprocessable(`Cannot resend a ${status} invitation`);
      // Still active: a concurrent resend changed the token first; go again from a fresh read.
    }
    if (attempt >= MAX_ATTEMPTS) throw new Conflict("Invitation was changed concurrently, please retry");
    await backoff(attempt);
  }
}
