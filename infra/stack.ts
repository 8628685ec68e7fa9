import { type CfnElement, Duration, type NestedStack, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import type { HttpApi, HttpStage } from "aws-cdk-lib/aws-apigatewayv2";
import type * as cognito from "aws-cdk-lib/aws-cognito";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import type * as ses from "aws-cdk-lib/aws-ses";
import type * as sns from "aws-cdk-lib/aws-sns";
import type { Construct } from "constructs";
import { METRICS_NAMESPACE, SERVICE_NAME } from "../shared/observability.js";
import { ORIGIN_VERIFY_HEADER } from "../shared/origin.js";
import { handlers, type Route, type RouteAccess, routes as routeTable } from "../shared/routes.js";
import type { Environment } from "../shared/settings.js";
import { Api, type ApiOrigin } from "./api.js";
import { functionId } from "./api-function.js";
import { ConsoleClient } from "./app-client.js";
import { SentRecordsBackfill } from "./backfill.js";
import { Console } from "./console.js";
import { type ConsoleAccessLogs, consoleAccessLogs } from "./console-logs.js";
import { Identity } from "./identity.js";
import { MachineApi } from "./machine-api.js";
import { Mail } from "./mail.js";
import { Monitoring } from "./monitoring.js";
import { Notifications } from "./notifications.js";
import { originVerifySecret } from "./origin-secret.js";
import { addOutputs } from "./outputs.js";
import { StackPart } from "./part.js";
import { type PoolMail, PoolTriggers } from "./pool-triggers.js";
import { boundsEnvironment, ENVIRONMENTS, type Settings } from "./settings.js";
import { SsoTriggers } from "./sso-triggers.js";
import { Streaming } from "./streaming.js";
import { Tables } from "./tables.js";
import { EvidenceTrail } from "./trail.js";
import { type ConsoleWebAcl, webAclHere } from "./waf.js";

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
  /** Settings of the environment (`settings.ts`); default: dev. */
  readonly settings?: Settings;
  /** The built console (`web/dist`): served at the distribution's root. */
  readonly consoleAssetDir: string;
  /**
   * A CloudFront web ACL made elsewhere (app.ts makes one in us-east-1 when this stack is in another region).
   * Without it, `settings.waf` makes the web ACL in this stack, which must then be deployed in us-east-1.
   */
  readonly webAclArn?: string;
  /**
   * The console's access-log delivery is made by another stack (app.ts makes one in us-east-1 when this stack is
   * in another region, `ConsoleAccessLogsStack`); this stack then only lets it write to the access-log bucket.
   * Without it, the delivery is made here, and this stack must then be deployed in us-east-1.
   */
  readonly consoleLogsElsewhere?: boolean;
  /**
   * A custom domain of the HTTP API that only the console's CloudFront distribution uses (docs/security.md,
   * "One way in"). With it, CloudFront reaches the API there, the default `execute-api` endpoint is disabled
   * (so the WAF and the distribution cannot be bypassed), and the functions record the viewer's address from
   * `CloudFront-Viewer-Address`. The certificate is a regional ACM certificate for `name`, in this stack's
   * region; with `hostedZoneId` and `hostedZoneName` the alias record is made too, otherwise the output
   * `ApiOriginDnsTarget` names what `name` must point at. Without it, the default endpoint stays open
   * (a synth warning says so): API Gateway offers no other way to close it.
   */
  readonly apiOrigin?: ApiOrigin;
  /** The route table; default `shared/routes.ts` (tests add routes to it). */
  readonly routes?: readonly Route[];
  /**
   * Who sends the user pool's mail (`-c poolMail=…`): `cognito` (the default), Cognito's own sender, which needs
   * nothing verified; `ses`, the stack's SES identity and configuration set, once the identity is verified and the
   * account out of the SES sandbox (Cognito refuses an unverified identity). docs/deploy.md, checklist step 3.
   */
  readonly poolMail?: PoolMail;
}

export { ACCESS_LOG_FORMAT } from "./api.js";

export class InstitutionAdminStack extends Stack {
  /** One function per distinct handler name of the route table. */
  readonly functions = new Map<string, NodejsFunction>();
  /** The SCIM routes' Lambda authorizer (functions/scim/authorizer.ts), when the route table has SCIM routes. */
  readonly scimAuthorizerFunction: NodejsFunction | undefined;
  /** The user pool's triggers of an SSO sign-in (infra/sso-triggers.ts). */
  readonly ssoTriggers: SsoTriggers;
  readonly settings: Settings;
  readonly mainTable: dynamodb.Table;
  readonly eventsTable: dynamodb.Table;
  /** Idempotency-Key records (shared/idempotency.ts), for the functions with a POST route only. */
  readonly idempotencyTable: dynamodb.Table;
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.IUserPoolClient;
  /** The custom resource that makes and updates the console's app client (infra/app-client.ts). */
  readonly consoleClient: ConsoleClient;
  /** The upgrade's backfill of the senders' records of invitations (infra/backfill.ts). */
  readonly sentRecordsBackfill: SentRecordsBackfill;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** The nested stack of the routes, their integrations and Lambda permissions (infra/api.ts). */
  readonly routesStack: NestedStack;
  readonly console: Console;
  readonly webAcl?: ConsoleWebAcl;
  /** Server access logs of the buckets, and the console distribution's access logs (console-logs.ts). */
  readonly accessLogsBucket: s3.Bucket;
  /** The distribution's log delivery, when this stack holds it (us-east-1, or environment-agnostic). */
  readonly consoleAccessLogs?: ConsoleAccessLogs;
  readonly mailConfigurationSet: ses.ConfigurationSet;
  readonly alarmTopic: sns.Topic;
  readonly mailFeedbackTopic: sns.Topic;
  readonly monitoring: Monitoring;
  /** Exports bucket and worker, the events stream's consumer, the bus and the webhook retrier (docs/events-out.md). */
  readonly streaming: Streaming;
  readonly trail: EvidenceTrail;
  /** The user pool's triggers, its activity export and its mail (pool-triggers.ts). */
  readonly poolTriggers: PoolTriggers;
  /** The machines' API: institution API keys, chosen at the edge (docs/api-keys.md, infra/machine-api.ts). */
  readonly machineApi: MachineApi;
  /** Origin of the links in mail. */
  readonly appBaseUrl: string;

  constructor(scope: Construct, id: string, props: InstitutionAdminStackProps) {
    super(scope, id, props);
    const settings = props.settings ?? { ...ENVIRONMENTS.dev, env: "dev" };
    this.settings = settings;
    const routes = props.routes ?? routeTable;

    const tables = new Tables(this, "Tables");
    this.mainTable = tables.main;
    this.eventsTable = tables.events;
    this.idempotencyTable = tables.idempotency;
    const identity = new Identity(this, "Identity", settings);
    this.userPool = identity.userPool;
    const notifications = new Notifications(this, "Notifications", settings);
    this.alarmTopic = notifications.alarmTopic;
    this.mailFeedbackTopic = notifications.mailFeedbackTopic;
    // Every send goes through the configuration set (SES_CONFIGURATION_SET, and the sender identity's default):
    // bounces and complaints go to the feedback topic, and addresses that bounce or complain land on the
    // suppression list.
    const mail = new Mail(this, "Mail", { ...props, feedbackTopic: this.mailFeedbackTopic });
    this.mailConfigurationSet = mail.configurationSet;

    const fronted = props.apiOrigin;
    const commonEnv: Environment = {
      // Every request comes through CloudFront: the viewer's address is its CloudFront-Viewer-Address (shared/caller.ts).
      ...(fronted && { TRUST_CLOUDFRONT_VIEWER_ADDRESS: "true" }),
      MAIN_TABLE: this.mainTable.tableName,
      EVENTS_TABLE: this.eventsTable.tableName,
      NODE_OPTIONS: "--enable-source-maps",
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      POWERTOOLS_LOG_LEVEL: settings.logLevel,
      // Responses and method results carry institutions and the audit trail: never trace metadata.
      POWERTOOLS_TRACER_CAPTURE_RESPONSE: "false",
      ...boundsEnvironment(settings),
    };
    // The console's app client (docs/sso.md, the redeploy rule): a custom resource, so a deployment keeps its providers.
    this.consoleClient = new ConsoleClient(this, "ConsoleClient", {
      userPool: this.userPool,
      mainTableArn: this.mainTable.tableArn,
      environment: commonEnv,
      refreshTokenValidityHours: settings.refreshTokenValidityHours,
      logRetention: settings.logRetention,
    });
    this.userPoolClient = this.consoleClient.userPoolClient;

    // ---- API (its routes come after the functions) ----
    const api = new Api(this, "Api", {
      userPool: this.userPool,
      userPoolClient: this.userPoolClient,
      apiOrigin: props.apiOrigin,
      appBaseUrl: props.appBaseUrl,
    });
    this.api = api.httpApi;
    // Its edge function goes on the distribution; its routes come after the functions.
    this.machineApi = new MachineApi(this, "MachineApi", { fronted: fronted !== undefined });

    // ---- Console ----
    const logBucket = new s3.Bucket(this, "AccessLogsBucket", {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // S3 server access logs are written through the log-delivery group's ACL; the distribution's access logs
      // (console-logs.ts) arrive with bucket-owner-full-control, so the bucket owns both.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(settings.logRetention) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    let webAclArn = props.webAclArn;
    if (settings.waf && webAclArn === undefined) {
      this.webAcl = webAclHere(this, settings.wafRateLimit);
      webAclArn = this.webAcl.arn;
    }

    // One way in (docs/iam.md): CloudFront's origin header, which every function checks (origin-secret.ts).
    const originSecret = fronted ? originVerifySecret(this, fronted.secretVersionId) : undefined;

    this.console = new Console(this, "Console", {
      ...(originSecret !== undefined && { apiOriginHeader: { name: ORIGIN_VERIFY_HEADER, value: originSecret } }),
      apiRequestFunction: this.machineApi.edgeFunction,
      assetDir: props.consoleAssetDir,
      apiDomain: fronted ? fronted.domainName : `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
      config: {
        region: this.region,
        userPoolId: this.userPool.userPoolId,
        userPoolClientId: this.userPoolClient.userPoolClientId,
        // Your account offers turning TOTP off only where MFA is optional.
        mfa: settings.mfa,
        cognitoEndpoint: `https://cognito-idp.${this.region}.${this.urlSuffix}/`,
        cognitoDomain: identity.domainUrl,
      },
      logBucket,
      ...(webAclArn !== undefined && { webAclArn }),
      deploymentLogGroup: new logs.LogGroup(this, "ConsoleDeploymentLogs", {
        retention: settings.logRetention,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    this.appBaseUrl = props.appBaseUrl ?? this.console.url;
    // The managed login sends people back to the console: its distribution, and the origin that serves it when another.
    this.consoleClient.serveAt([this.console.url, this.appBaseUrl]);

    // The distribution's access logs, without the query string; their source lives in us-east-1 (console-logs.ts).
    this.accessLogsBucket = logBucket;
    this.consoleAccessLogs = consoleAccessLogs(this, logBucket, this.console.distribution.distributionArn, props.consoleLogsElsewhere);

    // ---- Functions ----
    const mailEnv: Environment = {
      MAIL_FROM: props.senderEmail,
      APP_BASE_URL: this.appBaseUrl,
      SES_CONFIGURATION_SET: this.mailConfigurationSet.configurationSetName,
    };

    const routeAccess = handlers(routes);
    const environment = (access: RouteAccess, handler: string): Environment => ({
      ...commonEnv,
      ...(originSecret !== undefined && { ORIGIN_VERIFY_SECRET: originSecret }),
      ...(access.mail ? mailEnv : {}),
      // Directory provisioning (docs/scim.md): the SCIM base URL is the console's origin.
      ...(handler.startsWith("scim/") && { APP_BASE_URL: this.appBaseUrl }),
      // A person's second step (docs/contract/people.md): where the pool requires one, it cannot be turned off.
      ...(access.users === "mfa" && { USER_POOL_MFA: settings.mfa }),
      // SSO connections (docs/sso.md): the console's app client lists their providers; their ACS URL is on the pool's domain.
      ...((access.users === "sso" || access.users === "sso_release") && {
        USER_POOL_CLIENT_ID: this.userPoolClient.userPoolClientId,
        COGNITO_DOMAIN: identity.domainUrl,
      }),
    });
    const userPool = { arn: this.userPool.userPoolArn, id: this.userPool.userPoolId };
    for (const [handler, fn] of api.functions(routes, routeAccess, {
      tables,
      sendResources: mail.sendResources,
      userPool,
      environment,
      settings,
    })) {
      this.functions.set(handler, fn);
    }
    this.scimAuthorizerFunction = api.scimAuthorizerFunction;
    // The pool's triggers of an SSO sign-in (docs/sso.md): trust, linking, JIT, require SSO.
    this.ssoTriggers = new SsoTriggers(this, "SsoTriggers", {
      userPool: this.userPool,
      tables,
      environment: commonEnv,
      logRetention: settings.logRetention,
    });
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

    // ---- The user pool's own functions: its mail, sign-ins and the activity export (docs/contract/people.md) ----
    this.poolTriggers = new PoolTriggers(this, "PoolTriggers", {
      userPool: this.userPool,
      tables,
      commonEnv,
      appBaseUrl: this.appBaseUrl,
      logRetention: settings.logRetention,
      eventRetentionDays: settings.eventRetentionDays,
      mail: {
        poolMail: props.poolMail ?? "cognito",
        senderEmail: props.senderEmail,
        senderIdentityArn: mail.senderIdentityArn,
        configurationSetName: this.mailConfigurationSet.configurationSetName,
      },
    });

    // ---- Routes and stage ----
    this.stage = api.serve(routes, this.functions, settings);
    if (!api.routesStack) throw new Error("The routes' stack is made by serve");
    this.routesStack = api.routesStack;
    // The machines' API (docs/api-keys.md): its own nested stack, over the same functions.
    this.machineApi.serve({ routes, functions: this.functions, tables, environment, settings, domain: api.domain });

    // ---- The upgrade's backfill (docs/operations.md): after every API function runs this release's code ----
    this.sentRecordsBackfill = new SentRecordsBackfill(this, "SentRecordsBackfill", {
      mainTableArn: this.mainTable.tableArn,
      environment: commonEnv,
      logRetention: settings.logRetention,
      after: [...this.functions.values()],
    });

    // ---- Getting events out ----
    this.streaming = new Streaming(this, "Streaming", {
      tables,
      functions: this.functions,
      access: routeAccess,
      commonEnv,
      alarmTopic: this.alarmTopic,
      logRetention: settings.logRetention,
    });

    // ---- Monitoring ----
    this.monitoring = new Monitoring(this, "Monitoring", {
      stackName: this.stackName,
      api: this.api,
      stage: this.stage,
      functions: this.functions,
      functionId,
      eventsOut: {
        functions: this.streaming.functionsByHandler,
        consumer: this.streaming.consumer,
        deadLetterAlarm: this.streaming.deadLetterAlarm,
        deadLetterQueue: this.streaming.deadLetterQueue,
      },
      poolFunctions: this.poolTriggers.functionsByHandler,
      ssoTriggers: this.ssoTriggers.watched,
      ...(this.scimAuthorizerFunction &&
        api.scimAuthorizerFailures && { scimAuthorizer: { fn: this.scimAuthorizerFunction, failures: api.scimAuthorizerFailures } }),
      ...(this.machineApi.watched && { machines: this.machineApi.watched }),
      digestFunction: this.trail.digestFunction,
      tables: [
        { name: "Main", table: this.mainTable },
        { name: "Events", table: this.eventsTable },
        { name: "Idempotency", table: this.idempotencyTable },
      ],
      settings,
      topic: this.alarmTopic,
    });

    // ---- Outputs ----
    addOutputs(this, {
      consoleUrl: this.console.url,
      apiUrl: fronted ? `${this.console.url}/` : this.stage.url,
      fronted: fronted !== undefined,
      userPool: this.userPool,
      userPoolClient: this.userPoolClient,
      tables,
      bus: this.streaming.bus,
      distribution: this.console.distribution,
      alarmTopic: this.alarmTopic,
      mailFeedbackTopic: this.mailFeedbackTopic,
      mailConfigurationSet: this.mailConfigurationSet,
      dashboardName: this.stackName,
      trailSigningKey: this.trail.signingKey,
    });
  }

  /** A resource's logical id: as CDK allocates it, leaving out the parts (`StackPart`) that group resources. */
  protected override allocateLogicalId(element: CfnElement): string {
    const scopes = element.node.scopes.filter((scope) => !(scope instanceof StackPart));
    return super.allocateLogicalId({ stack: element.stack, node: { scopes } } as unknown as CfnElement);
  }
}
