/**
 * The one way the functions make a Cognito client (the user pool's API): the region, the local Cognito's endpoint
 * and credentials when the local stack sets `COGNITO_ENDPOINT`, two attempts, bounded connection and request
 * times, X-Ray's capture, and the test run's request recorder (docs/iam.md). Its callers (users.ts, sso/pool.ts,
 * sso/federation.ts, sso/app-client.ts) each make one client with the bounds their caller can afford, and import
 * the commands they send from the client package themselves, so a bundle keeps only those (docs/cold-starts.md).
 * Only modules with the pool import this one: the other functions' bundles hold no Cognito code.
 */
import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { localCredentials, observe } from "./aws.js";
import { config } from "./config.js";
import { readSettings, USERS } from "./settings.js";
import { tracer } from "./tracer.js";

/** How long a call may take: its connection, and the whole request (milliseconds). */
export interface CognitoBounds {
  readonly connectionTimeout: number;
  readonly requestTimeout: number;
}

/** The local Cognito's endpoint; unset in AWS. */
export const cognitoEndpoint = (): string | undefined => readSettings(USERS(), ["COGNITO_ENDPOINT"]).COGNITO_ENDPOINT;

/** A Cognito client of the function, each call bounded by `bounds` (a pool that does not answer costs seconds, not the timeout). */
export function cognitoClient(bounds: CognitoBounds): CognitoIdentityProviderClient {
  const endpoint = cognitoEndpoint();
  const client = new CognitoIdentityProviderClient({
    region: config.region,
    endpoint,
    ...localCredentials(endpoint),
    maxAttempts: 2,
    requestHandler: { ...bounds, throwOnRequestTimeout: true },
  });
  tracer.captureAWSv3Client(client);
  return observe(client); // the test run's IAM check sees its calls
}

/** Whether `err` is the Cognito error named one of `names`. */
export const cognitoError = (err: unknown, ...names: string[]): boolean => err instanceof Error && names.includes(err.name);
