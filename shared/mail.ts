/**
 * Outgoing mail through SES (v2), as a module-scope singleton so warm invocations reuse the connection.
 * The endpoint is overridable for the local SES. Timeouts and retries are bounded: a mail service that
 * does not answer costs the caller a few seconds and a 502, never the whole Lambda timeout.
 *
 * MAIL_FROM and APP_BASE_URL are read once here. Only the functions that send mail get them (see the
 * stack), so their absence is an error at send time, not at load time of every invitation handler.
 */
import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { config } from "./config.js";

export const mailConfig = {
  from: process.env.MAIL_FROM || undefined,
  /** Front-end origin for links in mail, without a trailing slash. */
  appBaseUrl: process.env.APP_BASE_URL?.replace(/\/+$/, "") || undefined,
} as const;

const localCredentials = config.endpoints.ses
  ? { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "local", secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "local" }
  : undefined;

export const ses = new SESv2Client({
  region: config.region,
  endpoint: config.endpoints.ses,
  ...(localCredentials && { credentials: localCredentials }),
  maxAttempts: 2,
  // Enforced: without throwOnRequestTimeout the SDK only logs that 5 s passed and waits on (300 s socket timeout).
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
});

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
      FromEmailAddress: from,
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          // A header cannot carry a line break; strip them so no input can add headers.
          Subject: { Data: mail.subject.replace(/[\r\n]+/g, " "), Charset: "UTF-8" },
          Body: { Text: { Data: mail.text, Charset: "UTF-8" }, Html: { Data: mail.html, Charset: "UTF-8" } },
        },
      },
    }),
  );
}
