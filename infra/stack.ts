import {
  Annotations,
  Aws,
  type CfnElement,
  CfnOutput,
  CfnRule,
  Duration,
  Fn,
  RemovalPolicy,
  Stack,
  type StackProps,
  Token,
  Validations,
} from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import {
  ApiMapping,
  type CfnStage,
  CorsHttpMethod,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  type HttpRoute,
  HttpStage,
  LogGroupLogDestination,
  SecurityPolicy,
} from "aws-cdk-lib/aws-apigatewayv2";
import { HttpUserPoolAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as acm from "aws-cdk-lib/aws-certificatemanager";
import type * as cognito from "aws-cdk-lib/aws-cognito";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as route53 from "aws-cdk-lib/aws-route53";
import * as route53targets from "aws-cdk-lib/aws-route53-targets";
import * as s3 from "aws-cdk-lib/aws-s3";
import type * as ses from "aws-cdk-lib/aws-ses";
import type * as sns from "aws-cdk-lib/aws-sns";
import type { Construct } from "constructs";
import { METRICS_NAMESPACE, SERVICE_NAME } from "../shared/observability.js";
import { handlers, type Route, routeKey, routes as routeTable } from "../shared/routes.js";
import { ApiFunction, functionId } from "./api-function.js";
import { Console } from "./console.js";
import { assertLogsRegion, CLOUDFRONT_LOGS_REGION, ConsoleAccessLogs, consoleLogsName, grantConsoleLogDelivery } from "./console-logs.js";
import { Identity } from "./identity.js";
import { Mail } from "./mail.js";
import { Monitoring } from "./monitoring.js";
import { Notifications } from "./notifications.js";
import { StackPart } from "./part.js";
import { ENVIRONMENTS, type Settings } from "./settings.js";
import { Streaming } from "./streaming.js";
import { Tables } from "./tables.js";
import { EvidenceTrail } from "./trail.js";
import { ConsoleWebAcl } from "./waf.js";

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
   * A custom domain of the HTTP API that only the console's CloudFront distribution uses (DESIGN.md §13,
   * "One way in"). With it, CloudFront reaches the API there, the default `execute-api` endpoint is disabled
   * (so the WAF and the distribution cannot be bypassed), and the functions record the viewer's address from
   * `CloudFront-Viewer-Address`. The certificate is a regional ACM certificate for `name`, in this stack's
   * region; with `hostedZoneId` and `hostedZoneName` the alias record is made too, otherwise the output
   * `ApiOriginDnsTarget` names what `name` must point at. Without it, the default endpoint stays open
   * (a synth warning says so): API Gateway offers no other way to close it.
   */
  readonly apiOrigin?: {
    readonly domainName: string;
    readonly certificateArn: string;
    readonly hostedZoneId?: string | undefined;
    readonly hostedZoneName?: string | undefined;
  };
  /** The route table; default `shared/routes.ts` (tests add routes to it). */
  readonly routes?: readonly Route[];
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
  /** Idempotency-Key records (shared/idempotency.ts), for the functions with a POST route only. */
  readonly idempotencyTable: dynamodb.Table;
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  readonly api: HttpApi;
  readonly stage: HttpStage;
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
  /** Exports bucket and worker, the events stream's consumer, the bus and the webhook retrier (DESIGN.md §11). */
  readonly streaming: Streaming;
  readonly trail: EvidenceTrail;
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
    this.userPoolClient = identity.userPoolClient;
    const notifications = new Notifications(this, "Notifications", settings);
    this.alarmTopic = notifications.alarmTopic;
    this.mailFeedbackTopic = notifications.mailFeedbackTopic;
    // Every send goes through the configuration set (SES_CONFIGURATION_SET, and the sender identity's default):
    // bounces and complaints go to the feedback topic, and addresses that bounce or complain land on the
    // suppression list.
    const mail = new Mail(this, "Mail", { ...props, feedbackTopic: this.mailFeedbackTopic });
    this.mailConfigurationSet = mail.configurationSet;

    // ---- API (its routes come after the functions) ----
    const authorizer = new HttpUserPoolAuthorizer("CognitoAuthorizer", this.userPool, {
      userPoolClients: [this.userPoolClient],
      identitySource: ["$request.header.Authorization"],
    });

    const fronted = props.apiOrigin;
    this.api = new HttpApi(this, "HttpApi", {
      description: "Institution Administration API",
      // One way in: through CloudFront (its WAF, its response headers), never API Gateway's own endpoint.
      ...(fronted && { disableExecuteApiEndpoint: true }),
      // The stage is built below so that it can carry access logging and throttling.
      createDefaultStage: false,
      defaultAuthorizer: authorizer,
      // The console calls the API on its own origin (CloudFront's /api/*): CORS only for a console elsewhere.
      ...(props.appBaseUrl !== undefined && {
        corsPreflight: {
          allowOrigins: [props.appBaseUrl],
          allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.PATCH, CorsHttpMethod.DELETE],
          allowHeaders: ["authorization", "content-type", "idempotency-key", "if-match"],
          exposeHeaders: ["content-disposition", "etag", "retry-after", "x-export-truncated"],
          maxAge: Duration.hours(1),
        },
      }),
    });

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

    const apiOriginDomain =
      fronted &&
      new DomainName(this, "ApiOriginDomain", {
        domainName: fronted.domainName,
        certificate: acm.Certificate.fromCertificateArn(this, "ApiOriginCertificate", fronted.certificateArn),
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
    if (!fronted) {
      Annotations.of(this).addWarningV2(
        "institution-admin:execute-api-open",
        "No apiOrigin: the HTTP API's execute-api endpoint stays reachable beside the console's CloudFront distribution, so its WAF " +
          "and response headers can be bypassed, and events record CloudFront's edge address for console traffic. Set apiOriginDomain " +
          "and apiOriginCertificateArn (README, Deploy) to close it.",
      );
    }

    this.console = new Console(this, "Console", {
      assetDir: props.consoleAssetDir,
      apiDomain: fronted ? fronted.domainName : `${this.api.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
      config: {
        region: this.region,
        userPoolId: this.userPool.userPoolId,
        userPoolClientId: this.userPoolClient.userPoolClientId,
        // Your account offers turning TOTP off only where MFA is optional.
        mfa: settings.mfa,
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

    // The distribution's access logs: standard logging v2, without the query string (console-logs.ts). Its
    // delivery source lives in us-east-1: here when this stack is there, otherwise in app.ts's stack there.
    this.accessLogsBucket = logBucket;
    const logSource = consoleLogsName(this.stackName, "source");
    grantConsoleLogDelivery(logBucket, logSource);
    if (!props.consoleLogsElsewhere) {
      if (!Token.isUnresolved(this.region) && this.region !== CLOUDFRONT_LOGS_REGION) {
        throw new Error(
          `CloudFront's access-log delivery lives in us-east-1: pass consoleLogsElsewhere for a stack in ${this.region} and make it there (app.ts does)`,
        );
      }
      this.consoleAccessLogs = new ConsoleAccessLogs(this, "ConsoleAccessLogs", {
        distributionArn: this.console.distribution.distributionArn,
        bucketArn: logBucket.bucketArn,
        sourceName: logSource,
        destinationName: consoleLogsName(this.stackName, "destination"),
      });
      // Made after the bucket policy that lets it write: CloudWatch Logs would otherwise edit that policy itself.
      if (logBucket.policy) this.consoleAccessLogs.node.addDependency(logBucket.policy);
      // An environment-agnostic template: refuse, before creating anything, a deployment outside us-east-1.
      if (Token.isUnresolved(this.region)) assertLogsRegion(this, "ConsoleLogsRegion");
    }

    // ---- Functions ----
    const commonEnv: Record<string, string> = {
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
      ...(settings.invitationValidityDays !== undefined && { INVITATION_VALIDITY_DAYS: String(settings.invitationValidityDays) }),
      ...(settings.pendingInvitationLimit !== undefined && { PENDING_INVITATION_LIMIT: String(settings.pendingInvitationLimit) }),
      ...(settings.mailboxDailyMailLimit !== undefined && { MAILBOX_DAILY_MAIL_LIMIT: String(settings.mailboxDailyMailLimit) }),
      ...(settings.accountHourlyMailLimit !== undefined && { ACCOUNT_HOURLY_MAIL_LIMIT: String(settings.accountHourlyMailLimit) }),
      ...(settings.accountDailyInstitutionLimit !== undefined && {
        ACCOUNT_DAILY_INSTITUTION_LIMIT: String(settings.accountDailyInstitutionLimit),
      }),
      ...(settings.refusedRequestLimit !== undefined && { REFUSED_REQUEST_LIMIT: String(settings.refusedRequestLimit) }),
    };
    // The functions that create users (joining from an invitation, shared/users.ts) name the pool.
    const usersEnv = { USER_POOL_ID: this.userPool.userPoolId };
    const mailEnv = {
      MAIL_FROM: props.senderEmail,
      APP_BASE_URL: this.appBaseUrl,
      SES_CONFIGURATION_SET: this.mailConfigurationSet.configurationSetName,
    };

    for (const [handler, access] of handlers(routes)) {
      const { function: fn } = new ApiFunction(this, `${functionId(handler)}Function`, {
        handler,
        access,
        routeKeys: routes.filter((r) => r.handler === handler).map(routeKey),
        tables,
        sendResources: mail.sendResources,
        userPoolArn: this.userPool.userPoolArn,
        environment: { ...commonEnv, ...(access.mail ? mailEnv : {}), ...(access.users ? usersEnv : {}) },
        logRetention: settings.logRetention,
        reservedConcurrency: settings.reservedConcurrency[handler],
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
      if (!created) throw new Error(`No route made for ${routeKey(route)}`);
      routeResources.set(routeKey(route), created);
      if (route.public) {
        Validations.of(created).acknowledge({
          id: "AwsSolutions-APIG4",
          reason:
            "A public route of the route table: the API document, its reference page, or joining from an invitation (whose token in the body is the credential).",
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
    if (fronted && apiOriginDomain) {
      new ApiMapping(this, "ApiOriginMapping", { api: this.api, domainName: apiOriginDomain, stage: this.stage });
      const target = route53.RecordTarget.fromAlias(
        new route53targets.ApiGatewayv2DomainProperties(apiOriginDomain.regionalDomainName, apiOriginDomain.regionalHostedZoneId),
      );
      if (fronted.hostedZoneId !== undefined && fronted.hostedZoneName !== undefined) {
        const zone = route53.HostedZone.fromHostedZoneAttributes(this, "ApiOriginZone", {
          hostedZoneId: fronted.hostedZoneId,
          zoneName: fronted.hostedZoneName,
        });
        new route53.ARecord(this, "ApiOriginRecord", { zone, recordName: fronted.domainName, target });
      } else {
        new CfnOutput(this, "ApiOriginDnsTarget", {
          value: apiOriginDomain.regionalDomainName,
          description: `Point ${fronted.domainName} (CNAME or alias) at this: CloudFront reaches the API there`,
        });
      }
    }

    // The export's own throttle: route settings override the stage's for that route alone.
    const exportRoute = routes.find((r) => r.handler === "security-events/export");
    if (exportRoute) {
      const key = routeKey(exportRoute);
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

    // ---- Getting events out ----
    this.streaming = new Streaming(this, "Streaming", {
      tables,
      functions: this.functions,
      commonEnv,
      alarmTopic: this.alarmTopic,
      logRetention: settings.logRetention,
    });

    // ---- Monitoring ----
    this.monitoring = new Monitoring(this, "Monitoring", {
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
      tables: [
        { name: "Main", table: this.mainTable },
        { name: "Events", table: this.eventsTable },
        { name: "Idempotency", table: this.idempotencyTable },
      ],
      settings,
      topic: this.alarmTopic,
    });

    // ---- Outputs ----
    new CfnOutput(this, "ConsoleUrl", { value: this.console.url, description: "The console; the API is under /api/ on it too" });
    new CfnOutput(this, "ApiUrl", {
      value: fronted ? `${this.console.url}/` : this.stage.url,
      description: fronted
        ? "Base URL of the API: the console's distribution, its only way in"
        : "Base URL of the API (API Gateway's own endpoint)",
    });
    new CfnOutput(this, "UserPoolId", { value: this.userPool.userPoolId });
    new CfnOutput(this, "UserPoolClientId", { value: this.userPoolClient.userPoolClientId });
    new CfnOutput(this, "MainTableName", { value: this.mainTable.tableName });
    new CfnOutput(this, "EventsTableName", { value: this.eventsTable.tableName });
    new CfnOutput(this, "IdempotencyTableName", { value: this.idempotencyTable.tableName });
    new CfnOutput(this, "EventBusName", {
      value: this.streaming.bus.eventBusName,
      description: "Every recorded event (source institution-admin, detail-type the event type): add your rules here",
    });
    new CfnOutput(this, "EventBusArn", { value: this.streaming.bus.eventBusArn });
    new CfnOutput(this, "DistributionId", { value: this.console.distribution.distributionId });
    new CfnOutput(this, "AlarmTopicArn", { value: this.alarmTopic.topicArn, description: "Alarms and their recovery" });
    new CfnOutput(this, "MailFeedbackTopicArn", { value: this.mailFeedbackTopic.topicArn, description: "SES bounces and complaints" });
    new CfnOutput(this, "MailConfigurationSetName", { value: this.mailConfigurationSet.configurationSetName });
    new CfnOutput(this, "DashboardUrl", {
      value: `https://console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards/dashboard/${this.monitoring.dashboard.dashboardName}`,
    });
  }

  /** A resource's logical id: as CDK allocates it, leaving out the parts (`StackPart`) that group resources. */
  protected override allocateLogicalId(element: CfnElement): string {
    const scopes = element.node.scopes.filter((scope) => !(scope instanceof StackPart));
    return super.allocateLogicalId({ stack: element.stack, node: { scopes } } as unknown as CfnElement);
  }
}
