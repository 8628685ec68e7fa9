/**
 * Getting events out (docs/events-out.md), as one construct beside the API stack's: the exports bucket (encrypted,
 * TLS only, files expire after 7 days) and the export worker the `POST …/exports` function invokes
 * asynchronously; the events table's stream → the consumer function (event source mapping, SQS dead-letter
 * queue with an alarm) → the EventBridge custom bus and the webhooks; the webhook retrier every minute.
 * The AWS SDK clients of S3, EventBridge and Lambda are bundled only into the functions that use them: the
 * modules that hold them (shared/exports/s3.ts, dispatch.ts, shared/streaming/bus.ts) are imported by those
 * functions alone (the bench's `bundles` rows check it). Their alarms and dashboard row: infra/monitoring.ts.
 */
import { Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as cwActions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import * as iam from "aws-cdk-lib/aws-iam";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsDlq } from "aws-cdk-lib/aws-lambda-event-sources";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import type * as sns from "aws-cdk-lib/aws-sns";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import type { RouteAccess } from "../shared/routes.js";
import { type Environment, environment } from "../shared/settings.js";
import { EVENT_SOURCE } from "../shared/streaming/source.js";
import { BUNDLING, handlerCode } from "./api-function.js";
import { addEnvironment } from "./environment.js";
import type { Tables } from "./tables.js";

/** Days an export's file is kept (the bucket's lifecycle; the API's `file_expires_at` says the same). */
export const EXPORT_FILE_DAYS = 7;
/** The export worker's timeout: below the export's lease (`EXPORT_LEASE_SECONDS`, 900 s), after which the export counts as failed. */
export const EXPORT_WORKER_TIMEOUT = Duration.minutes(14);

export interface StreamingProps {
  /** The tables, whose `grant` gives each function exactly its access (the trail append-only). */
  readonly tables: Tables;
  /** The route handlers' functions, by handler name: the export routes get the bucket and the worker. */
  readonly functions: ReadonlyMap<string, NodejsFunction>;
  /** Each handler's access (`handlers()` of the stack's route table): its `exports` says what it reaches here. */
  readonly access: ReadonlyMap<string, RouteAccess>;
  /** Environment every function gets (tables, Powertools settings). */
  readonly commonEnv: Environment;
  readonly alarmTopic: sns.ITopic;
  readonly logRetention: logs.RetentionDays;
}

export class Streaming extends Construct {
  readonly bucket: s3.Bucket;
  readonly bus: events.EventBus;
  readonly deadLetterQueue: sqs.Queue;
  readonly deadLetterAlarm: cloudwatch.Alarm;
  readonly exportWorker: NodejsFunction;
  readonly consumer: NodejsFunction;
  readonly retrier: NodejsFunction;
  /** This construct's functions by handler name (`exports/worker`, `streaming/consume`, `webhooks/retry`), for the alarms. */
  readonly functionsByHandler = new Map<string, NodejsFunction>();

  constructor(
    scope: Construct,
    id: string,
    private readonly props: StreamingProps,
  ) {
    super(scope, id);

    this.bucket = new s3.Bucket(this, "ExportsBucket", {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [
        { id: "expire-exports", expiration: Duration.days(EXPORT_FILE_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });
    Validations.of(this.bucket).acknowledge({
      id: "AwsSolutions-S1",
      reason: "Short-lived export files, read only through presigned links the API issues; each export is recorded in the audit trail.",
    });

    this.bus = new events.EventBus(this, "EventBus", { description: `Every recorded security event (source ${EVENT_SOURCE})` });

    this.deadLetterQueue = new sqs.Queue(this, "StreamDeadLetters", {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: "AwsSolutions-SQS3",
      reason: "This queue is itself the dead-letter queue of the stream mapping.",
    });
    this.deadLetterAlarm = new cloudwatch.Alarm(this, "StreamDeadLettersAlarm", {
      alarmDescription: "Stream records the consumer could not publish after its retries: events missing from the bus and webhooks.",
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.deadLetterAlarm.addAlarmAction(new cwActions.SnsAction(props.alarmTopic));
    this.deadLetterAlarm.addOkAction(new cwActions.SnsAction(props.alarmTopic));

    // ---- Full exports ----
    this.exportWorker = this.fn("ExportWorker", "exports/worker", {
      purpose: "writes full exports to S3 (invoked asynchronously by POST …/exports)",
      timeout: EXPORT_WORKER_TIMEOUT,
      memorySize: 512,
      environment: { EXPORTS_BUCKET: this.bucket.bucketName },
      // The export's record and its slots (EXPORTS#), and the events it exports, by any filter of the route.
      access: { main: ["GetItem", "Query", "UpdateItem"], events: ["Query", "Query by_user", "Query by_type"] },
    });
    // Exactly the multipart upload's actions (PutObject covers its parts and completion), under exports/ only.
    this.exportWorker.addToRolePolicy(
      new iam.PolicyStatement({
        sid: "WriteExportFiles",
        actions: ["s3:PutObject", "s3:AbortMultipartUpload"],
        resources: [this.bucket.arnForObjects("exports/*")],
      }),
    );
    // A failed run is retried twice by Lambda; a run of an export that is no longer running does nothing.
    this.exportWorker.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.minutes(10) });
    // The API functions whose routes reach the exports (`exports` in the route table, through `handlers()`).
    const reaching = (level: "start" | "read") =>
      [...props.access].filter(([, access]) => access.exports === level).flatMap(([handler]) => props.functions.get(handler) ?? []);
    for (const start of reaching("start")) {
      // The function itself, not `:*` (its versions and aliases) as grantInvoke would allow.
      start.addToRolePolicy(
        new iam.PolicyStatement({
          sid: "StartExportWorker",
          actions: ["lambda:InvokeFunction"],
          resources: [this.exportWorker.functionArn],
        }),
      );
      addEnvironment(start, { EXPORT_WORKER_FUNCTION: this.exportWorker.functionName, EXPORTS_BUCKET: this.bucket.bucketName });
    }
    const readers = reaching("read");
    for (const show of readers) {
      // Presigned links are signed with the function's role: it needs the read they grant.
      show.addToRolePolicy(
        new iam.PolicyStatement({ sid: "ReadExportFiles", actions: ["s3:GetObject"], resources: [this.bucket.arnForObjects("exports/*")] }),
      );
      addEnvironment(show, { EXPORTS_BUCKET: this.bucket.bucketName });
    }
    for (const fn of [this.exportWorker, ...readers]) {
      if (!fn.role) continue;
      Validations.of(fn.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket)}.Arn>/exports/*]`,
        reason: "Export files are named by account and export id when the export starts: the objects under exports/ of this bucket only.",
      });
    }

    // ---- The stream: EventBridge and webhooks ----
    // An event source mapping and a function, not EventBridge Pipes: the same consumer also delivers each
    // event to its account's webhooks (signed, with delivery records and retries in the main table), which a
    // pipe's target cannot do. A pipe (stream → filter → bus) fits a pure bus target only; here it would be a
    // second reader of the stream beside this mapping, with its own retries and dead letters, for the bus
    // alone. One mapping keeps one filter, one retry policy and one dead-letter queue for both.
    this.consumer = this.fn("StreamConsumer", "streaming/consume", {
      purpose: "puts recorded events on the bus and delivers them to webhooks (the events table's stream)",
      timeout: Duration.minutes(2),
      memorySize: 512,
      environment: { EVENT_BUS_NAME: this.bus.eventBusName },
      // The account's webhooks, their deliveries and retries; disabling a failing webhook records its event.
      access: { main: ["GetItem", "Query", "PutItem", "UpdateItem"], events: ["append"] },
    });
    this.bus.grantPutEventsTo(this.consumer);
    this.consumer.addEventSource(
      new DynamoEventSource(props.tables.events, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        retryAttempts: 10,
        bisectBatchOnError: true,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(this.deadLetterQueue),
        // Only new events: not counters, activity markers, digests, nor TTL deletions.
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual("INSERT"),
            dynamodb: { Keys: { pk: { S: lambda.FilterRule.beginsWith("EVT#") } } },
          }),
        ],
      }),
    );

    this.retrier = this.fn("WebhookRetrier", "webhooks/retry", {
      purpose: "attempts the webhook deliveries whose retry is due (every minute)",
      timeout: Duration.minutes(5),
      memorySize: 256,
      environment: {},
      // The due retries (taken by deleting them), as the consumer's deliveries; the event each delivers.
      access: { main: ["GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem"], events: ["GetItem", "append"] },
    });
    new events.Rule(this, "WebhookRetrySchedule", {
      description: "Attempts the webhook deliveries whose retry is due",
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(this.retrier)],
    });
  }

  /** A function of its own role and log group, as the stack makes the route handlers', with the same table grants. */
  private fn(
    id: string,
    handler: string,
    opts: {
      /** What it does, for its description: `<handler>: <purpose>`, as the route functions' name theirs. */
      purpose: string;
      timeout: Duration;
      memorySize: number;
      environment: Environment;
      access: Pick<RouteAccess, "main" | "events">;
    },
  ): NodejsFunction {
    const p = this.props;
    const logGroup = new logs.LogGroup(this, `${id}Logs`, { retention: p.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `Runs functions/${handler}.ts`,
    });
    logGroup.grantWrite(role);
    p.tables.grant(role, opts.access);
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.",
    });
    const created = new NodejsFunction(this, id, {
      ...handlerCode(handler),
      memorySize: opts.memorySize,
      timeout: opts.timeout,
      role,
      logGroup,
      tracing: lambda.Tracing.ACTIVE,
      description: `${handler}: ${opts.purpose}`,
      environment: environment({ ...p.commonEnv, ...opts.environment }),
      bundling: BUNDLING,
    });
    this.functionsByHandler.set(handler, created);
    return created;
  }
}
