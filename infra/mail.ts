/**
 * Invitation mail: the SES configuration set every send goes through, the sender's identity (created, or
 * imported when it exists), and in the sandbox the test recipients' identities.
 */
import { CfnOutput, Fn, Stack } from "aws-cdk-lib";
import * as ses from "aws-cdk-lib/aws-ses";
import type * as sns from "aws-cdk-lib/aws-sns";
import type { Construct } from "constructs";
import { StackPart } from "./part.js";

export interface MailProps {
  readonly senderEmail: string;
  readonly senderDomain?: string | undefined;
  readonly importSenderIdentity?: boolean | undefined;
  readonly sandboxRecipients?: readonly string[] | undefined;
  /** Bounces and complaints go here. */
  readonly feedbackTopic: sns.ITopic;
}

export class Mail extends StackPart {
  readonly configurationSet: ses.ConfigurationSet;
  /** What ses:SendEmail is authorized against: the sender identity, the configuration set, any sandbox recipients. */
  readonly sendResources: string[];
  /** The sender's identity: the user pool sends through it too, with `-c poolMail=ses` (pool-triggers.ts). */
  readonly senderIdentityArn: string;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, "MailConfigurationSet", {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.addEventDestination("Feedback", {
      destination: ses.EventDestination.snsTopic(props.feedbackTopic),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
    const configurationSetArn = Stack.of(this).formatArn({
      service: "ses",
      resource: "configuration-set",
      resourceName: this.configurationSet.configurationSetName,
    });

    if (props.senderDomain !== undefined && !props.senderEmail.toLowerCase().endsWith(`@${props.senderDomain.toLowerCase()}`)) {
      throw new Error(`senderEmail ${props.senderEmail} is not in senderDomain ${props.senderDomain}`);
    }
    // Created (SES mails a verification link, or waits for the DKIM records) unless it already exists in the
    // account, where creating fails.
    const senderIdentityName = props.senderDomain ?? props.senderEmail;
    let sender: ses.IEmailIdentity;
    if (props.importSenderIdentity) {
      sender = ses.EmailIdentity.fromEmailIdentityName(this, "SenderIdentity", senderIdentityName);
    } else if (props.senderDomain !== undefined) {
      const domain = new ses.EmailIdentity(this, "SenderIdentity", {
        identity: ses.Identity.domain(props.senderDomain),
        dkimSigning: true,
        dkimIdentity: ses.DkimIdentity.easyDkim(ses.EasyDkimSigningKeyLength.RSA_2048_BIT),
        configurationSet: this.configurationSet,
      });
      domain.dkimRecords.forEach((record, i) => {
        new CfnOutput(this, `DkimRecord${i + 1}`, {
          value: Fn.join(" ", [record.name, "CNAME", record.value]),
          description: `DKIM record ${i + 1} of 3 to publish in ${props.senderDomain}'s DNS`,
        });
      });
      sender = domain;
    } else {
      sender = new ses.EmailIdentity(this, "SenderIdentity", {
        identity: ses.Identity.email(props.senderEmail),
        configurationSet: this.configurationSet,
      });
    }
    this.senderIdentityArn = sender.emailIdentityArn;
    this.sendResources = [sender.emailIdentityArn, configurationSetArn];
    (props.sandboxRecipients ?? []).forEach((address, i) => {
      const recipient = new ses.EmailIdentity(this, `SandboxRecipient${i}`, { identity: ses.Identity.email(address) });
      this.sendResources.push(recipient.emailIdentityArn);
    });
  }
}
