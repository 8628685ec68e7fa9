/**
 * Issue 25, the deployed half (docs/security.md), on the synthesized template:
 * - one way in: with an API origin domain, the HTTP API's execute-api endpoint is disabled, CloudFront
 *   reaches the API on that domain, and the functions trust `CloudFront-Viewer-Address`; without one, the
 *   endpoint stays and nothing trusts the header;
 * - `no-store` and `nosniff` on every `/api/*` answer, API Gateway's own included (a response headers policy);
 * - the console's CloudFront headers are the local console server's, from one source;
 * - the trail's grants are append-only: PutItem of event keys, UpdateItem of counter keys, no DeleteItem;
 * - refresh tokens last at most 12 hours (a setting).
 */
import type { CfnResource } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { consoleSite } from "../../infra/local/console.js";
import { resolveSettings } from "../../infra/settings.js";
import { handlers } from "../../shared/routes.js";
import { consoleContentSecurityPolicy, consoleSecurityHeaders } from "../../shared/security-headers.js";
import { appClientSettings, build, consoleBuild, type Json } from "./support.js";

const ORIGIN = { domainName: "api-origin.example.com", certificateArn: "arn:aws:acm:eu-west-1:111111111111:certificate/abc" };

const plain = build({}, { id: "PlainStack", validate: false });
const fronted = build({ apiOrigin: ORIGIN }, { id: "FrontedStack", validate: false });

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** A CloudFormation string with its pseudo-parameters written out: `Fn::Join` of literals and `Ref: AWS::*`. */
function render(value: Json): string {
  if (typeof value === "string") return value;
  if (value?.["Fn::Join"]) {
    const [sep, parts] = value["Fn::Join"] as [string, Json[]];
    return parts.map(render).join(sep);
  }
  if (value?.Ref === "AWS::Region") return "REGION";
  if (value?.Ref === "AWS::URLSuffix") return "amazonaws.com";
  if (value?.Ref === "AWS::AccountId") return "ACCOUNT";
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

function distributionOf(b: typeof plain): Json {
  const [[, d]] = b.ofType("AWS::CloudFront::Distribution") as [[string, Json]];
  return d.Properties.DistributionConfig;
}

/** The response headers policy a behaviour names. */
function policyOf(b: typeof plain, behaviour: Json): Json {
  const ref = behaviour.ResponseHeadersPolicyId?.Ref as string | undefined;
  expect(ref, "the behaviour has a response headers policy of this stack").toBeDefined();
  return b.resources[ref as string].Properties.ResponseHeadersPolicyConfig;
}

describe("one way in", () => {
  it("with an API origin domain: execute-api disabled, CloudFront's /api/* origin is that domain, mapped to the stage", () => {
    const [[, api]] = fronted.ofType("AWS::ApiGatewayV2::Api") as [[string, Json]];
    expect(api.Properties.DisableExecuteApiEndpoint).toBe(true);
    const [[, domain]] = fronted.ofType("AWS::ApiGatewayV2::DomainName") as [[string, Json]];
    expect(domain.Properties.DomainName).toBe(ORIGIN.domainName);
    expect(domain.Properties.DomainNameConfigurations[0]).toMatchObject({
      CertificateArn: ORIGIN.certificateArn,
      SecurityPolicy: "TLS_1_2",
    });
    expect(fronted.ofType("AWS::ApiGatewayV2::ApiMapping")).toHaveLength(1);
    const origins = distributionOf(fronted).Origins as Json[];
    expect(origins.map((o) => o.DomainName)).toContain(ORIGIN.domainName);
    expect(JSON.stringify(origins)).not.toContain("execute-api");
  });

  it("with it, every function trusts CloudFront-Viewer-Address; without it, none does and the endpoint stays", () => {
    for (const handler of handlers().keys()) {
      const env = (b: typeof plain) =>
        b.resources[b.stack.getLogicalId(b.stack.functions.get(handler)?.node.defaultChild as CfnResource)].Properties.Environment
          .Variables;
      expect(env(fronted).TRUST_CLOUDFRONT_VIEWER_ADDRESS, handler).toBe("true");
      expect(env(plain).TRUST_CLOUDFRONT_VIEWER_ADDRESS, handler).toBeUndefined();
    }
    const [[, api]] = plain.ofType("AWS::ApiGatewayV2::Api") as [[string, Json]];
    expect(api.Properties.DisableExecuteApiEndpoint).toBeUndefined();
    expect(JSON.stringify(distributionOf(plain).Origins)).toContain("execute-api");
  });

  it("makes the alias record when given the hosted zone, and says where to point the name otherwise", () => {
    const withZone = build(
      { apiOrigin: { ...ORIGIN, hostedZoneId: "Z123", hostedZoneName: "example.com" } },
      { id: "ZoneStack", validate: false },
    );
    const records = withZone.ofType("AWS::Route53::RecordSet").map(([, r]) => r.Properties);
    expect(records).toEqual([expect.objectContaining({ Name: `${ORIGIN.domainName}.`, Type: "A", HostedZoneId: "Z123" })]);
    expect(Object.keys(fronted.template.toJSON().Outputs)).toContain("ApiOriginDnsTarget");
  });
});

describe("CloudFront response headers", () => {
  it("/api/*: no-store and nosniff on every answer, API Gateway's own included", () => {
    const api = (distributionOf(plain).CacheBehaviors as Json[]).find((b) => b.PathPattern === "/api/*");
    const policy = policyOf(plain, api);
    expect(policy.SecurityHeadersConfig.ContentTypeOptions).toEqual({ Override: true });
    expect(policy.CustomHeadersConfig.Items).toEqual([{ Header: "cache-control", Value: "no-store", Override: true }]);
  });

  it("the console's are the local console server's, from one source: the same CSP, no-referrer, DENY, nosniff", async () => {
    const policy = policyOf(plain, distributionOf(plain).DefaultCacheBehavior);
    const security = policy.SecurityHeadersConfig;
    const cognito = "https://cognito-idp.REGION.amazonaws.com";
    // The pool's managed-login domain: the stack's name and its account (infra/identity.ts, `domainPrefixOf`).
    const managedLogin = "https://plainstack-ACCOUNT.auth.REGION.amazoncognito.com";
    const local = consoleSecurityHeaders(cognito, managedLogin);
    expect(render(security.ContentSecurityPolicy.ContentSecurityPolicy)).toBe(local["content-security-policy"]);
    // The page may call Cognito (password sign-in) and the pool's managed login (single sign-on's token exchange).
    expect(local["content-security-policy"]).toContain(`connect-src 'self' ${cognito} ${managedLogin};`);
    expect(security.ReferrerPolicy.ReferrerPolicy).toBe(local["referrer-policy"]);
    expect(security.ReferrerPolicy.ReferrerPolicy).toBe("no-referrer");
    expect(security.FrameOptions.FrameOption).toBe(local["x-frame-options"]);
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.StrictTransportSecurity).toMatchObject({ Override: true });
    expect(policy.CustomHeadersConfig).toBeUndefined();

    // And the local server sends exactly this set on its page (for its own Cognito's origin).
    const site = consoleSite({
      distDir: consoleBuild(),
      config: {
        region: "local",
        userPoolId: "local_p",
        userPoolClientId: "c",
        cognitoEndpoint: "http://127.0.0.1:9229/",
        cognitoDomain: "http://127.0.0.1:9230",
        mfa: "optional",
      },
    });
    const page = await site("GET", "/invitations/accept");
    expect(page?.headers).toMatchObject(consoleSecurityHeaders("http://127.0.0.1:9229", "http://127.0.0.1:9230"));
    expect(page?.headers["content-security-policy"]).toBe(consoleContentSecurityPolicy("http://127.0.0.1:9229", "http://127.0.0.1:9230"));
    expect(page?.headers["content-security-policy"]).toContain("connect-src 'self' http://127.0.0.1:9229 http://127.0.0.1:9230;");
    // Where both are the one local Cognito, it is named once.
    expect(consoleContentSecurityPolicy("http://127.0.0.1:9229", "http://127.0.0.1:9229")).toContain(
      "connect-src 'self' http://127.0.0.1:9229;",
    );
  });
});

describe("least privilege on the trail", () => {
  it("no function may delete an event or update one: PutItem of event keys, UpdateItem of counter keys only", () => {
    const eventsId = plain.logicalId(plain.stack.eventsTable as never);
    const statements = plain
      .ofType("AWS::IAM::Policy")
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[])
      .filter((s) => JSON.stringify(s.Resource).includes(`"${eventsId}"`));
    // Reading the table's stream (the consumer's event source mapping) writes nothing.
    const reads = /^dynamodb:(GetItem|BatchGetItem|Query|DescribeStream|GetRecords|GetShardIterator|ListStreams)$/;
    const writes = statements.filter((s) => asList<string>(s.Action).some((a) => !reads.test(a)));
    expect(writes.length).toBeGreaterThan(0);
    for (const s of writes) {
      const actions = asList<string>(s.Action);
      expect(actions).not.toContain("dynamodb:DeleteItem");
      if (actions.includes("dynamodb:PutItem")) {
        expect(actions).toEqual(["dynamodb:PutItem"]);
        // Events and their activity markers (every API function), or digests and the digester's progress item
        // (the digest function only).
        expect([
          { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["EVT#*", "ACTIVE#*"] } },
          { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["DIGEST#*", "DIGESTSEQ#*"] } },
          { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": ["DIGESTER"] } },
        ]).toContainEqual(s.Condition);
      } else {
        expect(actions).toEqual(["dynamodb:UpdateItem"]);
        expect(s.Condition).toEqual({ "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["CNT#*", "REFUSED#*"] } });
      }
    }
  });
});

describe("console sessions", () => {
  it("refresh tokens last 12 hours in dev, 8 in prod, and never more than 12 (a setting)", () => {
    expect(appClientSettings(plain)).toMatchObject({
      RefreshTokenValidity: 720,
      TokenValidityUnits: expect.objectContaining({ RefreshToken: "minutes" }),
    });
    expect(resolveSettings((k) => (k === "env" ? "prod" : undefined)).refreshTokenValidityHours).toBe(8);
    expect(resolveSettings((k) => (k === "refreshTokenValidityHours" ? "4" : undefined)).refreshTokenValidityHours).toBe(4);
    expect(() => resolveSettings((k) => (k === "refreshTokenValidityHours" ? "13" : undefined))).toThrow(/at most 12 hours/);
  });
});
