/**
 * Powertools for AWS Lambda: the module-scope Logger, Metrics and Tracer (shared/tracer.ts) every function shares, and the
 * middy middlewares that put them around a handler (`telemetry()`, first in the one middy stack).
 *
 * Nothing here touches the network at import: the Logger and Metrics write to stdout (EMF for metrics), and
 * the Tracer turns itself off outside Lambda (no `AWS_EXECUTION_ENV`) or with `POWERTOOLS_TRACE_ENABLED=false`;
 * inside Lambda it sends segments (UDP to the X-Ray daemon) only when a handler's segment closes.
 *
 * Settings come from the environment the stack sets: `POWERTOOLS_LOG_LEVEL` (or `LOG_LEVEL`),
 * `POWERTOOLS_SERVICE_NAME`, `POWERTOOLS_METRICS_NAMESPACE`; the names of `observability.ts` are the defaults.
 */

import { Logger } from "@aws-lambda-powertools/logger";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { captureLambdaHandler } from "@aws-lambda-powertools/tracer/middleware";
import type { MiddlewareObj, Request } from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { METRIC, METRICS_NAMESPACE } from "./observability.js";
import { readSettings, TELEMETRY } from "./settings.js";
import { serviceName, tracer } from "./tracer.js";

export { tracer };

const env = readSettings(TELEMETRY(), ["POWERTOOLS_METRICS_NAMESPACE"]);

export const logger = new Logger({ serviceName });

export const metrics = new Metrics({ serviceName, namespace: env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE });

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;
type TelemetryRequest = Request<Event, Result, Error, Context>;

/** Start of each invocation, keyed by its middy request (the local gateway runs invocations concurrently). */
const started = new WeakMap<object, number>();

/** The event's route key, e.g. `GET <paths.institutions>/{id}`: the same value as the route table's `${method} ${path}`. */
const routeOf = (event: Event): string => event.routeKey || event.requestContext?.routeKey || "unknown";

/**
 * One INFO line per request (route, status, latency, both request ids), the `ColdStart` metric on an
 * instance's first, and the `ClientError`/`ServerError` counts with a `route` dimension, flushed with the
 * request's other metrics. Both counts are emitted on every request, as 0 or 1: the Average is then the
 * route's error rate, and a request always has a metric to publish (Powertools warns on an empty flush).
 * A 5xx is also logged at ERROR with its stack.
 */
function requestLine(): MiddlewareObj<Event, Result, Error, Context> {
  const finish = (request: TelemetryRequest, error?: unknown) => {
    const route = routeOf(request.event);
    // An error with no response from the error mapping inside this middleware is answered 500 by the runtime.
    const status = request.response?.statusCode ?? (error === undefined ? 200 : 500);
    const begin = started.get(request);
    const latencyMs = begin === undefined ? undefined : Math.round((performance.now() - begin) * 10) / 10;
    metrics.addMetric(METRIC.clientError, MetricUnit.Count, status >= 400 && status < 500 ? 1 : 0);
    metrics.addMetric(METRIC.serverError, MetricUnit.Count, status >= 500 ? 1 : 0);
    // The route dimension goes on in the same synchronous step as the flush that clears it: invocations that
    // share the module (the local gateway runs them concurrently in one process) never find another's
    // dimension there ("Dimension "route" has already been added"), and each flush carries its own route.
    metrics.addDimension("route", route);
    metrics.publishStoredMetrics();
    if (status >= 500 && error !== undefined) {
      logger.error("request failed", error instanceof Error ? error : String(error));
    }
    // Both ids stated here, not only as Powertools' keys: this line must be right even when invocations share a
    // process (the local gateway), where the Logger's per-invocation keys can belong to another request.
    logger.info("request", {
      route,
      status,
      latency_ms: latencyMs,
      lambda_request_id: request.context.awsRequestId,
      apigw_request_id: request.event.requestContext?.requestId,
    });
  };
  return {
    before: (request) => {
      started.set(request, performance.now());
      // The API Gateway request id as `correlation_id` (Powertools' correlationPaths.API_GATEWAY_HTTP).
      logger.setCorrelationId(request.event.requestContext?.requestId);
      metrics.captureColdStartMetric(request.context.functionName);
      tracer.putAnnotation("route", routeOf(request.event));
    },
    after: (request) => finish(request),
    onError: (request) => finish(request, request.error ?? undefined),
  };
}

/**
 * The middlewares, in the order to `use` them, before any other middleware of the stack: the Logger's context
 * (cold start, Lambda request id, the API Gateway request id as `correlation_id`), the handler's trace segment,
 * and the request line with the metrics flush (and the `ColdStart` metric). Registered first, their `after` and
 * `onError` run last, so the request line sees the response the error mapping made.
 */
export function telemetry(): MiddlewareObj<Event, Result, Error, Context>[] {
  return [
    injectLambdaContext(logger, { resetKeys: true }),
    // Responses carry institutions and the audit trail: they stay out of trace metadata.
    captureLambdaHandler(tracer, { captureResponse: false }),
    // The metrics flush is the request line's (below), with the route dimension: not Powertools' logMetrics.
    requestLine(),
  ] as MiddlewareObj<Event, Result, Error, Context>[];
}
