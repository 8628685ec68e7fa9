// Run every minute by EventBridge Scheduler (infra/streaming.ts), not by a route: attempts the due webhook retries.
import { logger } from "../../shared/telemetry.js";
import { runDueRetries } from "../../shared/webhooks/retrier.js";

export const handler = async (): Promise<{ attempted: number }> => {
  const attempted = await runDueRetries();
  if (attempted > 0) logger.info("webhook retries attempted", { attempted });
  return { attempted };
};
