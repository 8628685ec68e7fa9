/**
 * The two SNS topics an operator subscribes to, alarms and mail feedback, encrypted with a key these services
 * may use: the AWS managed SNS key cannot be granted to CloudWatch or SES.
 */
import { Stack } from "aws-cdk-lib";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import type { Construct } from "constructs";
import { StackPart } from "./part.js";
import type { Settings } from "./settings.js";

export class Notifications extends StackPart {
  readonly alarmTopic: sns.Topic;
  readonly mailFeedbackTopic: sns.Topic;

  constructor(scope: Construct, id: string, settings: Pick<Settings, "alarmEmail">) {
    super(scope, id);
    const key = new kms.Key(this, "NotificationsKey", {
      description: "Encrypts the alarm and mail-feedback SNS topics",
      enableKeyRotation: true,
    });
    this.alarmTopic = new sns.Topic(this, "AlarmTopic", {
      displayName: "Institution Administration API alarms",
      masterKey: key,
      enforceSSL: true,
    });
    this.alarmTopic.grantPublish(servicePrincipal("cloudwatch.amazonaws.com", Stack.of(this).account));
    if (settings.alarmEmail) this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(settings.alarmEmail));
    this.mailFeedbackTopic = new sns.Topic(this, "MailFeedbackTopic", {
      displayName: "Institution Administration API mail bounces and complaints",
      masterKey: key,
      enforceSSL: true,
    });
    this.mailFeedbackTopic.grantPublish(servicePrincipal("ses.amazonaws.com", Stack.of(this).account));
  }
}

/** A service principal acting for this account only (no confused deputy). */
function servicePrincipal(service: string, account: string): iam.IPrincipal {
  return new iam.ServicePrincipal(service).withConditions({ StringEquals: { "aws:SourceAccount": account } });
}
