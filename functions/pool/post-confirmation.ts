/**
 * The user pool's PostConfirmation trigger (shared/pool-triggers.ts): after a forgotten password was replaced with
 * the code mailed to the person (`PostConfirmation_ConfirmForgotPassword`), `password_reset` in their trail. A
 * confirmed sign-up (`PostConfirmation_ConfirmSignUp`) records nothing: the pool has no self sign-up, and a
 * person joining from an invitation is recorded by the join (`account_created`).
 */
import type { PostConfirmationTriggerEvent } from "aws-lambda";
import { recordPasswordReset } from "../../shared/people/pool-events.js";
import { logger } from "../../shared/telemetry.js";

export const handler = async (event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> => {
  if (event.triggerSource !== "PostConfirmation_ConfirmForgotPassword") return event;
  if (!(await recordPasswordReset(event.request.userAttributes))) {
    logger.warn("a password reset without a sub: not recorded", { userName: event.userName });
  }
  return event;
};
