/**
 * The deployed API: an HTTP API with a Cognito JWT authorizer on every route but the public ones, one Lambda
 * function per distinct handler of the route table, the two DynamoDB tables of `shared/tables.ts`, the SES
 * sender with its configuration set, the console on CloudFront (`console.ts`), and what an operator watches
 * (`monitoring.ts`). Routes, handlers, access and table keys all come from `shared/`, so this file restates
 * none of them; what differs per environment comes from `settings.ts`.
 */
import { fileURLToPath } from "node:url";
import { Aws, CfnOutput, CfnRule, Duration, Fn, RemovalPolicy, Stack, type StackProps, Token, Validations } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
} from "aws-cdk-lib/aws-apigatewayv2";
import { HttpUserPoolAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as cognito from "aws-cdk-lib/aws-cognito";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as ses from "aws-cdk-lib/aws-ses";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type { Construct } from "constructs";
import { SUPER_ADMIN_GROUP } from "../shared/caller.js";
import { METRICS_NAMESPACE, SERVICE_NAME } from "../shared/observability.js";
import { type Route, type RouteAccess, routes as routeTable } from "../shared/routes.js";
import { eventsTable, mainTable, type TableDef } from "../shared/tables.js";
import { Console } from "./console.js";
import { Monitoring } from "./monitoring.js";
import { ENVIRONMENTS, type Settings } from "./settings.js";
import { EvidenceTrail } from "./trail.js";
import { ConsoleWebAcl } from "./waf.js";

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
  /**
   * Origin of the links in mail (`<appBaseUrl>/invitations/accept?token=…`). Default: the console's CloudFront
   * URL. When set, it is also the one origin CORS allows (a console served from another origin).
   */
  readonly appBaseUrl?: string;
  /** The sender's SES identity already exists in the account: reference it instead of creating it. */
  readonly importSenderIdentity?: boolean;
  /**
   * Verify this domain (Easy DKIM, 2048-bit) instead of the sender address; `senderEmail` must be in it. The
   * DKIM CNAME records to publish are stack outputs.
   */
  readonly senderDomain?: string;
  /**
   * While the SES account is in the sandbox, SES also authorizes the send against each recipient's
   * identity, so test recipients need an identity and a grant. Empty in production.
   */
  readonly sandboxRecipients?: readonly string[];
  /** Optional overrides of `shared/config.ts` defaults. */
  readonly invitationValidityDays?: number;
  readonly pendingInvitationLimit?: number;
  /** Settings of the environment (`settings.ts`); default: dev. */
  readonly settings?: Settings;
  /** The built console (`web/dist`): served at the distribution's root. */
  readonly consoleAssetDir: string;
  /**
   * A CloudFront web ACL made elsewhere (app.ts makes one in us-east-1 when this stack is in another region).
   * Without it, `settings.waf` makes the web ACL in this stack, which must then be deployed in us-east-1.
   */
  readonly webAclArn?: string;
  /** The route table; default `shared/routes.ts` (tests add routes to it). */
  readonly routes?: readonly Route[];
}

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** `institutions/list` → `InstitutionsList`: a stable, readable construct id (it fixes the logical id). */
export function functionId(handler: string): string {
  return handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** Distinct handlers of a route table with the union of their routes' access (`handlers()` of shared/routes.ts). */
export function handlersOf(table: readonly Route[]): Map<string, RouteAccess> {
  const out = new Map<string, RouteAccess>();
  for (const r of table) out.set(r.handler, { ...out.get(r.handler), ...r.access });
  return out;
}

/** The stage's access log: one JSON line per request, joined to the function's log by the request ids. */
export const ACCESS_LOG_FORMAT = {
  // API Gateway's request id: the function logs it as `correlation_id` and `apigw_request_id`.
  requestId: "$context.requestId",
  // The Lambda invocation's request id: the function logs it as `function_request_id`.
  integrationRequestId: "$context.integration.requestId",
  ip: "$context.identity.sourceIp",
  requestTime: "$context.requestTime",
  httpMethod: "$context.httpMethod",
  routeKey: "$context.routeKey",
  status: "$context.status",
  protocol: "$context.protocol",
  responseLength: "$context.responseLength",
  responseLatency: "$context.responseLatency",
  integrationLatency: "$context.integrationLatency",
  integrationStatus: "$context.integration.integrationStatus",
  integrationError: "$context.integrationErrorMessage",
  authorizerError: "$context.authorizer.error",
  user: "$context.authorizer.claims.sub",
} as const;

export class InstitutionAdminStack extends Stack {
  /** One function per distinct handler name of the route table. */
  readonly functions = new Map<string, NodejsFunction>();
  readonly settings: Settings;
  readonly mainTable: dynamodb.Table;
  readonly eventsTable: dynamodb.Table;
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly console: Console;
  readonly webAcl?: ConsoleWebAcl;
  readonly mailConfigurationSet: ses.ConfigurationSet;
  readonly alarmTopic: sns.Topic;
  readonly mailFeedbackTopic: sns.Topic;
  readonly monitoring: Monitoring;
  readonly trail: EvidenceTrail;
  /** Origin of the links in mail. */
  readonly appBaseUrl: string;

  constructor(scope: Construct, id: string, props: InstitutionAdminStackProps) {
    super(scope, id, props);
    const settings = props.settings ?? { ...ENVIRONMENTS.dev, env: "dev" };
    this.settings = settings;
    const routes = props.routes ?? routeTable;

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
      mfa: settings.mfa === "required" ? cognito.Mfa.REQUIRED : cognito.Mfa.OPTIONAL,
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
      // The console signs in with USER_PASSWORD_AUTH over HTTPS (web/src/auth): no SRP library in its bundle.
      authFlows: { userSrp: true, userPassword: true, adminUserPassword: true },
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

    // ---- Notifications: alarms and mail feedback, on topics encrypted with a key these services may use ----
    // A customer managed key: the AWS managed SNS key cannot be granted to CloudWatch or SES.
    const notificationsKey = new kms.Key(this, "NotificationsKey", {
      description: "Encrypts the alarm and mail-feedback SNS topics",
      enableKeyRotation: true,
    });
    this.alarmTopic = new sns.Topic(this, "AlarmTopic", {
      displayName: "Institution Administration API alarms",
      masterKey: notificationsKey,
      enforceSSL: true,
    });
    this.alarmTopic.grantPublish(servicePrincipal("cloudwatch.amazonaws.com", this.account));
    if (settings.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    this.mailFeedbackTopic = new sns.Topic(this, "MailFeedbackTopic", {
      displayName: "Institution Administration API mail bounces and complaints",
      masterKey: notificationsKey,
      enforceSSL: true,
    });
    this.mailFeedbackTopic.grantPublish(servicePrincipal("ses.amazonaws.com", this.account));

    // ---- Mail ----
    // Every send goes through it (SES_CONFIGURATION_SET, and the sender identity's default): bounces and
    // complaints go to the feedback topic, and addresses that bounce or complain land on the suppression list.
    this.mailConfigurationSet = new ses.ConfigurationSet(this, "MailConfigurationSet", {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.mailConfigurationSet.addEventDestination("Feedback", {
      destination: ses.EventDestination.snsTopic(this.mailFeedbackTopic),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
    const configurationSetArn = this.formatArn({
      service: "ses",
      resource: "configuration-set",
      resourceName: this.mailConfigurationSet.configurationSetName,
    });

    if (props.senderDomain !== undefined && !props.senderEmail.toLowerCase().endsWith(`@${props.senderDomain.toLowerCase()}`)) {
      throw new Error(`senderEmail ${props.senderEmail} is not in senderDomain ${props.senderDomain}`);
    }
    // Created (SES mails a verification link, or waits for the DKIM records) unless it already exists in the
    // account, where creating fails.
    const senderIdentityName = props.senderDomain ?? props.senderEmail;
    let sender: ses.IEmailIdentity;
    if (props.importSenderIdentity) {
      sender = ses.EmailIdentity.fromEmailIdentityName(this, "SenderIdentity", senderIdentityName);
    } else if (props.senderDomain !== undefined) {
      const domain = new ses.EmailIdentity(this, "SenderIdentity", {
        identity: ses.Identity.domain(props.senderDomain),
        dkimSigning: true,
        dkimIdentity: ses.DkimIdentity.easyDkim(ses.EasyDkimSigningKeyLength.RSA_2048_BIT),
        configurationSet: this.mailConfigurationSet,
      });
      domain.dkimRecords.forEach((record, i) => {
        new CfnOutput(this, `DkimRecord${i + 1}`, {
          value: Fn.join(" ", [record.name, "CNAME", record.value]),
          description: `DKIM record ${i + 1} of 3 to publish in ${props.senderDomain}'s DNS`,
        });
      });
      sender = domain;
    } else {
      sender = new ses.EmailIdentity(this, "SenderIdentity", {
        identity: ses.Identity.email(props.senderEmail),
        configurationSet: this.mailConfigurationSet,
      });
    }
    // SendEmail is authorized against the identity and the configuration set it names.
    const sesResources = [sender.emailIdentityArn, configurationSetArn];
    (props.sandboxRecipients ?? []).forEach((address, i) => {
      const recipient = new ses.EmailIdentity(this, `SandboxRecipient${i}`, { identity: ses.Identity.email(address) });
      sesResources.push(recipient.emailIdentityArn);
    });

    // ---- API (its routes come after the functions) ----
    const authorizer = new HttpUserPoolAuthorizer("CognitoAuthorizer", this.userPool, {
      userPoolClients: [this.userPoolClient],
      identitySource: ["$request.header.Authorization"],
    });

    this.api = new HttpApi(this, "HttpApi", {
      description: "Institution Administration API",
      // The stage is built below so that it can carry access logging and throttling.
      createDefaultStage: false,
      defaultAuthorizer: authorizer,
      // The console calls the API on its own origin (CloudFront's /api/*): CORS only for a console elsewhere.
      ...(props.appBaseUrl !== undefined && {
        corsPreflight: {
          allowOrigins: [props.appBaseUrl],
          allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.PATCH, CorsHttpMethod.DELETE],
          allowHeaders: ["authorization", "content-type"],
          exposeHeaders: ["content-disposition", "retry-after", "x-export-truncated"],
          maxAge: Duration.hours(1),
        },
      }),
    });

    // ---- Console ----
    const logBucket = new s3.Bucket(this, "AccessLogsBucket", {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront's standard logs are written with an ACL.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(settings.logRetention) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    let webAclArn = props.webAclArn;
    if (settings.waf && webAclArn === undefined) {
      if (!Token.isUnresolved(this.region) && this.region !== "us-east-1") {
        throw new Error(`A CloudFront web ACL lives in us-east-1: pass webAclArn for a stack in ${this.region} (app.ts does)`);
      }
      this.webAcl = new ConsoleWebAcl(this, "ConsoleWebAcl", { rateLimit: settings.wafRateLimit });
      webAclArn = this.webAcl.arn;
      // An environment-agnostic template: refuse, before creating anything, a deployment outside us-east-1.
      new CfnRule(this, "WebAclRegion", {
        assertions: [
          {
            assert: Fn.conditionEquals(Aws.REGION, "us-east-1"),
            assertDescription:
              "The web ACL of a CloudFront distribution must be created in us-east-1: deploy there, or let app.ts place it",
          },
        ],
      });
    }

    this.console = new Console(this, "Console", {
      assetDir: props.consoleAssetDir,
      apiDomain: `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
      config: {
        region: this.region,
        userPoolClientId: this.userPoolClient.userPoolClientId,
        cognitoEndpoint: `https://cognito-idp.${this.region}.${this.urlSuffix}/`,
      },
      logBucket,
      ...(webAclArn !== undefined && { webAclArn }),
      deploymentLogGroup: new logs.LogGroup(this, "ConsoleDeploymentLogs", {
        retention: settings.logRetention,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    this.appBaseUrl = props.appBaseUrl ?? this.console.url;

    // ---- Functions ----
    const commonEnv: Record<string, string> = {
      MAIN_TABLE: this.mainTable.tableName,
      EVENTS_TABLE: this.eventsTable.tableName,
      NODE_OPTIONS: "--enable-source-maps",
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
      // Responses and method results carry institutions and the audit trail: never trace metadata.
      POWERTOOLS_TRACER_CAPTURE_RESPONSE: "false",
      ...(props.invitationValidityDays !== undefined && { INVITATION_VALIDITY_DAYS: String(props.invitationValidityDays) }),
      ...(props.pendingInvitationLimit !== undefined && { PENDING_INVITATION_LIMIT: String(props.pendingInvitationLimit) }),
    };
    const mailEnv = {
      MAIL_FROM: props.senderEmail,
      APP_BASE_URL: this.appBaseUrl,
      SES_CONFIGURATION_SET: this.mailConfigurationSet.configurationSetName,
    };

    for (const [handler, access] of handlersOf(routes)) {
      const fnId = functionId(handler);
      // Operational logs only (the audit trail lives in the events table), so they go with the stack.
      const logGroup = new logs.LogGroup(this, `${fnId}Logs`, {
        retention: settings.logRetention,
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
      Validations.of(role).acknowledge({
        id: "AwsSolutions-IAM5[Resource::*]",
        reason: "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.",
      });

      const reserved = settings.reservedConcurrency[handler];
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
        // The trace starts here: an HTTP API stage has no X-Ray of its own.
        tracing: lambda.Tracing.ACTIVE,
        ...(reserved !== undefined && { reservedConcurrentExecutions: reserved }),
        description: `${handler}: ${routes
          .filter((r) => r.handler === handler)
          .map((r) => `${r.method} ${r.path}`)
          .join(", ")}`,
        environment: { ...commonEnv, ...(access.mail ? mailEnv : {}) },
        bundling: BUNDLING,
      });
      this.functions.set(handler, fn);
    }
    // Retention, signed hourly digests and their locked copies (trail.ts).
    this.trail = new EvidenceTrail(this, "Trail", {
      settings,
      mainTable: this.mainTable,
      eventsTable: this.eventsTable,
      functions: this.functions,
      accessLogsBucket: logBucket,
    });

    for (const handler of Object.keys(settings.reservedConcurrency)) {
      if (!this.functions.has(handler)) throw new Error(`Reserved concurrency for unknown handler ${handler}`);
    }

    // ---- Routes and stage ----
    const noAuthorizer = new HttpNoneAuthorizer();
    const routeResources = new Map<string, HttpRoute>();
    for (const route of routes) {
      const fn = this.functions.get(route.handler);
      if (!fn) throw new Error(`No function for handler ${route.handler}`);
      const [created] = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        // One integration per route keeps each Lambda permission scoped to its own route.
        integration: new HttpLambdaIntegration(`${functionId(route.handler)}${route.method}Integration`, fn),
        // Public routes (the API document and its page) are served without a token.
        authorizer: route.public ? noAuthorizer : authorizer,
      });
      if (!created) throw new Error(`No route made for ${route.method} ${route.path}`);
      routeResources.set(`${route.method} ${route.path}`, created);
      if (route.public) {
        Validations.of(created).acknowledge({
          id: "AwsSolutions-APIG4",
          reason: "A public route of the route table (the API document or its reference page): readable without a token by design.",
        });
      }
    }

    const accessLogs = new logs.LogGroup(this, "ApiAccessLogs", { retention: settings.logRetention });
    this.stage = new HttpStage(this, "DefaultStage", {
      httpApi: this.api,
      autoDeploy: true,
      throttle: settings.throttle,
      // Route-level metrics for the dashboard's per-route graphs.
      detailedMetricsEnabled: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      },
    });
    // The export's own throttle: route settings override the stage's for that route alone.
    const exportRoute = routes.find((r) => r.handler === "security-events/export");
    if (exportRoute) {
      const key = `${exportRoute.method} ${exportRoute.path}`;
      (this.stage.node.defaultChild as CfnStage).routeSettings = {
        [key]: {
          ThrottlingRateLimit: settings.exportThrottle.rateLimit,
          ThrottlingBurstLimit: settings.exportThrottle.burstLimit,
          DetailedMetricsEnabled: true,
        },
      };
      // The stage names the route by key: it must exist first.
      const route = routeResources.get(key);
      if (route) this.stage.node.addDependency(route);
    }

    // ---- Monitoring ----
    this.monitoring = new Monitoring(this, "Monitoring", {
      api: this.api,
      stage: this.stage,
      functions: this.functions,
      functionId,
      tables: [
        { name: "Main", table: this.mainTable },
        { name: "Events", table: this.eventsTable },
      ],
      settings,
      topic: this.alarmTopic,
    });

    // ---- Outputs ----
    new CfnOutput(this, "ConsoleUrl", { value: this.console.url, description: "The console; the API is under /api/ on it too" });
    new CfnOutput(this, "ApiUrl", { value: this.stage.url, description: "Base URL of the API (API Gateway's own endpoint)" });
    new CfnOutput(this, "UserPoolId", { value: this.userPool.userPoolId });
    new CfnOutput(this, "UserPoolClientId", { value: this.userPoolClient.userPoolClientId });
    new CfnOutput(this, "MainTableName", { value: this.mainTable.tableName });
    new CfnOutput(this, "EventsTableName", { value: this.eventsTable.tableName });
    new CfnOutput(this, "DistributionId", { value: this.console.distribution.distributionId });
    new CfnOutput(this, "AlarmTopicArn", { value: this.alarmTopic.topicArn, description: "Alarms and their recovery" });
    new CfnOutput(this, "MailFeedbackTopicArn", { value: this.mailFeedbackTopic.topicArn, description: "SES bounces and complaints" });
    new CfnOutput(this, "MailConfigurationSetName", { value: this.mailConfigurationSet.configurationSetName });
    new CfnOutput(this, "DashboardUrl", {
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards/dashboard/${this.monitoring.dashboard.dashboardName}`,
    });

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

/** A service principal acting for this account only (no confused deputy). */
function servicePrincipal(service: string, account: string): iam.IPrincipal {
  return new iam.ServicePrincipal(service).withConditions({ StringEquals: { "aws:SourceAccount": account } });
}

/** cdk-nag findings this design accepts, each with its reason (cdk-nag 3: CDK's own acknowledgement API). */
function acknowledgeNagFindings(stack: InstitutionAdminStack): void {
  if (stack.settings.mfa !== "required") {
    Validations.of(stack.userPool).acknowledge({
      id: "AwsSolutions-COG2",
      reason:
        "MFA is optional (TOTP) in this environment (settings.ts: required in prod): users are provisioned by administrators " +
        "and the Plus plan's threat protection enforces adaptive authentication.",
    });
  }
}
