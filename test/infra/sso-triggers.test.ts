/**
 * The user pool's SSO triggers in the synthesized template (docs/sso.md#signing-in): the pool's
 * LambdaConfig names the three functions the stack deploys from functions/sso/, Cognito may invoke each (from this
 * pool alone), and each role may make exactly its Cognito calls, on the pool's ARN alone, and nothing of the pool
 * else; no circle between the pool and its triggers. An operator hears of their unexpected failures, not of their
 * refusals: each log group counts its ERROR lines, and the Monitoring stack alarms on that count and on throttles.
 */
import type { CfnResource } from "aws-cdk-lib";
import { describe, expect, it } from "vitest";
import { functionId } from "../../infra/api-function.js";
import { TRIGGER_ACCESS, TRIGGER_ACTIONS, type TriggerHandler } from "../../infra/sso-triggers.js";
import { METRICS_NAMESPACE, ssoTriggerFailuresMetric } from "../../shared/observability.js";
import { POOL_TRIGGERS } from "../../shared/pool-triggers.js";
import { build, type Json, newApp } from "./support.js";

// Judged whatever the stack's resource count (over CloudFormation's 500 until the stack split lands), as the IAM check does.
const app = newApp();
app.node.setContext("@aws-cdk/core:stackResourceLimit", 0);
const { stack, resources, logicalId, ofType } = build({ appBaseUrl: "https://app.example.com" }, { validate: false, app });
const poolId = logicalId(stack.userPool);
const handlers = Object.keys(TRIGGER_ACTIONS) as TriggerHandler[];
const fnId = (h: TriggerHandler) => {
  const fn = stack.ssoTriggers.functions.get(h);
  if (!fn) throw new Error(`no trigger ${h}`);
  return logicalId(fn);
};
const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

function statementsOf(h: TriggerHandler): Json[] {
  const fn = stack.ssoTriggers.functions.get(h);
  const roleId = stack.getLogicalId(fn?.role?.node.defaultChild as CfnResource);
  return ofType("AWS::IAM::Policy")
    .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}

describe("the SSO sign-in triggers", () => {
  it("are the pool's pre sign-up, pre token generation and pre authentication triggers", () => {
    const config = resources[poolId].Properties.LambdaConfig;
    expect(config.PreSignUp).toEqual({ "Fn::GetAtt": [fnId("sso/pre-sign-up"), "Arn"] });
    expect(config.PreTokenGeneration).toEqual({ "Fn::GetAtt": [fnId("sso/pre-token-generation"), "Arn"] });
    expect(config.PreAuthentication).toEqual({ "Fn::GetAtt": [fnId("sso/pre-authentication"), "Arn"] });
  });

  it("run the handler modules of functions/sso/ within Cognito's 5 seconds", () => {
    for (const h of handlers) {
      const fn = resources[fnId(h)];
      expect(fn.Properties.Timeout).toBe(5);
      expect(fn.Properties.Description).toContain(h);
      // The pool's id comes from the event: a variable naming the pool would make a circle.
      expect(JSON.stringify(fn.Properties.Environment ?? {})).not.toContain(poolId);
    }
  });

  it("may be invoked by Cognito for this pool only", () => {
    for (const h of handlers) {
      const perms = ofType("AWS::Lambda::Permission").filter(([, p]) => JSON.stringify(p.Properties.FunctionName).includes(fnId(h)));
      expect(perms).toHaveLength(1);
      const [, perm] = perms[0] as [string, Json];
      expect(perm.Properties.Principal).toBe("cognito-idp.amazonaws.com");
      expect(perm.Properties.SourceArn).toEqual({ "Fn::GetAtt": [poolId, "Arn"] });
    }
  });

  it("each make exactly their Cognito calls, on the pool's ARN alone", () => {
    for (const h of handlers) {
      const cognito = statementsOf(h).filter((s) => asList<string>(s.Action).some((a) => a.startsWith("cognito-idp:")));
      const actions = cognito.flatMap((s) => asList<string>(s.Action)).sort();
      expect(actions, h).toEqual([...TRIGGER_ACTIONS[h]].sort());
      for (const s of cognito) expect(s.Resource).toEqual({ "Fn::GetAtt": [poolId, "Arn"] });
    }
    expect(TRIGGER_ACTIONS["sso/pre-sign-up"]).toContain("cognito-idp:AdminLinkProviderForUser");
  });

  it("reach the tables as their access says: pre authentication reads, the others append to the trail", () => {
    const dynamo = (h: TriggerHandler) =>
      [...new Set(statementsOf(h).flatMap((s) => asList<string>(s.Action).filter((a) => a.startsWith("dynamodb:"))))].sort();
    expect(TRIGGER_ACCESS["sso/pre-authentication"]).toEqual({ main: ["GetItem"] });
    expect(dynamo("sso/pre-authentication")).toEqual(["dynamodb:GetItem"]);
    expect(dynamo("sso/pre-token-generation")).toEqual(["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem"]);
    expect(dynamo("sso/pre-sign-up")).not.toContain("dynamodb:DeleteItem");
  });

  it("leave the pool free of a dependency circle: the pool grants live in a policy the functions do not wait for", () => {
    for (const h of handlers) {
      const deps = asList<string>(resources[fnId(h)].DependsOn ?? []);
      for (const d of deps) expect(JSON.stringify(resources[d]?.Properties ?? {})).not.toContain(`"${poolId}"`);
    }
  });
});

describe("the SSO triggers' alarms", () => {
  const triggerOf = (h: TriggerHandler) => Object.entries(POOL_TRIGGERS).find(([, handler]) => handler === h)?.[0] ?? "";
  const logGroupOf = (h: TriggerHandler) => resources[fnId(h)].Properties.LoggingConfig.LogGroup.Ref as string;
  const alarms = ofType("AWS::CloudWatch::Alarm").map(([id, a]) => ({ id, props: a.Properties }));
  const throttlesOf = (h: TriggerHandler, name: string) =>
    alarms.filter(
      ({ props }) => props.Namespace === "AWS/Lambda" && props.MetricName === name && props.Dimensions?.[0]?.Value?.Ref === fnId(h),
    );

  it("count each trigger's ERROR lines (Powertools' JSON) with a metric filter on its own log group", () => {
    for (const h of handlers) {
      const filters = ofType("AWS::Logs::MetricFilter").filter(([, f]) => f.Properties.LogGroupName?.Ref === logGroupOf(h));
      expect(filters, h).toHaveLength(1);
      expect(filters[0]?.[1].Properties).toMatchObject({
        FilterPattern: '{ $.level = "ERROR" }',
        MetricTransformations: [
          { MetricNamespace: METRICS_NAMESPACE, MetricName: ssoTriggerFailuresMetric(triggerOf(h)), MetricValue: "1" },
        ],
      });
      // Lambda's own line for a thrown error (every refusal) is text only while the log format is Text: JSON would
      // give it `"level":"ERROR"` and count refusals.
      expect(resources[fnId(h)].Properties.LoggingConfig.LogFormat ?? "Text", h).toBe("Text");
    }
  });

  it("alarm at one failure in five minutes, and at one throttle, on the alarm topic; not on Lambda's Errors, which counts refusals", () => {
    const topic = { Ref: logicalId(stack.alarmTopic) };
    for (const h of handlers) {
      const failures = alarms.filter(
        ({ props }) => props.Namespace === METRICS_NAMESPACE && props.MetricName === ssoTriggerFailuresMetric(triggerOf(h)),
      );
      const throttles = throttlesOf(h, "Throttles");
      expect(failures, h).toHaveLength(1);
      expect(throttles, h).toHaveLength(1);
      for (const { props } of [...failures, ...throttles]) {
        expect(props).toMatchObject({
          Statistic: "Sum",
          Period: 300,
          Threshold: 1,
          EvaluationPeriods: 1,
          ComparisonOperator: "GreaterThanOrEqualToThreshold",
          TreatMissingData: "notBreaching",
          AlarmActions: [topic],
          OKActions: [topic],
        });
      }
      expect(throttlesOf(h, "Errors"), h).toEqual([]);
    }
  });

  it("live in the Monitoring stack with the others, and so on its dashboard's alarm widget", () => {
    const ids = stack.monitoring.alarms.map((a) => a.node.id);
    for (const h of handlers) expect(ids, h).toEqual(expect.arrayContaining([`${functionId(h)}Failures`, `${functionId(h)}Throttles`]));
  });
});
