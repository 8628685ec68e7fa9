/**
 * The upgrade's backfill of the senders' records of invitations (docs/operations.md, "Upgrading to the senders'
 * records of invitations"): a custom resource whose function (functions/invitations/backfill-sent.ts) writes the
 * record each invitation sent by an earlier release lacks, so that removing its sender revokes it. CloudFormation
 * creates the resource on the first deploy of this release, and so runs it once; later deploys leave it as it is
 * (its properties do not change). It depends on the API's functions, so it runs once the functions that send
 * invitations write the records themselves: none sent after the backfill's read can lack one.
 *
 * Its role may Scan the `by_invitation_sender` index (the one read, not a request's: docs/iam.md) and put items of
 * `USER#` partitions (a person's own), nothing else of the table.
 */
import { type CfnElement, CustomResource, Duration, RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import { Provider } from "aws-cdk-lib/custom-resources";
import type { Construct } from "constructs";
import { type Environment, environment } from "../shared/settings.js";
import { invitationSenderIndex, keys } from "../shared/tables.js";
import { BUNDLING, bundlingDefine, handlerCode } from "./api-function.js";
import { StackPart } from "./part.js";
import type { Settings } from "./settings.js";

export const BACKFILL_HANDLER = "invitations/backfill-sent";

/**
 * What the resource's properties say: a new value makes CloudFormation send an Update, which runs the backfill
 * again. It stays as it is; the backfill is safe to run again, by hand too (docs/operations.md).
 */
export const BACKFILL_RUN = "1";

export interface SentRecordsBackfillProps extends Pick<Settings, "logRetention"> {
  readonly mainTableArn: string;
  /** The functions' common environment (the main table). */
  readonly environment: Environment;
  /** What must be deployed first: the functions that send invitations (and write their records). */
  readonly after: readonly Construct[];
}

export class SentRecordsBackfill extends StackPart {
  readonly function: NodejsFunction;
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: SentRecordsBackfillProps) {
    super(scope, id);
    const logGroup = new logs.LogGroup(this, "BackfillLogs", { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, "BackfillRole", {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `Runs functions/${BACKFILL_HANDLER}.ts`,
    });
    logGroup.grantWrite(role);
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: "ScanActiveInvitations",
        actions: ["dynamodb:Scan"],
        resources: [`${props.mainTableArn}/index/${invitationSenderIndex.name}`],
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: "PutSentRecords",
        actions: ["dynamodb:PutItem"],
        resources: [props.mainTableArn],
        // IAM sees the partition key only: a person's partition, where the records are (keys.sentInvitation).
        conditions: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": [`${keys.accessPartition("")}*`] } },
      }),
    );
    this.function = new NodejsFunction(this, "Backfill", {
      ...handlerCode(BACKFILL_HANDLER),
      memorySize: 512,
      // Lambda's longest: the whole index is read and written in one run (docs/operations.md, its rate).
      timeout: Duration.minutes(15),
      role,
      logGroup,
      description: `${BACKFILL_HANDLER}: the upgrade's backfill of the senders' records of invitations (custom resource)`,
      environment: environment(props.environment),
      bundling: { ...BUNDLING, define: bundlingDefine(false) },
    });
    const frameworkLogs = new logs.LogGroup(this, "BackfillProviderLogs", {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const provider = new Provider(this, "BackfillProvider", { onEventHandler: this.function, logGroup: frameworkLogs });
    const logicalId = (c: Construct) => Stack.of(this).getLogicalId(c.node.defaultChild as CfnElement);
    Validations.of(provider).acknowledge(
      {
        id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
        reason: "CDK's custom-resource framework function, which runs only during deployments.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${logicalId(this.function)}.Arn>:*]`,
        reason: "CDK's custom-resource framework invokes any version of the backfill's function.",
      },
    );
    this.resource = new CustomResource(this, "SentRecordsBackfill", {
      serviceToken: provider.serviceToken,
      resourceType: "Custom::SentRecordsBackfill",
      properties: { Run: BACKFILL_RUN },
    });
    for (const c of props.after) this.resource.node.addDependency(c);
  }
}
