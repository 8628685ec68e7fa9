/**
 * Joining from an invitation without an account (docs/contract/invitations.md#open-and-register-joining): open (what the invitation offers, to whom,
 * and whether that person has an account yet) and register (create the account and accept in one request).
 * Both are public routes: the invitation token is the credential, the caller a visitor known by its source
 * address (`visitorFrom`), and every refusal counts against the probing bound by that address.
 *
 * Register, in the contract's order: the token (422 + `token_validation_failure`; a used one is "already
 * accepted", 409, nothing recorded) → name and password (422 `{errors}`, the pool's policy checked here so
 * that nothing is created for a password it would refuse; an address whose institution requires SSO: 409,
 * docs/sso.md) → create the user (409 when one with the e-mail
 * exists) → its permanent password → accept exactly as accept does, with `account_created` in the same
 * transaction. When anything after the user's creation fails, the user is deleted again: nothing is left.
 */
import * as v from "valibot";
import { auditEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { Conflict, type DomainError, Unprocessable, ValidationFailed } from "../errors.js";
import { INSTITUTION_FULL, type Institution, isFull } from "../institutions/model.js";
import { passwordProblems } from "../password-policy.js";
import { recordRefusal } from "../refusals.js";
import { requiredSso, SIGN_IN_WITH_SSO } from "../sso/require.js";
import { logger } from "../telemetry.js";
import { createUser, deleteUser, setPassword, userExists } from "../users.js";
import type { Invitation } from "./model.js";
import type { InvitationOpened, InvitationRegistered } from "./results.js";
import { joinName, tokenSchema } from "./schema.js";
import { AlreadyAccepted, acceptWithToken, failureReason, invitationOfToken, inviterStands, previewOf, refuse } from "./service.js";
import { hashToken } from "./token.js";

export const ACCOUNT_EXISTS = "An account with this e-mail already exists; sign in to accept the invitation";
export const ACCOUNT_CREATED = "Account created";
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The invitation a visitor's token names, usable now: refused as accept refuses (422 + event in the owner's
 * trail), except a used one, which is "already accepted" (409, nothing recorded but the refusal's count: a
 * visitor cannot show it is the invitee who used it).
 */
async function usableInvitation(visitor: Caller, body: unknown): Promise<{ inv: Invitation; institution: Institution; tokenHash: string }> {
  const parsed = v.safeParse(tokenSchema, isObject(body) ? body.token : undefined);
  if (!parsed.success) return refuse(visitor, "unknown");
  const tokenHash = hashToken(parsed.output);
  const { inv, institution } = await invitationOfToken(visitor, tokenHash);
  const reason = failureReason(inv, clock());
  if (reason === "used") {
    await recordRefusal(visitor, undefined);
    throw new AlreadyAccepted(institution.name);
  }
  // An inviter no longer an administrator: their invitations went with them (as accept judges it).
  const refusal = reason ?? (inviterStands(institution, inv) ? undefined : "revoked");
  if (refusal) return refuse(visitor, refusal, institution.account_id);
  return { inv, institution, tokenHash };
}

/** `POST /invitations/open`: what preview shows, plus the invited address and whether it has an account. */
export async function openInvitation(visitor: Caller, body: unknown): Promise<InvitationOpened> {
  const { inv, institution } = await usableInvitation(visitor, body);
  return { ...previewOf(inv, institution), email: inv.email, has_account: await userExists(inv.email) };
}

/** A refusal of register that is no failed token: counted against the probing bound, then thrown. */
async function refused(visitor: Caller, err: DomainError): Promise<never> {
  await recordRefusal(visitor, undefined);
  throw err;
}

/** `POST /invitations/register`: creates the invitee's account and accepts the invitation for it. */
export async function registerFromInvitation(visitor: Caller, body: unknown): Promise<InvitationRegistered> {
  const { inv, institution, tokenHash } = await usableInvitation(visitor, body);
  // Require SSO (docs/sso.md): an address on the verified domains of an institution that requires it gets no password.
  if (await requiredSso(inv.email, undefined)) return refused(visitor, new Conflict(SIGN_IN_WITH_SSO));
  const fields = isObject(body) ? body : {};
  const name = v.safeParse(joinName, fields.name);
  const password = typeof fields.password === "string" ? fields.password : "";
  const errors = [...(name.success ? [] : [name.issues[0].message]), ...passwordProblems(password)];
  if (!name.success || errors.length > 0) return refused(visitor, new ValidationFailed(errors));
  // Accept would refuse it: say so before a user exists (accept checks again, under the version guard).
  if (isFull(institution)) return refused(visitor, new Unprocessable(INSTITUTION_FULL));

  const created = await createUser({ email: inv.email, name: name.output, accountId: institution.account_id });
  if (created === "exists") return refused(visitor, new Conflict(ACCOUNT_EXISTS));
  try {
    if ((await setPassword(created.username, password)) === "refused") {
      return await refused(visitor, new ValidationFailed(["Password does not meet the requirements of the user pool"]));
    }
    // The new user, as its first ID token will say: the invited e-mail (verified), its name, the institution's account.
    const user: Caller = {
      id: created.sub,
      email: inv.email,
      name: name.output,
      accountId: institution.account_id,
      isCohortSuperAdmin: false,
      emailVerified: true,
      ip: visitor.ip,
    };
    const accepted = await acceptWithToken(user, tokenHash, {
      refuser: visitor,
      also: (used, now) => [
        auditEvent(
          user,
          "account_created",
          { user_id: user.id, email: used.email, institution_id: used.institution_id, invitation_id: used.id },
          { now, institution },
        ),
      ],
    });
    return { institution: accepted.institution, role: accepted.role, message: ACCOUNT_CREATED };
  } catch (err) {
    // Nothing is left behind: the user goes again (a revoke between the two steps, a lost race, a fault).
    await deleteUser(created.username).then(
      () => logger.info("registration undone: the new user was deleted", { invitation_id: inv.id }),
      (cleanup: unknown) =>
        logger.error("could not delete the user of a failed registration", { invitation_id: inv.id, error: String(cleanup) }),
    );
    throw err;
  }
}
