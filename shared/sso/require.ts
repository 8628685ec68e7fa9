/**
 * Require SSO (docs/sso.md): with `require_sso`, a person whose e-mail is on the institution's verified domains
 * signs in through its IdP only: no password sign-in (the pool's pre authentication trigger,
 * functions/sso/pre-authentication.ts) and no password account from an invitation (the join route). The
 * institution's super admin keeps the password as a way back in.
 */
import { domainOfEmail } from "../domains/form.js";
import { getGuard } from "../domains/repository.js";
import type { Institution } from "../institutions/model.js";
import { getInstitution } from "../institutions/repository.js";
import { getConnection } from "./repository.js";

/** What joining from an invitation on such an address answers (409): no password account is made. */
export const SIGN_IN_WITH_SSO = "Sign in with your institution's single sign-on to accept this invitation";

/**
 * The institution whose SSO `email` must sign in with, when a password would not do:
 * its domain is verified by an institution whose connection requires SSO, and `sub` is not that institution's
 * super admin (who keeps the password as a way back in).
 */
export async function requiredSso(email: string, sub: string | undefined): Promise<{ institution: Institution } | undefined> {
  const domain = email.length <= 320 ? domainOfEmail(email.trim().toLowerCase()) : undefined;
  const guard = domain ? await getGuard(domain, false) : undefined;
  if (!guard) return undefined;
  const [institution, connection] = await Promise.all([getInstitution(guard.institution_id), getConnection(guard.institution_id, false)]);
  if (!institution || connection?.status !== "active" || !connection.require_sso) return undefined;
  if (sub !== undefined && institution.super_admin_id === sub) return undefined;
  return { institution };
}

/** What a password sign-in refused by require-SSO says: the SSO to use instead. */
export const requireSsoMessage = (institution: Pick<Institution, "name">) =>
  `${institution.name} requires single sign-on: sign in with "Continue with ${institution.name}"`;

/**
 * The pool's providers a user is linked to, as its `identities` attribute (JSON, Cognito's) lists them; none when
 * it is missing or not such a list.
 */
export function linkedProviders(identities: string | undefined): string[] {
  if (!identities) return [];
  try {
    const parsed: unknown = JSON.parse(identities);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((i) => (i && typeof i === "object" && typeof i.providerName === "string" ? [i.providerName as string] : []));
  } catch {
    return [];
  }
}

/**
 * Token generation's sources that follow a password sign-in through the API (InitiateAuth and its challenges); a
 * federated sign-in is always `TokenGeneration_HostedAuth`.
 */
export const PASSWORD_TOKEN_SOURCES: ReadonlySet<string> = new Set([
  "TokenGeneration_Authentication",
  "TokenGeneration_NewPasswordChallenge",
  "TokenGeneration_AuthenticateDevice",
]);
