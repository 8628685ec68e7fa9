/**
 * The audit trail as evidence (docs/trail.md), deployed: the KMS signing key (ECC_NIST_P256, SIGN_VERIFY), the
 * digest function with an EventBridge Scheduler schedule a few minutes after every hour, the S3 bucket that
 * keeps a copy of every digest (Object Lock in compliance mode in prod, so that rewriting the table cannot
 * rewrite history), and the public key, read once at deployment and handed to the route that serves it.
 * Retention comes from the settings: every function learns it, and the bucket keeps copies as long.
 */
import { type CfnElement, CustomResource, Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as scheduler from "aws-cdk-lib/aws-scheduler";
import * as targets from "aws-cdk-lib/aws-scheduler-targets";
import { Provider } from "aws-cdk-lib/custom-resources";
import { Construct } from "constructs";
import { environment } from "../shared/settings.js";
import { EVENT_KEY_PREFIXES } from "../shared/tables.js";
import { ARCHITECTURE, BUNDLING, handlerCode, RUNTIME } from "./api-function.js";
import { addEnvironment } from "./environment.js";
import type { Settings } from "./settings.js";
import { leadingKeys } from "./tables.js";

/** The one route that serves the digests and the public key (shared/routes.ts). */
export const DIGESTS_HANDLER = "security-events/digests";

export interface EvidenceTrailProps {
  readonly settings: Settings;
  readonly mainTable: dynamodb.ITable;
  readonly eventsTable: dynamodb.ITable;
  /** The API's functions by handler: each learns the retention; the digests route also the public key. */
  readonly functions: ReadonlyMap<string, lambda.Function>;
  /** Server access logs of the digest bucket. */
  readonly accessLogsBucket?: s3.IBucket;
}

export class EvidenceTrail extends Construct {
  readonly signingKey: kms.Key;
  readonly bucket: s3.Bucket;
  readonly digestFunction: NodejsFunction;
  readonly schedule: scheduler.Schedule;
  /** The signing key's public key, base64 DER (SPKI), as KMS GetPublicKey gives it. */
  readonly publicKey: string;

  constructor(scope: Construct, id: string, props: EvidenceTrailProps) {
    super(scope, id);
    const { settings } = props;
    const retention = Duration.days(settings.eventRetentionDays);

    this.signingKey = new kms.Key(this, "SigningKey", {
      description: "Signs the audit trail's hourly digests (ECDSA P-256)",
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      // Digests signed with it must stay verifiable after the stack is gone.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.bucket = new s3.Bucket(this, "DigestBucket", {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      ...(settings.digestObjectLock && {
        objectLockEnabled: true,
        objectLockDefaultRetention: s3.ObjectLockRetention.compliance(retention),
      }),
      lifecycleRules: [{ expiration: retention, noncurrentVersionExpiration: retention }],
      ...(props.accessLogsBucket && { serverAccessLogsBucket: props.accessLogsBucket, serverAccessLogsPrefix: "digests/" }),
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // ---- The digest function: reads events and markers, writes digests; signs; copies to the bucket. ----
    const logGroup = new logs.LogGroup(this, "DigestLogs", { retention: settings.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, "DigestRole", {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: "Runs functions/trail/digest.ts",
    });
    logGroup.grantWrite(role);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: "ReadEvents",
        actions: ["dynamodb:GetItem", "dynamodb:Query"],
        resources: [props.eventsTable.tableArn],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: "AddDigests",
        actions: ["dynamodb:PutItem"],
        resources: [props.eventsTable.tableArn],
        conditions: leadingKeys(EVENT_KEY_PREFIXES.digests),
      }),
    );
    // Its progress (`DIGESTER` / `STATE`, saved at the end of each scheduled run): that one key exactly, which
    // the prefix patterns above do not cover (a run saving it was denied; test/integration/iam.test.ts).
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: "SaveProgress",
        actions: ["dynamodb:PutItem"],
        resources: [props.eventsTable.tableArn],
        conditions: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": [...EVENT_KEY_PREFIXES.digesterProgress] } },
      }),
    );
    role.addToPrincipalPolicy(new iam.PolicyStatement({ sid: "SignDigests", actions: ["kms:Sign"], resources: [this.signingKey.keyArn] }));
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ sid: "CopyDigests", actions: ["s3:PutObject"], resources: [this.bucket.arnForObjects("*")] }),
    );
    const logicalId = (c: Construct) => Stack.of(this).getLogicalId(c.node.defaultChild as CfnElement);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalId(this.bucket)}.Arn>/*]`,
      reason: "The digest function writes one new object per digest; the keys are not known in advance.",
    });
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: "Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.",
    });

    this.digestFunction = new NodejsFunction(this, "DigestFunction", {
      ...handlerCode("trail/digest"),
      memorySize: 512,
      // One run digests every account of the hour; a backlog after an outage takes longer.
      timeout: Duration.minutes(10),
      role,
      logGroup,
      tracing: lambda.Tracing.ACTIVE,
      // One run at a time: two would only race for the same digests.
      reservedConcurrentExecutions: 1,
      // `<name>: …` as the API's functions, so the bench names it.
      description: "trail/digest: writes the audit trail's signed hourly digests (EventBridge Scheduler)",
      environment: environment({
        MAIN_TABLE: props.mainTable.tableName,
        EVENTS_TABLE: props.eventsTable.tableName,
        EVENT_RETENTION_DAYS: String(settings.eventRetentionDays),
        DIGEST_PERIOD_SECONDS: "3600",
        DIGEST_KEY_ARN: this.signingKey.keyArn,
        DIGEST_BUCKET: this.bucket.bucketName,
        NODE_OPTIONS: "--enable-source-maps",
      }),
      bundling: BUNDLING,
    });

    // Five minutes past every hour (UTC): the hour's requests have long committed (their timeout is 15 s).
    const schedulerRole = new iam.Role(this, "SchedulerRole", {
      assumedBy: new iam.ServicePrincipal("scheduler.amazonaws.com").withConditions({
        StringEquals: { "aws:SourceAccount": Stack.of(this).account },
      }),
      description: "Lets EventBridge Scheduler invoke the digest function",
    });
    this.schedule = new scheduler.Schedule(this, "HourlyDigests", {
      description: "Digests the audit trail's previous hour",
      schedule: scheduler.ScheduleExpression.cron({ minute: "5" }),
      target: new targets.LambdaInvoke(this.digestFunction, { role: schedulerRole, retryAttempts: 3, maxEventAge: Duration.minutes(50) }),
    });
    Validations.of(schedulerRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalId(this.digestFunction)}.Arn>:*]`,
      reason: "CDK's Lambda target grants invoking the digest function's versions too; the role can invoke nothing else.",
    });

    // ---- The public key, read from KMS once per deployment, for the route that serves it. ----
    const publisherRole = new iam.Role(this, "PublicKeyReaderRole", {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: "Reads the digest signing key's public key at deployment",
    });
    publisherRole.addToPrincipalPolicy(
      new iam.PolicyStatement({ sid: "ReadPublicKey", actions: ["kms:GetPublicKey"], resources: [this.signingKey.keyArn] }),
    );
    const publisherLogs = new logs.LogGroup(this, "PublicKeyReaderLogs", {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    publisherLogs.grantWrite(publisherRole);
    const reader = new lambda.Function(this, "PublicKeyReader", {
      runtime: RUNTIME,
      architecture: ARCHITECTURE,
      handler: "index.handler",
      role: publisherRole,
      logGroup: publisherLogs,
      timeout: Duration.seconds(30),
      description: "Custom resource: KMS GetPublicKey of the digest signing key",
      // The runtime's own AWS SDK: nothing to bundle for eight lines.
      code: lambda.Code.fromInline(
        [
          'const { KMSClient, GetPublicKeyCommand } = require("@aws-sdk/client-kms");',
          "exports.handler = async (event) => {",
          '  if (event.RequestType === "Delete") return { PhysicalResourceId: event.PhysicalResourceId };',
          "  const keyId = event.ResourceProperties.KeyId;",
          "  const out = await new KMSClient({}).send(new GetPublicKeyCommand({ KeyId: keyId }));",
          '  return { PhysicalResourceId: keyId, Data: { PublicKey: Buffer.from(out.PublicKey).toString("base64") } };',
          "};",
        ].join("\n"),
      ),
    });
    const provider = new Provider(this, "PublicKeyProvider", { onEventHandler: reader });
    Validations.of(provider).acknowledge(
      {
        id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
        reason: "CDK's custom-resource framework function, which runs only during deployments.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${logicalId(reader)}.Arn>:*]`,
        reason: "CDK's custom-resource framework invokes any version of the public-key reader.",
      },
    );
    const publicKey = new CustomResource(this, "PublicKey", {
      serviceToken: provider.serviceToken,
      properties: { KeyId: this.signingKey.keyArn },
    });
    this.publicKey = publicKey.getAttString("PublicKey");

    for (const [handler, fn] of props.functions) {
      addEnvironment(fn, { EVENT_RETENTION_DAYS: String(settings.eventRetentionDays) });
      if (handler === DIGESTS_HANDLER) addEnvironment(fn, { DIGEST_KEY_ID: this.signingKey.keyArn, DIGEST_PUBLIC_KEY: this.publicKey });
    }
    if (!props.functions.has(DIGESTS_HANDLER)) throw new Error(`No function for ${DIGESTS_HANDLER}: the digests route is missing`);
  }
}
