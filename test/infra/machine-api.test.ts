/**
 * The machines' API (docs/api-keys.md, infra/machine-api.ts) as synthesized: the edge's function (its code run here,
 * as CloudFront would), the key-capable routes on the same functions behind the key authorizer (cached at most
 * 60 s), the `$default` refusal, least-privilege grants of the authorizer, the mapping on the origin domain, and
 * each stack's resource count.
 */
import type { CfnResource } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { KEY_AUTHORIZER_CACHE_SECONDS as LOCAL_CACHE_SECONDS } from "../../infra/local/gateway.js";
import { KEY_AUTHORIZER_CACHE_SECONDS, keyRoutingCode, MACHINE_MAPPING_KEY } from "../../infra/machine-api.js";
import { KEY_BEARER } from "../../shared/api-keys/scopes.js";
import { machineRoutes, paths, routeKey, routes } from "../../shared/routes.js";
import { build, type Json, nagFindings } from "./support.js";

const dev = build({}, { validate: false });
const nested = dev.stack.machineApi.nested;
if (!nested) throw new Error("no nested stack for the machines' API");
const inner = Template.fromStack(nested).toJSON().Resources as Record<string, Json>;
const ofType = (type: string) => Object.entries(inner).filter(([, r]) => r.Type === type);

type Request = { uri: string; headers: Record<string, { value: string }> };
/** Runs the edge function's code as CloudFront would, with `cf.updateRequestOrigin` recorded. */
function runEdge(code: string, authorization: string | undefined, uri: string = paths.institutions) {
  const origins: unknown[] = [];
  const cf = { updateRequestOrigin: (o: unknown) => origins.push(o) };
  const body = code.replace("import cf from 'cloudfront';\n", "");
  const handler = new Function("cf", `${body}; return handler;`)(cf) as (e: { request: Request }) => Request;
  const request = handler({ request: { uri, headers: authorization === undefined ? {} : { authorization: { value: authorization } } } });
  return { uri: request.uri, origins };
}

describe("the edge's function", () => {
  const key = "Bearer iak_8sKqP2vN0xT5mYb7cR1wZ4hL9dF3gJ6aE0uQ_iVo-Xs";
  const jwt = "Bearer eyJraWQiOiJFWEFNUExFIiwiYWxnIjoiUlMyNTYifQ.eyJzdWIiOiJ4In0.c2ln";

  it("with an origin domain: a key's request goes under /machine, the machines' API's mapping; a person's is untouched", () => {
    const code = keyRoutingCode({ fronted: true });
    expect(runEdge(code, key)).toEqual({ uri: `/machine${paths.institutions}`, origins: [] });
    expect(runEdge(code, "bearer  iak_x")).toEqual({ uri: `/machine${paths.institutions}`, origins: [] });
    for (const other of [jwt, undefined, "", "Bearer iakx", "Basic iak_x", "Bearer scim_abc", "iak_x"]) {
      expect(runEdge(code, other), String(other)).toEqual({ uri: paths.institutions, origins: [] });
    }
    expect(MACHINE_MAPPING_KEY).toBe("machine");
  });

  it("without one: a key's request goes to the machines' API's own endpoint; a person's is untouched", () => {
    const code = keyRoutingCode({ fronted: false, machineDomain: "abc.execute-api.eu-west-1.amazonaws.com" });
    expect(code.startsWith("import cf from 'cloudfront';")).toBe(true);
    expect(runEdge(code, key)).toEqual({
      uri: paths.institutions,
      origins: [{ domainName: "abc.execute-api.eu-west-1.amazonaws.com" }],
    });
    expect(runEdge(code, jwt)).toEqual({ uri: paths.institutions, origins: [] });
  });

  it("asks the very question the local gateway asks (KEY_BEARER), on the /api/* behaviour, in the JS 2.0 runtime", () => {
    expect(keyRoutingCode({ fronted: true })).toContain(`/${KEY_BEARER.source}/${KEY_BEARER.flags}`);
    const fn = dev.resources[dev.logicalId(dev.stack.machineApi.edgeFunction)];
    expect(fn.Properties.FunctionConfig.Runtime).toBe("cloudfront-js-2.0");
  });
});

describe("the machines' API", () => {
  const routeResources = ofType("AWS::ApiGatewayV2::Route").map(([, r]) => r.Properties);
  const [authorizerId, authorizer] = ofType("AWS::ApiGatewayV2::Authorizer")[0] ?? [];

  it("serves exactly the routes a key may call and the public ones, and $default", () => {
    expect(routeResources.map((r) => r.RouteKey).sort()).toEqual([...machineRoutes().map(routeKey), "$default"].sort());
  });

  it("puts every route but the public ones behind the key authorizer, the same functions as the people's API", () => {
    for (const r of routeResources) {
      const route = routes.find((x) => routeKey(x) === r.RouteKey);
      if (route?.public) {
        expect(r.AuthorizationType, r.RouteKey).toBe("NONE");
        continue;
      }
      expect(r.AuthorizationType, r.RouteKey).toBe("CUSTOM");
      expect(r.AuthorizerId, r.RouteKey).toEqual({ Ref: authorizerId });
    }
    const integrations = ofType("AWS::ApiGatewayV2::Integration").map(([, r]) => JSON.stringify(r.Properties.IntegrationUri));
    // Each scoped route's integration invokes the people's function, passed in from the API's stack.
    expect(integrations.filter((u) => u.includes("referenceto")).length).toBe(machineRoutes().length);
  });

  it("checks the key with a Lambda REQUEST authorizer: simple responses, by the Authorization header, cached at most 60 s", () => {
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: "REQUEST",
      AuthorizerPayloadFormatVersion: "2.0",
      EnableSimpleResponses: true,
      IdentitySource: ["$request.header.Authorization"],
      AuthorizerResultTtlInSeconds: KEY_AUTHORIZER_CACHE_SECONDS,
    });
    expect(KEY_AUTHORIZER_CACHE_SECONDS).toBeLessThanOrEqual(60);
    expect(LOCAL_CACHE_SECONDS).toBe(KEY_AUTHORIZER_CACHE_SECONDS);
  });

  it("lets the authorizer read only key lookup items and write only keys' last use; the refusal touches no table", () => {
    const fns = dev.stack.machineApi.functions;
    const statementsOf = (handler: string) => {
      const role = nested.getLogicalId(fns.get(handler)?.role?.node.defaultChild as CfnResource);
      return ofType("AWS::IAM::Policy")
        .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === role))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[])
        .filter((s) => String(s.Action).startsWith("dynamodb:"));
    };
    expect(statementsOf("api-keys/authorizer").map((s) => [s.Action, s.Condition])).toEqual([
      ["dynamodb:GetItem", { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["APIKEYHASH#*"] } }],
      ["dynamodb:UpdateItem", { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["APIKEYS#*"] } }],
    ]);
    expect(statementsOf("api-keys/refused")).toEqual([]);
  });

  it("has an auto-deployed stage with access logs and the people's throttle", () => {
    const [, stage] = ofType("AWS::ApiGatewayV2::Stage")[0] ?? [];
    expect(stage.Properties).toMatchObject({ StageName: "$default", AutoDeploy: true });
    expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({ apiKey: "$context.authorizer.api_key_id" });
    expect(stage.Properties.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThan(0);
  });
});

describe("with a custom origin domain", () => {
  const fronted = build(
    { apiOrigin: { domainName: "api-origin.example.com", certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/abc" } },
    { id: "Fronted", validate: false },
  );
  const fnested = fronted.stack.machineApi.nested;
  const resources = fnested ? (Template.fromStack(fnested).toJSON().Resources as Record<string, Json>) : {};
  const typed = (type: string) => Object.values(resources).filter((r) => r.Type === type);

  it("maps the machines' API under /machine on the origin domain, turns its own endpoint off, and keys the cache on the origin secret too", () => {
    expect(typed("AWS::ApiGatewayV2::ApiMapping").map((m) => m.Properties.ApiMappingKey)).toEqual(["machine"]);
    const api = fronted.resources[fronted.logicalId(fronted.stack.machineApi.httpApi)];
    expect(api.Properties.DisableExecuteApiEndpoint).toBe(true);
    expect(typed("AWS::ApiGatewayV2::Authorizer")[0]?.Properties.IdentitySource).toEqual([
      "$request.header.Authorization",
      "$request.header.x-origin-verify",
    ]);
    const code = fronted.resources[fronted.logicalId(fronted.stack.machineApi.edgeFunction)].Properties.FunctionCode;
    expect(code).toBe(keyRoutingCode({ fronted: true }));
  });

  it("gives the machines' functions the origin secret, as every function", () => {
    for (const fn of typed("AWS::Lambda::Function")) {
      expect(JSON.stringify(fn.Properties.Environment.Variables.ORIGIN_VERIFY_SECRET)).toContain("resolve:secretsmanager");
    }
  });

  it("leaves cdk-nag clean", () => expect(nagFindings(fronted.app)).toEqual([]));
});

describe("resources", () => {
  it("keeps the machines' nested stack small, and adds to the API's stack only its HttpApi, the edge function and the nested stack", () => {
    expect(Object.keys(inner).length).toBeLessThan(400);
    const own = dev.template.toJSON().Resources as Record<string, Json>;
    expect(Object.keys(own).length).toBeLessThan(400);
    const machines = dev.stack.machineApi;
    const ids = [machines.httpApi, machines.edgeFunction].map((c) => dev.logicalId(c));
    for (const id of ids) expect(own[id], id).toBeDefined();
    expect(own[dev.stack.getLogicalId(nested.nestedStackResource as CfnResource)]?.Type).toBe("AWS::CloudFormation::Stack");
    // Its routes, stage and functions are in its own stack, none in the API's or the people's routes' stack.
    expect(
      Object.values(own).filter((r) => r.Type === "AWS::ApiGatewayV2::Authorizer" && JSON.stringify(r).includes(ids[0] ?? "")),
    ).toEqual([]);
  });
});
