/**
 * The streaming construct (infra/streaming.ts, DESIGN.md §11) in the synthesized template: the exports bucket's
 * encryption, TLS-only policy and 7-day lifecycle; the worker the export route may invoke; the events table's
 * stream (NEW_IMAGE) and its event source mapping with the dead-letter queue and its alarm; the bus the consumer
 * may put to; the retrier's schedule; and that only the functions that use S3, EventBridge or Lambda may.
 */
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
