/**
 * The user pool's pre authentication trigger (docs/sso.md, require SSO). Cognito invokes it when someone signs in
 * with a password (`PreAuthentication_Authentication`: the console's USER_PASSWORD_AUTH, SRP, the managed login's
 * password form), and for a federated user's sign-ins after its first, with the same source. A person whose e-mail
 * is on the verified domains of an institution that requires SSO is refused with a message naming it; that
 * institution's super admin keeps the password. A federated user (`EXTERNAL_PROVIDER`) has no password: passed.
 */
import type { PreAuthenticationTriggerEvent } from "aws-lambda";
import { linkedProviders, requiredSso, requireSsoMessage } from "../../shared/sso/require.js";
import { SignInRefused, ssoTrigger } from "../../shared/sso/trigger.js";

// A refusal is a `SignInRefused`; any other failure is logged at ERROR by the wrapper (shared/sso/trigger.ts).
export const handler = ssoTrigger("PreAuthentication", async (event: PreAuthenticationTriggerEvent) => {
  const { email, sub } = event.request.userAttributes;
  // Cognito runs this trigger for a federated user's later sign-ins too (docs/sso.md, "What AWS will not do for
  // you"); a user the pool made for an IdP has no password, so its sign-in is never a password one.
  if (!email || event.request.userAttributes["cognito:user_status"] === "EXTERNAL_PROVIDER") return event;
  // A linked person (a pool user with a password and an IdP's identity) comes here on both kinds of sign-in, and
  // the event does not say which: their password sign-ins are refused at token generation instead
  // (pre-token-generation.ts), where a federated one is `TokenGeneration_HostedAuth`.
  if (linkedProviders(event.request.userAttributes.identities).length > 0) return event;
  const required = await requiredSso(email, sub);
  if (required) throw new SignInRefused(requireSsoMessage(required.institution));
  return event;
});
