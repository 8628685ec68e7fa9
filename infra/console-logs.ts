/**
 * The console distribution's access logs (docs/security.md): CloudFront standard logging v2, a CloudWatch Logs
 * vended delivery to the access-log bucket, with the fields chosen here. The legacy logging always writes the
 * query string, and an invitation link (`/invitations/accept?token=…`) would leave its token in every log
 * file; v2 writes only the listed fields, and the query string, cookies and referrer are not among them.
 *
 * CloudFront's delivery source must be created in us-east-1 whatever the stack's region: the stack holds it
 * when it is there (or environment-agnostic, with a deploy-time assertion), otherwise `infra/app.ts` puts it in
 * a stack of its own there (`ConsoleAccessLogsStack`), still delivering to the access-log bucket in the API's
 * region.
 */
import { Aws, CfnRule, Fn, Stack, type StackProps, Token } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as s3 from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";

/** The region of every CloudFront delivery source. */
export const CLOUDFRONT_LOGS_REGION = "us-east-1";

/** The fields of a CloudFront standard log, in CloudFront's order (standard logging reference, v2 and legacy). */
export const CLOUDFRONT_LOG_FIELDS = [
  "date",
  "time",
  "x-edge-location",
  "sc-bytes",
  "c-ip",
  "cs-method",
  "cs(Host)",
  "cs-uri-stem",
  "sc-status",
  "cs(Referer)",
  "cs(User-Agent)",
  "cs-uri-query",
  "cs(Cookie)",
  "x-edge-result-type",
  "x-edge-request-id",
  "x-host-header",
  "cs-protocol",
  "cs-bytes",
  "time-taken",
  "x-forwarded-for",
  "ssl-protocol",
  "ssl-cipher",
  "x-edge-response-result-type",
  "cs-protocol-version",
  "fle-status",
  "fle-encrypted-fields",
  "c-port",
  "time-to-first-byte",
  "x-edge-detailed-result-type",
  "sc-content-type",
  "sc-content-len",
  "sc-range-start",
  "sc-range-end",
] as const;

/**
 * Never delivered: the query string (an accept link's token), cookies, and the referrer (a browser that ignores
 * `Referrer-Policy: no-referrer` would send the accept page's URL, token included, with its next requests); the
 * field-level encryption fields say nothing here (the distribution uses none).
 */
export const WITHHELD_LOG_FIELDS = ["cs-uri-query", "cs(Cookie)", "cs(Referer)", "fle-status", "fle-encrypted-fields"] as const;

/** What each log record holds: CloudFront's fields less the withheld ones, in CloudFront's order. */
export const CONSOLE_LOG_FIELDS: readonly string[] = CLOUDFRONT_LOG_FIELDS.filter(
  (f) => !(WITHHELD_LOG_FIELDS as readonly string[]).includes(f),
);

/**
 * Name of the console's delivery source (and, with a suffix, of its destination): one per API stack, unique in
 * the account's us-east-1 logs resources. 1–60 characters of `[\w-]`.
 */
export function consoleLogsName(stackName: string, suffix: "source" | "destination"): string {
  const name = `${stackName}-console-${suffix}`;
  if (name.length <= 60) return name;
  // A long stack name: its start and a digest of the whole, so two long names still differ.
  let hash = 0;
  for (const ch of name) hash = (Math.imul(hash, 31) + (ch.codePointAt(0) ?? 0)) >>> 0;
  return `${name.slice(0, 51)}-${hash.toString(16).padStart(8, "0")}`;
}

/**
 * Lets CloudWatch Logs deliver the console's access logs to `bucket` (`AWSLogs/<account>/…`, with the ACL that
 * leaves the objects to the bucket owner), for the named delivery source in us-east-1 only. Made in the bucket's
 * stack, wherever the delivery is.
 */
export function grantConsoleLogDelivery(bucket: s3.IBucket, sourceName: string): void {
  const stack = Stack.of(bucket);
  bucket.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: "AWSLogDeliveryWrite",
      principals: [new iam.ServicePrincipal("delivery.logs.amazonaws.com")],
      actions: ["s3:PutObject"],
      resources: [bucket.arnForObjects(`AWSLogs/${stack.account}/*`)],
      conditions: {
        StringEquals: { "s3:x-amz-acl": "bucket-owner-full-control", "aws:SourceAccount": stack.account },
        ArnLike: {
          "aws:SourceArn": `arn:${stack.partition}:logs:${CLOUDFRONT_LOGS_REGION}:${stack.account}:delivery-source:${sourceName}`,
        },
      },
    }),
  );
}

export interface ConsoleAccessLogsProps {
  /** The console's distribution (`arn:aws:cloudfront::<account>:distribution/<id>`). */
  readonly distributionArn: string;
  /** The access-log bucket, in any region; `grantConsoleLogDelivery` lets the delivery write there. */
  readonly bucketArn: string;
  /** From `consoleLogsName(stackName, …)` of the API stack. */
  readonly sourceName: string;
  readonly destinationName: string;
}

/** The delivery source (the distribution's ACCESS_LOGS), the S3 destination and the delivery with its fields. */
export class ConsoleAccessLogs extends Construct {
  readonly source: logs.CfnDeliverySource;
  readonly destination: logs.CfnDeliveryDestination;
  readonly delivery: logs.CfnDelivery;

  constructor(scope: Construct, id: string, props: ConsoleAccessLogsProps) {
    super(scope, id);
    this.source = new logs.CfnDeliverySource(this, "Source", {
      name: props.sourceName,
      logType: "ACCESS_LOGS",
      resourceArn: props.distributionArn,
    });
    this.destination = new logs.CfnDeliveryDestination(this, "Destination", {
      name: props.destinationName,
      destinationResourceArn: props.bucketArn,
      // One JSON object per request: each record names its fields, so leaving fields out shifts no column.
      outputFormat: "json",
    });
    this.delivery = new logs.CfnDelivery(this, "Delivery", {
      deliverySourceName: props.sourceName,
      deliveryDestinationArn: this.destination.attrArn,
      recordFields: [...CONSOLE_LOG_FIELDS],
    });
    // The source is named, not referenced: the delivery must still wait for it.
    this.delivery.addResourceDependency(this.source);
  }
}

/**
 * Refuses, before creating anything, to deploy an environment-agnostic template that holds the delivery source
 * outside us-east-1 (CloudFront's delivery sources exist only there).
 */
export function assertLogsRegion(scope: Construct, id: string): void {
  new CfnRule(scope, id, {
    assertions: [
      {
        assert: Fn.conditionEquals(Aws.REGION, CLOUDFRONT_LOGS_REGION),
        assertDescription:
          "CloudFront's access-log delivery must be created in us-east-1: deploy there, or synthesize with the target region " +
          "(cdk deploy does, from the CLI profile) so that app.ts puts it in a stack of its own there",
      },
    ],
  });
}

/** A stack in us-east-1 that holds only the console's log delivery, for an API deployed in another region. */
export class ConsoleAccessLogsStack extends Stack {
  readonly accessLogs: ConsoleAccessLogs;

  constructor(scope: Construct, id: string, props: StackProps & ConsoleAccessLogsProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    this.accessLogs = new ConsoleAccessLogs(this, "ConsoleAccessLogs", props);
  }
}

/**
 * The distribution's access logs: standard logging v2, without the query string. Its delivery source lives in
 * us-east-1: here when `stack` is there, otherwise (`elsewhere`) in app.ts's stack there.
 */
export function consoleAccessLogs(
  stack: Stack,
  logBucket: s3.Bucket,
  distributionArn: string,
  elsewhere: boolean | undefined,
): ConsoleAccessLogs | undefined {
  const logSource = consoleLogsName(stack.stackName, "source");
  grantConsoleLogDelivery(logBucket, logSource);
  if (elsewhere) return undefined;
  if (!Token.isUnresolved(stack.region) && stack.region !== CLOUDFRONT_LOGS_REGION) {
    throw new Error(
      `CloudFront's access-log delivery lives in us-east-1: pass consoleLogsElsewhere for a stack in ${stack.region} and make it there (app.ts does)`,
    );
  }
  const logs = new ConsoleAccessLogs(stack, "ConsoleAccessLogs", {
    distributionArn,
    bucketArn: logBucket.bucketArn,
    sourceName: logSource,
    destinationName: consoleLogsName(stack.stackName, "destination"),
  });
  // Made after the bucket policy that lets it write: CloudWatch Logs would otherwise edit that policy itself.
  if (logBucket.policy) logs.node.addDependency(logBucket.policy);
  // An environment-agnostic template: refuse, before creating anything, a deployment outside us-east-1.
  if (Token.isUnresolved(stack.region)) assertLogsRegion(stack, "ConsoleLogsRegion");
  return logs;
}
