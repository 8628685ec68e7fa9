/**
 * The stack's outputs: what a deployer and `npm run verify-trail` read after a deploy. Made in the stack's own
 * scope, so their names are the ones they always had.
 */
import { CfnOutput, type Stack } from "aws-cdk-lib";
import type * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import type * as cognito from "aws-cdk-lib/aws-cognito";
import type * as events from "aws-cdk-lib/aws-events";
import type * as kms from "aws-cdk-lib/aws-kms";
import type * as ses from "aws-cdk-lib/aws-ses";
import type * as sns from "aws-cdk-lib/aws-sns";
import type { Tables } from "./tables.js";

export interface Outputs {
  readonly consoleUrl: string;
  readonly apiUrl: string;
  /** The API is reached through the console's distribution only (`apiOrigin`). */
  readonly fronted: boolean;
  readonly userPool: cognito.IUserPool;
  readonly userPoolClient: cognito.IUserPoolClient;
  readonly tables: Tables;
  readonly bus: events.IEventBus;
  readonly distribution: cloudfront.IDistribution;
  readonly alarmTopic: sns.ITopic;
  readonly mailFeedbackTopic: sns.ITopic;
  readonly mailConfigurationSet: ses.IConfigurationSet;
  /** The dashboard's name, known here: its resource lives in the monitoring's nested stack (monitoring.ts). */
  readonly dashboardName: string;
  /** The digests' signing key (trail.ts). */
  readonly trailSigningKey: kms.IKey;
}

export function addOutputs(stack: Stack, o: Outputs): void {
  new CfnOutput(stack, "ConsoleUrl", { value: o.consoleUrl, description: "The console; the API is under /api/ on it too" });
  new CfnOutput(stack, "ApiUrl", {
    value: o.apiUrl,
    description: o.fronted
      ? "Base URL of the API: the console's distribution, its only way in"
      : "Base URL of the API (API Gateway's own endpoint)",
  });
  new CfnOutput(stack, "UserPoolId", { value: o.userPool.userPoolId });
  new CfnOutput(stack, "UserPoolClientId", { value: o.userPoolClient.userPoolClientId });
  new CfnOutput(stack, "MainTableName", { value: o.tables.main.tableName });
  new CfnOutput(stack, "EventsTableName", { value: o.tables.events.tableName });
  new CfnOutput(stack, "TrailSigningKeyArn", {
    value: o.trailSigningKey.keyArn,
    description: "The digests' KMS key: aws kms get-public-key gives the key to pin in npm run verify-trail",
  });
  new CfnOutput(stack, "IdempotencyTableName", { value: o.tables.idempotency.tableName });
  new CfnOutput(stack, "EventBusName", {
    value: o.bus.eventBusName,
    description: "Every recorded event (source institution-admin, detail-type the event type): add your rules here",
  });
  new CfnOutput(stack, "EventBusArn", { value: o.bus.eventBusArn });
  new CfnOutput(stack, "DistributionId", { value: o.distribution.distributionId });
  new CfnOutput(stack, "AlarmTopicArn", { value: o.alarmTopic.topicArn, description: "Alarms and their recovery" });
  new CfnOutput(stack, "MailFeedbackTopicArn", { value: o.mailFeedbackTopic.topicArn, description: "SES bounces and complaints" });
  new CfnOutput(stack, "MailConfigurationSetName", { value: o.mailConfigurationSet.configurationSetName });
  new CfnOutput(stack, "DashboardUrl", {
    value: `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${o.dashboardName}`,
  });
}
