/**
 * The user pool's pre token generation trigger (docs/sso.md). Cognito invokes it before it issues tokens; a
 * federated sign-in comes through the managed login (`TokenGeneration_HostedAuth`), and its user's `identities`
 * attribute names the pool's provider. On every such sign-in: trust again (the IdP's mapped attributes are written
 * to the user at each sign-in, so the e-mail may have changed), membership on first sign-in, the account of a new
 * federated user (the institution's), its e-mail counted as verified, and the `sso_sign_in` event.
 * A refusal is thrown: Cognito issues no token. After a password sign-in through the API, it makes require SSO's
 * check for a person whose identity is linked (pre authentication passes them). A hosted sign-in with `identities` is
 * taken as federated because the console's app client offers no password form at the managed login while an
 * institution is connected (`clientProviders`, shared/sso/app-client.ts; docs/sso.md).
 */
import type { PreTokenGenerationTriggerEvent } from "aws-lambda";
import { setAccount } from "../../shared/sso/federation.js";
import { linkedProviders, PASSWORD_TOKEN_SOURCES, requiredSso, requireSsoMessage } from "../../shared/sso/require.js";
import { groupsOf, judge, signIn } from "../../shared/sso/sign-in.js";
import { SignInRefused, ssoTrigger } from "../../shared/sso/trigger.js";
import { logger } from "../../shared/telemetry.js";

// A refusal is a `SignInRefused`; any other failure is logged at ERROR by the wrapper (shared/sso/trigger.ts).
export const handler = ssoTrigger("PreTokenGeneration", async (event: PreTokenGenerationTriggerEvent) => {
  const attrs = event.request.userAttributes;
  if (PASSWORD_TOKEN_SOURCES.has(event.triggerSource)) {
    // Require SSO for a linked person's password sign-in: pre authentication cannot tell it from their federated
    // ones (Cognito runs it for both, with one source), so it passes linked users and the check is made here.
    if (linkedProviders(attrs.identities).length > 0 && attrs.email) {
      const required = await requiredSso(attrs.email, attrs.sub);
      if (required) throw new SignInRefused(requireSsoMessage(required.institution));
    }
    return event;
  }
  if (event.triggerSource !== "TokenGeneration_HostedAuth") return event;
  const [provider] = linkedProviders(attrs.identities);
  if (!provider || !attrs.sub) return event;
  const trust = await judge(provider, attrs.email);
  if (trust.kind === "refused") {
    logger.info("federated sign-in refused", { provider_name: provider, reason: trust.reason });
    throw new SignInRefused(trust.message);
  }
  const account = attrs["custom:account_id"] || undefined;
  const claims: Record<string, string> = { email_verified: "true" };
  if (!account) {
    await setAccount(event.userPoolId, event.userName, trust.institution.account_id);
    claims["custom:account_id"] = trust.institution.account_id;
  }
  const done = await signIn(trust, {
    sub: attrs.sub,
    email: trust.email,
    name: attrs.name || null,
    accountId: account ?? trust.institution.account_id,
    groups: groupsOf(attrs["custom:sso_groups"]),
    ip: "0.0.0.0",
  });
  logger.info("federated sign-in", { provider_name: provider, institution_id: trust.institution.id, ...done });
  event.response.claimsOverrideDetails = { ...event.response.claimsOverrideDetails, claimsToAddOrOverride: claims };
  return event;
});
