/**
 * The user pool's own functions and mail in the synthesized template (infra/pool-triggers.ts, docs/contract/people.md):
 * each trigger of shared/pool-triggers.ts is its function in the pool's `LambdaConfig`, which only Cognito (this
 * pool) may invoke; the user-activity export (`userAuthEvents` at INFO) goes to a log group the log delivery
 * service may write, whose subscription filter hands every record to the activity function; each function may do
 * exactly what it does; the pool sends with Cognito's sender until `-c poolMail=ses` puts it on the stack's SES
 * identity and configuration set (`EmailConfiguration` DEVELOPER); errors alarm; and the template has no
 * dependency cycle that CloudFormation would refuse.
 */
import { readFileSync } from "node:fs";
import { type CfnResource, type NestedStack, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { beforeAll, describe, expect, it } from "vitest";
import { poolMailFrom } from "../../infra/app.js";
import { decodeSubscription, readActivity } from "../../shared/people/activity-log.js";
import { POOL_ACTIVITY_HANDLER, POOL_TRIGGERS, triggersOf } from "../../shared/pool-triggers.js";
import { type Built, build, type Json } from "./support.js";

let built: Built;
let withSes: Built;
/** The nested stacks' templates (infra/pool-triggers.ts): the triggers', the export's. */
let triggers: Template;
let activity: Template;
beforeAll(() => {
  built = build({ appBaseUrl: "https://console.example.com" }, { validate: false });
  withSes = build({ poolMail: "ses" }, { id: "SesPoolStack", validate: false });
  triggers = Template.fromStack(built.stack.poolTriggers.triggerStack);
  activity = Template.fromStack(built.stack.poolTriggers.activityStack);
});

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
const fnOf = (b: Built, handler: string): NodejsFunction => {
  const fn = b.stack.poolTriggers.functionsByHandler.get(handler);
  if (!fn) throw new Error(`no function for ${handler}`);
  return fn;
};
const idIn = (c: { node: { defaultChild?: unknown } }) =>
  Stack.of(c.node.defaultChild as CfnResource).getLogicalId(c.node.defaultChild as CfnResource);
const templateOf = (c: { node: { defaultChild?: unknown } }): Template =>
  (Stack.of(c.node.defaultChild as CfnResource) as NestedStack) === built.stack.poolTriggers.triggerStack ? triggers : activity;
const poolOf = (b: Built) => b.resources[b.logicalId(b.stack.userPool)].Properties;
const resourcesOf = (t: Template): Record<string, Json> => t.toJSON().Resources;

/** What the parent passes a nested stack for its parameter `name` (a reference to one of the parent's resources). */
function passed(nested: NestedStack, name: string): Json {
  const resource = nested.nestedStackResource as CfnResource;
  return built.resources[built.stack.getLogicalId(resource)].Properties.Parameters[name];
}

/** Statements of the policies of `handler`'s role (in its nested stack's template). */
function statementsOf(handler: string): Json[] {
  const fn = fnOf(built, handler);
  const roleId = idIn(fn.role as never);
  return Object.values(resourcesOf(templateOf(fn)))
    .filter((p) => p.Type === "AWS::IAM::Policy" && (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Json[]);
}
/** `<action> on <table or pool>` for every grant but the runtime's logs and X-Ray, the parent's resource named. */
function grants(handler: string): string[] {
  const nested = Stack.of(fnOf(built, handler).node.defaultChild as CfnResource) as NestedStack;
  const named: Record<string, string> = {
    [built.logicalId(built.stack.mainTable)]: "main",
    [built.logicalId(built.stack.eventsTable)]: "events",
    [built.logicalId(built.stack.userPool)]: "pool",
  };
  return statementsOf(handler)
    .flatMap((s) => asList<string>(s.Action).flatMap((a) => asList<Json>(s.Resource).map((r) => [a, r] as const)))
    .filter(([a]) => !a.startsWith("logs:") && !a.startsWith("xray:"))
    .map(([a, r]) => {
      const parameter = typeof r?.Ref === "string" ? passed(nested, r.Ref) : undefined;
      const target = JSON.stringify(parameter ?? r);
      const name = Object.entries(named).find(([id]) => target.includes(`"${id}"`))?.[1] ?? target;
      return `${a} on ${name}`;
    })
    .sort();
}

describe("the user pool's triggers", () => {
  it("the pool's six trigger slots are the one list's (shared/pool-triggers.ts), each one function: SSO's and the pool's own", () => {
    const config = poolOf(built).LambdaConfig;
    expect(Object.keys(config).sort()).toEqual(Object.keys(POOL_TRIGGERS).sort());
    expect(Object.keys(config)).toHaveLength(6);
    // The SSO triggers live in the API stack (infra/sso-triggers.ts): the pool names their functions directly.
    for (const [trigger, handler] of triggersOf("sso")) {
      const fn = built.stack.ssoTriggers.functions.get(handler);
      if (!fn) throw new Error(`no function for ${handler}`);
      expect(config[trigger], trigger).toEqual({ "Fn::GetAtt": [built.logicalId(fn), "Arn"] });
    }
    // Each function is one slot's, no function two slots'.
    expect(new Set(Object.values(config).map((v) => JSON.stringify(v))).size).toBe(6);
  });

  it("each of the pool's own triggers runs its own function, arm64 on Node 24, which only this pool may invoke", () => {
    const config = poolOf(built).LambdaConfig;
    const outputs = triggers.toJSON().Outputs as Record<string, { Value: Json }>;
    const nestedId = built.stack.getLogicalId(built.stack.poolTriggers.triggerStack.nestedStackResource as CfnResource);
    for (const [trigger, handler] of triggersOf("pool")) {
      const fn = fnOf(built, handler);
      // The pool names the nested stack's output, which is the function's ARN.
      const [stackId, output] = config[trigger]["Fn::GetAtt"];
      expect(stackId, trigger).toBe(nestedId);
      expect(outputs[String(output).replace(/^Outputs\./, "")]?.Value, trigger).toEqual({ "Fn::GetAtt": [idIn(fn), "Arn"] });
      const props = resourcesOf(triggers)[idIn(fn)].Properties;
      expect(props.Runtime).toBe("nodejs24.x");
      expect(props.Architectures).toEqual(["arm64"]);
      expect(props.Timeout, trigger).toBe(5); // Cognito waits 5 seconds
      built.template.hasResourceProperties("AWS::Lambda::Permission", {
        Action: "lambda:InvokeFunction",
        FunctionName: config[trigger],
        Principal: "cognito-idp.amazonaws.com",
        SourceArn: { "Fn::GetAtt": [built.logicalId(built.stack.userPool), "Arn"] },
      });
    }
  });

  it("the CustomMessage function knows the console's link and touches no table; the others only append to the trail", () => {
    const env = resourcesOf(triggers)[idIn(fnOf(built, POOL_TRIGGERS.CustomMessage))].Properties.Environment.Variables;
    expect(env.APP_BASE_URL).toBe("https://console.example.com");
    expect(grants(POOL_TRIGGERS.CustomMessage)).toEqual([]);
    for (const handler of [POOL_TRIGGERS.PostAuthentication, POOL_TRIGGERS.PostConfirmation]) {
      expect(grants(handler), handler).toEqual(["dynamodb:PutItem on events"]);
      const vars = resourcesOf(triggers)[idIn(fnOf(built, handler))].Properties.Environment.Variables;
      expect(vars.EVENT_RETENTION_DAYS, handler).toBe("90");
    }
  });
});

describe("the user-activity export", () => {
  it("delivers userAuthEvents at INFO from this pool to a log group of its own, which only the log delivery service of this account may write", () => {
    const logGroup = built.stack.poolTriggers.activityLogGroup;
    const deliveries = Object.entries(resourcesOf(activity)).filter(([, r]) => r.Type === "AWS::Cognito::LogDeliveryConfiguration");
    expect(deliveries).toHaveLength(1);
    const [, delivery] = deliveries[0] as [string, Json];
    expect(passed(built.stack.poolTriggers.activityStack, delivery.Properties.UserPoolId.Ref)).toEqual({
      Ref: built.logicalId(built.stack.userPool),
    });
    expect(delivery.Properties.LogConfigurations).toEqual([
      {
        EventSource: "userAuthEvents",
        LogLevel: "INFO",
        CloudWatchLogsConfiguration: { LogGroupArn: { "Fn::GetAtt": [idIn(logGroup), "Arn"] } },
      },
    ]);
    const policies = Object.entries(resourcesOf(activity)).filter(([, r]) => r.Type === "AWS::Logs::ResourcePolicy");
    expect(policies).toHaveLength(1);
    const [policyId, policy] = policies[0] as [string, Json];
    const document = JSON.stringify(policy.Properties.PolicyDocument);
    expect(document).toContain("delivery.logs.amazonaws.com");
    expect(document).toContain("logs:PutLogEvents");
    expect(document).toContain("aws:SourceAccount");
    expect(asList(delivery.DependsOn)).toContain(policyId);
  });

  it("its subscription filter hands every record to the activity function, which the log service alone may invoke", () => {
    const logGroup = built.stack.poolTriggers.activityLogGroup;
    const fn = built.stack.poolTriggers.activityFunction;
    expect(fnOf(built, POOL_ACTIVITY_HANDLER)).toBe(fn);
    activity.hasResourceProperties("AWS::Logs::SubscriptionFilter", {
      LogGroupName: { Ref: idIn(logGroup) },
      FilterPattern: "",
      DestinationArn: { "Fn::GetAtt": [idIn(fn), "Arn"] },
    });
    activity.hasResourceProperties("AWS::Lambda::Permission", {
      FunctionName: { "Fn::GetAtt": [idIn(fn), "Arn"] },
      Principal: "logs.amazonaws.com",
      SourceArn: { "Fn::GetAtt": [idIn(logGroup), "Arn"] },
    });
  });

  it("the activity function appends to the trail, marks each record in the main table, and reads the person from this pool only", () => {
    // The event (and its period's marker) appended, the record's marker put: nothing else.
    expect(grants(POOL_ACTIVITY_HANDLER)).toEqual([
      "cognito-idp:AdminGetUser on pool",
      "dynamodb:PutItem on events",
      "dynamodb:PutItem on main",
    ]);
    const env = resourcesOf(activity)[idIn(built.stack.poolTriggers.activityFunction)].Properties.Environment.Variables;
    expect(passed(built.stack.poolTriggers.activityStack, env.USER_POOL_ID.Ref)).toEqual({ Ref: built.logicalId(built.stack.userPool) });
  });
});

describe("the pool's mail", () => {
  it("by default Cognito's own sender: no EmailConfiguration (a first deploy, before SES has verified the identity)", () => {
    expect(poolOf(built).EmailConfiguration).toBeUndefined();
  });

  it("with -c poolMail=ses: the stack's SES identity and configuration set, as the developer's own sender", () => {
    const senderId = withSes.ofType("AWS::SES::EmailIdentity").find(([, r]) => r.Properties.EmailIdentity === "sender@example.com")?.[0];
    const config = poolOf(withSes).EmailConfiguration;
    expect(config.EmailSendingAccount).toBe("DEVELOPER");
    expect(config.From).toBe("Institution Admin <sender@example.com>");
    expect(config.ConfigurationSet).toEqual({ Ref: withSes.logicalId(withSes.stack.mailConfigurationSet) });
    // The identity's ARN as the stack makes it: a reference, so the identity exists before the pool uses it.
    expect(JSON.stringify(config.SourceArn)).toContain(":identity/");
    expect(JSON.stringify(config.SourceArn)).toContain(`"${senderId}"`);
  });

  it("the context value is cognito (default) or ses, nothing else", () => {
    expect(poolMailFrom(() => undefined)).toBe("cognito");
    expect(poolMailFrom(() => "ses")).toBe("ses");
    expect(() => poolMailFrom(() => "SES!")).toThrow(/poolMail must be cognito or ses/);
  });
});

describe("operations", () => {
  it("every pool function alarms on errors and throttles, to the alarm topic, in the monitoring stack with the others", () => {
    const monitoring = Template.fromStack(built.stack.monitoring);
    const alarms = Object.values(resourcesOf(monitoring))
      .filter((r) => r.Type === "AWS::CloudWatch::Alarm")
      .map((a) => a.Properties);
    for (const [handler, fn] of built.stack.poolTriggers.functionsByHandler) {
      const described = { Errors: `functions/${handler}.ts failed`, Throttles: `functions/${handler}.ts was throttled` };
      for (const metric of ["Errors", "Throttles"] as const) {
        const found = alarms.filter((a) => a.MetricName === metric && String(a.AlarmDescription).startsWith(described[metric]));
        expect(found, `${handler} ${metric}`).toHaveLength(1);
        expect(found[0]?.Namespace).toBe("AWS/Lambda");
        expect(found[0]?.AlarmActions, `${handler} ${metric}`).toHaveLength(1);
      }
      // None left in the pool's own nested stacks.
      expect(Object.values(resourcesOf(templateOf(fn))).filter((r) => r.Type === "AWS::CloudWatch::Alarm")).toEqual([]);
    }
  });

  it("no template has a dependency cycle (CloudFormation would refuse it): triggers, the console's link and the pool", () => {
    const nested = [triggers, activity].map((t) => ({ resources: resourcesOf(t) }));
    for (const b of [built, withSes, ...nested]) {
      const edges = new Map<string, Set<string>>();
      const refs = (v: Json, out: Set<string>) => {
        if (Array.isArray(v)) for (const x of v) refs(x, out);
        else if (v && typeof v === "object") {
          if (typeof v.Ref === "string") out.add(v.Ref);
          if (Array.isArray(v["Fn::GetAtt"])) out.add(v["Fn::GetAtt"][0]);
          if (typeof v["Fn::Sub"] === "string") for (const m of v["Fn::Sub"].matchAll(/\$\{([^.}]+)/g)) out.add(m[1] ?? "");
          for (const x of Object.values(v)) refs(x, out);
        }
      };
      for (const [id, r] of Object.entries(b.resources)) {
        const out = new Set<string>(asList<string>(r.DependsOn ?? []));
        refs(r.Properties ?? {}, out);
        edges.set(id, new Set([...out].filter((x) => x in b.resources)));
      }
      const state = new Map<string, "open" | "done">();
      const cycle: string[] = [];
      const visit = (id: string, path: string[]): boolean => {
        if (state.get(id) === "done") return false;
        if (state.get(id) === "open") {
          cycle.push(...path.slice(path.indexOf(id)), id);
          return true;
        }
        state.set(id, "open");
        for (const next of edges.get(id) ?? []) if (visit(next, [...path, id])) return true;
        state.set(id, "done");
        return false;
      };
      for (const id of edges.keys()) if (visit(id, [])) break;
      expect(cycle).toEqual([]);
    }
  });
});

describe("sample events for sam local invoke", () => {
  it("each pool function has one in infra/events/, in the shape Cognito (or the export's subscription) sends, SSO's triggers too", () => {
    const sample = (handler: string) =>
      JSON.parse(readFileSync(new URL(`../../infra/events/${handler.replace("/", "-")}.json`, import.meta.url), "utf8"));
    for (const [trigger, handler] of Object.entries(POOL_TRIGGERS)) {
      const event = sample(handler);
      // PreTokenGeneration's sources are `TokenGeneration_…`; the SSO ones' samples are a federated sign-in's.
      expect(event.triggerSource, handler).toMatch(new RegExp(`^${trigger.replace(/^PreTokenGeneration$/, "TokenGeneration")}_`));
      // A federated identity's first sign-in has no user yet, so no `sub`.
      if (trigger !== "PreSignUp") expect(event.request.userAttributes.sub, handler).toEqual(expect.any(String));
      expect(event.userPoolId, handler).toEqual(expect.any(String));
    }
    expect(sample(POOL_TRIGGERS.CustomMessage).request).toMatchObject({ codeParameter: "{####}", usernameParameter: "{username}" });
    const [logEvent] = decodeSubscription(sample(POOL_ACTIVITY_HANDLER).awslogs.data);
    expect(readActivity(logEvent?.message ?? "", 0)).toMatchObject({
      eventType: "SignIn",
      eventResponse: "Fail",
      challenges: { Password: "Failure" },
    });
  });
});
