/**
 * A person's own routes (docs/contract/people.md): what the user-activity export does not carry, done through the service
 * so that it is recorded. Each acts on the caller alone (their `sub`: no path names anyone else), calls the user
 * pool, then records the event in the caller's account, through the audit door. The pool's change comes first:
 * recording first would leave an event claiming a change the pool then refused; a recording that fails after the
 * pool changed answers 5xx, and the same request again records it (both calls are idempotent at the pool).
 */
import { auditEvent, recordEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { Unprocessable } from "../errors.js";
import type { Message } from "../results.js";
import { readSettings, USERS } from "../settings.js";
import { signOutEverywhere as revokeEverywhere, setSoftwareTokenMfa } from "../users.js";
import { parseRoot } from "../validation.js";
import type { MfaSetting } from "./results.js";
import { mfaInput } from "./schema.js";

export const PEOPLE_MESSAGES = {
  unverified:
    "Set up the authenticator app first: scan its code, then verify one code from it (AssociateSoftwareToken, VerifySoftwareToken)",
  required: "A second sign-in step is required here: the authenticator app cannot be turned off",
  enabled: "Authenticator app turned on: sign-ins ask for its code",
  disabled: "Authenticator app turned off: the password alone signs you in",
  signedOut: "Signed out everywhere: every session must sign in again",
} as const;

/** The pool's MFA setting (infra/settings.ts `mfa`): where it is `required`, TOTP stays on. */
const poolMfa = (): "optional" | "required" => readSettings(USERS(), ["USER_POOL_MFA"]).USER_POOL_MFA;

/**
 * `PUT /me/mfa` body `{mfa: {totp}}`: the caller's authenticator app (TOTP) as their second sign-in step, on or off;
 * `mfa_enabled` or `mfa_disabled`. On needs an app the caller has associated and verified a code of (422 without);
 * off is refused where the pool requires a second step (422).
 */
export async function setMfa(caller: Caller, body: unknown, mfa = poolMfa()): Promise<MfaSetting> {
  const { totp } = parseRoot(body, "mfa", mfaInput);
  if (!totp && mfa === "required") throw new Unprocessable(PEOPLE_MESSAGES.required);
  if ((await setSoftwareTokenMfa(caller.id, totp)) === "unverified") throw new Unprocessable(PEOPLE_MESSAGES.unverified);
  await recordEvent(auditEvent(caller, totp ? "mfa_enabled" : "mfa_disabled", { factor: "totp" }));
  return { mfa: { totp }, message: totp ? PEOPLE_MESSAGES.enabled : PEOPLE_MESSAGES.disabled };
}

/**
 * `POST /me/sign_out_everywhere`: every refresh token of the caller revoked (AdminUserGlobalSignOut); each session
 * must sign in again once its ID token (an hour at most) expires; `signed_out_everywhere`.
 */
export async function signOutEverywhere(caller: Caller): Promise<Message> {
  await revokeEverywhere(caller.id);
  await recordEvent(auditEvent(caller, "signed_out_everywhere", { scope: "all_sessions" }));
  return { message: PEOPLE_MESSAGES.signedOut };
}
