/**
 * The deployed console (issue 17, point 4): a private bucket behind CloudFront with origin access control,
 * `/api/*` to the HTTP API on the same distribution, console routes rewritten to index.html, `/config.json`
 * next to the app, and the links in mail pointing at the distribution. Also: public routes of the route table
 * get no authorizer.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_PATH_PATTERN, SPA_REWRITE_CODE } from "../../infra/console.js";
import { handlers, paths, type Route, routes } from "../../shared/routes.js";
import { build, type Json, nagFindings } from "./support.js";

// CloudFront's managed policies, by their documented ids.
const CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";
const ALL_VIEWER_EXCEPT_HOST_HEADER = "b689b0a8-53d0-40ab-baf2-68738e2966ac";

// The template stack.test.ts validates (there with an explicit appBaseUrl): here the defaults.
const dev = build({}, { validate: false });
const { stack, resources, logicalId, ofType } = dev;
const distributionId = logicalId(stack.console.distribution);
const config = resources[distributionId].Properties.DistributionConfig;
const bucketId = logicalId(stack.console.bucket);
const originById = (id: string) => (config.Origins as Json[]).find((o) => o.Id === id);

describe("bucket", () => {
  const bucket = resources[bucketId].Properties;

  it("is private and encrypted, and refuses plain HTTP", () => {
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe("AES256");
    expect(bucket.WebsiteConfiguration).toBeUndefined();
  });

  it("lets only this distribution read its objects (origin access control)", () => {
    const policy = ofType("AWS::S3::BucketPolicy").find(([, p]) => p.Properties.Bucket.Ref === bucketId)?.[1].Properties;
    const statements: Json[] = policy?.PolicyDocument.Statement ?? [];
    const allows = statements.filter((s) => s.Effect === "Allow");
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({ Action: "s3:GetObject", Principal: { Service: "cloudfront.amazonaws.com" } });
    expect(JSON.stringify(allows[0].Condition.StringEquals["AWS:SourceArn"])).toContain(`"Ref":"${distributionId}"`);
    expect(statements).toContainEqual(expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }));
  });

  it("is the default behaviour's origin, signed with an S3 origin access control and no legacy identity", () => {
    const oac = ofType("AWS::CloudFront::OriginAccessControl");
    expect(oac).toHaveLength(1);
    expect(oac[0]?.[1].Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: "s3",
      SigningBehavior: "always",
      SigningProtocol: "sigv4",
    });
    const origin = originById(config.DefaultCacheBehavior.TargetOriginId);
    expect(origin.DomainName).toEqual({ "Fn::GetAtt": [bucketId, "RegionalDomainName"] });
    expect(origin.OriginAccessControlId).toEqual({ "Fn::GetAtt": [oac[0]?.[0], "Id"] });
    expect(origin.S3OriginConfig.OriginAccessIdentity).toBe("");
  });
});

describe("distribution", () => {
  const apiBehaviour = (config.CacheBehaviors as Json[]).find((b) => b.PathPattern === API_PATH_PATTERN);

  it("routes /api/* to the HTTP API's own endpoint over HTTPS", () => {
    expect(API_PATH_PATTERN).toBe("/api/*");
    for (const r of routes) expect(r.path.startsWith("/api/"), r.path).toBe(true);
    const origin = originById(apiBehaviour.TargetOriginId);
    expect(JSON.stringify(origin.DomainName)).toContain(`{"Ref":"${logicalId(stack.api)}"},".execute-api."`);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: "https-only", OriginSSLProtocols: ["TLSv1.2"] });
    expect(origin.OriginPath).toBeUndefined();
  });

  it("caches nothing of the API, forwards Authorization and query strings but not Host, and passes every method", () => {
    expect(apiBehaviour.CachePolicyId).toBe(CACHING_DISABLED);
    expect(apiBehaviour.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(apiBehaviour.AllowedMethods.sort()).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"]);
    expect(apiBehaviour.ViewerProtocolPolicy).toBe("https-only");
    // One viewer-request function: institution API keys to the machines' API (machine-api.test.ts runs its code).
    expect(apiBehaviour.FunctionAssociations).toEqual([
      { EventType: "viewer-request", FunctionARN: { "Fn::GetAtt": [logicalId(stack.machineApi.edgeFunction), "FunctionARN"] } },
    ]);
  });

  it("serves the console with security headers and the SPA rewrite, and has no error-page fallback", () => {
    const behaviour = config.DefaultCacheBehavior;
    expect(behaviour.ViewerProtocolPolicy).toBe("redirect-to-https");
    expect(config.DefaultRootObject).toBe("index.html");
    // Distribution-wide error responses would also replace the API's own 403 and 404 with index.html.
    expect(config.CustomErrorResponses).toBeUndefined();
    const [fnId, fn] = ofType("AWS::CloudFront::Function").find(([, f]) => f.Properties.FunctionCode === SPA_REWRITE_CODE) ?? [];
    expect(behaviour.FunctionAssociations).toEqual([{ EventType: "viewer-request", FunctionARN: { "Fn::GetAtt": [fnId, "FunctionARN"] } }]);
    expect(fn.Properties.FunctionCode).toBe(SPA_REWRITE_CODE);
    const headers = resources[behaviour.ResponseHeadersPolicyId.Ref].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
    expect(headers.FrameOptions.FrameOption).toBe("DENY");
    expect(JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy)).toContain("frame-ancestors 'none'");
  });

  it("has no legacy logging, which would keep an accept link's query string (its access logs: console-logs.test.ts)", () => {
    expect(config.Logging).toBeUndefined();
    expect(ofType("AWS::Logs::Delivery")).toHaveLength(1);
  });

  it("has no web ACL unless asked (dev)", () => {
    expect(config.WebACLId).toBeUndefined();
    expect(ofType("AWS::WAFv2::WebACL")).toEqual([]);
  });
});

describe("SPA rewrite (the CloudFront function's code, run here)", () => {
  const handler = new Function(`${SPA_REWRITE_CODE}; return handler;`)() as (e: { request: { uri: string } }) => { uri: string };
  const rewrite = (uri: string) => handler({ request: { uri } }).uri;

  it("gives console routes index.html", () => {
    for (const uri of ["/", "/institutions", "/institutions/01K0ABC", "/invitations/accept", "/security-events/"]) {
      expect(rewrite(uri), uri).toBe("/index.html");
    }
  });

  it("leaves files alone", () => {
    for (const uri of ["/config.json", "/index.html", "/assets/index-3f2a1b.js", "/assets/app.css", "/favicon.ico"]) {
      expect(rewrite(uri), uri).toBe(uri);
    }
  });
});

describe("deployment of the console and its config.json", () => {
  const [, deployment] = ofType("Custom::CDKBucketDeployment")[0] ?? [];
  const props = deployment.Properties;
  const assembly = dev.app.synth().directory;
  const assetDirs = readdirSync(assembly)
    .filter((d) => d.startsWith("asset.") && statSync(join(assembly, d)).isDirectory())
    .map((d) => join(assembly, d));
  const withFile = (name: string) => assetDirs.filter((d) => readdirSync(d).includes(name));

  it("copies the console build and invalidates the distribution", () => {
    expect(props.DestinationBucketName).toEqual({ Ref: bucketId });
    expect(props.DistributionId).toEqual({ Ref: distributionId });
    expect(props.DistributionPaths).toEqual(["/*"]);
    expect(props.SystemMetadata).toEqual({ "cache-control": "no-cache" });
    expect(props.SourceObjectKeys).toHaveLength(2);
    expect(withFile("index.html")).toHaveLength(1);
  });

  it("writes /config.json with the region, the user pool, its app client, the Cognito endpoint, the managed login and the MFA setting", () => {
    const [dir] = withFile("config.json");
    expect(dir).toBeDefined();
    const json = JSON.parse(readFileSync(join(dir as string, "config.json"), "utf8")) as Record<string, string>;
    expect(Object.keys(json).sort()).toEqual(["cognitoDomain", "cognitoEndpoint", "mfa", "region", "userPoolClientId", "userPoolId"]);
    // Deploy-time values are markers in the file, each resolved from the resource's SourceMarkers.
    const markers = Object.assign({}, ...(props.SourceMarkers as Json[]));
    const resolve = (value: string) => value.replace(/<<marker:0xbaba:\d+>>/g, (m) => `{${JSON.stringify(markers[m])}}`);
    expect(resolve(json.region as string)).toBe('{{"Ref":"AWS::Region"}}');
    expect(resolve(json.userPoolClientId as string)).toBe(`{{"Ref":"${logicalId(stack.consoleClient.resource)}"}}`);
    expect(resolve(json.userPoolId as string)).toBe(`{{"Ref":"${logicalId(stack.userPool)}"}}`);
    expect(json.mfa).toBe("optional");
    expect(resolve(json.cognitoEndpoint as string)).toBe('https://cognito-idp.{{"Ref":"AWS::Region"}}.{{"Ref":"AWS::URLSuffix"}}/');
    // The pool's managed-login domain as an origin (no trailing slash), built from the domain's own prefix (no
    // reference to the domain resource, which would close a cycle through the pool's triggers).
    const [, domain] = ofType("AWS::Cognito::UserPoolDomain")[0] ?? [];
    const prefix = (domain.Properties.Domain["Fn::Join"][1] as unknown[])
      .map((part) => (typeof part === "string" ? part : `{${JSON.stringify(part)}}`))
      .join("");
    expect(prefix).toMatch(/^[a-z0-9-]+-\{\{"Ref":"AWS::AccountId"\}\}$/);
    expect(resolve(json.cognitoDomain as string)).toBe(`https://${prefix}.auth.{{"Ref":"AWS::Region"}}.amazoncognito.com`);
  });
});

describe("appBaseUrl", () => {
  const distributionUrl = { "Fn::Join": ["", ["https://", { "Fn::GetAtt": [distributionId, "DomainName"] }]] };

  it("defaults to the distribution's URL, in the mail functions and the ConsoleUrl output", () => {
    const mailFns = [...handlers()].filter(([, a]) => a.mail).map(([h]) => h);
    expect(mailFns.length).toBeGreaterThan(0);
    for (const handler of mailFns) {
      const fn = stack.functions.get(handler);
      expect(resources[logicalId(fn as never)].Properties.Environment.Variables.APP_BASE_URL, handler).toEqual(distributionUrl);
    }
    expect(dev.template.toJSON().Outputs.ConsoleUrl.Value).toEqual(distributionUrl);
  });

  it("needs no CORS on the same origin", () => {
    const [, api] = ofType("AWS::ApiGatewayV2::Api")[0] ?? [];
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  });
});

describe("public routes", () => {
  // A stand-in until the route table has its own (the API document's two routes).
  const fake: Route = {
    method: "GET",
    path: `${paths.api}/fake-public`,
    handler: "institutions/list",
    rule: { kind: "public" },
    who: "anyone",
    access: { main: ["Query"] },
    public: true,
  };
  const withPublic = build({ routes: [...routes, fake] }, { validate: false });
  const routeResources = withPublic.ofType("AWS::ApiGatewayV2::Route").map(([, r]) => r.Properties);

  it("get no authorizer, and every other route keeps the JWT authorizer", () => {
    const publicKeys = new Set([...routes, fake].filter((r) => r.public).map((r) => `${r.method} ${r.path}`));
    expect(publicKeys.has(`GET ${paths.api}/fake-public`)).toBe(true);
    expect(routeResources).toHaveLength(routes.length + 1);
    for (const r of routeResources) {
      if (publicKeys.has(r.RouteKey)) {
        expect(r.AuthorizationType, r.RouteKey).toBe("NONE");
        expect(r.AuthorizerId, r.RouteKey).toBeUndefined();
      } else {
        // The SCIM routes have the Lambda authorizer (docs/scim.md), the others the JWT authorizer.
        const scim = [...routes].some((route) => route.auth === "scim" && `${route.method} ${route.path}` === r.RouteKey);
        expect(r.AuthorizationType, r.RouteKey).toBe(scim ? "CUSTOM" : "JWT");
        expect(r.AuthorizerId, r.RouteKey).toBeDefined();
      }
    }
  });

  it("leave cdk-nag clean: only the public route's missing authorization is acknowledged", () => {
    expect(nagFindings(withPublic.app)).toEqual([]);
  });
});
