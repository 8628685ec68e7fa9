/**
 * The whole API on this machine: DynamoDB Local, cognito-local, aws-ses-v2-local and the gateway, with the
 * tables and the user pool in place. `npm start` and the test harness both start it through here.
 */

import { createHash, generateKeyPairSync } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableNotExists,
} from "@aws-sdk/client-dynamodb";
import { paths } from "../../shared/paths.js";
import { CORE, DNS, environment, MAIL, readSettings, STREAM } from "../../shared/settings.js";
import { consoleOAuth, updateAppClient } from "../../shared/sso/app-client.js";
import { createTableInput, eventsTable, idempotencyTable, mainTable, type TableDef } from "../../shared/tables.js";
import { cognitoClient, ensureUserPool, startTokenTrigger, writeCognitoConfig } from "./cognito.js";
import { LOCAL_CREDENTIALS, LOCAL_EXPORTS_BUCKET, type LocalTrail, localHandlerEnv, processEnvironment } from "./env.js";
import { cognitoService, dynamodbService, freePort, gatewayService, ROOT, type Service, s3Service, sesService } from "./services.js";

/** Where `npm start` keeps its data, and the file that tells clients where it listens. */
export const LOCAL_DIR = join(ROOT, ".local");
export const STACK_FILE = join(LOCAL_DIR, "stack.json");

/** The sender address of the local stack's mail. */
export const LOCAL_MAIL_FROM = readSettings(MAIL(), ["MAIL_FROM"]).MAIL_FROM ?? "no-reply@institution-admin.local";
/**
 * The configuration set every send names, as the CDK stack passes its own: the local SES accepts the name and
 * keeps no set, and the test run's IAM check sees each send authorized against it too (docs/iam.md).
 */
export const LOCAL_MAIL_CONFIGURATION_SET = "institution-admin-mail";

/** What clients need to reach the stack; `npm start` writes it to `.local/stack.json`. */
export interface StackInfo {
  readonly apiUrl: string;
  /** The console (web/), on the API's origin: `<apiUrl>/`. */
  readonly consoleUrl: string;
  readonly region: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  readonly cognitoEndpoint: string;
  readonly dynamodbEndpoint: string;
  readonly sesEndpoint: string;
  readonly tables: { readonly main: string; readonly events: string; readonly idempotency: string };
  /** The API reference page (the document is `<apiUrl>` + `paths.openapi`). */
  readonly docsUrl: string;
  /** The audit trail's retention, digest period and signing key pair (docs/trail.md). */
  readonly trail: LocalTrail;
  /** s3rver, holding the full exports' files (docs/events-out.md). */
  readonly s3Endpoint: string;
}

export interface StackOptions {
  /** cognito-local's data (`.cognito/` inside it), DynamoDB files when `persistent`, and `logs/`. */
  readonly dataDir: string;
  /** DynamoDB data on disk under `<dataDir>/dynamodb` (npm start) instead of in memory (tests). */
  readonly persistent?: boolean;
  /** Ports to use; a free one for each left out. */
  readonly ports?: {
    readonly api?: number;
    readonly dynamodb?: number;
    readonly cognito?: number;
    readonly ses?: number;
    readonly s3?: number;
  };
  readonly region?: string;
  /** Tables are `<prefix>-main`, `<prefix>-events` and `<prefix>-idempotency`. */
  readonly tablePrefix?: string;
  /** The gateway's request log on our stdout ("inherit") or in `<dataDir>/logs/gateway.log` ("file", default). */
  readonly gatewayOutput?: "inherit" | "file";
  /** Default: $EVENT_RETENTION_DAYS, else 90 (the dev deployment's). */
  readonly eventRetentionDays?: number;
  /** Default: $DIGEST_PERIOD_SECONDS, else 3600 (the deployed period). */
  readonly digestPeriodSeconds?: number;
  /** Runs the digester on a timer in the gateway (default true). */
  readonly digestTimer?: boolean;
  /** Webhook retries: the first waits this long, each next twice as long (default: $WEBHOOK_RETRY_BASE_SECONDS, else 30). */
  readonly webhookRetryBaseSeconds?: number;
  /**
   * Honour the `x-local-clock-offset` header (docs/iam.md): the test run's stack only. Off by default, so
   * `npm start` answers a request carrying it with 400 rather than let anyone date events in another's trail.
   */
  readonly clockHeader?: boolean;
  /** The verified domains' DNS resolvers (`DNS_RESOLVERS`, docs/sso.md); default: the shell's, else the system's. */
  readonly dnsResolvers?: string;
  /** More environment for the handlers (settings such as `MEASUREMENT_BOUNDS`). */
  readonly handlerEnv?: Readonly<Record<string, string>>;
}

/**
 * The digest signing key pair in `<dir>/trail-key.pem` and `trail-key.pub.pem`: ECDSA P-256, as the KMS key
 * of a deployed stack (`ECC_NIST_P256`). Generated on the first start, kept after, so that digests signed
 * earlier still verify.
 */
export function ensureTrailKey(dir: string): Pick<LocalTrail, "keyId" | "privateKeyFile" | "publicKeyFile"> {
  const privateKeyFile = join(dir, "trail-key.pem");
  const publicKeyFile = join(dir, "trail-key.pub.pem");
  if (!existsSync(privateKeyFile) || !existsSync(publicKeyFile)) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", {
      namedCurve: "P-256",
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    writeFileSync(privateKeyFile, privateKey, { mode: 0o600 });
    writeFileSync(publicKeyFile, publicKey);
  }
  const fingerprint = createHash("sha256").update(readFileSync(publicKeyFile, "utf8")).digest("hex").slice(0, 16);
  return { keyId: `local:${fingerprint}`, privateKeyFile, publicKeyFile };
}

/** A service that fault tests can take away and bring back on the same port. */
export interface ControllableService {
  readonly endpoint: string;
  readonly running: boolean;
  /** Stops the process (connections refused from then on). */
  stop(): Promise<void>;
  /** Starts it again on the same port; for DynamoDB also re-creates the tables (in memory they are gone). */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections hang instead of being refused. Data is kept. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

export interface LocalStack extends StackInfo {
  /** Stopping in-memory DynamoDB Local loses its data; `pause()` keeps it. */
  readonly dynamodb: ControllableService;
  /** Its mail store is in memory: a restart empties it. */
  readonly ses: ControllableService;
  readonly logDir: string;
  info(): StackInfo;
  stop(): Promise<void>;
}

/** Keys and indexes of a table, as one comparable string. */
function shapeOf(
  keySchema: readonly { AttributeName?: string | undefined; KeyType?: string | undefined }[] | undefined,
  indexes:
    | readonly {
        IndexName?: string | undefined;
        KeySchema?: readonly { AttributeName?: string | undefined; KeyType?: string | undefined }[] | undefined;
      }[]
    | undefined,
): string {
  const keys = (k: typeof keySchema) => (k ?? []).map((x) => `${x.AttributeName}:${x.KeyType}`).join(",");
  const gsis = (indexes ?? []).map((i) => `${i.IndexName}(${keys(i.KeySchema)})`).sort();
  return `${keys(keySchema)};${gsis.join(";")}`;
}

/**
 * Creates the tables from shared/tables.ts. A table that exists already with the same keys and indexes is
 * left as it is; one whose definition changed since (an older checkout's data in `.local/`) is dropped and
 * created anew, so `npm start` never needs a manual step: local data is test data.
 */
export async function createTables(endpoint: string, region: string, tables: StackInfo["tables"]): Promise<void> {
  const db = new DynamoDBClient({ endpoint, region, credentials: LOCAL_CREDENTIALS });
  const create = async (def: TableDef, name: string) => {
    const input = createTableInput(def, name);
    try {
      await db.send(new CreateTableCommand(input));
    } catch (err) {
      if ((err as Error).name !== "ResourceInUseException") throw err;
      const { Table: existing } = await db.send(new DescribeTableCommand({ TableName: name }));
      if (shapeOf(existing?.KeySchema, existing?.GlobalSecondaryIndexes) !== shapeOf(input.KeySchema, input.GlobalSecondaryIndexes)) {
        console.warn(`[local stack] table ${name} has an older definition: recreating it (its local data is dropped)`);
        await db.send(new DeleteTableCommand({ TableName: name }));
        await waitUntilTableNotExists({ client: db, maxWaitTime: 60 }, { TableName: name });
        await db.send(new CreateTableCommand(input));
      }
    }
    if (def.stream) await enableStream(db, name);
    if (def.ttlAttribute) {
      try {
        await db.send(
          new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { Enabled: true, AttributeName: def.ttlAttribute } }),
        );
      } catch (err) {
        // Enabling it twice is a ValidationException ("already enabled"); anything else is real.
        if ((err as Error).name !== "ValidationException") throw err;
      }
    }
  };
  try {
    await Promise.all([create(mainTable, tables.main), create(eventsTable, tables.events), create(idempotencyTable, tables.idempotency)]);
  } finally {
    db.destroy();
  }
}

/** Turns on the table's stream (NEW_IMAGE) when a table made by an older checkout has none. */
async function enableStream(db: DynamoDBClient, name: string): Promise<void> {
  const { Table: table } = await db.send(new DescribeTableCommand({ TableName: name }));
  if (table?.StreamSpecification?.StreamEnabled) return;
  await db.send(new UpdateTableCommand({ TableName: name, StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_IMAGE" } }));
}

function controllable(service: Service, endpoint: string, afterStart: () => Promise<void> = async () => {}): ControllableService {
  return {
    endpoint,
    get running() {
      return service.running;
    },
    stop: () => service.stop(),
    start: async () => {
      await service.start();
      await afterStart();
    },
    pause: () => service.pause(),
    resume: () => service.resume(),
  };
}

/** What a gateway process plays besides the stack it serves (`gatewayEnvironment`). */
export interface GatewayRole {
  /** The console's origin: invitation links and the SCIM base URL. */
  readonly appBaseUrl: string;
  readonly webhookRetryBaseSeconds: number;
  /**
   * The export worker, the events stream's consumer and webhook retries, in-process (infra/local/workers.ts), as AWS
   * invokes their functions. One gateway per stack: a second consumer of the stream would deliver every event twice.
   */
  readonly workers: boolean;
  /** The digester on a timer, as EventBridge Scheduler runs the digest function in AWS. */
  readonly digestTimer: boolean;
  /** Honour `x-local-clock-offset` (the test run's stack only). */
  readonly clockHeader: boolean;
  /** Verified domains' TXT lookups (`host:port`, comma-separated); the system's resolvers when unset. */
  readonly dnsResolvers?: string | undefined;
  /** More environment for the handlers. */
  readonly handlerEnv?: Readonly<Record<string, string>>;
}

/**
 * The environment of a gateway process (infra/local/gateway.ts run as a program) on the stack `info` describes:
 * the handlers' settings, as the CDK stack sets them in AWS, plus the local endpoints; then the gateway's own.
 * The test run starts a second gateway with it, in CloudFront mode (test/integration/one-way-in.test.ts).
 */
export function gatewayEnvironment(info: StackInfo, role: GatewayRole): Record<string, string> {
  const { region, userPoolId, userPoolClientId, cognitoEndpoint } = info;
  return {
    ...localHandlerEnv(info),
    ...environment({
      // A webhook receiver on this machine (http://127.0.0.1:…) can be tested; a deployed stack takes https only.
      WEBHOOK_ALLOW_LOOPBACK_HTTP: "true",
      WEBHOOK_RETRY_BASE_SECONDS: String(role.webhookRetryBaseSeconds),
      MAIL_FROM: LOCAL_MAIL_FROM,
      SES_CONFIGURATION_SET: LOCAL_MAIL_CONFIGURATION_SET,
      // Invitation links open the console, which the gateway serves on its own origin.
      APP_BASE_URL: role.appBaseUrl,
      // The pool that transfer, joining and SCIM use (shared/users.ts), as the CDK stack names it to those functions.
      USER_POOL_ID: userPoolId,
      COGNITO_ENDPOINT: cognitoEndpoint,
      // SSO connections: the console's app client lists their providers; the local Cognito stands in for the
      // pool's managed-login domain (its ACS URL and redirect URI).
      USER_POOL_CLIENT_ID: userPoolClientId,
      COGNITO_DOMAIN: cognitoEndpoint,
      // Verified domains' TXT lookups: `DNS_RESOLVERS=127.0.0.1:5353 npm start` reaches a resolver of your own.
      DNS_RESOLVERS: role.dnsResolvers,
    }),
    // The gateway process's own settings (infra/local/gateway.ts), not a function's.
    ...processEnvironment({
      LOCAL_WORKERS: role.workers ? "true" : "",
      DIGEST_TIMER: role.digestTimer ? "true" : "",
      LOCAL_CLOCK_HEADER: role.clockHeader ? "true" : "",
      AWS_SESSION_TOKEN: "",
      AWS_PROFILE: "",
      // The console's /config.json (console.ts): the same keys the CDK stack writes into its bucket.
      CONSOLE_CONFIG: JSON.stringify({ region, userPoolId, userPoolClientId, cognitoEndpoint, mfa: "optional" }),
      // The authorizer's settings.
      JWT_ISSUER: `${cognitoEndpoint}/${userPoolId}`,
      JWT_AUDIENCE: userPoolClientId,
      JWKS_URL: `${cognitoEndpoint}/${userPoolId}/.well-known/jwks.json`,
    }),
    ...role.handlerEnv,
  };
}

/** Starts every service, creates what the API needs, then the gateway. On failure nothing is left running. */
export async function startLocalStack(opts: StackOptions): Promise<LocalStack> {
  const region = opts.region ?? "us-east-1";
  const prefix = opts.tablePrefix ?? "institution-admin";
  const tables = { main: `${prefix}-main`, events: `${prefix}-events`, idempotency: `${prefix}-idempotency` };
  const logDir = join(opts.dataDir, "logs");
  const cognitoDir = join(opts.dataDir, "cognito");
  mkdirSync(logDir, { recursive: true });
  mkdirSync(cognitoDir, { recursive: true });

  const ports = {
    api: opts.ports?.api ?? (await freePort()),
    dynamodb: opts.ports?.dynamodb ?? (await freePort()),
    cognito: opts.ports?.cognito ?? (await freePort()),
    ses: opts.ports?.ses ?? (await freePort()),
    s3: opts.ports?.s3 ?? (await freePort()),
  };
  const dynamodbEndpoint = `http://127.0.0.1:${ports.dynamodb}`;
  const cognitoEndpoint = `http://127.0.0.1:${ports.cognito}`;
  const sesEndpoint = `http://127.0.0.1:${ports.ses}`;
  const s3Endpoint = `http://127.0.0.1:${ports.s3}`;
  const apiUrl = `http://127.0.0.1:${ports.api}`;
  const consoleUrl = `${apiUrl}/`;

  // What a developer's shell may set for the functions (`npm start`), checked as the functions check it.
  const shell = readSettings({ ...CORE(), ...STREAM(), ...MAIL(), ...DNS() }, [
    "EVENT_RETENTION_DAYS",
    "DIGEST_PERIOD_SECONDS",
    "WEBHOOK_RETRY_BASE_SECONDS",
    "APP_BASE_URL",
    "DNS_RESOLVERS",
  ]);
  const trail: LocalTrail = {
    eventRetentionDays: opts.eventRetentionDays ?? shell.EVENT_RETENTION_DAYS,
    digestPeriodSeconds: opts.digestPeriodSeconds ?? shell.DIGEST_PERIOD_SECONDS,
    ...ensureTrailKey(opts.dataDir),
  };

  const trigger = await startTokenTrigger();
  writeCognitoConfig(cognitoDir, { issuerDomain: cognitoEndpoint, triggerEndpoint: trigger.endpoint });

  const dynamodb = dynamodbService({
    port: ports.dynamodb,
    ...(opts.persistent && { dbPath: join(opts.dataDir, "dynamodb") }),
    output: join(logDir, "dynamodb.log"),
  });
  const cognito = cognitoService({ port: ports.cognito, dataDir: cognitoDir, output: join(logDir, "cognito.log"), sesEndpoint });
  const ses = sesService({ port: ports.ses, output: join(logDir, "ses.log") });
  const s3 = s3Service({ port: ports.s3, dir: join(opts.dataDir, "s3"), bucket: LOCAL_EXPORTS_BUCKET, output: join(logDir, "s3.log") });
  const started: Service[] = [];
  let gateway: Service | undefined;

  const stopAll = async () => {
    await gateway?.stop();
    await Promise.all(started.map((s) => s.stop()));
    await trigger.close();
  };

  try {
    // allSettled: when one fails, the others have still finished starting and get stopped below.
    const results = await Promise.allSettled(
      [dynamodb, cognito, ses, s3].map(async (s) => {
        await s.start();
        started.push(s);
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;

    const [, pool] = await Promise.all([createTables(dynamodbEndpoint, region, tables), ensureUserPool(cognitoEndpoint, region)]);
    // The console's OAuth as the stack's app client has it (docs/sso.md), its providers kept; no lock: nothing runs yet.
    const poolClient = cognitoClient(cognitoEndpoint, region);
    await updateAppClient(poolClient, pool.userPoolId, pool.userPoolClientId, consoleOAuth([consoleUrl])).finally(() =>
      poolClient.destroy(),
    );

    const info: StackInfo = {
      apiUrl,
      consoleUrl,
      region,
      userPoolId: pool.userPoolId,
      userPoolClientId: pool.userPoolClientId,
      cognitoEndpoint,
      dynamodbEndpoint,
      sesEndpoint,
      tables,
      docsUrl: `${apiUrl}${paths.docs}`,
      trail,
      s3Endpoint,
    };
    gateway = gatewayService({
      port: ports.api,
      output: opts.gatewayOutput === "inherit" ? "inherit" : join(logDir, "gateway.log"),
      env: gatewayEnvironment(info, {
        appBaseUrl: shell.APP_BASE_URL ?? apiUrl,
        webhookRetryBaseSeconds: opts.webhookRetryBaseSeconds ?? shell.WEBHOOK_RETRY_BASE_SECONDS,
        workers: true,
        digestTimer: opts.digestTimer !== false,
        clockHeader: opts.clockHeader === true,
        dnsResolvers: opts.dnsResolvers ?? shell.DNS_RESOLVERS,
        ...(opts.handlerEnv && { handlerEnv: opts.handlerEnv }),
      }),
    });
    await gateway.start();

    return {
      ...info,
      dynamodb: controllable(dynamodb, dynamodbEndpoint, () => createTables(dynamodbEndpoint, region, tables)),
      ses: controllable(ses, sesEndpoint),
      logDir,
      info: () => info,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
