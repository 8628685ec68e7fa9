/**
 * The user pool's pre token generation trigger (docs/sso.md). Cognito invokes it before it issues tokens; a
 * federated sign-in comes through the managed login (`TokenGeneration_HostedAuth`), and its user's `identities`
 * attribute names the pool's provider. On every such sign-in: trust again (the IdP's mapped attributes are written
 * to the user at each sign-in, so the e-mail may have changed), membership on first sign-in, the account of a new
 * federated user (the institution's), its e-mail counted as verified, and the `sso_sign_in` event.
 * A refusal is thrown: Cognito issues no token.
 */
import type { PreTokenGenerationTriggerEvent } from "aws-lambda";
import { setAccount } from "../../shared/sso/federation.js";
import { groupsOf, judge, signIn } from "../../shared/sso/sign-in.js";
import { logger } from "../../shared/telemetry.js";

/** The pool's providers the user is linked to, as its `identities` attribute lists them. */
function providersOf(identities: string | undefined): string[] {
  if (!identities) return [];
  try {
    const parsed: unknown = JSON.parse(identities);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((i) => (i && typeof i === "object" && typeof i.providerName === "string" ? [i.providerName as string] : []));
  } catch {
    return [];
  }
}

export async function handler(event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> {
  if (event.triggerSource !== "TokenGeneration_HostedAuth") return event;
  const attrs = event.request.userAttributes;
  const [provider] = providersOf(attrs.identities);
  if (!provider || !attrs.sub) return event;
  const trust = await judge(provider, attrs.email);
  if (trust.kind === "refused") {
    logger.info("federated sign-in refused", { provider_name: provider, reason: trust.reason });
    throw new Error(trust.message);
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
}
