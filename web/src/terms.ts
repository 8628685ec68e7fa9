/**
 * "Super admin" means three things in this service, and the console gives each one term of its own
 * (docs/console.md, "Words"), here in one place:
 *
 * - the **cohort-super-admin status**: a group of the user pool that an operator grants (the session's
 *   `superAdmin`, from `cognito:groups`). It lets a person create institutions and read their account's
 *   trail, alerts and webhooks. Nobody gets it by invitation;
 * - the **role** in an institution, Cohort super admin or Cohort admin (the access record's `role`), given by
 *   invitation. Managing invitations takes the role Cohort super admin and the status;
 * - **the institution's super admin**: its one owner (`is_super_admin`, the institution's `super_admin_id`),
 *   who created it or had it transferred to them. The API's own messages use this term too.
 *
 * A person with the status is never called "a cohort super admin", which is the role's name.
 */
import type { Role } from "./api";
import { roleLabel } from "./format";

export const STATUS = "cohort-super-admin status";

/** Where the status comes from, said wherever something needs it. */
export const STATUS_NEEDED = `the ${STATUS}, which an operator grants`;

/** Why a person may not manage invitations (invite, resend, revoke), or undefined when they may. */
export function invitationsBlocked(what: string, hasStatus: boolean, role: Role): string | undefined {
  const hasRole = role === "cohort_super_admin";
  if (hasStatus && hasRole) return undefined;
  if (hasRole) return `${what} needs ${STATUS_NEEDED}. Your role here, ${roleLabel(role)}, is not enough without it.`;
  if (hasStatus) return `${what} needs the role ${roleLabel("cohort_super_admin")} in this institution; yours is ${roleLabel(role)}.`;
  return `${what} needs the role ${roleLabel("cohort_super_admin")} in this institution and ${STATUS_NEEDED}.`;
}

/*
 * Single sign-on (docs/sso.md): the same words on the sign-in page and in the institution's Single sign-on
 * section. "Identity provider" is the institution's own (Entra ID, Okta, Shibboleth), never shortened to IdP
 * in what a person reads; "verified domain" is a mail domain the institution proved it controls.
 */
export const SINGLE_SIGN_ON = "single sign-on";
export const IDENTITY_PROVIDER = "identity provider";

/** The sign-in page's button for an address on a connected institution's verified domain (the require-SSO refusal names it). */
export const continueWith = (institution: string): string => `Continue with ${institution}`;

/** Require SSO spares the institution's super admin (its owner): said wherever it is turned on. */
export const OWNER_KEEPS_PASSWORD =
  "The institution's super admin keeps their password as a way back in, should the identity provider fail.";
