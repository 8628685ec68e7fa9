/**
 * The machines' API (docs/api-keys.md): a second HTTP API over the same functions, for institution
 * API keys, so that a person's request never pays for them.
 *
 * - **At the edge.** A CloudFront function on the console distribution's `/api/*` behaviour asks one question of
 *   the `Authorization` header (`KEY_BEARER`, shared/api-keys/scopes.ts): `Bearer iak_…` goes to this API, anything
 *   else on to the people's API unchanged, with its JWT authorizer and its latency. With a custom origin domain the
 *   function prefixes the path with `/machine`, this API's mapping on that same domain (so the origin secret and
 *   the one way in hold as they are); without one it points the request at this API's own endpoint.
 * - **The routes a key may call** (`machineRoutes()`: those with a scope, and the public ones), each to the very
 *   function that serves it on the people's API, behind the key authorizer (functions/api-keys/authorizer.ts: the
 *   key's hash, one GetItem), whose answer API Gateway caches by the header for at most 60 s. Every other request
 *   goes to the `$default` route (functions/api-keys/refused.ts): 403 on a route no scope opens, 404 elsewhere.
 *
 * Its `HttpApi` resource is in the API's stack, since the distribution's function names it; everything else is in a
 * nested stack of its own, so that the API's stack keeps its resource budget (under 400).
 */
import { Annotations, Duration, NestedStack, Stack, Validations } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import {
  ApiMapping,
  type DomainName,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  type IHttpApi,
  LogGroupLogDestination,
} from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as iam from "aws-cdk-lib/aws-iam";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import type { Construct } from "constructs";
import { MACHINE_PATH_PREFIX } from "../shared/api-keys/model.js";
import { KEY_BEARER } from "../shared/api-keys/scopes.js";
import { AUTHORIZER_FAILURES } from "../shared/observability.js";
import { ORIGIN_VERIFY_HEADER } from "../shared/origin.js";
import { machineRoutes, type Route, type RouteAccess } from "../shared/routes.js";
import type { Environment } from "../shared/settings.js";
import { apiKeyKeys } from "../shared/tables.js";
import { ApiFunction, functionId } from "./api-function.js";
import { type FailureCounted, failureCount } from "./monitoring.js";
import { StackPart } from "./part.js";
import type { Settings } from "./settings.js";
import { leadingKeys, type Tables } from "./tables.js";

/** How long API Gateway keeps the key authorizer's answer for one `Authorization` header: a revoked key's bound. */
export const KEY_AUTHORIZER_CACHE_SECONDS = 60;

/** The API mapping key of the machines' API on the custom origin domain (`/machine/...`). */
export const MACHINE_MAPPING_KEY = MACHINE_PATH_PREFIX.slice(1);

/** The stage's access log: the people's fields, with the key instead of the user. */
export const MACHINE_ACCESS_LOG_FORMAT = {
  requestId: "$context.requestId",
  integrationRequestId: "$context.integration.requestId",
  ip: "$context.identity.sourceIp",
  requestTime: "$context.requestTime",
  httpMethod: "$context.httpMethod",
  routeKey: "$context.routeKey",
  status: "$context.status",
  responseLatency: "$context.responseLatency",
  integrationLatency: "$context.integrationLatency",
  authorizerLatency: "$context.authorizer.latency",
  authorizerError: "$context.authorizer.error",
  apiKey: "$context.authorizer.api_key_id",
  institution: "$context.authorizer.institution_id",
} as const;

/**
 * The edge's viewer-request function (JavaScript runtime 2.0): a key's request to the machines' API, by a path
 * prefix on the shared origin domain (`fronted`) or by changing the origin to `machineDomain`.
 */
export function keyRoutingCode(target: { readonly fronted: true } | { readonly fronted: false; readonly machineDomain: string }): string {
  const pattern = `/${KEY_BEARER.source}/${KEY_BEARER.flags}`;
  const send = target.fronted
    ? `request.uri = ${JSON.stringify(MACHINE_PATH_PREFIX)} + request.uri;`
    : `cf.updateRequestOrigin({ domainName: ${JSON.stringify(target.machineDomain)} });`;
  return `${target.fronted ? "" : "import cf from 'cloudfront';\n"}function handler(event) {
  var request = event.request;
  var auth = request.headers.authorization;
  if (auth && ${pattern}.test(auth.value)) {
    ${send}
  }
  return request;
}`;
}

export interface MachineApiProps {
  /** With a custom origin domain (docs/one-way-in.md): this API is mapped on it and its own endpoint is off. */
  readonly fronted: boolean;
}

export interface MachineServeProps {
  /** The route table (`routes` of shared/routes.ts by default). */
  readonly routes: readonly Route[];
  /** The people's API's functions, by handler: this API invokes the same ones. */
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  readonly tables: Tables;
  readonly environment: (access: RouteAccess, handler: string) => Environment;
  readonly settings: Settings;
  /** The custom origin domain, with `fronted`. */
  readonly domain: DomainName | undefined;
}

export class MachineApi extends StackPart {
  readonly httpApi: HttpApi;
  /** The `/api/*` behaviour's viewer-request function (infra/console.ts). */
  readonly edgeFunction: cloudfront.Function;
  /** The key authorizer and the `$default` refusal, by handler, once `serve` has made them. */
  readonly functions = new Map<string, NodejsFunction>();
  /**
   * What the alarms watch, once `serve` has made it: the key authorizer with its unexpected failures (the count of
   * its ERROR lines: its refusals are thrown too), and the `$default` refusal.
   */
  watched: { readonly keyAuthorizer: FailureCounted; readonly refused: NodejsFunction } | undefined;
  /** The nested stack holding this API's routes, stage and functions, once `serve` has made it. */
  nested: NestedStack | undefined;
  private readonly fronted: boolean;

  constructor(scope: Construct, id: string, props: MachineApiProps) {
    super(scope, id);
    this.fronted = props.fronted;
    this.httpApi = new HttpApi(this, "MachineHttpApi", {
      description: "Institution Administration API for machines: institution API keys (docs/api-keys.md)",
      // One way in, as the people's API: through CloudFront and the origin domain's mapping only.
      ...(props.fronted && { disableExecuteApiEndpoint: true }),
      createDefaultStage: false,
    });
    const stack = Stack.of(this);
    this.edgeFunction = new cloudfront.Function(this, "KeyRouting", {
      code: cloudfront.FunctionCode.fromInline(
        keyRoutingCode(
          props.fronted
            ? { fronted: true }
            : { fronted: false, machineDomain: `${this.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}` },
        ),
      ),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: "API: Bearer iak_ keys to the machines' API",
    });
  }

  /** Makes the key authorizer, the refusal and this API's routes and stage, in a nested stack. */
  serve(props: MachineServeProps): NestedStack {
    const nested = new NestedStack(this, "Machines", { description: "Institution Administration API for machines (docs/api-keys.md)" });
    this.nested = nested;
    // Named in the nested stack (not the parent's construct), so the authorizer and routes are made there.
    const api: IHttpApi = HttpApi.fromHttpApiAttributes(nested, "Api", { httpApiId: this.httpApi.apiId });
    const fn = (handler: string, access: RouteAccess, what: string) => {
      const made = new ApiFunction(nested, `${functionId(handler)}Function`, {
        handler,
        access,
        routeKeys: [what],
        tables: props.tables,
        sendResources: [],
        userPool: { arn: "", id: "" },
        environment: props.environment(access, handler),
        logRetention: props.settings.logRetention,
      });
      this.functions.set(handler, made.function);
      return made;
    };

    // The key authorizer: the key's lookup item (GetItem) and its last use (UpdateItem), nothing else of the table.
    const keyAuthorizer = fn("api-keys/authorizer", {}, "the machines' API's key authorizer");
    const authorizerFunction = keyAuthorizer.function;
    const keyAuthorizerFailures = failureCount(keyAuthorizer.logGroup, "KeyAuthorizerFailures", AUTHORIZER_FAILURES["api-keys/authorizer"]);
    const main = props.tables.main.tableArn;
    authorizerFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: "KeyLookup",
        actions: ["dynamodb:GetItem"],
        resources: [main],
        conditions: leadingKeys([apiKeyKeys.hash("").pk]),
      }),
    );
    authorizerFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: "KeyLastUse",
        actions: ["dynamodb:UpdateItem"],
        resources: [main],
        conditions: leadingKeys([apiKeyKeys.partition("")]),
      }),
    );
    const authorizer = new HttpLambdaAuthorizer("KeyAuthorizer", authorizerFunction, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      // With the origin secret, the cache keys on it too: an answer given through CloudFront never serves a request around it.
      identitySource: ["$request.header.Authorization", ...(this.fronted ? [`$request.header.${ORIGIN_VERIFY_HEADER}`] : [])],
      resultsCacheTtl: Duration.seconds(KEY_AUTHORIZER_CACHE_SECONDS),
    });
    const none = new HttpNoneAuthorizer();

    for (const route of machineRoutes(props.routes)) {
      const target = props.functions.get(route.handler);
      if (!target) throw new Error(`No function for handler ${route.handler}`);
      const id = `${functionId(route.handler)}${route.method}${route.public ? "Public" : "Key"}`;
      const made = new HttpRoute(nested, `${id}Route`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${id}Integration`, target),
        authorizer: route.public ? none : authorizer,
      });
      if (route.public) {
        Validations.of(made).acknowledge({
          id: "AwsSolutions-APIG4",
          reason: "A public route of the route table (the API document, its page, joining from an invitation), as on the people's API.",
        });
      }
    }
    // Anything else a key asks: refused (403 on a route no scope opens), behind the same authorizer.
    const refused = fn("api-keys/refused", {}, "the machines' API's $default route").function;
    this.watched = { keyAuthorizer: { fn: authorizerFunction, failures: keyAuthorizerFailures }, refused };
    new HttpRoute(nested, "DefaultRoute", {
      httpApi: api,
      routeKey: HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration("DefaultIntegration", refused),
      authorizer,
    });

    const accessLogs = new logs.LogGroup(nested, "AccessLogs", { retention: props.settings.logRetention });
    const stage = new HttpStage(nested, "Stage", {
      httpApi: api,
      autoDeploy: true,
      throttle: props.settings.throttle,
      detailedMetricsEnabled: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(MACHINE_ACCESS_LOG_FORMAT)),
      },
    });
    if (this.fronted) {
      if (!props.domain) throw new Error("The machines' API is mapped on the custom origin domain: make the domain first");
      new ApiMapping(nested, "Mapping", { api, domainName: props.domain, stage, apiMappingKey: MACHINE_MAPPING_KEY });
    } else {
      Annotations.of(this).addInfo("The machines' API is reached at its own execute-api endpoint (no apiOrigin).");
    }
    return nested;
  }
}
