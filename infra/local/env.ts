/**
 * The environment that points the shared modules (shared/config.ts and shared/clients.ts read it at import)
 * at a local stack: for the handlers in the gateway, and for test, bench and load processes that read the
 * tables directly. Local credentials, so a developer's AWS profile never leaks in. No imports on purpose:
 * every test worker loads this.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" } as const;

/** The audit trail's local settings (DESIGN.md §10): retention, digest period and the signing key pair. */
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
  /** s3rver, for the full exports (DESIGN.md §11); older stack.json files lack it. */
  readonly s3Endpoint?: string;
  /** The local pool, for the functions that create users (joining, DESIGN.md §14); older stack.json files lack them. */
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
  return {
    EVENT_RETENTION_DAYS: String(trail.eventRetentionDays),
    DIGEST_PERIOD_SECONDS: String(trail.digestPeriodSeconds),
    DIGEST_KEY_ID: trail.keyId,
    DIGEST_PUBLIC_KEY_FILE: trail.publicKeyFile,
    DIGEST_PRIVATE_KEY_FILE: trail.privateKeyFile,
  };
}

export function localHandlerEnv(info: LocalEndpoints): Record<string, string> {
  return {
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
  };
}

/**
 * The account-wide bounds (DESIGN.md §13) raised out of the way, for the processes that measure
 * throughput (`npm run bench`, `npm run load`): they send one account's requests by the thousand on
 * purpose, where the bounds would turn them into 429s. Never for `npm start` or the tests.
 */
export const MEASUREMENT_BOUNDS: Readonly<Record<string, string>> = {
  ACCOUNT_HOURLY_MAIL_LIMIT: "1000000",
  ACCOUNT_DAILY_INSTITUTION_LIMIT: "1000000",
  REFUSED_REQUEST_LIMIT: "1000000",
};
