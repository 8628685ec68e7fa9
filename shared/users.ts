/**
 * The user pool, for the two routes that join people from an invitation (DESIGN.md §14): does a user with an
 * e-mail exist, create one, set its password, delete it again. Only invitations/join.ts imports this module and
 * only the open and register functions import that, so the Cognito client is in their bundles alone; their
 * roles may make exactly these calls on the pool (route access `users`, infra/api-function.ts).
 *
 * USER_POOL_ID names the pool (the stack sets it for these functions only; the local stack also sets
 * COGNITO_ENDPOINT); its absence is an error at the first call, not at load.
 */
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
} from "@aws-sdk/client-cognito-identity-provider";
import { localCredentials } from "./clients.js";
import { config } from "./config.js";
import { tracer } from "./telemetry.js";

const endpoint = process.env.COGNITO_ENDPOINT || undefined;

const cognito = new CognitoIdentityProviderClient({
  region: config.region,
  endpoint,
  ...localCredentials(endpoint),
  maxAttempts: 2,
  // Enforced, as for SES (mail.ts): a pool that does not answer costs seconds and a 5xx, not the Lambda timeout.
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
});
tracer.captureAWSv3Client(cognito);

function poolId(): string {
  const id = process.env.USER_POOL_ID;
  if (!id) throw new Error("USER_POOL_ID must be set for the functions that create users");
  return id;
}

const named = (err: unknown, name: string) => err instanceof Error && err.name === name;

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
