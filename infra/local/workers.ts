/**
 * The functions a deployed stack invokes without a route, run inside the local gateway's process with the
 * same code (docs/events-out.md): the export worker after each `POST /security_events/exports`, as Lambda's
 * asynchronous invocation would; the stream consumer on DynamoDB Local's stream of the events table, as the
 * event source mapping would; the webhook retrier every second, as the scheduler would every minute.
 */
import type { DynamoDBStreamEvent } from "aws-lambda";
import { handler as exportWorker } from "../../functions/exports/worker.js";
import { handler as consumer } from "../../functions/streaming/consume.js";
import { handler as retrier } from "../../functions/webhooks/retry.js";
import { runInProcess } from "../../shared/exports/dispatch.js";
import { CORE, need, readSettings } from "../../shared/settings.js";
import { asFunction } from "./function-scope.js";
import { startStreamPoller } from "./stream-poller.js";

export interface LocalWorkers {
  stop(): Promise<void>;
}

const RETRY_INTERVAL_MS = 1000;

export async function startLocalWorkers(): Promise<LocalWorkers> {
  // Each as its own function (function-scope.ts): in AWS each has its own role.
  runInProcess((job) => asFunction("exports/worker", () => exportWorker(job)));
  const env = readSettings(CORE(), ["DYNAMODB_ENDPOINT", "AWS_REGION", "EVENTS_TABLE"]);
  const poller = await startStreamPoller({
    endpoint: need(env.DYNAMODB_ENDPOINT, "DYNAMODB_ENDPOINT"),
    region: env.AWS_REGION,
    table: env.EVENTS_TABLE,
    handle: (records) => asFunction("streaming/consume", () => consumer({ Records: records } as unknown as DynamoDBStreamEvent)),
  });
  let retrying: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    retrying = retrying
      .then(() => asFunction("webhooks/retry", () => retrier()))
      .catch((err: unknown) => console.error(`[webhook retrier] ${(err as Error).message}`));
  }, RETRY_INTERVAL_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all([poller.stop(), retrying]);
    },
  };
}
