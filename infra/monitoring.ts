/**
 * What an operator watches (docs/operations.md, issue 15): alarms on one SNS topic, and a dashboard with the same
 * signals per route. Metric names come from `shared/observability.ts`, so a renamed metric cannot leave an alarm
 * watching nothing.
 *
 * A nested stack of the API stack: two alarms per function grow with the route table, and in the API stack they
 * took a fifth of CloudFormation's 500 resources. A nested stack, not a stack beside it, so that the functions,
 * tables and stage it watches reach it as parameters of the same deployment: removing a function never stops at
 * an export another stack still imports.
 */
import { Duration, NestedStack } from "aws-cdk-lib";
import type { HttpApi, HttpStage } from "aws-cdk-lib/aws-apigatewayv2";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as sns from "aws-cdk-lib/aws-sns";
import type * as sqs from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";
import { METRIC, METRICS_NAMESPACE, SERVICE_NAME } from "../shared/observability.js";
import type { Settings } from "./settings.js";

const PERIOD = Duration.minutes(5);

/** The age of the oldest stream record the consumer got in a period (Lambda's metric of a stream mapping). */
const iteratorAge = (fn: NodejsFunction) => fn.metric("IteratorAge", { period: PERIOD, statistic: cloudwatch.Stats.MAXIMUM });

/**
 * What an unexpected failure of a function that refuses by throwing writes (shared/failures.ts: Powertools' JSON,
 * `"level":"ERROR"`). A refusal logs nothing at ERROR, and Lambda's own "Invoke Error" line for any thrown error is
 * text (the functions' log format is Text), so neither is counted.
 */
export const FAILURE_PATTERN = logs.FilterPattern.stringValue("$.level", "=", "ERROR");

/**
 * The count of `logGroup`'s ERROR lines as `metricName` in the service's namespace, by a metric filter made beside
 * the log group (in its stack): the failures an SSO trigger or an authorizer alarms on, where Lambda's `Errors`
 * counts its refusals too. One metric per function, since a filter's dimensions can only be fields of the line.
 */
export function failureCount(logGroup: logs.ILogGroup, id: string, metricName: string): cloudwatch.Metric {
  return logGroup
    .addMetricFilter(id, { filterPattern: FAILURE_PATTERN, metricNamespace: METRICS_NAMESPACE, metricName, metricValue: "1" })
    .metric({ statistic: cloudwatch.Stats.SUM });
}

/** The digest function's runs per hour (Lambda's `Invocations`: a failed run counts, a missing one leaves no data). */
const digestRuns = (fn: NodejsFunction) => fn.metricInvocations({ period: Duration.hours(1), statistic: cloudwatch.Stats.SUM });

/** The operations the functions call (IAM grants no other), each a dimension of DynamoDB's per-operation metrics. */
export const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

/**
 * The sum of a per-operation DynamoDB metric over `TABLE_OPERATIONS`, with ids unique to the table and metric
 * (CDK's own `…ForOperations` reuse the operation names, which collide when two of them share a graph).
 */
export function tableOperationsSum(table: dynamodb.Table, metricName: "ThrottledRequests" | "SystemErrors", label: string) {
  const prefix = `${label.toLowerCase().replace(/[^a-z0-9]/g, "")}_`;
  const usingMetrics = Object.fromEntries(
    TABLE_OPERATIONS.map((operation) => [
      `${prefix}${operation.toLowerCase()}`,
      table.metric(metricName, {
        dimensionsMap: { TableName: table.tableName, Operation: operation },
        statistic: cloudwatch.Stats.SUM,
        period: PERIOD,
      }),
    ]),
  );
  return new cloudwatch.MathExpression({
    // FILL: an operation with no data in a period counts 0 instead of blanking the sum.
    expression: Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(" + "),
    usingMetrics,
    period: PERIOD,
    label,
  });
}

/**
 * Mail failures whatever the dimensions they are published with (a Metrics Insights query sums every series of
 * the name): a handler that adds a `route` dimension must not leave the alarm watching an empty series.
 */
export const MAIL_FAILED_QUERY = `SELECT SUM(${METRIC.mailFailed}) FROM "${METRICS_NAMESPACE}"`;
export const MAIL_SENT_QUERY = `SELECT SUM(${METRIC.mailSent}) FROM "${METRICS_NAMESPACE}"`;

/**
 * The stream consumer's promise (docs/events-out.md): every event on the bus and to the webhooks within a minute.
 * Its oldest record waiting longer than this says the promise is broken.
 */
export const STREAM_ITERATOR_AGE_ALARM_MS = 60_000;

/**
 * The digest function runs at five past every hour (infra/trail.ts): hours in a row without a run of it (whatever
 * its outcome: a failed run is its `Errors` alarm) say the schedule stopped, and the trail's hours since are unsigned.
 */
export const DIGEST_MISSING_HOURS = 2;

/** A function that refuses by throwing, and its unexpected failures (`failureCount`: its log group's ERROR lines). */
export interface FailureCounted {
  readonly fn: NodejsFunction;
  readonly failures: cloudwatch.IMetric;
}

/** What gets events out (infra/streaming.ts): functions no request waits for, the stream, its dead letters. */
export interface EventsOutWatch {
  /** The export worker, the stream consumer and the webhook retrier, by handler name. */
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  /** The consumer of the events table's stream, whose iterator age is how late the bus and the webhooks are. */
  readonly consumer: NodejsFunction;
  /** The dead-letter queue's alarm (made beside the queue), on the dashboard with the others. */
  readonly deadLetterAlarm: cloudwatch.Alarm;
  readonly deadLetterQueue: sqs.IQueue;
}

export interface MonitoringProps {
  /** The API stack's name: the dashboard's name and title (this nested stack's own name is CloudFormation's). */
  readonly stackName: string;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** Function by handler name. */
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  /** Getting events out, when the stack has it. */
  readonly eventsOut?: EventsOutWatch;
  /**
   * The user pool's own functions (infra/pool-triggers.ts: its mail, sign-ins, the activity export), by handler
   * name: a failing trigger fails the sign-in or the mail it serves.
   */
  readonly poolFunctions?: ReadonlyMap<string, NodejsFunction>;
  /**
   * The user pool's SSO triggers (infra/sso-triggers.ts), by handler name: each function and the count of its
   * ERROR lines. A refusal is thrown too, so Lambda's `Errors` would count every refused sign-in: the ERROR lines
   * count the unexpected failures alone.
   */
  readonly ssoTriggers?: ReadonlyMap<string, FailureCounted>;
  /**
   * The SCIM routes' Lambda authorizer (functions/scim/authorizer.ts), when the route table has SCIM routes. Its
   * refusal (`Unauthorized`, a 401) is thrown too: its ERROR lines count the unexpected failures alone.
   */
  readonly scimAuthorizer?: FailureCounted;
  /** The machines' API (infra/machine-api.ts): its key authorizer (counted as the SCIM one) and its `$default` refusal. */
  readonly machines?: { readonly keyAuthorizer: FailureCounted; readonly refused: NodejsFunction };
  /** The trail's digest function (infra/trail.ts), run every hour by its schedule. */
  readonly digestFunction?: NodejsFunction;
  /** Construct id of each function (`InstitutionsList`), for alarm ids. */
  readonly functionId: (handler: string) => string;
  readonly tables: readonly { readonly name: string; readonly table: dynamodb.Table }[];
  readonly settings: Settings;
  readonly topic: sns.ITopic;
}

export class Monitoring extends NestedStack {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: `${props.stackName}: the alarms and the dashboard (infra/monitoring.ts)` });
    const { stage, settings } = props;
    const action = new SnsAction(props.topic);
    const alarm = (
      alarmId: string,
      metric: cloudwatch.IMetric,
      options: Partial<cloudwatch.CreateAlarmOptions> & { description: string },
    ) => {
      const created = new cloudwatch.Alarm(this, alarmId, {
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No requests, no data: quiet, not an alarm.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: options.description,
        ...options,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    // ---- Stage ----
    const requests = stage.metricCount({ period: PERIOD, statistic: cloudwatch.Stats.SUM });
    const serverErrors = stage.metricServerError({ period: PERIOD, statistic: cloudwatch.Stats.SUM });
    const serverErrorRate = new cloudwatch.MathExpression({
      expression: "IF(requests > 0, 100 * errors / requests, 0)",
      usingMetrics: { requests, errors: serverErrors },
      period: PERIOD,
      label: "5xx rate (%)",
    });
    alarm("ApiServerErrorRate", serverErrorRate, {
      threshold: settings.alarms.serverErrorRatePercent,
      evaluationPeriods: settings.alarms.evaluationPeriods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `More than ${settings.alarms.serverErrorRatePercent}% of API requests answered 5xx over 5 minutes`,
    });
    const p99 = stage.metricLatency({ period: PERIOD, statistic: cloudwatch.Stats.p(99) });
    alarm("ApiLatencyP99", p99, {
      threshold: settings.alarms.p99LatencyMs,
      evaluationPeriods: settings.alarms.evaluationPeriods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `API p99 latency above ${settings.alarms.p99LatencyMs} ms over 5 minutes`,
    });

    /** Lambda's errors and throttles of `handler`'s function; `effect`: who else meets its failure, if anyone. */
    const errorsAndThrottles = (handler: string, fn: NodejsFunction, effect?: string) => {
      const fnId = props.functionId(handler);
      const then = effect ? `; ${effect}` : "";
      alarm(`${fnId}Errors`, fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM }), {
        description: `functions/${handler}.ts failed (unhandled error, timeout or crash at start)${then}`,
      });
      alarm(`${fnId}Throttles`, fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }), {
        description: `functions/${handler}.ts was throttled (reserved or account concurrency reached)${then}`,
      });
    };
    /** A function that refuses by throwing: its unexpected failures (`cause`: what they are) and its throttles. */
    const failuresAndThrottles = (handler: string, { fn, failures }: FailureCounted, cause: string, effect: string) => {
      const fnId = props.functionId(handler);
      alarm(`${fnId}Failures`, failures, {
        description: `functions/${handler}.ts failed unexpectedly (an ERROR line: ${cause}); ${effect}`,
      });
      alarm(`${fnId}Throttles`, fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }), {
        description: `functions/${handler}.ts was throttled (reserved or account concurrency reached); ${effect}`,
      });
    };

    // ---- Functions ----
    for (const [handler, fn] of props.functions) errorsAndThrottles(handler, fn);

    // ---- The SSO triggers: unexpected failures (not refusals) and throttles ----
    for (const [handler, watched] of props.ssoTriggers ?? []) {
      failuresAndThrottles(handler, watched, "DynamoDB or Cognito unreachable, a bug", "federated sign-ins fail");
    }

    // ---- The user pool's own functions: the same two alarms ----
    for (const [handler, fn] of props.poolFunctions ?? []) errorsAndThrottles(handler, fn);

    // ---- The Lambda authorizers: unexpected failures (not refusals) and throttles; the machines' `$default` ----
    if (props.scimAuthorizer) {
      failuresAndThrottles(
        "scim/authorizer",
        props.scimAuthorizer,
        "DynamoDB unreachable, a bug",
        "every SCIM request meanwhile answers 500",
      );
    }
    if (props.machines) {
      failuresAndThrottles(
        "api-keys/authorizer",
        props.machines.keyAuthorizer,
        "DynamoDB unreachable, a bug",
        "every API-key request the authorizer's cache does not answer meanwhile answers 500",
      );
      errorsAndThrottles(
        "api-keys/refused",
        props.machines.refused,
        "a key's request to a route no scope opens answers 500, not 403 or 404",
      );
    }

    // ---- The trail's digests: a run failed, or none ran ----
    const digest = props.digestFunction;
    if (digest) {
      errorsAndThrottles("trail/digest", digest, "the trail's hours since its last good run have no signed digest until one succeeds");
      alarm(`${props.functionId("trail/digest")}Missing`, digestRuns(digest), {
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        evaluationPeriods: DIGEST_MISSING_HOURS,
        // No run, no data: here that is what the alarm is for.
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
        description: `functions/trail/digest.ts did not run for ${DIGEST_MISSING_HOURS} hours (its schedule runs it at five past every hour); the trail's hours since its last run have no signed digest`,
      });
    }

    // ---- Getting events out: the same two alarms per function, and how late the stream's consumer is ----
    const eventsOut = props.eventsOut;
    if (eventsOut) {
      for (const [handler, fn] of eventsOut.functions) errorsAndThrottles(handler, fn);
      alarm("StreamIteratorAge", iteratorAge(eventsOut.consumer), {
        threshold: STREAM_ITERATOR_AGE_ALARM_MS,
        evaluationPeriods: settings.alarms.evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        description: `Recorded events waited ${STREAM_ITERATOR_AGE_ALARM_MS / 1000} s or more for the stream consumer: the bus and the webhooks are behind`,
      });
      // Made beside its queue (infra/streaming.ts), shown with the others.
      this.alarms.push(eventsOut.deadLetterAlarm);
    }

    // ---- DynamoDB ----
    for (const { name, table } of props.tables) {
      alarm(`${name}TableThrottles`, tableOperationsSum(table, "ThrottledRequests", `${name} throttled requests`), {
        description: `The ${name.toLowerCase()} table throttled requests`,
      });
      alarm(`${name}TableSystemErrors`, tableOperationsSum(table, "SystemErrors", `${name} system errors`), {
        description: `The ${name.toLowerCase()} table answered with system errors (HTTP 500)`,
      });
    }

    // ---- Mail ----
    const mailFailed = new cloudwatch.MathExpression({
      expression: MAIL_FAILED_QUERY,
      usingMetrics: {},
      period: PERIOD,
      label: METRIC.mailFailed,
    });
    const mailSent = new cloudwatch.MathExpression({
      expression: MAIL_SENT_QUERY,
      usingMetrics: {},
      period: PERIOD,
      label: METRIC.mailSent,
    });
    alarm("InvitationMailFailed", mailFailed, {
      description: "An invitation mail failed to send (SES refused or unreachable); the invitation was withdrawn",
    });

    this.dashboard = this.buildDashboard(props, { requests, serverErrors, serverErrorRate, p99, mailSent, mailFailed });
  }

  private buildDashboard(
    props: MonitoringProps,
    m: Record<"requests" | "serverErrors" | "serverErrorRate" | "p99" | "mailSent" | "mailFailed", cloudwatch.IMetric>,
  ): cloudwatch.Dashboard {
    const { api, stage, stackName } = props;
    const dashboard = new cloudwatch.Dashboard(this, "Dashboard", {
      dashboardName: stackName,
      defaultInterval: Duration.hours(3),
    });
    const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
      new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...extra });
    /** Every series a search finds: one line per route or per function, however many there are. */
    const search = (query: string, stat: string, label: string) =>
      new cloudwatch.MathExpression({ expression: `SEARCH('${query}', '${stat}', 300)`, usingMetrics: {}, period: PERIOD, label });
    const apiRoutes = `{AWS/ApiGateway,ApiId,Route,Stage} ApiId="${api.apiId}"`;
    const emfRoutes = `{${METRICS_NAMESPACE},route,service} service="${SERVICE_NAME}"`;

    dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: [
          `# ${stackName} (${props.settings.env})`,
          "API stage, then per route, functions, DynamoDB and mail. Alarms notify the SNS topic of output `AlarmTopicArn`.",
          "A request's API Gateway request id is the access log's `requestId` and the function log's `correlation_id`.",
        ].join("\n\n"),
        width: 24,
        height: 3,
      }),
    );
    dashboard.addWidgets(new cloudwatch.AlarmStatusWidget({ title: "Alarms", alarms: this.alarms, width: 24, height: 4 }));

    dashboard.addWidgets(
      graph("Stage: requests and 5xx", [m.requests, m.serverErrors], {
        right: [stage.metricClientError({ period: PERIOD, statistic: cloudwatch.Stats.SUM })],
      }),
      graph("Stage: 5xx rate (%)", [m.serverErrorRate], {
        leftAnnotations: [{ value: props.settings.alarms.serverErrorRatePercent, label: "alarm" }],
      }),
      graph("Stage: latency", [stage.metricLatency({ period: PERIOD, statistic: cloudwatch.Stats.p(50) }), m.p99], {
        leftAnnotations: [{ value: props.settings.alarms.p99LatencyMs, label: "p99 alarm" }],
      }),
    );

    dashboard.addWidgets(
      graph("Per route: requests", [search(`${apiRoutes} MetricName="Count"`, "Sum", "")]),
      graph("Per route: 5xx", [search(`${apiRoutes} MetricName="5xx"`, "Sum", "")]),
      graph("Per route: p99 latency (ms)", [search(`${apiRoutes} MetricName="Latency"`, "p99", "")]),
    );
    dashboard.addWidgets(
      graph("Per route: client errors (functions)", [search(`${emfRoutes} MetricName="${METRIC.clientError}"`, "Sum", "")]),
      graph("Per route: server errors (functions)", [search(`${emfRoutes} MetricName="${METRIC.serverError}"`, "Sum", "")]),
      new cloudwatch.LogQueryWidget({
        title: "Per route: requests, 5xx and p99 latency (function logs)",
        logGroupNames: [...props.functions.values()].map((fn) => fn.logGroup.logGroupName),
        queryLines: [
          "filter message = 'request'",
          "stats count(*) as requests, sum(status >= 500) as server_errors, pct(latency_ms, 99) as p99_ms by route",
          "sort requests desc",
        ],
        view: cloudwatch.LogQueryVisualizationType.TABLE,
        width: 8,
        height: 6,
      }),
    );

    const fns = [...props.functions.entries()];
    const perFunction = (metric: (fn: NodejsFunction) => cloudwatch.Metric) =>
      fns.map(([handler, fn]) => metric(fn).with({ label: handler, period: PERIOD }));
    dashboard.addWidgets(
      graph(
        "Functions: errors",
        perFunction((fn) => fn.metricErrors({ statistic: cloudwatch.Stats.SUM })),
      ),
      graph(
        "Functions: throttles",
        perFunction((fn) => fn.metricThrottles({ statistic: cloudwatch.Stats.SUM })),
      ),
      graph(
        "Functions: p99 duration (ms)",
        perFunction((fn) => fn.metricDuration({ statistic: cloudwatch.Stats.p(99) })),
      ),
    );

    dashboard.addWidgets(
      graph(
        "DynamoDB: throttled requests",
        props.tables.map(({ name, table }) => tableOperationsSum(table, "ThrottledRequests", name)),
      ),
      graph(
        "DynamoDB: system errors",
        props.tables.map(({ name, table }) => tableOperationsSum(table, "SystemErrors", name)),
      ),
      graph(
        "DynamoDB: consumed capacity",
        props.tables.flatMap(({ name, table }) => [
          table.metricConsumedReadCapacityUnits({ period: PERIOD, label: `${name} read` }),
          table.metricConsumedWriteCapacityUnits({ period: PERIOD, label: `${name} write` }),
        ]),
      ),
    );

    if (props.eventsOut) this.addEventsOut(dashboard, props.eventsOut, graph);
    this.addAuthorizersAndTrail(dashboard, props, graph);

    const ses = (metricName: string) =>
      new cloudwatch.Metric({ namespace: "AWS/SES", metricName, period: PERIOD, statistic: cloudwatch.Stats.SUM, label: metricName });
    dashboard.addWidgets(
      graph("Invitation mail: sent and failed", [m.mailSent, m.mailFailed]),
      graph("SES (account): sends, bounces, complaints", [ses("Send"), ses("Bounce"), ses("Complaint")]),
      graph("Invitation mail failures by route", [
        search(`{${METRICS_NAMESPACE},route,service} MetricName="${METRIC.mailFailed}"`, "Sum", ""),
      ]),
    );
    return dashboard;
  }

  /** One row: the Lambda authorizers' failures, throttles and duration, and the trail's digest runs. */
  private addAuthorizersAndTrail(
    dashboard: cloudwatch.Dashboard,
    props: MonitoringProps,
    graph: (title: string, left: cloudwatch.IMetric[], extra?: Partial<cloudwatch.GraphWidgetProps>) => cloudwatch.GraphWidget,
  ): void {
    const authorizers: [string, FailureCounted][] = [
      ...(props.scimAuthorizer ? [["scim/authorizer", props.scimAuthorizer] as [string, FailureCounted]] : []),
      ...(props.machines ? [["api-keys/authorizer", props.machines.keyAuthorizer] as [string, FailureCounted]] : []),
    ];
    const idOf = (handler: string) => `failures_${handler.replace(/[^a-z0-9]/g, "")}`;
    const widgets: cloudwatch.IWidget[] = [];
    if (authorizers.length > 0) {
      widgets.push(
        graph(
          "Authorizers: failures and throttles",
          authorizers.flatMap(([handler, { fn, failures }]) => [
            // An id of its own per authorizer: two expressions of one graph may not share one.
            new cloudwatch.MathExpression({
              expression: `FILL(${idOf(handler)}, 0)`,
              usingMetrics: { [idOf(handler)]: failures },
              period: PERIOD,
              label: `${handler} failures`,
            }),
            fn.metricThrottles({ statistic: cloudwatch.Stats.SUM, period: PERIOD, label: `${handler} throttles` }),
          ]),
        ),
        graph(
          "Authorizers: p99 duration (ms)",
          authorizers.map(([handler, { fn }]) => fn.metricDuration({ statistic: cloudwatch.Stats.p(99), period: PERIOD, label: handler })),
        ),
      );
    }
    const digest = props.digestFunction;
    if (digest) {
      widgets.push(
        graph("Trail: digest runs and errors (per hour)", [
          digestRuns(digest).with({ label: "runs" }),
          digest.metricErrors({ statistic: cloudwatch.Stats.SUM, period: Duration.hours(1), label: "errors" }),
        ]),
      );
    }
    if (widgets.length > 0) dashboard.addWidgets(...widgets);
  }

  /** One row: the events-out functions' errors, throttles and duration, the stream's lag, the dead letters. */
  private addEventsOut(
    dashboard: cloudwatch.Dashboard,
    w: EventsOutWatch,
    graph: (title: string, left: cloudwatch.IMetric[], extra?: Partial<cloudwatch.GraphWidgetProps>) => cloudwatch.GraphWidget,
  ): void {
    const fns = [...w.functions.entries()];
    const perFunction = (metric: (fn: NodejsFunction) => cloudwatch.Metric, suffix = "") =>
      fns.map(([handler, fn]) => metric(fn).with({ label: `${handler}${suffix}`, period: PERIOD }));
    const quarter = { width: 6 };
    dashboard.addWidgets(
      graph(
        "Events out: errors and throttles",
        [
          ...perFunction((fn) => fn.metricErrors({ statistic: cloudwatch.Stats.SUM }), " errors"),
          ...perFunction((fn) => fn.metricThrottles({ statistic: cloudwatch.Stats.SUM }), " throttles"),
        ],
        quarter,
      ),
      graph(
        "Events out: max duration (ms)",
        perFunction((fn) => fn.metricDuration({ statistic: cloudwatch.Stats.MAXIMUM })),
        quarter,
      ),
      graph("Events out: stream iterator age (ms)", [iteratorAge(w.consumer).with({ label: "iterator age (max)" })], {
        ...quarter,
        leftAnnotations: [{ value: STREAM_ITERATOR_AGE_ALARM_MS, label: "alarm" }],
      }),
      graph(
        "Events out: dead letters",
        [w.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: cloudwatch.Stats.MAXIMUM })],
        { ...quarter, leftAnnotations: [{ value: 1, label: "alarm" }] },
      ),
    );
  }
}
