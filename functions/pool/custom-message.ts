/**
 * The user pool's CustomMessage trigger (shared/pool-triggers.ts): every mail the pool sends in the service's
 * words (shared/pool-mail.ts): a temporary password, a reset code, a verification code. Cognito puts the code
 * and the user name into the message and sends it. Locally cognito-local invokes this same module (through the
 * gateway's Lambda endpoint, infra/local/lambda.ts) and its stand-in puts the mail on the local mail page.
 */
import type { CustomMessageTriggerEvent } from "aws-lambda";
import { poolMail } from "../../shared/pool-mail.js";
import { MAIL, need, readSettings } from "../../shared/settings.js";
import { logger } from "../../shared/telemetry.js";

const appBaseUrl = readSettings(MAIL(), ["APP_BASE_URL"]).APP_BASE_URL?.replace(/\/+$/, "");

export const handler = async (event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> => {
  const { request } = event;
  const mail = poolMail({
    triggerSource: event.triggerSource,
    codeParameter: request.codeParameter,
    usernameParameter: request.usernameParameter ?? "{username}",
    email: request.userAttributes.email,
    name: request.userAttributes.name,
    metadata: request.clientMetadata,
    // A deployment fault, not a person's: this function fails (its alarm) rather than let Cognito send its own words.
    appBaseUrl: need(appBaseUrl, "APP_BASE_URL"),
  });
  if (!mail) {
    logger.warn("no words for this pool message; Cognito sends its own", { triggerSource: event.triggerSource });
    return event;
  }
  event.response.emailSubject = mail.subject;
  event.response.emailMessage = mail.html;
  logger.info("pool mail written", { triggerSource: event.triggerSource, kind: mail.kind });
  return event;
};
