/**
 * The functions a deployed stack invokes without a route, run inside the local gateway's process with the
 * same code (DESIGN.md §11): the export worker after each `POST /security_events/exports`, as Lambda's
 * asynchronous invocation would run it.
 */

import { handler as exportWorker } from "../../functions/exports/worker.js";
import { runInProcess } from "../../shared/exports/dispatch.js";

export interface LocalWorkers {
  stop(): Promise<void>;
}

export async function startLocalWorkers(): Promise<LocalWorkers> {
  runInProcess(exportWorker);
  return { stop: async () => {} };
}
