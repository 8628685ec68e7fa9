/**
 * The user pool's PostAuthentication trigger (shared/pool-triggers.ts): every completed sign-in is recorded in the
 * person's own trail as `sign_in`, before Cognito hands out the tokens. If it cannot be recorded, the function fails
 * and Cognito refuses the sign-in: no sign-in without its event. A failed sign-in never gets here; the pool's
 * activity export reports it (functions/pool/activity.ts).
 */
import type { PostAuthenticationTriggerEvent } from "aws-lambda";
import { recordSignIn } from "../../shared/people/pool-events.js";
import { logger } from "../../shared/telemetry.js";

export const handler = async (event: PostAuthenticationTriggerEvent): Promise<PostAuthenticationTriggerEvent> => {
  if (!(await recordSignIn(event.request.userAttributes)))
    logger.warn("a sign-in without a sub: not recorded", { userName: event.userName });
  return event;
};
