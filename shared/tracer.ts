/**
 * The Powertools Tracer every function shares (shared/telemetry.ts re-exports it), in a module of its own: the AWS
 * clients trace through it, and a function that only reads (the two authorizers) then loads the Tracer without the
 * Logger and Metrics that telemetry.ts builds for the middy stack (docs/cold-starts.md).
 *
 * Off outside Lambda (no `AWS_EXECUTION_ENV`) or with `POWERTOOLS_TRACE_ENABLED=false`; inside Lambda it sends
 * segments (UDP to the X-Ray daemon) only when a handler's segment closes.
 */
import { Tracer } from "@aws-lambda-powertools/tracer";
import { SERVICE_NAME } from "./observability.js";
import { readSettings, TELEMETRY } from "./settings.js";

/** `POWERTOOLS_SERVICE_NAME`, else the name of observability.ts: the Logger's, the Metrics' and the Tracer's. */
export const serviceName = readSettings(TELEMETRY(), ["POWERTOOLS_SERVICE_NAME"]).POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME;

export const tracer = new Tracer({ serviceName });
