/**
 * The environment that points the shared modules (shared/config.ts and shared/clients.ts read it at import)
 * at a local stack: for the handlers in the gateway, and for test, bench and load processes that read the
 * tables directly. Local credentials, so a developer's AWS profile never leaks in. It imports only the
 * declarations of the names (shared/settings.ts): every test worker loads this.
 */
import { environment } from "../../shared/settings.js";

export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" } as const;

/** The audit trail's local settings (docs/trail.md): retention, digest period and the signing key pair. */
export interface LocalTrail {
  readonly eventRetentionDays: number;
  readonly digestPeriodSeconds: number;
  /** `local:<fingerprint>`: names the key pair in every digest. */
  readonly keyId: string;
  /** PEM files of the ECDSA P-256 key pair the local stack generated on its first start. */
  readonly privateKeyFile: string;
  readonly publicKeyFile: string;
}

export interface LocalEndpoints {
  readonly tables: { readonly main: string; readonly events: string; readonly idempotency: string };
  readonly dynamodbEndpoint: string;
  readonly sesEndpoint: string;
  readonly region: string;
  readonly trail: LocalTrail;
  /** s3rver, for the full exports (docs/events-out.md); older stack.json files lack it. */
  readonly s3Endpoint?: string;
  /** The local pool, for the functions that create users (joining, docs/joining.md); older stack.json files lack them. */
  readonly userPoolId?: string;
  readonly cognitoEndpoint?: string;
}

/** The local exports bucket (s3rver creates it at start). */
export const LOCAL_EXPORTS_BUCKET = "institution-admin-exports";

/**
 * The trail's environment: what the CDK stack sets in AWS (retention, the public key for the digests route)
 * and the local signer's key file (in AWS the digest function signs with KMS instead).
 */
export function trailEnv(trail: LocalTrail): Record<string, string> {
  return environment({
    EVENT_RETENTION_DAYS: String(trail.eventRetentionDays),
    DIGEST_PERIOD_SECONDS: String(trail.digestPeriodSeconds),
    DIGEST_KEY_ID: trail.keyId,
    DIGEST_PUBLIC_KEY_FILE: trail.publicKeyFile,
    DIGEST_PRIVATE_KEY_FILE: trail.privateKeyFile,
  });
}

export function localHandlerEnv(info: LocalEndpoints): Record<string, string> {
  return environment({
    ...trailEnv(info.trail),
    MAIN_TABLE: info.tables.main,
    EVENTS_TABLE: info.tables.events,
    IDEMPOTENCY_TABLE: info.tables.idempotency,
    DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
    SES_ENDPOINT: info.sesEndpoint,
    ...(info.s3Endpoint && { S3_ENDPOINT: info.s3Endpoint, EXPORTS_BUCKET: LOCAL_EXPORTS_BUCKET }),
    ...(info.userPoolId && info.cognitoEndpoint && { USER_POOL_ID: info.userPoolId, COGNITO_ENDPOINT: info.cognitoEndpoint }),
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    // The request line of each invocation stays in the local logs; EMF metrics have no CloudWatch to go to.
    POWERTOOLS_METRICS_DISABLED: "true",
    // Tracing is off outside Lambda: the X-Ray SDK in manual mode, with no async hook in these long-lived processes.
    AWS_XRAY_MANUAL_MODE: "true",
  });
}

/**
 * The account-wide bounds (docs/security.md) raised out of the way, for the processes that measure
 * throughput (`npm run bench`, `npm run load`): they send one account's requests by the thousand on
 * purpose, where the bounds would turn them into 429s. Never for `npm start` or the tests.
 */
export const MEASUREMENT_BOUNDS: Readonly<Record<string, string>> = environment({
  ACCOUNT_HOURLY_MAIL_LIMIT: "1000000",
  ACCOUNT_DAILY_INSTITUTION_LIMIT: "1000000",
  REFUSED_REQUEST_LIMIT: "1000000",
});

/**
 * The environment of the local stack's own processes and of the CDK app, which no function reads (those are in
 * shared/settings.ts): test/unit/settings.test.ts fails on a read of a name in neither list.
 */
export const PROCESS_SETTINGS = [
  /** The gateway's port and address (infra/local/gateway.ts, start.ts). */
  "PORT",
  "GATEWAY_HOST",
  /** `npm start`'s fixed ports for the local services, else free ones (start.ts). */
  "DYNAMODB_PORT",
  "COGNITO_PORT",
  "SES_PORT",
  /** CloudFront mode: an origin secret and the viewer's address header, as deployed (gateway.ts). */
  "LOCAL_CLOUDFRONT",
  "LOCAL_ORIGIN_PORT",
  /** Honour the clock-offset header: the test run's stack only. */
  "LOCAL_CLOCK_HEADER",
  /** The digester on a timer, as EventBridge Scheduler runs it in AWS. */
  "DIGEST_TIMER",
  /** The export worker, stream consumer and webhook retrier in-process (workers.ts). */
  "LOCAL_WORKERS",
  /** The authorizer's issuer, audience and keys (gateway.ts). */
  "JWT_ISSUER",
  "JWT_AUDIENCE",
  "JWKS_URL",
  /** The console the gateway serves: its /config.json and its files (console.ts). */
  "CONSOLE_CONFIG",
  "CONSOLE_DIR",
  /** The local SES, for cognito-local's mail (cognito-local.mjs). */
  "LOCAL_SES_ENDPOINT",
  /** The port of the user pool's functions in the gateway's process (lambda.ts), and their endpoint for cognito-local.mjs. */
  "LOCAL_LAMBDA_PORT",
  "LOCAL_LAMBDA_ENDPOINT",
  /** `npm start`'s test IdPs (idps.ts): their ports, when free. */
  "SAML_IDP_PORT",
  "OIDC_IDP_PORT",
  /** `npm start`'s DNS server (dns-server.ts): its UDP port, when free; DNS_RESOLVERS set instead replaces it. */
  "DNS_PORT",
  /** The CLI profile's account and region, for `cdk deploy` (infra/app.ts). */
  "CDK_DEFAULT_ACCOUNT",
  "CDK_DEFAULT_REGION",
  /** Blanked for the gateway, so that a developer's AWS profile never reaches the local functions. */
  "AWS_SESSION_TOKEN",
  "AWS_PROFILE",
] as const;

/** The gateway process's own environment, by the names above only (a misspelt one fails typecheck). */
export const processEnvironment = (vars: { readonly [K in (typeof PROCESS_SETTINGS)[number]]?: string }): Record<string, string> =>
  ({ ...vars }) as Record<string, string>;
