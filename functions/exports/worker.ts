// Invoked asynchronously by `POST /security_events/exports` (shared/exports/dispatch.ts), not by a route.
import type { ExportJob } from "../../shared/exports/dispatch.js";
import { runExport } from "../../shared/exports/worker.js";
import { logger } from "../../shared/telemetry.js";

export const handler = async (job: ExportJob): Promise<void> => {
  logger.appendKeys({ export_id: job.id });
  await runExport(job);
};
