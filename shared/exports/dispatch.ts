/**
 * Starts the export worker for an export the request has recorded, without waiting for it: in AWS an
 * asynchronous invocation of the worker function (Lambda queues it and retries a failed run twice); on the
 * local stack the gateway process runs the same worker code in-process after the request (`runInProcess`).
 */
import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { localCredentials, observe } from "../aws.js";
import { config } from "../config.js";
import { logger } from "../telemetry.js";
import { exportConfig } from "./config.js";

/** What the worker needs: which export of which account. */
export interface ExportJob {
  readonly account: string;
  readonly id: string;
}

type Runner = (job: ExportJob) => Promise<void>;
let inProcess: Runner | undefined;

/** The local stack's gateway runs exports itself (infra/local/workers.ts). */
export function runInProcess(runner: Runner): void {
  inProcess = runner;
}

const lambda = observe(new LambdaClient({ region: config.region, ...localCredentials(undefined) }));

export async function dispatchExport(job: ExportJob): Promise<void> {
  if (inProcess) {
    const run = inProcess;
    // After the response, as an asynchronous invocation would run it.
    setImmediate(() => {
      run(job).catch((err: unknown) => logger.error("export worker failed", { export_id: job.id, error: err as Error }));
    });
    return;
  }
  if (!exportConfig.workerFunction) throw new Error("EXPORT_WORKER_FUNCTION is not set and no in-process worker is registered");
  await lambda.send(
    new InvokeCommand({ FunctionName: exportConfig.workerFunction, InvocationType: "Event", Payload: JSON.stringify(job) }),
  );
}
