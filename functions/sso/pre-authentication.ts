/**
 * The user pool's pre authentication trigger (docs/sso.md, require SSO). Cognito invokes it when someone signs in
 * with a password (`PreAuthentication_Authentication`: the console's USER_PASSWORD_AUTH, SRP, the managed login's
 * password form), not for a federated sign-in. A person whose e-mail is on the verified domains of an institution
 * that requires SSO is refused with a message naming it; that institution's super admin keeps the password.
 */
import type { PreAuthenticationTriggerEvent } from "aws-lambda";
import { requiredSso, requireSsoMessage } from "../../shared/sso/require.js";

export async function handler(event: PreAuthenticationTriggerEvent): Promise<PreAuthenticationTriggerEvent> {
  const { email, sub } = event.request.userAttributes;
  if (!email) return event;
  const required = await requiredSso(email, sub);
  if (required) throw new Error(requireSsoMessage(required.institution));
  return event;
}
