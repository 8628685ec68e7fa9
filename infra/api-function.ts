/**
 * One Lambda function of the route table, with what it alone owns: its log group, and a role that may write
 * that log group, do to each table what the handler's routes need, and send mail if one of them mails; with a
 * POST route, the idempotency table's name and the idempotency middleware in its bundle.
 */
import { fileURLToPath } from "node:url";
import { Duration, RemovalPolicy, Validations } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { type RouteAccess, USER_ACTIONS } from "../shared/routes.js";
import { defineKey, type Environment, environment } from "../shared/settings.js";
import { StackPart } from "./part.js";
import type { Tables } from "./tables.js";

/** Newest Node.js runtime aws-cdk-lib offers; the tests assert it, so a CDK upgrade is a one-line change. */
export const RUNTIME = lambda.Runtime.NODEJS_24_X;
export const ARCHITECTURE = lambda.Architecture.ARM_64;
/** Memory of every API function, chosen by measurement (docs/cold-starts.md). */
export const API_MEMORY_MB = 1_024;

/**
 * Packages a deployed bundle takes from elsewhere (esbuild's `alias`; paths from the project root, where CDK runs
 * esbuild), each for code that Lambda never runs (docs/cold-starts.md): the SDK's default credential chain
 * becomes the environment's credentials, all Lambda gives (shared/lambda-credentials.ts); semver, which only the
 * X-Ray SDK's AWS SDK v2 patcher calls, one function (shared/lambda-semver.ts). Tests and the local stack run
 * unbundled, with the packages themselves.
 */
export const BUNDLE_ALIAS: Readonly<Record<string, string>> = {
  "@aws-sdk/credential-provider-node": "./shared/lambda-credentials.ts",
  semver: "./shared/lambda-semver.ts",
};

/** esbuild options of every function. */
export const BUNDLING = {
  format: OutputFormat.ESM,
  // Bundled CommonJS dependencies call `require`, which ESM lacks; give them one.
  banner: "import { createRequire as __cjsRequire } from 'node:module'; const require = __cjsRequire(import.meta.url);",
  mainFields: ["module", "main"],
  // Bundle the SDK: pinned versions and tree-shaken cold starts instead of the runtime's copy.
  externalModules: [],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  // Local esbuild from node_modules; never Docker.
  forceDockerBundling: false,
  // The test run's AWS request recorder (shared/aws.ts) is never in a deployed bundle.
  define: { [defineKey("AWS_REQUEST_LOG")]: '""' },
  esbuildArgs: { "--alias": Object.entries(BUNDLE_ALIAS).map(([from, to]) => `${from}=${to}`) },
} satisfies BundlingOptions;

/**
 * What esbuild replaces in one function's bundle: whether it serves a POST route (shared/http.ts leaves the
 * idempotency middleware out of a bundle where this is "false").
 */
export const bundlingDefine = (takesIdempotencyKey: boolean): Record<string, string> => ({
  ...BUNDLING.define,
  [defineKey("TAKES_IDEMPOTENCY_KEY")]: JSON.stringify(String(takesIdempotencyKey)),
});

/** esbuild's `target` for the runtime, as NodejsFunction derives it (`nodejs24.x` → `node24`). */
export const ESBUILD_TARGET = `node${/nodejs(\d+)/.exec(RUNTIME.name)?.[1] ?? ""}`;

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** Where a function's code comes from and what it runs on: `functions/<handler>.ts`, one runtime for all. */
export const handlerCode = (handler: string) => ({
  entry: `${projectRoot}functions/${handler}.ts`,
  handler: "handler",
  projectRoot,
  depsLockFilePath: `${projectRoot}package-lock.json`,
  runtime: RUNTIME,
  architecture: ARCHITECTURE,
});

/** `institutions/list` → `InstitutionsList`: a stable, readable construct id (it fixes the logical id). */
export function functionId(handler: string): string {
  return handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

export interface ApiFunctionProps {
  /** `functions/<handler>.ts`. */
  readonly handler: string;
  /** The union of the handler's routes' access (`handlers()` of shared/routes.ts). */
  readonly access: RouteAccess;
  /** The routes it serves, for its description. */
  readonly routeKeys: readonly string[];
  readonly tables: Tables;
  /** What ses:SendEmail is authorized against, for a function that mails. */
  readonly sendResources: readonly string[];
  /** The user pool a function with `access.users` uses (its ARN for the grant, its id for the environment). */
  readonly userPool: { readonly arn: string; readonly id: string };
  readonly environment: Environment;
  readonly logRetention: logs.RetentionDays;
  readonly reservedConcurrency?: number | undefined;
}

/** `<handler>: <its routes>`, within Lambda's 256 characters (the SCIM service has 17 routes: then their count). */
function describeRoutes(handler: string, routeKeys: readonly string[]): string {
  const full = `${handler}: ${routeKeys.join(", ")}`;
  return full.length <= 256 ? full : `${handler}: ${routeKeys.length} routes, the first ${routeKeys[0] ?? ""}`.slice(0, 256);
}

export class ApiFunction extends StackPart {
  readonly function: NodejsFunction;
  /** Its log group (an authorizer's counts its failures: infra/monitoring.ts `failureCount`). */
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { handler, access } = props;
    const fnId = functionId(handler);
    // Operational logs only (the audit trail lives in the events table), so they go with the stack.
    const logGroup = new logs.LogGroup(this, `${fnId}Logs`, {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.logGroup = logGroup;
    // Own role instead of the default one: the default attaches the AWS-managed basic execution policy,
    // which may write to any log group (cdk-nag IAM4); this one writes only to the function's log group.
    const role = new iam.Role(this, `${fnId}Role`, {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `Runs functions/${handler}.ts`,
    });
    logGroup.grantWrite(role);
    props.tables.grant(role, access);
    if (access.mail) {
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({ sid: "SendInvitationMail", actions: ["ses:SendEmail"], resources: [...props.sendResources] }),
      );
    }
    if (access.users) {
      role.addToPrincipalPolicy(
        // Exactly the calls the route's use case makes on the one pool (shared/routes.ts, `UserAccess`).
        new iam.PolicyStatement({ sid: "UserPool", actions: [...USER_ACTIONS[access.users]], resources: [props.userPool.arn] }),
      );
    }
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.",
    });

    this.function = new NodejsFunction(this, fnId, {
      ...handlerCode(handler),
      // A cold start is CPU-bound (import and first request) and a vCPU share grows with memory: at 1,024 MB a cold
      // request takes about half the CPU time of 512 MB for the same GB-seconds; warm requests cost a little more.
      // The figures: docs/cold-starts.md (npm run bench -- --only=cold).
      memorySize: API_MEMORY_MB,
      // Below the HTTP API's 30 s integration limit, above the DynamoDB client's bounded retries.
      timeout: Duration.seconds(15),
      role,
      logGroup,
      // The trace starts here: an HTTP API stage has no X-Ray of its own.
      tracing: lambda.Tracing.ACTIVE,
      ...(props.reservedConcurrency !== undefined && { reservedConcurrentExecutions: props.reservedConcurrency }),
      description: describeRoutes(handler, props.routeKeys),
      environment: environment({
        ...props.environment,
        // An API function calls out only through AWS SDK clients, each traced by captureAWSv3Client (shared/clients.ts,
        // mail.ts): patching http, https and fetch as well costs its cold start ~2 ms and traces nothing more. The
        // webhook functions (infra/streaming.ts), which POST to subscribers, keep it.
        POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: "false",
        IDEMPOTENCY_TABLE: access.idempotency ? props.tables.idempotency.tableName : undefined,
        USER_POOL_ID: access.users ? props.userPool.id : undefined,
      }),
      bundling: { ...BUNDLING, define: bundlingDefine(access.idempotency === true) },
    });
  }
}
