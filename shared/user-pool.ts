/**
 * The user pool as it is now (DESIGN.md §13, "Transfer"): a user's account as Cognito holds it at this
 * moment, not as a token or an access record once said. Only the transfer function reads it, so only its
 * bundle holds the Cognito client (the service imports this module dynamically); its role may call
 * `cognito-idp:AdminGetUser` on the pool named by `USER_POOL_ID`, and nothing else there.
 */
import { AdminGetUserCommand, CognitoIdentityProviderClient, UserNotFoundException } from "@aws-sdk/client-cognito-identity-provider";
import { localCredentials } from "./clients.js";
import { config } from "./config.js";
import { tracer } from "./telemetry.js";

const ACCOUNT_ATTRIBUTE = "custom:account_id";

const endpoint = process.env.COGNITO_ENDPOINT || undefined;

const cognito = new CognitoIdentityProviderClient({
  region: config.region,
  endpoint,
  ...localCredentials(endpoint),
  maxAttempts: 2,
  // Enforced, as for SES: a pool that does not answer costs the transfer a few seconds and a 500, not the Lambda's timeout.
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000, throwOnRequestTimeout: true },
});
tracer.captureAWSv3Client(cognito); // X-Ray subsegments for the call

/** The pool's id: set by the stack for the functions that read the pool; its absence is a deployment error. */
function poolId(): string {
  const id = process.env.USER_POOL_ID;
  if (!id) throw new Error("Missing required environment variable USER_POOL_ID");
  return id;
}

/**
 * The account the pool holds for the user `sub` now; undefined for a user the pool no longer has (or one
 * without an account). One AdminGetUser: with e-mail as the username, a `sub` is accepted as the username.
 */
export async function currentAccountOf(sub: string): Promise<string | undefined> {
  try {
    const out = await cognito.send(new AdminGetUserCommand({ UserPoolId: poolId(), Username: sub }));
    return out.UserAttributes?.find((a) => a.Name === ACCOUNT_ATTRIBUTE)?.Value || undefined;
  } catch (err) {
    if (err instanceof UserNotFoundException) return undefined;
    throw err;
  }
}
