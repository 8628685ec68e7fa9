/**
 * The deployed API: an HTTP API with a Cognito JWT authorizer on every route, one Lambda function per
 * distinct handler of the route table, the two DynamoDB tables of `shared/tables.ts`, and the SES sender.
 * Routes, handlers, access and table keys all come from `shared/`, so this file restates none of them.
 */
import { fileURLToPath } from "node:url";
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpUserPoolAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as cognito from "aws-cdk-lib/aws-cognito";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as ses from "aws-cdk-lib/aws-ses";
import type { Construct } from "constructs";
import { SUPER_ADMIN_GROUP } from "../shared/caller.js";
import { handlers, type RouteAccess, routes } from "../shared/routes.js";
import { eventsTable, mainTable, type TableDef } from "../shared/tables.js";

/** Newest Node.js runtime aws-cdk-lib offers; the tests assert it, so a CDK upgrade is a one-line change. */
export const RUNTIME = lambda.Runtime.NODEJS_24_X;
export const ARCHITECTURE = lambda.Architecture.ARM_64;

/** IAM actions per access level. TransactWriteItems has no action of its own: IAM checks each item's action. */
export const TABLE_ACTIONS = {
  read: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"],
  write: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"],
} as const;

/** esbuild options of every function (`npm run bench` builds its reference bundle with the same). */
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
} satisfies BundlingOptions;

/** esbuild's `target` for the runtime, as NodejsFunction derives it (`nodejs24.x` → `node24`). */
export const ESBUILD_TARGET = `node${/nodejs(\d+)/.exec(RUNTIME.name)?.[1] ?? ""}`;

export interface InstitutionAdminStackProps extends StackProps {
  /** Verified SES sender address (`From:` of invitation mail). */
  readonly senderEmail: string;
  /** Front-end origin: accept links point there and CORS allows it. */
  readonly appBaseUrl: string;
  /** The sender's SES identity already exists in the account: reference it instead of creating it. */
  readonly importSenderIdentity?: boolean;
  /**
   * While the SES account is in the sandbox, SES also authorizes the send against each recipient's
   * identity, so test recipients need an identity and a grant. Empty in production.
   */
  readonly sandboxRecipients?: readonly string[];
  /** Optional overrides of `shared/config.ts` defaults. */
  readonly invitationValidityDays?: number;
  readonly pendingInvitationLimit?: number;
  /** HTTP API stage throttling (requests per second, burst). */
  readonly throttle?: { readonly rateLimit: number; readonly burstLimit: number };
}

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** `institutions/list` → `InstitutionsList`: a stable, readable construct id (it fixes the logical id). */
export function functionId(handler: string): string {
  return handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

export class InstitutionAdminStack extends Stack {
  /** One function per distinct handler name of the route table. */
  readonly functions = new Map<string, NodejsFunction>();
  readonly mainTable: dynamodb.Table;
  readonly eventsTable: dynamodb.Table;
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: InstitutionAdminStackProps) {
    super(scope, id, props);

    // ---- Data ----
    this.mainTable = buildTable(this, mainTable);
    this.eventsTable = buildTable(this, eventsTable);

    // ---- Identity ----
    this.userPool = new cognito.UserPool(this, "UserPool", {
      // Administrators create users (and set their account); nobody registers themselves.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      // A changed e-mail only takes effect once verified: invitations are matched on the `email` claim.
      keepOriginal: { email: true },
      standardAttributes: {
        email: { required: true, mutable: true },
        fullname: { required: false, mutable: true },
      },
      customAttributes: {
        // Mutable so an administrator can move a user between accounts; clients cannot write it (see below).
        account_id: new cognito.StringAttribute({ minLen: 1, maxLen: 128, mutable: true }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      // Plus plan: compromised-credential and adaptive-authentication protection, enforced (cdk-nag AwsSolutions-COG8).
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.userPool.addGroup("CohortSuperAdminGroup", {
      groupName: SUPER_ADMIN_GROUP,
      description: "Cohort super admins: may create institutions and read the security events of their account",
    });

    this.userPoolClient = this.userPool.addClient("WebClient", {
      // A browser / CLI client: no secret, direct sign-in flows; the API accepts its ID tokens.
      generateSecret: false,
      authFlows: { userSrp: true, adminUserPassword: true },
      disableOAuth: true,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      readAttributes: new cognito.ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true, fullname: true })
        .withCustomAttributes("account_id"),
      // Only the display name: e-mail and account are identity the API trusts, so users cannot rewrite them.
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ fullname: true }),
    });

    // ---- Mail ----
    // Created (SES mails a verification link) unless it already exists in the account, where creating fails.
    const sender = props.importSenderIdentity
      ? ses.EmailIdentity.fromEmailIdentityName(this, "SenderIdentity", props.senderEmail)
      : new ses.EmailIdentity(this, "SenderIdentity", { identity: ses.Identity.email(props.senderEmail) });
    const sesResources = [sender.emailIdentityArn];
    (props.sandboxRecipients ?? []).forEach((address, i) => {
      const recipient = new ses.EmailIdentity(this, `SandboxRecipient${i}`, { identity: ses.Identity.email(address) });
      sesResources.push(recipient.emailIdentityArn);
    });

    // ---- Functions ----
    const commonEnv: Record<string, string> = {
      MAIN_TABLE: this.mainTable.tableName,
      EVENTS_TABLE: this.eventsTable.tableName,
      NODE_OPTIONS: "--enable-source-maps",
      ...(props.invitationValidityDays !== undefined && { INVITATION_VALIDITY_DAYS: String(props.invitationValidityDays) }),
      ...(props.pendingInvitationLimit !== undefined && { PENDING_INVITATION_LIMIT: String(props.pendingInvitationLimit) }),
    };
    const mailEnv = { MAIL_FROM: props.senderEmail, APP_BASE_URL: props.appBaseUrl };

    for (const [handler, access] of handlers()) {
      const fnId = functionId(handler);
      // Operational logs only (the audit trail lives in the events table), so they go with the stack.
      const logGroup = new logs.LogGroup(this, `${fnId}Logs`, {
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      // Own role instead of the default one: the default attaches the AWS-managed basic execution policy,
      // which may write to any log group (cdk-nag IAM4); this one writes only to the function's log group.
      const role = new iam.Role(this, `${fnId}Role`, {
        assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
        description: `Runs functions/${handler}.ts`,
      });
      logGroup.grantWrite(role);
      this.grantTables(role, access);
      if (access.mail) {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ sid: "SendInvitationMail", actions: ["ses:SendEmail"], resources: sesResources }),
        );
      }

      const fn = new NodejsFunction(this, fnId, {
        entry: `${projectRoot}functions/${handler}.ts`,
        handler: "handler",
        projectRoot,
        depsLockFilePath: `${projectRoot}package-lock.json`,
        runtime: RUNTIME,
        architecture: ARCHITECTURE,
        memorySize: 512,
        // Below the HTTP API's 30 s integration limit, above the DynamoDB client's bounded retries.
        timeout: Duration.seconds(15),
        role,
        logGroup,
        description: `${handler}: ${routes
          .filter((r) => r.handler === handler)
          .map((r) => `${r.method} ${r.path}`)
          .join(", ")}`,
        environment: { ...commonEnv, ...(access.mail ? mailEnv : {}) },
        bundling: BUNDLING,
      });
      this.functions.set(handler, fn);
    }

    // ---- API ----
    const authorizer = new HttpUserPoolAuthorizer("CognitoAuthorizer", this.userPool, {
      userPoolClients: [this.userPoolClient],
      identitySource: ["$request.header.Authorization"],
    });

    this.api = new HttpApi(this, "HttpApi", {
      description: "Institution Administration API",
      // The stage is built below so that it can carry access logging and throttling.
      createDefaultStage: false,
      defaultAuthorizer: authorizer,
      corsPreflight: {
        allowOrigins: [props.appBaseUrl],
        allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.PATCH, CorsHttpMethod.DELETE],
        allowHeaders: ["authorization", "content-type"],
        exposeHeaders: ["content-disposition", "retry-after", "x-export-truncated"],
        maxAge: Duration.hours(1),
      },
    });

    for (const route of routes) {
      const fn = this.functions.get(route.handler);
      if (!fn) throw new Error(`No function for handler ${route.handler}`);
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        // One integration per route keeps each Lambda permission scoped to its own route.
        integration: new HttpLambdaIntegration(`${functionId(route.handler)}${route.method}Integration`, fn),
        authorizer,
      });
    }

    const accessLogs = new logs.LogGroup(this, "ApiAccessLogs", { retention: logs.RetentionDays.ONE_MONTH });
    const stage = new HttpStage(this, "DefaultStage", {
      httpApi: this.api,
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 50, burstLimit: 100 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: "$context.requestId",
            ip: "$context.identity.sourceIp",
            requestTime: "$context.requestTime",
            httpMethod: "$context.httpMethod",
            routeKey: "$context.routeKey",
            status: "$context.status",
            protocol: "$context.protocol",
            responseLength: "$context.responseLength",
            integrationLatency: "$context.integrationLatency",
            integrationError: "$context.integrationErrorMessage",
            authorizerError: "$context.authorizer.error",
            user: "$context.authorizer.claims.sub",
          }),
        ),
      },
    });

    // ---- Outputs ----
    new CfnOutput(this, "ApiUrl", { value: stage.url, description: "Base URL of the API" });
    new CfnOutput(this, "UserPoolId", { value: this.userPool.userPoolId });
    new CfnOutput(this, "UserPoolClientId", { value: this.userPoolClient.userPoolClientId });
    new CfnOutput(this, "MainTableName", { value: this.mainTable.tableName });
    new CfnOutput(this, "EventsTableName", { value: this.eventsTable.tableName });

    acknowledgeNagFindings(this);
  }

  /** Exactly the actions `access` implies, on exactly the table (and, for reads, its indexes). */
  private grantTables(role: iam.Role, access: RouteAccess): void {
    const tables = [
      { name: "Main", table: this.mainTable, def: mainTable, level: access.main },
      { name: "Events", table: this.eventsTable, def: eventsTable, level: access.events },
    ];
    for (const { name, table, def, level } of tables) {
      if (!level) continue;
      if (level === "read" || level === "readwrite") {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            sid: `${name}Read`,
            actions: [...TABLE_ACTIONS.read],
            // Index ARNs named one by one rather than `index/*`: no wildcard to justify.
            resources: [table.tableArn, ...def.indexes.map((i) => `${table.tableArn}/index/${i.name}`)],
          }),
        );
      }
      if (level === "write" || level === "readwrite") {
        role.addToPrincipalPolicy(
          new iam.PolicyStatement({ sid: `${name}Write`, actions: [...TABLE_ACTIONS.write], resources: [table.tableArn] }),
        );
      }
    }
  }
}

/** A table from its definition in `shared/tables.ts`; every key attribute is a string there. */
function buildTable(scope: Construct, def: TableDef): dynamodb.Table {
  const str = (name: string) => ({ name, type: dynamodb.AttributeType.STRING });
  const table = new dynamodb.Table(scope, `${def.id}Table`, {
    partitionKey: str(def.partitionKey),
    sortKey: str(def.sortKey),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    removalPolicy: RemovalPolicy.RETAIN,
    ...(def.ttlAttribute !== undefined && { timeToLiveAttribute: def.ttlAttribute }),
  });
  for (const index of def.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: str(index.partitionKey),
      sortKey: str(index.sortKey),
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
  return table;
}

/** cdk-nag findings this design accepts, each with its reason (cdk-nag 3: CDK's own acknowledgement API). */
function acknowledgeNagFindings(stack: InstitutionAdminStack): void {
  Validations.of(stack.userPool).acknowledge({
    id: "AwsSolutions-COG2",
    reason:
      "MFA is optional (TOTP) rather than required: users are provisioned by administrators, the Plus plan's threat " +
      "protection enforces adaptive authentication, and a hard MFA requirement is an organisational decision per deployment.",
  });
}
