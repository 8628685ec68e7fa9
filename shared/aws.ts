/**
 * What every AWS client of the functions shares, DynamoDB's or not: the test run's request recorder and the
 * local stack's credentials. Apart from clients.ts (the DynamoDB client) so that a module imported
 * dynamically (users.ts, exports/link.ts) does not import the DynamoDB client: esbuild evaluates a dynamically
 * imported module and all it imports lazily, as wrapped modules, and a wrapped `@aws-sdk/client-dynamodb`
 * keeps every command and schema of DynamoDB (+60 KiB) in the bundle, whether its code is reached or not.
 */
import { LOCAL_KEYS, readSettings } from "./settings.js";

/**
 * The test run's AWS request recorder (infra/local/aws-requests.ts, docs/iam.md), only when `AWS_REQUEST_LOG`
 * is set: the stack's bundles define it empty, so esbuild drops the import, and a deployed cold start pays nothing.
 */
const recorder = process.env.AWS_REQUEST_LOG ? await import("../infra/local/aws-requests.js") : undefined;

/** Every AWS client of the functions passes through here, so that the test run can check its requests against IAM. */
export function observe<T extends object>(client: T): T {
  recorder?.recordRequests(client as unknown as Parameters<typeof recorder.recordRequests>[0]);
  return client;
}

/**
 * Client options for a local endpoint: fixed credentials, so the local stack needs no AWS profile. In AWS
 * (no endpoint override) the function's role provides them through the environment (docs/cold-starts.md).
 */
export function localCredentials(endpoint: string | undefined) {
  if (!endpoint) return {};
  const keys = readSettings(LOCAL_KEYS(), ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
  return {
    credentials: {
      accessKeyId: keys.AWS_ACCESS_KEY_ID ?? "local",
      secretAccessKey: keys.AWS_SECRET_ACCESS_KEY ?? "local",
    },
  };
}
