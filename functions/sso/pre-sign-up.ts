/**
 * The user pool's pre sign-up trigger (docs/sso.md). Cognito invokes it before it creates a user: on the first
 * sign-in of a federated identity (`PreSignUp_ExternalProvider`, user name `<provider>_<subject>`, the IdP's
 * attributes already mapped) and on AdminCreateUser (the join route, SCIM: nothing to do here).
 *
 * Trust first: an IdP speaks only for its institution's verified domains; another e-mail is refused (thrown: the
 * sign-in fails, Cognito creates no user) and recorded. Then linking: when the pool has its own user with that
 * e-mail, the federated identity is linked to it (`AdminLinkProviderForUser`), so the person signs in as that user
 * and keeps its `sub`. A new user is confirmed with its e-mail verified: on a verified domain, it counts as verified.
 */
import type { PreSignUpTriggerEvent } from "aws-lambda";
import { linkToUser, nativeUserWithEmail } from "../../shared/sso/federation.js";
import { judge, providerOfUserName, REFUSED_MESSAGES } from "../../shared/sso/sign-in.js";
import { SignInRefused, ssoTrigger } from "../../shared/sso/trigger.js";
import { logger } from "../../shared/telemetry.js";

// A refusal is a `SignInRefused`; any other failure is logged at ERROR by the wrapper (shared/sso/trigger.ts).
export const handler = ssoTrigger("PreSignUp", async (event: PreSignUpTriggerEvent) => {
  if (event.triggerSource !== "PreSignUp_ExternalProvider") return event;
  const provider = providerOfUserName(event.userName);
  if (!provider) throw new SignInRefused(REFUSED_MESSAGES.not_connected);
  const trust = await judge(provider, event.request.userAttributes.email);
  if (trust.kind === "refused") {
    logger.info("federated sign-up refused", { provider_name: provider, reason: trust.reason });
    throw new SignInRefused(trust.message);
  }
  const existing = await nativeUserWithEmail(event.userPoolId, trust.email);
  if (existing) {
    await linkToUser(event.userPoolId, provider, event.userName.slice(provider.length + 1), existing.username);
    logger.info("federated identity linked to the pool's user", { provider_name: provider, sub: existing.sub });
  }
  event.response.autoConfirmUser = true;
  event.response.autoVerifyEmail = true;
  return event;
});
