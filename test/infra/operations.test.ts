/**
 * What an operator gets from the stack (issue 15): tracing and Powertools settings on every function, the
 * access log that joins the function log, alarms on one SNS topic, the dashboard, and SES feedback.
 */
import { readFileSync } from "node:fs";
import { Match } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { API_MEMORY_MB } from "../../infra/api-function.js";
import { DIGEST_MISSING_HOURS, MAIL_FAILED_QUERY, MAIL_SENT_QUERY, TABLE_OPERATIONS } from "../../infra/monitoring.js";
import { ACCESS_LOG_FORMAT } from "../../infra/stack.js";
import { AUTHORIZER_FAILURES, METRIC, METRICS_NAMESPACE, SERVICE_NAME } from "../../shared/observability.js";
import { handlers, routes } from "../../shared/routes.js";
import { build, type Json } from "./support.js";

// The template stack.test.ts validates; here it is read, not validated again.
const dev = build({}, { validate: false });
const { stack, resources, logicalId, ofType } = dev;
const settings = stack.settings;

const fnEntries = () =>
  [...stack.functions].map(([handler, fn]) => ({ handler, id: logicalId(fn), props: resources[logicalId(fn)].Properties }));
const topicId = logicalId(stack.alarmTopic);
const alarms = ofType("AWS::CloudWatch::Alarm").map(([id, a]) => ({ id, props: a.Properties }));

/** Every metric of an alarm, whether it has a single metric or a metric-math expression. */
function metricsOf(props: Json): { namespace: string; name: string; dimensions: Record<string, Json>; stat?: string }[] {
  if (props.MetricName) {
    return [
      {
        namespace: props.Namespace,
        name: props.MetricName,
        dimensions: Object.fromEntries((props.Dimensions ?? []).map((d: Json) => [d.Name, d.Value])),
        stat: props.Statistic ?? props.ExtendedStatistic,
      },
    ];
  }
  return (props.Metrics ?? [])
    .filter((m: Json) => m.MetricStat)
    .map((m: Json) => ({
      namespace: m.MetricStat.Metric.Namespace,
      name: m.MetricStat.Metric.MetricName,
      dimensions: Object.fromEntries((m.MetricStat.Metric.Dimensions ?? []).map((d: Json) => [d.Name, d.Value])),
      stat: m.MetricStat.Stat,
    }));
}
const expressionOf = (props: Json): string | undefined => props.Metrics?.find((m: Json) => m.ReturnData !== false)?.Expression;

/** A CloudFormation string value (a literal or an Fn::Join) as text, each reference written `{Ref}` or `{Id.Attr}`. */
function text(value: Json): string {
  if (typeof value === "string") return value;
  if (value?.Ref) return `{${value.Ref}}`;
  if (value?.["Fn::GetAtt"]) return `{${value["Fn::GetAtt"].join(".")}}`;
  if (value?.["Fn::Join"]) return (value["Fn::Join"][1] as Json[]).map(text).join(value["Fn::Join"][0]);
  return JSON.stringify(value);
}

describe("tracing and Powertools", () => {
  it("traces every function actively, with the permission to send segments", () => {
    expect(fnEntries()).toHaveLength(handlers().size);
    for (const { handler, props } of fnEntries()) {
      expect(props.TracingConfig, handler).toEqual({ Mode: "Active" });
      // The size the cold-start figures chose (docs/cold-starts.md).
      expect(props.MemorySize, handler).toBe(API_MEMORY_MB);
      const roleId = props.Role["Fn::GetAtt"][0];
      const statements = ofType("AWS::IAM::Policy")
        .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
      expect(
        statements.flatMap((s: Json) => [s.Action].flat()),
        handler,
      ).toEqual(expect.arrayContaining(["xray:PutTraceSegments", "xray:PutTelemetryRecords"]));
    }
  });

  it("gives every function the Powertools service, namespace and log level, keeps responses out of traces, patches no HTTP globally", () => {
    for (const { handler, props } of fnEntries()) {
      expect(props.Environment.Variables, handler).toMatchObject({
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: settings.logLevel,
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: "false",
        // Their AWS calls are traced per client; no global http/https/fetch patching at the cold start.
        POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: "false",
      });
    }
  });

  it("passes the SES configuration set to the mail functions only", () => {
    const configurationSet = { Ref: logicalId(stack.mailConfigurationSet) };
    for (const { handler, props } of fnEntries()) {
      const mail = handlers().get(handler)?.mail === true;
      expect(props.Environment.Variables.SES_CONFIGURATION_SET, handler).toEqual(mail ? configurationSet : undefined);
    }
  });
});

describe("access log", () => {
  const stage = ofType("AWS::ApiGatewayV2::Stage")[0]?.[1].Properties;
  const format = JSON.parse(stage.AccessLogSettings.Format);

  it("carries the API Gateway request id, the Lambda request id, route, status and latency", () => {
    expect(format).toEqual(ACCESS_LOG_FORMAT);
    expect(format).toMatchObject({
      requestId: "$context.requestId",
      integrationRequestId: "$context.integration.requestId",
      routeKey: "$context.routeKey",
      status: "$context.status",
      responseLatency: "$context.responseLatency",
      integrationLatency: "$context.integrationLatency",
    });
  });

  it("never records a request's path or query string: an accept or preview token cannot reach it", () => {
    // The route is named by its key (`POST ${paths.invitationsAccept}`), never by the request's own target.
    const values = Object.values(format) as string[];
    for (const v of values) expect(v).not.toMatch(/\$context\.(path|resourcePath|requestOverride)|\$request\.|querystring|\$input/i);
    // The token travels in the body of a POST, which no log records.
    for (const handler of ["invitations/accept", "invitations/preview"]) {
      expect(
        routes.filter((r) => r.handler === handler).map((r) => r.method),
        handler,
      ).toEqual(["POST"]);
    }
  });

  it("leaves the functions' event logging off (Powertools would log the whole event, body included)", () => {
    for (const { handler, props } of fnEntries()) {
      expect(props.Environment.Variables.POWERTOOLS_LOGGER_LOG_EVENT, handler).toBeUndefined();
    }
  });

  it("keeps the access log as long as the settings say", () => {
    const logGroupId = stage.AccessLogSettings.DestinationArn["Fn::GetAtt"][0];
    expect(resources[logGroupId].Properties.RetentionInDays).toBe(settings.logRetention);
  });

  it("throttles the export route on its own, after the route exists", () => {
    const exportRoute = routes.find((r) => r.handler === "security-events/export");
    const key = `${exportRoute?.method} ${exportRoute?.path}`;
    expect(stage.RouteSettings).toEqual({
      [key]: {
        ThrottlingRateLimit: settings.exportThrottle.rateLimit,
        ThrottlingBurstLimit: settings.exportThrottle.burstLimit,
        DetailedMetricsEnabled: true,
      },
    });
    expect(stage.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: settings.throttle.rateLimit,
      ThrottlingBurstLimit: settings.throttle.burstLimit,
      DetailedMetricsEnabled: true,
    });
    const [stageId] = ofType("AWS::ApiGatewayV2::Stage")[0] ?? [];
    const routeId = ofType("AWS::ApiGatewayV2::Route").find(([, r]) => r.Properties.RouteKey === key)?.[0];
    expect(routeId).toBeDefined();
    // The routes live in their nested stack (infra/api.ts): the stage waits for that stack, the route's.
    const routesStack = dev.nested.find((n) => routeId !== undefined && routeId in n.resources);
    expect(routesStack?.stack).toBe(stack.routesStack);
    expect(resources[stageId as string].DependsOn).toContain(routesStack?.id);
  });
});

describe("the alarm topic", () => {
  const topic = resources[topicId].Properties;

  it("is encrypted with a rotated customer managed key that CloudWatch and SES may use", () => {
    const keyId = topic.KmsMasterKeyId["Fn::GetAtt"][0];
    const key = resources[keyId].Properties;
    expect(key.EnableKeyRotation).toBe(true);
    const services = key.KeyPolicy.Statement.flatMap((s: Json) => [s.Principal?.Service].flat()).filter(Boolean);
    expect(services).toEqual(expect.arrayContaining(["cloudwatch.amazonaws.com", "ses.amazonaws.com"]));
    expect(resources[logicalId(stack.mailFeedbackTopic)].Properties.KmsMasterKeyId).toEqual(topic.KmsMasterKeyId);
  });

  it("lets CloudWatch of this account publish, and refuses plain HTTP", () => {
    const policy = ofType("AWS::SNS::TopicPolicy").find(([, p]) => p.Properties.Topics.some((t: Json) => t.Ref === topicId))?.[1];
    const statements: Json[] = policy?.Properties.PolicyDocument.Statement ?? [];
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: "Allow",
        Action: "sns:Publish",
        Principal: { Service: "cloudwatch.amazonaws.com" },
        Condition: { StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } } },
      }),
    );
    expect(statements).toContainEqual(expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }));
  });

  it("has no subscription unless alarmEmail is set", () => {
    expect(ofType("AWS::SNS::Subscription")).toEqual([]);
  });

  it("notifies every alarm and its recovery on that one topic", () => {
    expect(alarms.length).toBeGreaterThan(0);
    for (const { id, props } of alarms) {
      expect(props.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(props.OKActions, id).toEqual([{ Ref: topicId }]);
      // No data is quiet, except where no data is the alarm: no digest run (below).
      expect(props.TreatMissingData, id).toBe(id.startsWith("TrailDigestMissing") ? "breaching" : "notBreaching");
    }
  });
});

describe("alarms", () => {
  const apiRef = { Ref: logicalId(stack.api) };
  const stageDimensions = { ApiId: apiRef, Stage: "$default" };

  it("watch the stage's 5xx rate", () => {
    const rate = alarms.filter(({ props }) => expressionOf(props)?.includes("100 * errors / requests"));
    expect(rate).toHaveLength(1);
    const props = rate[0]?.props;
    expect(props.Threshold).toBe(settings.alarms.serverErrorRatePercent);
    expect(props.EvaluationPeriods).toBe(settings.alarms.evaluationPeriods);
    expect(metricsOf(props)).toEqual(
      expect.arrayContaining([
        { namespace: "AWS/ApiGateway", name: "5xx", dimensions: stageDimensions, stat: "Sum" },
        { namespace: "AWS/ApiGateway", name: "Count", dimensions: stageDimensions, stat: "Sum" },
      ]),
    );
  });

  it("watch the stage's p99 latency", () => {
    const latency = alarms.filter(({ props }) => props.MetricName === "Latency");
    expect(latency).toHaveLength(1);
    expect(latency[0]?.props).toMatchObject({
      Namespace: "AWS/ApiGateway",
      ExtendedStatistic: "p99",
      Threshold: settings.alarms.p99LatencyMs,
      Dimensions: expect.arrayContaining([
        { Name: "ApiId", Value: apiRef },
        { Name: "Stage", Value: "$default" },
      ]),
    });
  });

  it("watch each function's errors and throttles", () => {
    for (const { handler, id } of fnEntries()) {
      for (const name of ["Errors", "Throttles"]) {
        const found = alarms.filter(
          ({ props }) => props.Namespace === "AWS/Lambda" && props.MetricName === name && props.Dimensions?.[0]?.Value?.Ref === id,
        );
        expect(found, `${handler} ${name}`).toHaveLength(1);
        expect(found[0]?.props.Threshold).toBe(1);
      }
    }
  });

  it("watch throttled requests and system errors on every table, for every operation the functions use", () => {
    for (const table of [stack.mainTable, stack.eventsTable, stack.idempotencyTable]) {
      const tableRef = { Ref: logicalId(table) };
      for (const name of ["ThrottledRequests", "SystemErrors"]) {
        const found = alarms.filter(({ props }) =>
          metricsOf(props).some((m) => m.name === name && JSON.stringify(m.dimensions.TableName) === JSON.stringify(tableRef)),
        );
        expect(found, `${logicalId(table)} ${name}`).toHaveLength(1);
        const operations = metricsOf(found[0]?.props).map((m) => m.dimensions.Operation);
        expect(operations.sort()).toEqual([...TABLE_OPERATIONS].sort());
      }
    }
  });

  it("watch the mail-failure metric, whatever dimensions it is published with", () => {
    const mail = alarms.filter(({ props }) => expressionOf(props) === MAIL_FAILED_QUERY);
    expect(mail).toHaveLength(1);
    expect(MAIL_FAILED_QUERY).toBe(`SELECT SUM(${METRIC.mailFailed}) FROM "${METRICS_NAMESPACE}"`);
    expect(mail[0]?.props.Threshold).toBe(1);
  });

  it("are exactly these: stage (2), functions (2 each), tables (2 each, three tables), mail (1), events out, the user pool's functions, its SSO triggers, the authorizers, the trail's digests", () => {
    // Events out (streaming.test.ts): 2 for each of its functions, the stream's iterator age, the dead letters.
    const eventsOut = 2 * stack.streaming.functionsByHandler.size + 1 + 1;
    // The user pool's own functions (pool-triggers.test.ts): 2 each.
    const pool = 2 * stack.poolTriggers.functionsByHandler.size;
    // The SSO triggers (sso-triggers.test.ts): their unexpected failures and throttles, 2 each.
    const sso = 2 * stack.ssoTriggers.functions.size;
    // The two Lambda authorizers (failures and throttles) and the machines' `$default` (errors and throttles), 2 each.
    const doors = 2 * 2 + 2;
    // The trail's digest function: errors, throttles, no run.
    const digest = 3;
    expect(alarms).toHaveLength(2 + 2 * stack.functions.size + 2 * 3 + 1 + eventsOut + pool + sso + doors + digest);
  });

  it("are counted as the docs say (docs/operations.md, docs/deploy.md)", () => {
    const operations = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
    const deploy = readFileSync(new URL("../../docs/deploy.md", import.meta.url), "utf8");
    const route = stack.functions.size;
    const out = stack.streaming.functionsByHandler.size;
    expect(operations).toContain(`The synthesized templates have **${alarms.length}**`);
    expect(operations).toContain(`the ${route + out} functions of the API (${route}) and of getting events out`);
    expect(operations).toContain(
      `getting events out (the export worker, the stream consumer, the webhook retrier) | ${2 * (route + out)} |`,
    );
    expect(out).toBe(3);
    expect(deploy).toContain(`**${alarms.length} CloudWatch alarms**`);
    expect(deploy).toContain(`${alarms.length} alarms on one topic`);
  });
});

describe("alarms beside the route table's functions: the authorizers, the machines' $default, the trail's digests", () => {
  const machines = dev.nested.find((n) => n.stack === stack.machineApi.nested);
  if (!machines) throw new Error("No Machines stack");
  const machinesResources: Record<string, Json> = machines.template.toJSON().Resources;
  const machinesOutputs: Record<string, Json> = machines.template.toJSON().Outputs ?? {};
  /** The function an alarm's `FunctionName` names: `[template, logical id]`, through the Machines stack's outputs. */
  const functionNamed = (value: Json): [string, string] | undefined => {
    if (typeof value?.Ref === "string") return ["api", value.Ref];
    const [stackId, attribute] = value?.["Fn::GetAtt"] ?? [];
    if (stackId === machines.id && typeof attribute === "string") {
      const ref = machinesOutputs[attribute.replace(/^Outputs\./, "")]?.Value?.Ref;
      return typeof ref === "string" ? ["machines", ref] : undefined;
    }
    return undefined;
  };
  const watching = (template: string, fnId: string, metricName: string) =>
    alarms.filter(({ props }) => {
      const named = functionNamed(props.Dimensions?.find((d: Json) => d.Name === "FunctionName")?.Value);
      return props.Namespace === "AWS/Lambda" && props.MetricName === metricName && named?.[0] === template && named[1] === fnId;
    });
  /** The alarm on the count of `fn`'s ERROR lines: its metric is the one a filter on `fn`'s own log group makes. */
  const failuresOf = (template: Record<string, Json>, fnId: string) => {
    const logGroup = template[fnId].Properties.LoggingConfig.LogGroup.Ref;
    const filters = Object.values(template).filter(
      (r) => r.Type === "AWS::Logs::MetricFilter" && r.Properties.LogGroupName.Ref === logGroup,
    );
    expect(filters, fnId).toHaveLength(1);
    const filter = filters[0].Properties;
    expect(filter.FilterPattern).toBe('{ $.level = "ERROR" }');
    const [{ MetricNamespace, MetricName, MetricValue }] = filter.MetricTransformations;
    expect(MetricValue).toBe("1");
    return alarms.filter(({ props }) => props.Namespace === MetricNamespace && props.MetricName === MetricName);
  };

  it("watch each authorizer's unexpected failures (its ERROR lines, not Lambda's Errors, which counts its refusals) and its throttles", () => {
    const scimFn = stack.scimAuthorizerFunction;
    const keyFn = stack.machineApi.functions.get("api-keys/authorizer");
    if (!scimFn || !keyFn) throw new Error("No authorizers");
    const doors = [
      ["scim/authorizer", "api", resources, logicalId(scimFn), AUTHORIZER_FAILURES["scim/authorizer"]],
      [
        "api-keys/authorizer",
        "machines",
        machinesResources,
        machines.template.getResourceId("AWS::Lambda::Function", {
          Properties: { Description: Match.stringLikeRegexp("^api-keys/authorizer:") },
        }),
        AUTHORIZER_FAILURES["api-keys/authorizer"],
      ],
    ] as const;
    for (const [handler, where, template, fnId, metricName] of doors) {
      const failures = failuresOf(template, fnId);
      expect(failures, handler).toHaveLength(1);
      expect(failures[0]?.props).toMatchObject({
        Namespace: METRICS_NAMESPACE,
        MetricName: metricName,
        Statistic: "Sum",
        Threshold: 1,
        Period: 300,
      });
      expect(failures[0]?.props.AlarmDescription).toMatch(new RegExp(`^functions/${handler}\\.ts failed unexpectedly .* answers 500$`));
      expect(watching(where, fnId, "Throttles"), handler).toHaveLength(1);
      expect(watching(where, fnId, "Errors"), `${handler}: Errors counts every refused token`).toEqual([]);
    }
  });

  it("watch the machines' $default refusal's errors and throttles, as the API's functions", () => {
    const fnId = machines.template.getResourceId("AWS::Lambda::Function", {
      Properties: { Description: Match.stringLikeRegexp("^api-keys/refused:") },
    });
    for (const name of ["Errors", "Throttles"]) expect(watching("machines", fnId, name), name).toHaveLength(1);
  });

  it("watch the digest function's errors and throttles, and alarm when it has not run for two hours", () => {
    const fnId = logicalId(stack.trail.digestFunction);
    for (const name of ["Errors", "Throttles"]) {
      const found = watching("api", fnId, name);
      expect(found, name).toHaveLength(1);
      expect(found[0]?.props).toMatchObject({ Threshold: 1, Period: 300, TreatMissingData: "notBreaching" });
    }
    const missing = watching("api", fnId, "Invocations");
    expect(missing).toHaveLength(1);
    expect(missing[0]?.props).toMatchObject({
      Statistic: "Sum",
      Period: 3600,
      EvaluationPeriods: DIGEST_MISSING_HOURS,
      Threshold: 1,
      ComparisonOperator: "LessThanThreshold",
      // Lambda publishes no Invocations for an hour without a run: that missing data is what breaches.
      TreatMissingData: "breaching",
    });
    expect(DIGEST_MISSING_HOURS).toBe(2);
    // The schedule runs it every hour (trail.ts): two hours without a run is at least one run missed.
    const [, schedule] = ofType("AWS::Scheduler::Schedule")[0] ?? [];
    expect(schedule.Properties.ScheduleExpression).toBe("cron(5 * * * ? *)");
  });

  it("leave no function of the app without an alarm but the deployment's own (custom resources, their providers, the console upload)", () => {
    const all: [string, Record<string, Json>][] = [
      ["api", resources],
      ["machines", machinesResources],
    ];
    const fns = all.flatMap(([where, rs]) =>
      Object.entries(rs)
        .filter(([, r]) => r.Type === "AWS::Lambda::Function")
        .map(([id, r]) => ({ where, id, r })),
    );
    // What CloudFormation invokes only while it deploys: a custom resource's service token, and the function a
    // provider framework's function calls for it.
    const refsIn = (v: Json): string[] =>
      JSON.stringify(v)
        .match(/"(?:Ref|Fn::GetAtt)":\s*\[?"([A-Za-z0-9]+)"/g)
        ?.map((m) => m.replace(/.*"([A-Za-z0-9]+)"$/, "$1")) ?? [];
    const tokens = Object.values(resources)
      .filter((r) => r.Type.startsWith("Custom::") || r.Type === "AWS::CloudFormation::CustomResource")
      .flatMap((r) => refsIn(r.Properties.ServiceToken));
    const deployment = new Set([
      ...tokens,
      ...tokens.flatMap((id) => refsIn(resources[id]?.Properties?.Environment?.Variables?.USER_ON_EVENT_FUNCTION_ARN ?? "")),
    ]);
    const helpers = fns.filter(({ where, id }) => where === "api" && deployment.has(id));
    // The app client's, the upgrade's backfill's and the public key's functions, their providers, and the console upload.
    expect(helpers.map(({ id }) => id).sort()).toEqual(
      [
        logicalId(stack.consoleClient.function),
        logicalId(stack.sentRecordsBackfill.function),
        ...fns
          .filter(({ r }) => /^(Custom resource: |AWS CDK resource provider framework)/.test(r.Properties.Description ?? ""))
          .map(({ id }) => id),
        ...fns.filter(({ id }) => id.startsWith("CustomCDKBucketDeployment")).map(({ id }) => id),
      ].sort(),
    );
    for (const { where, id, r } of fns) {
      if (where === "api" && deployment.has(id)) continue;
      const handler = String(r.Properties.Description).split(":")[0];
      const described = alarms.filter(({ props }) => String(props.AlarmDescription).startsWith(`functions/${handler}.ts `));
      expect(described.length, `${handler} (${id}) has no alarm`).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("dashboard", () => {
  const [dashboardEntry] = ofType("AWS::CloudWatch::Dashboard");
  const body = JSON.parse(text(dashboardEntry?.[1].Properties.DashboardBody));
  const widgets: Json[] = body.widgets;
  const titled = (title: string) => widgets.find((w) => w.properties.title === title);
  const series = (title: string): Json[] => titled(title)?.properties.metrics ?? [];
  const expressions = (title: string) =>
    series(title).flatMap((m: Json) => m.filter((x: Json) => typeof x === "object" && x.expression).map((x: Json) => x.expression));

  it("shows every alarm's state", () => {
    const alarmWidget = widgets.find((w) => w.type === "alarm");
    expect(alarmWidget?.properties.alarms).toHaveLength(alarms.length);
  });

  it("shows the stage's requests, 5xx, 5xx rate and latency", () => {
    expect(JSON.stringify(series("Stage: requests and 5xx"))).toContain('"5xx"');
    expect(expressions("Stage: 5xx rate (%)")).toEqual(["IF(requests > 0, 100 * errors / requests, 0)"]);
    expect(JSON.stringify(series("Stage: latency"))).toContain('"p99"');
  });

  it("shows requests, 5xx and p99 latency per route, from API Gateway's route metrics", () => {
    const api = `{${logicalId(stack.api)}}`;
    for (const [title, metric] of [
      ["Per route: requests", "Count"],
      ["Per route: 5xx", "5xx"],
      ["Per route: p99 latency (ms)", "Latency"],
    ] as const) {
      const [expression] = expressions(title);
      expect(expression, title).toContain("{AWS/ApiGateway,ApiId,Route,Stage}");
      expect(expression, title).toContain(`ApiId="${api}"`);
      expect(expression, title).toContain(`MetricName="${metric}"`);
    }
  });

  it("shows the functions' own client and server errors per route, and a per-route table from their log lines", () => {
    expect(expressions("Per route: client errors (functions)")[0]).toContain(`{${METRICS_NAMESPACE},route,service}`);
    expect(expressions("Per route: server errors (functions)")[0]).toContain(`MetricName="${METRIC.serverError}"`);
    const logs = widgets.find((w) => w.type === "log");
    expect(logs?.properties.query).toContain("filter message = 'request'");
    expect(logs?.properties.query).toContain("by route");
    for (const fn of stack.functions.values()) expect(logs?.properties.query).toContain(`{${logicalId(fn.logGroup as never)}}`);
  });

  it("shows errors, throttles and duration of every function", () => {
    for (const title of ["Functions: errors", "Functions: throttles", "Functions: p99 duration (ms)"]) {
      const labels = series(title).map((m: Json) => m.at(-1)?.label);
      expect(labels.sort(), title).toEqual([...stack.functions.keys()].sort());
    }
  });

  it("shows DynamoDB throttles and system errors of every table, and the mail metrics", () => {
    expect(expressions("DynamoDB: throttled requests")).toHaveLength(3);
    expect(expressions("DynamoDB: system errors")).toHaveLength(3);
    expect(expressions("Invitation mail: sent and failed").sort()).toEqual([MAIL_FAILED_QUERY, MAIL_SENT_QUERY].sort());
  });
});

describe("SES", () => {
  const configurationSetId = logicalId(stack.mailConfigurationSet);

  it("has a configuration set that suppresses bounced and complaining addresses", () => {
    expect(resources[configurationSetId].Properties).toMatchObject({
      SuppressionOptions: { SuppressedReasons: ["BOUNCE", "COMPLAINT"] },
      ReputationOptions: { ReputationMetricsEnabled: true },
      SendingOptions: { SendingEnabled: true },
    });
  });

  it("sends bounces and complaints to the mail-feedback topic, which SES may publish to", () => {
    const destinations = ofType("AWS::SES::ConfigurationSetEventDestination").map(([, d]) => d.Properties);
    expect(destinations).toHaveLength(1);
    expect(destinations[0]).toMatchObject({
      ConfigurationSetName: { Ref: configurationSetId },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: ["bounce", "complaint"],
        SnsDestination: { TopicARN: { Ref: logicalId(stack.mailFeedbackTopic) } },
      },
    });
    const policy = ofType("AWS::SNS::TopicPolicy").find(([, p]) =>
      p.Properties.Topics.some((t: Json) => t.Ref === logicalId(stack.mailFeedbackTopic)),
    )?.[1];
    expect(policy?.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: "Allow", Action: "sns:Publish", Principal: { Service: "ses.amazonaws.com" } }),
    );
  });

  it("makes the configuration set the sender identity's default", () => {
    const [, identity] = ofType("AWS::SES::EmailIdentity")[0] ?? [];
    expect(identity.Properties).toMatchObject({
      EmailIdentity: "sender@example.com",
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: configurationSetId } },
    });
  });

  it("exports the topic ARNs, the configuration set and the dashboard", () => {
    expect(Object.keys(dev.template.toJSON().Outputs)).toEqual(
      expect.arrayContaining(["AlarmTopicArn", "MailFeedbackTopicArn", "MailConfigurationSetName", "DashboardUrl", "ConsoleUrl"]),
    );
  });
});

describe("options: an alarm e-mail and a domain identity with DKIM", () => {
  const variant = build(
    {
      senderEmail: "no-reply@mail.example.org",
      senderDomain: "mail.example.org",
      settings: { ...settings, alarmEmail: "ops@example.org" },
    },
    { validate: false },
  );

  it("subscribes alarmEmail to the alarm topic", () => {
    const subscriptions = variant.ofType("AWS::SNS::Subscription").map(([, s]) => s.Properties);
    expect(subscriptions).toEqual([
      expect.objectContaining({
        Protocol: "email",
        Endpoint: "ops@example.org",
        TopicArn: { Ref: variant.logicalId(variant.stack.alarmTopic) },
      }),
    ]);
  });

  it("verifies the domain with 2048-bit Easy DKIM, and outputs the three CNAME records to publish", () => {
    const identities = variant.ofType("AWS::SES::EmailIdentity").map(([, i]) => i.Properties);
    expect(identities).toEqual([
      expect.objectContaining({
        EmailIdentity: "mail.example.org",
        DkimAttributes: { SigningEnabled: true },
        DkimSigningAttributes: { NextSigningKeyLength: "RSA_2048_BIT" },
      }),
    ]);
    const outputs = variant.template.toJSON().Outputs;
    for (const n of [1, 2, 3]) expect(text(outputs[`DkimRecord${n}`]?.Value)).toContain(" CNAME ");
  });

  it("refuses a sender outside the domain", () => {
    expect(() => build({ senderEmail: "no-reply@example.com", senderDomain: "mail.example.org" }, { validate: false })).toThrow(
      /not in senderDomain/,
    );
  });
});
