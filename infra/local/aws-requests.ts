/**
 * The AWS request recorder of the test run (docs/iam.md): an SDK middleware that writes every
 * request a function makes as IAM would authorize it (action, the resource's ARN as in AWS, the condition keys)
 * to `$AWS_REQUEST_LOG/<pid>.jsonl`, one line per distinct request. The test run's teardown evaluates them
 * against the synthesized template's role policies (test/support/iam.ts).
 *
 * Loaded only when `AWS_REQUEST_LOG` is set (shared/clients.ts `observe`); the stack's bundles define it empty,
 * so esbuild leaves this module out of every deployed function.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { CORE, readSettings } from "../../shared/settings.js";
import { eventsTable, idempotencyTable, mainTable, type TableDef } from "../../shared/tables.js";
import { currentFunction } from "./function-scope.js";

/** The account id of the ARNs (the local gateway's `requestContext.accountId`). */
export const TEST_ACCOUNT = "123456789012";

/** One authorization as IAM makes it for a request. */
export interface IamRequest {
  /** The handler (`functions/<handler>.ts`) that made it. */
  readonly fn: string;
  readonly action: string;
  readonly resource: string;
  readonly context: Readonly<Record<string, string | string[]>>;
}

type Input = Record<string, unknown>;

/**
 * A key value as the log keeps it: its first `#`-segment and `#…`. The policies' conditions are on key
 * prefixes (`EVT#*`), so this keeps what they decide on, and the log stays a few hundred lines, not one per
 * item the tests made.
 */
const keyShape = (value: string): string => value.replace(/#.*$/s, "#…");
/** An S3 key as the log keeps it: its first path segment and `/…`. */
const objectShape = (key: string): string => key.replace(/\/.*$/s, "/…");

/** A string from a marshalled (`{ S: "x" }`) or plain attribute value. */
function str(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && typeof (v as { S?: unknown }).S === "string") return (v as { S: string }).S;
  return undefined;
}

function tableDef(name: string): TableDef | undefined {
  const env = readSettings(CORE(), ["MAIN_TABLE", "EVENTS_TABLE", "IDEMPOTENCY_TABLE"]);
  if (name === env.MAIN_TABLE) return mainTable;
  if (name === env.EVENTS_TABLE) return eventsTable;
  if (name === env.IDEMPOTENCY_TABLE) return idempotencyTable;
  return undefined;
}

/** The partition key value of a Query (`pk = :pk` in its key condition), on the table or the index. */
function queryKey(input: Input, def: TableDef | undefined): string | undefined {
  const index = def?.indexes.find((i) => i.name === input.IndexName);
  const attribute = index ? index.partitionKey : def?.partitionKey;
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  for (const m of String(input.KeyConditionExpression ?? "").matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    const name = m[1]?.startsWith("#") ? names[m[1]] : m[1];
    if (name === attribute) return str(values[m[2] as string]);
  }
  return undefined;
}

function dynamodbRequests(command: string, input: Input, arn: (service: string, resource: string) => string): Omit<IamRequest, "fn">[] {
  const table = (name: unknown) => arn("dynamodb", `table/${String(name)}`);
  const leading = (keys: (string | undefined)[]) => ({
    "dynamodb:LeadingKeys": [...new Set(keys.filter((k): k is string => k !== undefined).map(keyShape))].sort(),
  });
  const pkOf = (name: unknown, item: unknown) => {
    const def = tableDef(String(name));
    return def ? str((item as Input | undefined)?.[def.partitionKey]) : undefined;
  };
  const single = (action: string, t: unknown, item: unknown) => ({
    action: `dynamodb:${action}`,
    resource: table(t),
    context: leading([pkOf(t, item)]),
  });

  switch (command) {
    case "GetItem":
    case "DeleteItem":
    case "UpdateItem":
      return [single(command, input.TableName, input.Key)];
    case "PutItem":
      return [single(command, input.TableName, input.Item)];
    case "Query":
    case "Scan": {
      const base = table(input.TableName);
      const resource = input.IndexName ? `${base}/index/${String(input.IndexName)}` : base;
      const key = command === "Query" ? queryKey(input, tableDef(String(input.TableName))) : undefined;
      return [{ action: `dynamodb:${command}`, resource, context: command === "Query" ? leading([key]) : {} }];
    }
    case "TransactWriteItems":
      // IAM authorizes each item of a transaction as its own action.
      return ((input.TransactItems ?? []) as Input[]).flatMap((item) => {
        const [kind, op] = Object.entries(item)[0] ?? [];
        const o = op as Input;
        const action = { Put: "PutItem", Update: "UpdateItem", Delete: "DeleteItem", ConditionCheck: "ConditionCheckItem" }[kind ?? ""];
        return action ? [single(action, o.TableName, kind === "Put" ? o.Item : o.Key)] : [];
      });
    case "TransactGetItems":
      return ((input.TransactItems ?? []) as { Get: Input }[]).map(({ Get }) => single("GetItem", Get.TableName, Get.Key));
    case "BatchWriteItem":
      return Object.entries((input.RequestItems ?? {}) as Record<string, Input[]>).map(([t, writes]) => ({
        action: "dynamodb:BatchWriteItem",
        resource: table(t),
        context: leading(
          writes.map((w) => pkOf(t, (w.PutRequest as Input | undefined)?.Item ?? (w.DeleteRequest as Input | undefined)?.Key)),
        ),
      }));
    case "BatchGetItem":
      return Object.entries((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>).map(([t, r]) => ({
        action: "dynamodb:BatchGetItem",
        resource: table(t),
        context: leading((r.Keys ?? []).map((k) => pkOf(t, k))),
      }));
    default:
      return [{ action: `dynamodb:${command}`, resource: input.TableName ? table(input.TableName) : "*", context: {} }];
  }
}

/** S3 operations whose IAM action has another name: the multipart upload is `s3:PutObject`. */
const S3_ACTIONS: Record<string, string> = {
  CreateMultipartUpload: "PutObject",
  UploadPart: "PutObject",
  CompleteMultipartUpload: "PutObject",
  HeadObject: "GetObject",
};

/** The IAM requests of one SDK call. */
export function iamRequests(clientName: string, commandName: string, input: Input, region: string): Omit<IamRequest, "fn">[] {
  const command = commandName.replace(/Command$/, "");
  const arn = (service: string, resource: string) => `arn:aws:${service}:${region}:${TEST_ACCOUNT}:${resource}`;
  switch (clientName) {
    case "DynamoDBClient":
      return dynamodbRequests(command, input, arn);
    case "S3Client": {
      const key = input.Key === undefined ? "" : `/${objectShape(String(input.Key))}`;
      return [{ action: `s3:${S3_ACTIONS[command] ?? command}`, resource: `arn:aws:s3:::${String(input.Bucket)}${key}`, context: {} }];
    }
    case "SESClient": {
      // SES authorizes a send against the sender's identity: the address inside `Name <address>`.
      const from = String(input.Source ?? "");
      const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
      const out = [{ action: `ses:${command}`, resource: arn("ses", `identity/${address}`), context: {} }];
      if (input.ConfigurationSetName) {
        out.push({
          action: `ses:${command}`,
          resource: arn("ses", `configuration-set/${String(input.ConfigurationSetName)}`),
          context: {},
        });
      }
      return out;
    }
    case "KMSClient": {
      const id = String(input.KeyId ?? "");
      return [{ action: `kms:${command}`, resource: id.startsWith("arn:") ? id : arn("kms", `key/${id}`), context: {} }];
    }
    case "CognitoIdentityProviderClient":
      return [{ action: `cognito-idp:${command}`, resource: arn("cognito-idp", `userpool/${String(input.UserPoolId)}`), context: {} }];
    case "LambdaClient":
      return [{ action: "lambda:InvokeFunction", resource: arn("lambda", `function:${String(input.FunctionName)}`), context: {} }];
    case "EventBridgeClient": {
      const buses = new Set(((input.Entries ?? []) as Input[]).map((e) => String(e.EventBusName ?? "default")));
      return [...buses].map((bus) => ({ action: `events:${command}`, resource: arn("events", `event-bus/${bus}`), context: {} }));
    }
    default:
      return [{ action: `${clientName.replace(/Client$/, "").toLowerCase()}:${command}`, resource: "*", context: {} }];
  }
}

const seen = new Set<string>();
let file: string | undefined;

/** This process's log file, made on the first request. */
function logFile(): string {
  if (!file) {
    const dir = process.env.AWS_REQUEST_LOG;
    if (!dir) throw new Error("AWS_REQUEST_LOG is not set");
    mkdirSync(dir, { recursive: true });
    file = join(dir, `${process.pid}.jsonl`);
  }
  return file;
}

/** Appends the requests not logged yet; a request made outside any function (a test seeding data) is not one. */
function record(clientName: string, commandName: string, input: Input, region: string): void {
  const fn = currentFunction();
  if (!fn) return;
  for (const r of iamRequests(clientName, commandName, input, region)) {
    const line = JSON.stringify({ fn, ...r });
    if (seen.has(line)) continue;
    seen.add(line);
    appendFileSync(logFile(), `${line}\n`);
  }
}

interface MiddlewareClient {
  readonly config: { region: unknown };
  readonly middlewareStack: {
    add(
      mw: (next: (args: { input: Input }) => Promise<unknown>, context: { clientName?: string; commandName?: string }) => unknown,
      opts: { step: "serialize"; priority: "high"; name: string },
    ): void;
  };
}

/**
 * Records the client's requests. At the serialize step, before the serializer: the Document client's
 * marshalling (initialize) is done, and a presigned URL (built without sending) is recorded too, since the
 * role that signs it is what S3 checks.
 */
export function recordRequests(client: MiddlewareClient): void {
  client.middlewareStack.add(
    (next, context) => async (args: { input: Input }) => {
      const region = typeof client.config.region === "function" ? await client.config.region() : String(client.config.region);
      record(context.clientName ?? "", context.commandName ?? "", args.input, region);
      return next(args);
    },
    { step: "serialize", priority: "high", name: "iamRequestRecorder" },
  );
}
