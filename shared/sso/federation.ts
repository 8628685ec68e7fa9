/**
 * The user pool's calls of a federated sign-in (docs/sso.md), for the pool's triggers (functions/sso/): find the
 * pool's own user with an e-mail, link a federated identity to it (`AdminLinkProviderForUser`: the person keeps one
 * `sub`, their access and their trail), and give a new federated user the institution's account. The triggers'
 * role may make exactly these calls on the pool (infra/sso-triggers.ts).
 */
import {
  AdminLinkProviderForUserCommand,
  AdminUpdateUserAttributesCommand,
  ListUsersCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { cognitoClient } from "../cognito.js";

// A trigger has 5 seconds in all (Cognito's limit): each call is bounded well within it.
const cognito = cognitoClient({ connectionTimeout: 500, requestTimeout: 2_000 });

/** The pool's own user (not a federated one) signing in with `email`: its user name and `sub`. One ListUsers. */
export async function nativeUserWithEmail(poolId: string, email: string): Promise<{ username: string; sub: string } | undefined> {
  // The filter's value is quoted; an e-mail with a quote or backslash is no pool user's (the join route refuses them).
  if (/["\\]/.test(email)) return undefined;
  const out = await cognito.send(new ListUsersCommand({ UserPoolId: poolId, Filter: `email = "${email}"`, Limit: 10 }));
  for (const u of out.Users ?? []) {
    if (u.UserStatus === "EXTERNAL_PROVIDER" || !u.Username) continue;
    const sub = u.Attributes?.find((a) => a.Name === "sub")?.Value;
    if (sub) return { username: u.Username, sub };
  }
  return undefined;
}

/** Links the identity `subject` of the pool's provider `provider` to the pool's user `username` (before its first sign-in). */
export async function linkToUser(poolId: string, provider: string, subject: string, username: string): Promise<void> {
  await cognito.send(
    new AdminLinkProviderForUserCommand({
      UserPoolId: poolId,
      DestinationUser: { ProviderName: "Cognito", ProviderAttributeValue: username },
      SourceUser: { ProviderName: provider, ProviderAttributeName: "Cognito_Subject", ProviderAttributeValue: subject },
    }),
  );
}

/** Gives the pool's user `username` the account `accountId` (a new federated user gets the institution's). */
export async function setAccount(poolId: string, username: string, accountId: string): Promise<void> {
  await cognito.send(
    new AdminUpdateUserAttributesCommand({
      UserPoolId: poolId,
      Username: username,
      UserAttributes: [{ Name: "custom:account_id", Value: accountId }],
    }),
  );
}
