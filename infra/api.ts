/**
 * The HTTP API: its Cognito authorizer, the custom domain only CloudFront uses (docs/security.md, "One way in"),
 * the route table's routes to their functions, and the stage with its access log and throttles. A `StackPart`, so
 * its resources keep the logical ids they had in the stack.
 *
 * The routes live in a nested stack of their own (`ROUTES_STACK_ID`): each route is three resources (the route,
 * its integration and its Lambda permission), so the route table alone would take a third of CloudFormation's 500
 * resources of one stack. There they grow on their own; the API stack passes them the API, its authorizers and
 * the functions' ARNs as parameters (test/infra/stacks.test.ts keeps every stack under 400 resources).
 */
import { Annotations, CfnOutput, Duration, NestedStack, Stack, Validations } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import {
  ApiMapping,
  type CfnStage,
  CorsHttpMethod,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  SecurityPolicy,
} from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaAuthorizer, HttpLambdaResponseType, HttpUserPoolAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as acm from "aws-cdk-lib/aws-certificatemanager";
import type * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as cognito from "aws-cdk-lib/aws-cognito";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as route53 from "aws-cdk-lib/aws-route53";
import * as route53targets from "aws-cdk-lib/aws-route53-targets";
import type { Construct } from "constructs";
import { AUTHORIZER_FAILURES } from "../shared/observability.js";
import { type Route, type RouteAccess, routeKey, SCIM_BASE_PATH } from "../shared/routes.js";
import type { Environment } from "../shared/settings.js";
import { ApiFunction, functionId } from "./api-function.js";
import { failureCount } from "./monitoring.js";
import { StackPart } from "./part.js";
import type { Settings } from "./settings.js";
import type { Tables } from "./tables.js";

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

/** The API's custom domain for CloudFront (`InstitutionAdminStackProps.apiOrigin` says what each field does). */
export interface ApiOrigin {
  readonly domainName: string;
  readonly certificateArn: string;
  readonly hostedZoneId?: string | undefined;
  readonly hostedZoneName?: string | undefined;
  /**
   * The version of the origin secret to deploy (docs/one-way-in.md, rotation): unset, the current one.
   * Naming the new version after `put-secret-value` is what makes CloudFormation update the distribution and
   * the functions (it does not notice a changed value behind an unchanged reference).
   */
  readonly secretVersionId?: string | undefined;
}

/** The construct id of the routes' nested stack (in the `Api` part, which the stack leaves out of logical ids). */
export const ROUTES_STACK_ID = "Routes";

export interface ApiProps {
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.IUserPoolClient;
  readonly apiOrigin: ApiOrigin | undefined;
  readonly appBaseUrl: string | undefined;
}

export class Api extends StackPart {
  readonly httpApi: HttpApi;
  /** The custom domain CloudFront reaches the API at, with `apiOrigin`. */
  readonly domain: DomainName | undefined;
  private readonly authorizer: HttpUserPoolAuthorizer;
  /** The SCIM routes' Lambda authorizer (functions/scim/authorizer.ts), made with the functions. */
  scimAuthorizerFunction: NodejsFunction | undefined;
  /** Its unexpected failures: the count of its log group's ERROR lines (its refusals are thrown too). */
  scimAuthorizerFailures: cloudwatch.Metric | undefined;
  private scimAuthorizer: HttpLambdaAuthorizer | undefined;
  private readonly fronted: ApiOrigin | undefined;
  /** The nested stack of the routes, their integrations and their Lambda permissions (made by `serve`). */
  routesStack: NestedStack | undefined;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.authorizer = new HttpUserPoolAuthorizer("CognitoAuthorizer", props.userPool, {
      userPoolClients: [props.userPoolClient],
      identitySource: ["$request.header.Authorization"],
    });

    const fronted = props.apiOrigin;
    this.fronted = fronted;
    this.httpApi = new HttpApi(this, "HttpApi", {
      description: "Institution Administration API",
      // One way in: through CloudFront (its WAF, its response headers), never API Gateway's own endpoint.
      ...(fronted && { disableExecuteApiEndpoint: true }),
      // The stage is built below so that it can carry access logging and throttling.
      createDefaultStage: false,
      defaultAuthorizer: this.authorizer,
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

    this.domain =
      fronted &&
      new DomainName(this, "ApiOriginDomain", {
        domainName: fronted.domainName,
        certificate: acm.Certificate.fromCertificateArn(this, "ApiOriginCertificate", fronted.certificateArn),
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
    if (!fronted) {
      Annotations.of(Stack.of(this)).addWarningV2(
        "institution-admin:execute-api-open",
        "No apiOrigin: the HTTP API's execute-api endpoint stays reachable beside the console's CloudFront distribution, so its WAF " +
          "and response headers can be bypassed, and events record CloudFront's edge address for console traffic. Set apiOriginDomain " +
          "and apiOriginCertificateArn (docs/deploy.md) to close it.",
      );
    }
  }

  /** One function per handler of `routes` (`access`: `handlers()` of them), by handler name. */
  functions(
    routes: readonly Route[],
    access: ReadonlyMap<string, RouteAccess>,
    props: {
      tables: Tables;
      sendResources: readonly string[];
      userPool: { readonly arn: string; readonly id: string };
      environment: (access: RouteAccess, handler: string) => Environment;
      settings: Settings;
    },
  ): Map<string, NodejsFunction> {
    const out = new Map<string, NodejsFunction>();
    for (const [handler, handlerAccess] of access) {
      const made = new ApiFunction(this, `${functionId(handler)}Function`, {
        handler,
        access: handlerAccess,
        routeKeys: routes.filter((r) => r.handler === handler).map(routeKey),
        tables: props.tables,
        sendResources: props.sendResources,
        userPool: props.userPool,
        environment: props.environment(handlerAccess, handler),
        logRetention: props.settings.logRetention,
        reservedConcurrency: props.settings.reservedConcurrency[handler],
      });
      out.set(handler, made.function);
    }
    if (routes.some((r) => r.auth === "scim")) {
      // The SCIM routes' Lambda REQUEST authorizer (docs/scim.md): the connection's token, by its hash, in one
      // GetItem. Not cached, so that a rotated or revoked token stops working at once.
      const authorizerAccess: RouteAccess = { main: ["GetItem"] };
      const made = new ApiFunction(this, "ScimAuthorizerFunction", {
        handler: "scim/authorizer",
        access: authorizerAccess,
        routeKeys: [`the SCIM routes (${SCIM_BASE_PATH}/*)`],
        tables: props.tables,
        sendResources: [],
        userPool: props.userPool,
        environment: props.environment(authorizerAccess, "scim/authorizer"),
        logRetention: props.settings.logRetention,
      });
      this.scimAuthorizerFunction = made.function;
      this.scimAuthorizerFailures = failureCount(made.logGroup, "ScimAuthorizerFailures", AUTHORIZER_FAILURES["scim/authorizer"]);
      this.scimAuthorizer = new HttpLambdaAuthorizer("ScimAuthorizer", this.scimAuthorizerFunction, {
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: ["$request.header.Authorization"],
        resultsCacheTtl: Duration.seconds(0),
      });
    }
    return out;
  }

  private scimAuthorizerOf(route: Route): HttpLambdaAuthorizer {
    if (!this.scimAuthorizer) throw new Error(`${routeKey(route)}: make the functions (and the SCIM authorizer) before serving`);
    return this.scimAuthorizer;
  }

  /** Serves each route of `routes` by its handler's function (`functions`), through the stage it returns. */
  serve(routes: readonly Route[], functions: ReadonlyMap<string, NodejsFunction>, settings: Settings): HttpStage {
    const noAuthorizer = new HttpNoneAuthorizer();
    const routeResources = new Map<string, HttpRoute>();
    const routesStack = new NestedStack(this, ROUTES_STACK_ID, {
      description: "Institution Administration API: the HTTP API's routes, their integrations and Lambda permissions",
    });
    this.routesStack = routesStack;
    for (const route of routes) {
      const fn = functions.get(route.handler);
      if (!fn) throw new Error(`No function for handler ${route.handler}`);
      // As `HttpApi.addRoutes` makes it (the same construct id), in the routes' stack: the integration and the
      // Lambda permission are made in the route's scope, so they live there too.
      const created = new HttpRoute(routesStack, `${route.method}${route.path}`, {
        httpApi: this.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        // One integration per route keeps each Lambda permission scoped to its own route.
        integration: new HttpLambdaIntegration(`${functionId(route.handler)}${route.method}Integration`, fn),
        // Public routes (the API document and its page) are served without a token.
        authorizer: route.public ? noAuthorizer : route.auth === "scim" ? this.scimAuthorizerOf(route) : this.authorizer,
      });
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
    const stage = new HttpStage(this, "DefaultStage", {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle: settings.throttle,
      // Route-level metrics for the dashboard's per-route graphs.
      detailedMetricsEnabled: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      },
    });
    const { fronted, domain } = this;
    if (fronted && domain) {
      new ApiMapping(this, "ApiOriginMapping", { api: this.httpApi, domainName: domain, stage });
      const target = route53.RecordTarget.fromAlias(
        new route53targets.ApiGatewayv2DomainProperties(domain.regionalDomainName, domain.regionalHostedZoneId),
      );
      if (fronted.hostedZoneId !== undefined && fronted.hostedZoneName !== undefined) {
        const zone = route53.HostedZone.fromHostedZoneAttributes(this, "ApiOriginZone", {
          hostedZoneId: fronted.hostedZoneId,
          zoneName: fronted.hostedZoneName,
        });
        new route53.ARecord(this, "ApiOriginRecord", { zone, recordName: fronted.domainName, target });
      } else {
        new CfnOutput(this, "ApiOriginDnsTarget", {
          value: domain.regionalDomainName,
          description: `Point ${fronted.domainName} (CNAME or alias) at this: CloudFront reaches the API there`,
        });
      }
    }

    // The export's own throttle: route settings override the stage's for that route alone.
    const exportRoute = routes.find((r) => r.handler === "security-events/export");
    if (exportRoute) {
      const key = routeKey(exportRoute);
      (stage.node.defaultChild as CfnStage).routeSettings = {
        [key]: {
          ThrottlingRateLimit: settings.exportThrottle.rateLimit,
          ThrottlingBurstLimit: settings.exportThrottle.burstLimit,
          DetailedMetricsEnabled: true,
        },
      };
      // The stage names the route by key: it must exist first (the stage depends on the routes' stack).
      const route = routeResources.get(key);
      if (route) stage.node.addDependency(route);
    }
    return stage;
  }
}
