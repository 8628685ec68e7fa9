/**
 * The subscriber of the user pool's user-activity export (shared/pool-triggers.ts): the export's log group
 * delivers each batch of records here (a CloudWatch Logs subscription filter, infra/pool-triggers.ts), and what
 * no trigger sees, a failed sign-in or a password change, goes into the person's trail (shared/people/activity.ts).
 * Locally the Cognito stand-in delivers the same records the same way (infra/local/cognito-local.mjs).
 */
import type { CloudWatchLogsEvent } from "aws-lambda";
import { recordActivity } from "../../shared/people/activity.js";
import { logger } from "../../shared/telemetry.js";

export const handler = async (event: CloudWatchLogsEvent): Promise<void> => {
  const counts = await recordActivity(event.awslogs.data);
  logger.info("pool activity read", counts);
};
