/**
 * The user pool as it is now: for the two routes that join people from an invitation (docs/joining.md: does a
 * user with an e-mail exist, create one, set its password, delete it again), for transfer (a user's account
 * as the pool holds it now, docs/security.md) and for SCIM provisioning (find a person by e-mail or invite them, docs/scim.md). Only
 * those use cases import this module, statically (a dynamic import keeps all of Cognito), so the
 * Cognito client is in their bundles alone; their roles may make exactly these calls on the pool (route
 * access `users`, `USER_ACTIONS` in shared/routes.ts).
 *
 * USER_POOL_ID names the pool (the stack sets it for these functions only; the local stack also sets
 * COGNITO_ENDPOINT); its absence is an error at the first call, not at load.
 */

import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  type AttributeType,
  ListUsersCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { cognitoClient, cognitoError } from "./cognito.js";
import type { PoolMailMetadata } from "./pool-mail.js";
import { need, readSettings, USERS } from "./settings.js";

// Enforced, as for SES (mail.ts): a pool that does not answer costs seconds and a 5xx, not the Lambda timeout.
const cognito = cognitoClient({ connectionTimeout: 1_000, requestTimeout: 5_000 });

function poolId(): string {
  // Read when used: only the functions that create or move users have it.
  return need(readSettings(USERS(), ["USER_POOL_ID"]).USER_POOL_ID, "USER_POOL_ID");
}

const named = cognitoError;

/** Whether the pool has a user signing in with `email` (the pool's user name is the e-mail). One AdminGetUser. */
export async function userExists(email: string): Promise<boolean> {
  try {
    await cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: email }));
    return true;
  } catch (err) {
    if (named(err, "UserNotFoundException")) return false;
    throw err;
  }
}

export interface NewUser {
  /** The pool's user name of the new user (for the calls that follow), and its `sub`. */
  readonly username: string;
  readonly sub: string;
}

/**
 * Creates the user: e-mail verified (the invitation's token proved the mailbox), `name`, `custom:account_id`;
 * the pool sends no message. `exists` when a user with the e-mail is there already (also one created a moment ago
 * by a concurrent request: the pool decides).
 */
export async function createUser(u: { email: string; name: string; accountId: string }): Promise<NewUser | "exists"> {
  try {
    const out = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId(),
        Username: u.email,
        MessageAction: "SUPPRESS",
        UserAttributes: [
          { Name: "email", Value: u.email },
          { Name: "email_verified", Value: "true" },
          { Name: "name", Value: u.name },
          { Name: "custom:account_id", Value: u.accountId },
        ],
      }),
    );
    const sub = out.User?.Attributes?.find((a) => a.Name === "sub")?.Value;
    const username = out.User?.Username;
    if (!sub || !username) throw new Error("AdminCreateUser answered without the user's sub");
    return { username, sub };
  } catch (err) {
    if (named(err, "UsernameExistsException") || named(err, "AliasExistsException")) return "exists";
    throw err;
  }
}

/** Sets the user's permanent password; `refused` when the pool's policy refuses it (InvalidPasswordException). */
export async function setPassword(username: string, password: string): Promise<"ok" | "refused"> {
  try {
    await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: poolId(), Username: username, Password: password, Permanent: true }));
    return "ok";
  } catch (err) {
    if (named(err, "InvalidPasswordException")) return "refused";
    throw err;
  }
}

/** Deletes a user this request created (by its user name, never by e-mail: another request's user keeps its own). */
export async function deleteUser(username: string): Promise<void> {
  try {
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: poolId(), Username: username }));
  } catch (err) {
    if (!named(err, "UserNotFoundException")) throw err;
  }
}

/**
 * The account the pool holds for the user `sub` now; undefined for a user the pool no longer has (or one
 * without an account). One AdminGetUser: with e-mail as the username, a `sub` is accepted as the username.
 */
export async function currentAccountOf(sub: string): Promise<string | undefined> {
  try {
    const out = await cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: sub }));
    return out.UserAttributes?.find((a) => a.Name === "custom:account_id")?.Value || undefined;
  } catch (err) {
    if (named(err, "UserNotFoundException")) return undefined;
    throw err;
  }
}

/**
 * The attributes the pool holds for the user `sub` now (`sub`, `email`, `name`, `custom:account_id`, …), for an
 * event about them that no trigger carried (the activity export); undefined for a user the pool no longer has.
 */
export async function poolAttributesOf(sub: string): Promise<Record<string, string> | undefined> {
  try {
    const out = await cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: sub }));
    return Object.fromEntries((out.UserAttributes ?? []).flatMap((a) => (a.Name && a.Value !== undefined ? [[a.Name, a.Value]] : [])));
  } catch (err) {
    if (named(err, "UserNotFoundException")) return undefined;
    throw err;
  }
}

/**
 * The user `sub`'s authenticator app (TOTP) as their second sign-in step, on (and preferred) or off. `unverified`
 * when turning it on before the user verified a code of an associated app (AssociateSoftwareToken, then
 * VerifySoftwareToken, with their own access token): the pool refuses.
 */
export async function setSoftwareTokenMfa(sub: string, enabled: boolean): Promise<"ok" | "unverified"> {
  try {
    await cognito.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: poolId(),
        Username: sub,
        SoftwareTokenMfaSettings: { Enabled: enabled, PreferredMfa: enabled },
      }),
    );
    return "ok";
  } catch (err) {
    if (enabled && named(err, "InvalidParameterException")) return "unverified";
    throw err;
  }
}

/** Revokes every refresh token of the user `sub` (AdminUserGlobalSignOut): each session must sign in again. */
export async function signOutEverywhere(sub: string): Promise<void> {
  await cognito.send(new AdminUserGlobalSignOutCommand({ UserPoolId: poolId(), Username: sub }));
}

/** A pool user as SCIM provisioning needs it (docs/scim.md). */
export interface PoolUser {
  readonly user_id: string;
  readonly account_id: string | undefined;
  readonly name: string | undefined;
}

const attribute = (attrs: AttributeType[] | undefined, name: string) => attrs?.find((a) => a.Name === name)?.Value;

/** The pool user with `email`, by `ListUsers` (filter `email = "…"`; the caller admits no quote or backslash in it). */
async function findByEmail(email: string): Promise<PoolUser | undefined> {
  const out = await cognito.send(new ListUsersCommand({ UserPoolId: poolId(), Filter: `email = "${email}"`, Limit: 2 }));
  const user = out.Users?.find((u) => attribute(u.Attributes, "email")?.toLowerCase() === email);
  const sub = attribute(user?.Attributes, "sub");
  return sub
    ? { user_id: sub, account_id: attribute(user?.Attributes, "custom:account_id"), name: attribute(user?.Attributes, "name") }
    : undefined;
}

/**
 * SCIM provisioning's side of the pool: the user with `email`, or one made (in `accountId`, named `name`, its
 * e-mail verified) with the pool's own invitation, which mails a temporary password in the service's words,
 * naming `institution` (the CustomMessage trigger reads it from the call's `ClientMetadata`).
 */
export async function findOrCreatePoolUser(
  email: string,
  name: string | undefined,
  accountId: string,
  institution?: { readonly name: string },
): Promise<PoolUser> {
  const found = await findByEmail(email);
  if (found) return found;
  try {
    const out = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId(),
        Username: email,
        UserAttributes: [
          { Name: "email", Value: email },
          { Name: "email_verified", Value: "true" },
          ...(name ? [{ Name: "name", Value: name }] : []),
          { Name: "custom:account_id", Value: accountId },
        ],
        DesiredDeliveryMediums: ["EMAIL"],
        // For the mail's words (the CustomMessage trigger, shared/pool-mail.ts): which institution's directory made the user.
        ...(institution && {
          ClientMetadata: { source: "directory", institution_name: institution.name } satisfies PoolMailMetadata,
        }),
      }),
    );
    const sub = attribute(out.User?.Attributes, "sub");
    if (sub) return { user_id: sub, account_id: accountId, name };
  } catch (err) {
    if (!named(err, "UsernameExistsException")) throw err;
  }
  // Made meanwhile by someone else (another request, a person joining): that one.
  const again = await findByEmail(email);
  if (!again) throw new Error("the user pool made no user");
  return again;
}
