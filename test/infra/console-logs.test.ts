/**
 * The console distribution's access logs (issue 25, point 9; docs/security.md: "CloudFront logs do not keep the
 * accept page's query string"): no legacy logging, which always writes the query string, but CloudFront standard
 * logging v2 (a CloudWatch Logs vended delivery) with fields that leave out the query string, cookies and the
 * referrer, into the access-log bucket. Its delivery source is in us-east-1: in the stack there (or in an
 * environment-agnostic one, which refuses another region), in a stack of its own there otherwise. Dev and prod.
 */
import { readFileSync } from "node:fs";
import type { App, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { defineApp } from "../../infra/app.js";
import { CLOUDFRONT_LOG_FIELDS, CONSOLE_LOG_FIELDS, consoleLogsName } from "../../infra/console-logs.js";
import { ENVIRONMENTS, resolveSettings } from "../../infra/settings.js";
import type { InstitutionAdminStack } from "../../infra/stack.js";
import { type Built, build, consoleBuild, type Json, nagFindings, newApp, synthesized } from "./support.js";

// Stated here, not taken from the code under test: what must never reach a log record.
const NEVER_LOGGED = ["cs-uri-query", "cs(Cookie)", "cs(Referer)"];
// CloudFront's managed CachingOptimized policy, by its documented id: no query string in the cache key.
const CACHING_OPTIMIZED = "658327ea-f89d-4fab-a63d-7e88639e58f6";
const ACCOUNT = "123456789012";

const prodSettings = resolveSettings((key) => (key === "env" ? "prod" : undefined));
const agnostic: Record<"dev" | "prod", Built> = {
  dev: build({}, { validate: false }),
  prod: build({ settings: prodSettings }, { id: "ProdStack", validate: false }),
};

const ofType = (resources: Record<string, Json>, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const distributionConfig = (b: { resources: Record<string, Json>; logicalId: Built["logicalId"] }, stack: InstitutionAdminStack) =>
  b.resources[b.logicalId(stack.console.distribution)].Properties.DistributionConfig;

/** The access-log bucket's statement for CloudWatch Logs' delivery service. */
function deliveryGrant(b: Built): Json {
  const bucketId = b.logicalId(b.stack.accessLogsBucket);
  const policy = b.ofType("AWS::S3::BucketPolicy").find(([, p]) => p.Properties.Bucket.Ref === bucketId)?.[1];
  const statements: Json[] = policy?.Properties.PolicyDocument.Statement ?? [];
  const grants = statements.filter((s) => JSON.stringify(s.Principal).includes("delivery.logs.amazonaws.com"));
  expect(grants).toHaveLength(1);
  return grants[0];
}

/** Checks the three delivery resources of one template; returns them. */
function expectDelivery(resources: Record<string, Json>, stackName: string) {
  const sources = ofType(resources, "AWS::Logs::DeliverySource");
  const destinations = ofType(resources, "AWS::Logs::DeliveryDestination");
  const deliveries = ofType(resources, "AWS::Logs::Delivery");
  expect([sources.length, destinations.length, deliveries.length]).toEqual([1, 1, 1]);
  const [sourceId, source] = sources[0] as [string, Json];
  const [destinationId, destination] = destinations[0] as [string, Json];
  const [, delivery] = deliveries[0] as [string, Json];

  expect(source.Properties).toMatchObject({ LogType: "ACCESS_LOGS", Name: consoleLogsName(stackName, "source") });
  expect(destination.Properties).toMatchObject({ Name: consoleLogsName(stackName, "destination"), OutputFormat: "json" });
  expect(delivery.Properties.DeliverySourceName).toBe(source.Properties.Name);
  expect(delivery.Properties.DeliveryDestinationArn).toEqual({ "Fn::GetAtt": [destinationId, "Arn"] });
  expect([delivery.DependsOn].flat()).toContain(sourceId);

  const fields: string[] = delivery.Properties.RecordFields;
  for (const f of NEVER_LOGGED) expect(fields, f).not.toContain(f);
  // Every field is one CloudFront documents, and what an operator needs is still there.
  for (const f of fields) expect(CLOUDFRONT_LOG_FIELDS as readonly string[], f).toContain(f);
  for (const f of ["date", "time", "c-ip", "cs-method", "cs-uri-stem", "sc-status", "x-edge-request-id", "time-taken"]) {
    expect(fields, f).toContain(f);
  }
  expect(fields).toEqual(CONSOLE_LOG_FIELDS);
  return { source, destination, delivery };
}

describe("the field list", () => {
  it("is CloudFront's 33 documented fields less the query string, cookies, referrer and field-level encryption", () => {
    expect(CLOUDFRONT_LOG_FIELDS).toHaveLength(33);
    expect(new Set(CLOUDFRONT_LOG_FIELDS).size).toBe(33);
    expect(CLOUDFRONT_LOG_FIELDS.filter((f) => !CONSOLE_LOG_FIELDS.includes(f)).sort()).toEqual(
      [...NEVER_LOGGED, "fle-encrypted-fields", "fle-status"].sort(),
    );
  });

  it("names its resources within CloudWatch Logs' limits, distinctly for long stack names", () => {
    for (const name of [
      consoleLogsName("InstitutionAdminApi-prod", "source"),
      consoleLogsName("A".repeat(128), "source"),
      consoleLogsName("A".repeat(128), "destination"),
    ]) {
      expect(name).toMatch(/^[\w-]{1,60}$/);
    }
    expect(consoleLogsName(`${"A".repeat(70)}x`, "source")).not.toBe(consoleLogsName(`${"A".repeat(70)}y`, "source"));
  });
});

describe.each(["dev", "prod"] as const)("an environment-agnostic %s stack", (env) => {
  const b = agnostic[env];
  const config = distributionConfig(b, b.stack);

  it("has no legacy logging on the distribution", () => {
    expect(config.Logging).toBeUndefined();
  });

  it("delivers the distribution's access logs to the access-log bucket, without the query string, cookies or referrer", () => {
    const { source, destination } = expectDelivery(b.resources, b.stack.stackName);
    const distributionId = b.logicalId(b.stack.console.distribution);
    expect(JSON.stringify(source.Properties.ResourceArn)).toContain(`{"Ref":"${distributionId}"}`);
    expect(JSON.stringify(source.Properties.ResourceArn)).toContain(":cloudfront::");
    expect(destination.Properties.DestinationResourceArn).toEqual({ "Fn::GetAtt": [b.logicalId(b.stack.accessLogsBucket), "Arn"] });
  });

  it("lets only that delivery source, in us-east-1 and this account, write to the bucket, leaving the objects to its owner", () => {
    const grant = deliveryGrant(b);
    expect(grant).toMatchObject({ Effect: "Allow", Action: "s3:PutObject", Principal: { Service: "delivery.logs.amazonaws.com" } });
    expect(JSON.stringify(grant.Resource)).toContain("/AWSLogs/");
    expect(grant.Condition.StringEquals["s3:x-amz-acl"]).toBe("bucket-owner-full-control");
    expect(grant.Condition.StringEquals["aws:SourceAccount"]).toEqual({ Ref: "AWS::AccountId" });
    const sourceArn = JSON.stringify(grant.Condition.ArnLike["aws:SourceArn"]);
    expect(sourceArn).toContain(":logs:us-east-1:");
    expect(sourceArn).toContain(`:delivery-source:${consoleLogsName(b.stack.stackName, "source")}`);
  });

  it("creates the destination and the delivery after the bucket policy that lets them write", () => {
    const policyId = b
      .ofType("AWS::S3::BucketPolicy")
      .find(([, p]) => p.Properties.Bucket.Ref === b.logicalId(b.stack.accessLogsBucket))?.[0];
    for (const type of ["AWS::Logs::DeliveryDestination", "AWS::Logs::Delivery"]) {
      const [, resource] = b.ofType(type)[0] ?? [];
      expect([resource.DependsOn].flat(), type).toContain(policyId);
    }
  });

  it("refuses, before creating anything, to deploy outside us-east-1", () => {
    const rule = b.template.toJSON().Rules.ConsoleLogsRegion;
    expect(rule.Assertions).toEqual([
      { Assert: { "Fn::Equals": [{ Ref: "AWS::Region" }, "us-east-1"] }, AssertDescription: expect.stringContaining("us-east-1") },
    ]);
  });

  it("sends the console bucket no query string, so its S3 server access logs hold no token either", () => {
    expect(config.DefaultCacheBehavior.CachePolicyId).toBe(CACHING_OPTIMIZED);
    expect(config.DefaultCacheBehavior.OriginRequestPolicyId).toBeUndefined();
  });
});

describe("an API outside us-east-1", () => {
  const cdkJson = JSON.parse(readFileSync(new URL("../../cdk.json", import.meta.url), "utf8")) as { context: Record<string, unknown> };
  const appFor = (env: "dev" | "prod", region: string) => {
    const app = newApp();
    for (const [k, v] of Object.entries({ ...cdkJson.context, env })) app.node.setContext(k, v);
    return { app, ...defineApp(app, { env: { account: ACCOUNT, region }, consoleAssetDir: consoleBuild() }) };
  };
  const templateOf = (app: App, stack: Stack): Record<string, Json> => {
    void app;
    const previous = process.env.CDK_VALIDATION;
    process.env.CDK_VALIDATION = "false";
    try {
      return Template.fromStack(stack).toJSON().Resources;
    } finally {
      if (previous === undefined) delete process.env.CDK_VALIDATION;
      else process.env.CDK_VALIDATION = previous;
    }
  };

  describe.each(["dev", "prod"] as const)("%s in eu-west-1", (env) => {
    const { app, stack, logsStack, wafStack } = appFor(env, "eu-west-1");
    const main = synthesized(app, stack, false);

    it("puts the delivery in a us-east-1 stack of its own, deployed after the API stack", () => {
      expect(logsStack?.region).toBe("us-east-1");
      expect(logsStack?.stackName).toBe(`${stack.stackName}-Logs`);
      expect(logsStack?.dependencies).toContain(stack);
      expect(wafStack === undefined).toBe(env === "dev");
      expect(main.ofType("AWS::Logs::DeliverySource")).toEqual([]);
      expect(main.ofType("AWS::Logs::Delivery")).toEqual([]);
      expect(main.template.toJSON().Rules?.ConsoleLogsRegion).toBeUndefined();
      expect(distributionConfig(main, stack).Logging).toBeUndefined();
    });

    it("delivers to the access-log bucket in the API's region, for the distribution, both referenced across regions", () => {
      const resources = templateOf(app, logsStack as Stack);
      const { source, destination } = expectDelivery(resources, stack.stackName);
      const [readerId] = ofType(resources, "Custom::CrossRegionExportReader")[0] ?? [];
      expect(readerId).toBeDefined();
      for (const arn of [source.Properties.ResourceArn, destination.Properties.DestinationResourceArn]) {
        expect(JSON.stringify(arn)).toContain(readerId as string);
      }
      expect(ofType(resources, "AWS::S3::Bucket")).toEqual([]);
    });

    it("lets the us-east-1 delivery source write to the bucket", () => {
      const grant = deliveryGrant(main);
      expect(grant.Condition.StringEquals["aws:SourceAccount"]).toBe(ACCOUNT);
      expect(grant.Condition.ArnLike["aws:SourceArn"]).toBe(
        `arn:aws:logs:us-east-1:${ACCOUNT}:delivery-source:${consoleLogsName(stack.stackName, "source")}`,
      );
    });

    it("leaves cdk-nag clean across its stacks", () => {
      expect(nagFindings(app)).toEqual([]);
    });
  });

  it("keeps the delivery in the API stack in us-east-1, with no assertion needed", () => {
    const { app, stack, logsStack } = appFor("prod", "us-east-1");
    expect(logsStack).toBeUndefined();
    const main = synthesized(app, stack, false);
    expectDelivery(main.resources, stack.stackName);
    expect(main.template.toJSON().Rules?.ConsoleLogsRegion).toBeUndefined();
  });

  it("refuses a stack outside us-east-1 that would hold the delivery itself", () => {
    expect(() =>
      build({ env: { account: ACCOUNT, region: "eu-west-1" }, settings: { ...ENVIRONMENTS.dev, env: "dev" } }, { validate: false }),
    ).toThrow(/us-east-1/);
  });
});
