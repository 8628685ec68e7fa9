/**
 * The streaming construct (infra/streaming.ts, docs/events-out.md) in the synthesized template: the exports bucket's
 * encryption, TLS-only policy and 7-day lifecycle; the worker the export route may invoke; the events table's
 * stream (NEW_IMAGE) and its event source mapping with the dead-letter queue and its alarm; the bus the consumer
 * may put to; the retrier's schedule; and that only the functions that use S3, EventBridge or Lambda may. Then
 * their operations: alarms on each function and on the stream's lag, their row on the dashboard, the bus's
 * name among the outputs, and their sample events.
 */
import { readFileSync } from "node:fs";
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { type Built, build, type Json } from "./support.js";

let built: Built;
beforeAll(() => {
  built = build({}, { validate: false });
});

const ref = (c: { node: { defaultChild?: unknown } }) => ({ Ref: built.logicalId(c) });
const arn = (c: { node: { defaultChild?: unknown } }) => ({ "Fn::GetAtt": [built.logicalId(c), "Arn"] });

/** Every action the role of `fn` may take, with its resources. */
function statementsOf(handlerFn: { role?: { node: { defaultChild?: unknown } } | undefined }): Json[] {
  const roleId = built.logicalId(handlerFn.role as { node: { defaultChild?: unknown } });
  return built
    .ofType("AWS::IAM::Policy")
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[]);
}
const actionsOf = (fn: Parameters<typeof statementsOf>[0]) => statementsOf(fn).flatMap((s) => [s.Action].flat() as string[]);

describe("streaming construct", () => {
  it("exports bucket: S3-managed encryption, public access blocked, TLS only, files expire after 7 days", () => {
    const { bucket } = built.stack.streaming;
    const [, resource] = built.ofType("AWS::S3::Bucket").find(([id]) => id === built.logicalId(bucket)) ?? [];
    expect(resource.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
    });
    expect(resource.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(resource.Properties.LifecycleConfiguration.Rules).toEqual([
      { Id: "expire-exports", Status: "Enabled", ExpirationInDays: 7, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ]);
    built.template.hasResourceProperties("AWS::S3::BucketPolicy", {
      Bucket: ref(bucket),
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } }, Principal: { AWS: "*" } }),
        ]),
      },
    });
  });

  it("the events table streams new images to the consumer, failures to an SQS dead-letter queue with an alarm", () => {
    const { consumer, deadLetterQueue, deadLetterAlarm } = built.stack.streaming;
    built.template.hasResourceProperties("AWS::DynamoDB::Table", {
      StreamSpecification: { StreamViewType: "NEW_IMAGE" },
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true },
      GlobalSecondaryIndexes: Match.arrayWith([Match.objectLike({ IndexName: "by_user" })]),
    });
    const mappings = built.ofType("AWS::Lambda::EventSourceMapping");
    expect(mappings).toHaveLength(1);
    const [, mapping] = mappings[0] as [string, Json];
    expect(mapping.Properties).toMatchObject({
      FunctionName: ref(consumer),
      EventSourceArn: { "Fn::GetAtt": [built.logicalId(built.stack.eventsTable), "StreamArn"] },
      StartingPosition: "TRIM_HORIZON",
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      DestinationConfig: { OnFailure: { Destination: arn(deadLetterQueue) } },
    });
    const filter = JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern);
    expect(filter).toEqual({ eventName: ["INSERT"], dynamodb: { Keys: { pk: { S: [{ prefix: "EVT#" }] } } } });
    built.template.hasResourceProperties("AWS::SQS::Queue", { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    built.template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateNumberOfMessagesVisible",
      Namespace: "AWS/SQS",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [built.logicalId(deadLetterQueue), "QueueName"] } }],
      Threshold: 1,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      AlarmActions: [{ Ref: built.logicalId(built.stack.alarmTopic) }],
    });
    expect(built.logicalId(deadLetterAlarm)).toMatch(/StreamDeadLettersAlarm/);
  });

  it("the consumer puts on the custom bus, named in its environment", () => {
    const { consumer, bus } = built.stack.streaming;
    built.template.resourceCountIs("AWS::Events::EventBus", 1);
    const [, fn] = built.ofType("AWS::Lambda::Function").find(([id]) => id === built.logicalId(consumer)) ?? [];
    expect(fn.Properties.Environment.Variables.EVENT_BUS_NAME).toEqual(ref(bus));
    const put = statementsOf(consumer).find((s) => s.Action === "events:PutEvents");
    expect(put.Resource).toEqual(arn(bus));
  });

  it("the export route may invoke the worker; the worker may write the bucket; the link route may read it", () => {
    const { exportWorker, bucket } = built.stack.streaming;
    const start = built.stack.functions.get("exports/create");
    const show = built.stack.functions.get("exports/show");
    expect(start && show).toBeTruthy();
    const invoke = statementsOf(start as NonNullable<typeof start>).find((s) => s.Action === "lambda:InvokeFunction");
    expect(JSON.stringify(invoke.Resource)).toContain(built.logicalId(exportWorker));
    expect(actionsOf(exportWorker)).toEqual(expect.arrayContaining(["s3:PutObject", "s3:AbortMultipartUpload"]));
    expect(actionsOf(show as NonNullable<typeof show>).filter((a) => a.startsWith("s3:"))).toEqual(["s3:GetObject"]);
    expect(actionsOf(show as NonNullable<typeof show>).filter((a) => a.startsWith("s3:Put"))).toEqual([]);
    expect(JSON.stringify(statementsOf(exportWorker))).toContain(built.logicalId(bucket));
  });

  it("no other function may use S3, EventBridge or Lambda", () => {
    const { exportWorker, consumer } = built.stack.streaming;
    const allowed = new Map<unknown, RegExp>([
      [exportWorker, /^s3:/],
      [consumer, /^events:/],
      [built.stack.functions.get("exports/create"), /^lambda:/],
      [built.stack.functions.get("exports/show"), /^s3:/],
    ]);
    for (const fn of [...built.stack.functions.values(), exportWorker, consumer, built.stack.streaming.retrier]) {
      const own = allowed.get(fn);
      for (const action of actionsOf(fn)) {
        if (/^(s3|events|lambda):/.test(action)) expect(own?.test(action), `${fn.node.path} may ${action}`).toBe(true);
      }
    }
  });

  it("the retrier runs every minute", () => {
    const { retrier } = built.stack.streaming;
    built.template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 minute)",
      Targets: [Match.objectLike({ Arn: arn(retrier) })],
    });
  });
});

describe("operations of the functions that get events out", () => {
  const alarms = () => built.ofType("AWS::CloudWatch::Alarm").map(([id, a]) => ({ id, props: a.Properties as Json }));
  const topic = () => ({ Ref: built.logicalId(built.stack.alarmTopic) });
  const fns = () => {
    const { exportWorker, consumer, retrier } = built.stack.streaming;
    return { "exports/worker": exportWorker, "streaming/consume": consumer, "webhooks/retry": retrier };
  };

  it("alarm on each one's errors and throttles, on the alarm topic, as the API functions do", () => {
    expect([...built.stack.streaming.functionsByHandler.keys()].sort()).toEqual(Object.keys(fns()).sort());
    for (const [handler, fn] of Object.entries(fns())) {
      for (const name of ["Errors", "Throttles"]) {
        const found = alarms().filter(
          ({ props }) =>
            props.Namespace === "AWS/Lambda" && props.MetricName === name && props.Dimensions?.[0]?.Value?.Ref === built.logicalId(fn),
        );
        expect(found, `${handler} ${name}`).toHaveLength(1);
        expect(found[0]?.props).toMatchObject({
          Statistic: "Sum",
          Period: 300,
          Threshold: 1,
          ComparisonOperator: "GreaterThanOrEqualToThreshold",
          TreatMissingData: "notBreaching",
          AlarmActions: [topic()],
          OKActions: [topic()],
        });
      }
    }
  });

  it("alarm when the stream consumer's oldest record waited a minute: the promise to the bus and webhooks", () => {
    const { consumer } = built.stack.streaming;
    const found = alarms().filter(({ props }) => props.MetricName === "IteratorAge");
    expect(found).toHaveLength(1);
    expect(found[0]?.props).toMatchObject({
      Namespace: "AWS/Lambda",
      Dimensions: [{ Name: "FunctionName", Value: ref(consumer) }],
      Statistic: "Maximum",
      Threshold: 60_000,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      EvaluationPeriods: built.stack.settings.alarms.evaluationPeriods,
      AlarmActions: [topic()],
    });
  });

  it("have their row on the dashboard, and the dead-letter alarm is among the alarms it shows", () => {
    const [entry] = built.ofType("AWS::CloudWatch::Dashboard");
    const body = JSON.stringify(entry?.[1].Properties.DashboardBody);
    for (const title of [
      "Events out: errors and throttles",
      "Events out: max duration (ms)",
      "Events out: stream iterator age (ms)",
      "Events out: dead letters",
    ]) {
      expect(body, title).toContain(title);
    }
    for (const fn of Object.values(fns())) expect(body).toContain(built.logicalId(fn));
    expect(body).toContain("IteratorAge");
    expect(body).toContain(built.logicalId(built.stack.streaming.deadLetterQueue));
    expect(built.stack.monitoring.alarms).toContain(built.stack.streaming.deadLetterAlarm);
  });

  it("are named by handler in their descriptions, as the route functions are (the bench finds their bundles so)", () => {
    for (const [handler, fn] of Object.entries(fns())) {
      const [, resource] = built.ofType("AWS::Lambda::Function").find(([id]) => id === built.logicalId(fn)) ?? [];
      expect(resource.Properties.Description.split(":")[0], handler).toBe(handler);
    }
  });

  it("name the bus in the stack's outputs", () => {
    built.template.hasOutput("EventBusName", { Value: ref(built.stack.streaming.bus) });
  });

  it("have sample events in infra/events/, in the shape their trigger sends", async () => {
    const sample = (name: string) => JSON.parse(readFileSync(new URL(`../../infra/events/${name}.json`, import.meta.url), "utf8"));
    // The stream mapping's batch: its record passes the mapping's filter and the consumer reads one event from it.
    const { eventsOf } = await import("../../shared/streaming/consumer.js");
    const batch = sample("streaming-consume");
    const [event] = eventsOf(batch.Records);
    expect(eventsOf(batch.Records)).toHaveLength(1);
    expect(event).toMatchObject({ event_type: "institution_created", account_id: "acct-demo-001" });
    expect(batch.Records[0].dynamodb.Keys.pk.S).toMatch(/^EVT#/);
    // The asynchronous invocation's payload: the job `POST …/exports` dispatches.
    expect(Object.keys(sample("exports-worker")).sort()).toEqual(["account", "id"]);
    // EventBridge's scheduled event.
    expect(sample("webhooks-retry")).toMatchObject({ source: "aws.events", "detail-type": "Scheduled Event" });
  });
});
