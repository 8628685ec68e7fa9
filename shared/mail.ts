/**
 * Outgoing mail through SES, as a module-scope singleton so warm invocations reuse the connection. The
 * endpoint is overridable for the local SES. Timeouts and retries are bounded and enforced: a mail service
 * that does not answer costs the caller a few seconds and a 502, never the whole Lambda timeout.
 *
 * The classic SES API client (`@aws-sdk/client-ses`) rather than SES v2: SendEmail is the same operation,
 * and its client is the smaller one in the two mail functions' bundles.
 *
 * MAIL_FROM and APP_BASE_URL are read once here. Only the functions that send mail get them (see the
 * stack), so their absence is an error at send time, not at load time of every invitation handler.
 */

import { SESClient, SendEmailCommand } from "@aws-sdk/client-ses";
import { localCredentials, observe } from "./aws.js";
import { config } from "./config.js";
import { MAIL, readSettings } from "./settings.js";
import { tracer } from "./tracer.js";

const env = readSettings(MAIL(), ["MAIL_FROM", "APP_BASE_URL", "SES_CONFIGURATION_SET"]);

export const mailConfig = {
  from: env.MAIL_FROM,
  /** Front-end origin for links in mail, without a trailing slash. */
  appBaseUrl: env.APP_BASE_URL?.replace(/\/+$/, "") || undefined,
  configurationSet: env.SES_CONFIGURATION_SET,
} as const;

export const ses = observe(
  new SESClient({
    region: config.region,
    endpoint: config.endpoints.ses,
    ...localCredentials(config.endpoints.ses),
    maxAttempts: 2,
    // Enforced: without throwOnRequestTimeout the SDK only logs that 5 s passed and waits on.
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
  }),
);
tracer.captureAWSv3Client(ses); // X-Ray subsegments for every SES call

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** Throws unless the sender and the link base are configured; call before changing anything that needs a mail. */
export function requireMailConfig(): { from: string; appBaseUrl: string } {
  const { from, appBaseUrl } = mailConfig;
  if (!from || !appBaseUrl) throw new Error("MAIL_FROM and APP_BASE_URL must be set for functions that send mail");
  return { from, appBaseUrl };
}

/** Sends one plain-text + HTML mail; throws when SES refuses or cannot be reached. */
export async function sendMail(mail: Mail): Promise<void> {
  const { from } = requireMailConfig();
  await ses.send(
    new SendEmailCommand({
      Source: from,
      Destination: { ToAddresses: [mail.to] },
      Message: {
        // A header cannot carry a line break; strip them so no input can add headers.
        Subject: { Data: mail.subject.replace(/[\r\n]+/g, " "), Charset: "UTF-8" },
        Body: { Text: { Data: mail.text, Charset: "UTF-8" }, Html: { Data: mail.html, Charset: "UTF-8" } },
      },
      // Bounces and complaints of every send reach the stack's SNS topic (unset locally).
      ...(mailConfig.configurationSet && { ConfigurationSetName: mailConfig.configurationSet }),
    }),
  );
}
