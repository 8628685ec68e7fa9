/**
 * Settings per environment (infra/settings.ts): the table, its context overrides, and what differs between a
 * dev and a prod stack. The prod template runs CDK's CloudFormation validation and cdk-nag, as `cdk synth -c
 * env=prod` does; the web ACL appears only when asked, in the stack or, for another region, in us-east-1.
 */
import { readFileSync } from "node:fs";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { describe, expect, it } from "vitest";
import { defineApp } from "../../infra/app.js";
import { ENVIRONMENTS, resolveSettings, type Settings } from "../../infra/settings.js";
import { MANAGED_RULE_GROUPS } from "../../infra/waf.js";
import { handlers, routes } from "../../shared/routes.js";
import { type Built, build, consoleBuild, type Json, nagFindings, newApp, synthesized } from "./support.js";

const contextOf =
  (values: Record<string, string>) =>
  (key: string): string | undefined =>
    values[key];

describe("the settings table", () => {
  const { dev, prod } = ENVIRONMENTS;

  it("is dev unless env says otherwise, and refuses an unknown environment", () => {
    expect(resolveSettings(contextOf({})).env).toBe("dev");
    expect(resolveSettings(contextOf({ env: "prod" }))).toEqual({ ...prod, env: "prod" });
    expect(() => resolveSettings(contextOf({ env: "staging" }))).toThrow(/env must be one of dev, prod/);
  });

  it("documents these defaults (docs/deploy.md): dev is cheap and verbose, prod is guarded", () => {
    expect(dev).toMatchObject({
      throttle: { rateLimit: 50, burstLimit: 100 },
      exportThrottle: { rateLimit: 1, burstLimit: 2 },
      reservedConcurrency: {},
      logRetention: RetentionDays.ONE_MONTH,
      logLevel: "DEBUG",
      mfa: "optional",
      waf: false,
    });
    expect(prod).toMatchObject({
      throttle: { rateLimit: 100, burstLimit: 200 },
      exportThrottle: { rateLimit: 2, burstLimit: 5 },
      reservedConcurrency: { "security-events/export": 5, "invitations/create": 10, "invitations/resend": 5 },
      logRetention: RetentionDays.ONE_YEAR,
      logLevel: "INFO",
      mfa: "required",
      waf: true,
    });
    expect(dev.alarmEmail).toBeUndefined();
    expect(prod.alarmEmail).toBeUndefined();
  });

  it("keeps the export's throttle below the stage's, and prod's alarms stricter than dev's", () => {
    for (const s of [dev, prod]) {
      expect(s.exportThrottle.rateLimit).toBeLessThan(s.throttle.rateLimit);
      expect(s.exportThrottle.burstLimit).toBeLessThan(s.throttle.burstLimit);
    }
    expect(prod.alarms.serverErrorRatePercent).toBeLessThan(dev.alarms.serverErrorRatePercent);
    expect(prod.alarms.p99LatencyMs).toBeLessThan(dev.alarms.p99LatencyMs);
  });

  it("reserves concurrency only for handlers of the route table", () => {
    for (const s of [dev, prod])
      for (const handler of Object.keys(s.reservedConcurrency)) expect(handlers().has(handler), handler).toBe(true);
  });

  it("takes single values from context over the environment's", () => {
    const s = resolveSettings(
      contextOf({
        env: "prod",
        alarmEmail: "ops@example.org",
        waf: "false",
        wafRateLimit: "500",
        logLevel: "debug",
        logRetentionDays: "90",
        mfa: "optional",
      }),
    );
    expect(s).toMatchObject({
      env: "prod",
      alarmEmail: "ops@example.org",
      waf: false,
      wafRateLimit: 500,
      logLevel: "DEBUG",
      logRetention: RetentionDays.THREE_MONTHS,
      mfa: "optional",
      throttle: ENVIRONMENTS.prod.throttle,
    });
  });

  it("refuses malformed context values", () => {
    expect(() => resolveSettings(contextOf({ alarmEmail: "ops" }))).toThrow(/alarmEmail/);
    expect(() => resolveSettings(contextOf({ waf: "yes" }))).toThrow(/waf must be true or false/);
    expect(() => resolveSettings(contextOf({ logLevel: "LOUD" }))).toThrow(/logLevel/);
    expect(() => resolveSettings(contextOf({ logRetentionDays: "31" }))).toThrow(/retention/);
    expect(() => resolveSettings(contextOf({ mfa: "sometimes" }))).toThrow(/mfa/);
    expect(() => resolveSettings(contextOf({ wafRateLimit: "-1" }))).toThrow(/positive integer/);
  });
});

describe("dev and prod stacks", () => {
  const prodSettings = resolveSettings(contextOf({ env: "prod" }));
  // dev: the template stack.test.ts validates; prod: validated here.
  const stacks: Record<"dev" | "prod", { built: Built; settings: Settings }> = {
    dev: { built: build({}, { validate: false }), settings: { ...ENVIRONMENTS.dev, env: "dev" } },
    prod: { built: build({ settings: prodSettings }, { id: "ProdStack" }), settings: prodSettings },
  };
  const each = (fn: (b: Built, s: Settings, env: string) => void) => {
    for (const [env, { built, settings }] of Object.entries(stacks)) fn(built, settings, env);
  };
  const stageOf = (b: Built) => b.ofType("AWS::ApiGatewayV2::Stage")[0]?.[1].Properties;

  it("throttle the stage and the export route as their settings say", () => {
    each((b, s, env) => {
      expect(stageOf(b).DefaultRouteSettings, env).toMatchObject({
        ThrottlingRateLimit: s.throttle.rateLimit,
        ThrottlingBurstLimit: s.throttle.burstLimit,
      });
      const exportSettings = Object.values(stageOf(b).RouteSettings)[0];
      expect(exportSettings, env).toMatchObject({
        ThrottlingRateLimit: s.exportThrottle.rateLimit,
        ThrottlingBurstLimit: s.exportThrottle.burstLimit,
      });
    });
    expect(stageOf(stacks.dev.built).DefaultRouteSettings.ThrottlingRateLimit).not.toBe(
      stageOf(stacks.prod.built).DefaultRouteSettings.ThrottlingRateLimit,
    );
  });

  it("keep every log group as long as their settings say", () => {
    each((b, s, env) => {
      const groups = b.ofType("AWS::Logs::LogGroup");
      // Besides the route functions': the access log, the console deployment's, the trail's two (trail.ts),
      // those of the functions that get events out (streaming.ts), the SCIM routes' authorizer (api.ts) and the user
      // pool's SSO triggers (sso-triggers.ts), the pool's own functions and its user-activity export
      // (pool-triggers.ts), the console app client's two (app-client.ts: its function's and CDK's framework
      // function's), and the upgrade's backfill's two (backfill.ts, the same). (The machines' API's are its nested
      // stack's: machine-api.test.ts.)
      const authorizers = b.stack.scimAuthorizerFunction ? 1 : 0;
      const pool = b.stack.poolTriggers.functionsByHandler.size + 1;
      expect(groups.length, env).toBe(
        handlers().size + 4 + b.stack.streaming.functionsByHandler.size + authorizers + b.stack.ssoTriggers.functions.size + pool + 2 + 2,
      );
      for (const [id, g] of groups) expect(g.Properties.RetentionInDays, `${env} ${id}`).toBe(s.logRetention);
    });
  });

  it("log at their level", () => {
    each((b, s, env) => {
      for (const fn of b.stack.functions.values()) {
        expect(b.resources[b.logicalId(fn)].Properties.Environment.Variables.POWERTOOLS_LOG_LEVEL, env).toBe(s.logLevel);
      }
    });
  });

  it("reserve concurrency only where prod bounds cost", () => {
    each((b, s, env) => {
      for (const [handler, fn] of b.stack.functions) {
        expect(b.resources[b.logicalId(fn)].Properties.ReservedConcurrentExecutions, `${env} ${handler}`).toBe(
          s.reservedConcurrency[handler],
        );
      }
    });
    const prod = stacks.prod.built;
    const reserved = [...prod.stack.functions.values()].filter(
      (fn) => prod.resources[prod.logicalId(fn)].Properties.ReservedConcurrentExecutions,
    );
    expect(reserved).toHaveLength(3);
  });

  it("require MFA in prod, and offer it in dev", () => {
    expect(stacks.dev.built.resources[stacks.dev.built.logicalId(stacks.dev.built.stack.userPool)].Properties.MfaConfiguration).toBe(
      "OPTIONAL",
    );
    const prod = stacks.prod.built;
    expect(prod.resources[prod.logicalId(prod.stack.userPool)].Properties).toMatchObject({
      MfaConfiguration: "ON",
      EnabledMfas: ["SOFTWARE_TOKEN_MFA"],
    });
  });

  it("alarm at their thresholds", () => {
    each((b, s, env) => {
      const latency = b.ofType("AWS::CloudWatch::Alarm").find(([, a]) => a.Properties.MetricName === "Latency")?.[1].Properties;
      expect(latency.Threshold, env).toBe(s.alarms.p99LatencyMs);
      expect(latency.EvaluationPeriods, env).toBe(s.alarms.evaluationPeriods);
    });
  });

  it("put a web ACL on the prod distribution only: a rate rule and the AWS managed rule groups", () => {
    expect(stacks.dev.built.ofType("AWS::WAFv2::WebACL")).toEqual([]);
    const prod = stacks.prod.built;
    const acls = prod.ofType("AWS::WAFv2::WebACL");
    expect(acls).toHaveLength(1);
    const [aclId, acl] = acls[0] ?? [];
    expect(acl.Properties.Scope).toBe("CLOUDFRONT");
    expect(acl.Properties.DefaultAction).toEqual({ Allow: {} });
    const rules: Json[] = acl.Properties.Rules;
    expect(rules[0]).toMatchObject({
      Action: { Block: {} },
      Statement: { RateBasedStatement: { AggregateKeyType: "IP", Limit: prodSettings.wafRateLimit } },
    });
    expect(rules.slice(1).map((r) => r.Statement.ManagedRuleGroupStatement.Name)).toEqual([...MANAGED_RULE_GROUPS]);
    const distribution = prod.resources[prod.logicalId(prod.stack.console.distribution)].Properties.DistributionConfig;
    expect(distribution.WebACLId).toEqual({ "Fn::GetAtt": [aclId, "Arn"] });
    // An environment-agnostic template refuses to deploy the CloudFront web ACL outside us-east-1.
    expect(JSON.stringify(prod.template.toJSON().Rules.WebAclRegion)).toContain("us-east-1");
  });

  it("leave cdk-nag clean in prod, where MFA and WAF need no acknowledgement", () => {
    expect(nagFindings(stacks.prod.built.app)).toEqual([]);
  });
});

describe("the web ACL when asked", () => {
  it("is added to a dev stack by -c waf=true", () => {
    const devWithWaf = build({ settings: { ...ENVIRONMENTS.dev, env: "dev", waf: true } }, { validate: false });
    expect(devWithWaf.ofType("AWS::WAFv2::WebACL")).toHaveLength(1);
  });

  it("is left out of a prod stack by -c waf=false", () => {
    const prodWithout = build({ settings: resolveSettings(contextOf({ env: "prod", waf: "false" })) }, { validate: false });
    expect(prodWithout.ofType("AWS::WAFv2::WebACL")).toEqual([]);
    expect(prodWithout.template.toJSON().Rules.WebAclRegion).toBeUndefined();
  });

  it("lives in its own us-east-1 stack when the API is in another region, referenced across regions", () => {
    const cdkJson = JSON.parse(readFileSync(new URL("../../cdk.json", import.meta.url), "utf8")) as { context: Record<string, unknown> };
    const app = newApp();
    for (const [k, v] of Object.entries({ ...cdkJson.context, env: "prod" })) app.node.setContext(k, v);
    const { stack, wafStack } = defineApp(app, {
      env: { account: "123456789012", region: "eu-west-1" },
      consoleAssetDir: consoleBuild(),
    });
    expect(stack.stackName).toBe("InstitutionAdminApi-prod");
    expect(wafStack?.region).toBe("us-east-1");
    const main = synthesized(app, stack, false);
    expect(main.ofType("AWS::WAFv2::WebACL")).toEqual([]);
    const distribution = main.resources[main.logicalId(stack.console.distribution)].Properties.DistributionConfig;
    expect(JSON.stringify(distribution.WebACLId)).toContain("ConsoleWebAcl");
    expect(main.ofType("Custom::CrossRegionExportReader")).toHaveLength(1);
    expect(nagFindings(app)).toEqual([]);
  });

  it("refuses a stack outside us-east-1 that would hold the web ACL itself", () => {
    expect(() =>
      build(
        { env: { account: "123456789012", region: "eu-west-1" }, settings: { ...ENVIRONMENTS.dev, env: "dev", waf: true } },
        { validate: false },
      ),
    ).toThrow(/us-east-1/);
  });
});

describe("the route table", () => {
  it("has the export route the per-route throttle names", () => {
    expect(routes.filter((r) => r.handler === "security-events/export")).toHaveLength(1);
  });
});
