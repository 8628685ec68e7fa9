/**
 * shared/telemetry.ts around a tiny middy handler, invoked in this process as Lambda would invoke it (a
 * payload-2.0 event and a Lambda context from the local gateway): what it writes to stdout is read back as
 * CloudWatch would read it, the request line as JSON and the metrics as EMF.
 */
import dgram from "node:dgram";
import dns from "node:dns";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import middy from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildEvent, lambdaContext, matchRoute } from "../../infra/local/gateway.js";
import { METRIC, METRICS_NAMESPACE, SERVICE_NAME } from "../../shared/observability.js";
import { paths } from "../../shared/routes.js";

// biome-ignore lint/suspicious/noExplicitAny: log lines and EMF documents are untyped JSON.
type Json = any;

// As the stack sets them, plus what Lambda sets for an on-demand instance (Powertools reads its cold start from
// it); the Tracer stays off, as it does outside Lambda.
Object.assign(process.env, {
  AWS_LAMBDA_INITIALIZATION_TYPE: "on-demand",
  POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
  POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
  POWERTOOLS_LOG_LEVEL: "INFO",
  POWERTOOLS_METRICS_DISABLED: "false",
});
delete process.env.AWS_EXECUTION_ENV;
delete process.env.POWERTOOLS_DEV;

type Telemetry = typeof import("../../shared/telemetry.js");
// Imported after the environment above: Powertools reads it at construction.
const telemetry: Telemetry = await import("../../shared/telemetry.js");

class NotFound extends Error {
  readonly status = 404;
}

/** A stand-in for the error mapping of the lead's middy stack: registered after telemetry, its onError runs first. */
const errorMapping: middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> = {
  onError: async (request) => {
    const status = request.error instanceof NotFound ? 404 : 500;
    request.response = { statusCode: status, body: JSON.stringify({ error: status === 404 ? "not found" : "Internal server error" }) };
  },
};

function handlerWith(fn: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(telemetry.telemetry())
    .use(errorMapping)
    .handler(fn);
}

let requestCount = 0;
function eventFor(method: string, path: string): APIGatewayProxyEventV2 {
  const match = matchRoute(method, path);
  if (!match) throw new Error(`no route for ${method} ${path}`);
  const req = { headersDistinct: { host: ["api.example.com"] }, socket: { remoteAddress: "203.0.113.9" }, httpVersion: "1.1" };
  return buildEvent({
    req: req as unknown as IncomingMessage,
    match,
    rawPath: path,
    rawQueryString: "",
    body: Buffer.alloc(0),
    claims: { sub: "user-1" },
    requestId: `apigw-${++requestCount}-${Date.now()}`,
    now: new Date(),
  });
}

/** Runs one invocation and returns what it wrote (stdout and stderr, as CloudWatch reads both), one JSON document per line. */
async function invoke(handler: ReturnType<typeof handlerWith>, event: APIGatewayProxyEventV2, context: Context) {
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  };
  const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const err = vi.spyOn(process.stderr, "write").mockImplementation(capture);
  try {
    const result = await handler(event, context);
    return { result, docs: lines.map((l) => JSON.parse(l) as Json) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const requestLines = (docs: Json[]) => docs.filter((d) => d.message === "request");
const emf = (docs: Json[]) => docs.filter((d) => d._aws !== undefined);
/** The EMF documents that carry `name`, each with its directive. */
function metricDocs(docs: Json[], name: string): { doc: Json; directive: Json }[] {
  return emf(docs).flatMap((doc) =>
    (doc._aws.CloudWatchMetrics as Json[])
      .filter((d) => (d.Metrics as Json[]).some((m) => m.Name === name))
      .map((directive) => ({ doc, directive })),
  );
}

afterEach(() => vi.restoreAllMocks());

describe("telemetry middlewares", () => {
  const context = () => lambdaContext("institutions/show", "us-east-1", Date.now() + 15_000);
  const handler = handlerWith(async (event) => {
    if (event.pathParameters?.id === "missing") throw new NotFound("no such institution");
    if (event.pathParameters?.id === "boom") throw new Error("the table is gone");
    return { statusCode: 200, body: "{}" };
  });
  // Invoked in order: the first one is the cold start.
  let cold: Awaited<ReturnType<typeof invoke>>;
  let coldEvent: APIGatewayProxyEventV2;
  let coldContext: Context;

  it("logs one INFO line per request: route, status, latency, both request ids, the cold start", async () => {
    coldEvent = eventFor("GET", `${paths.institutions}/inst-1`);
    coldContext = context();
    cold = await invoke(handler, coldEvent, coldContext);
    expect(cold.result?.statusCode).toBe(200);
    const lines = requestLines(cold.docs);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: "INFO",
      service: SERVICE_NAME,
      route: `GET ${paths.institutions}/{id}`,
      status: 200,
      lambda_request_id: coldContext.awsRequestId,
      apigw_request_id: coldEvent.requestContext.requestId,
      // Powertools' own keys: the Lambda context, and the API Gateway request id as correlation id.
      function_request_id: coldContext.awsRequestId,
      correlation_id: coldEvent.requestContext.requestId,
      function_name: coldContext.functionName,
      cold_start: true,
    });
    expect(typeof line.latency_ms).toBe("number");
    expect(line.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("emits EMF: ClientError and ServerError (0 on success) with the route dimension, and ColdStart once", () => {
    for (const name of [METRIC.clientError, METRIC.serverError]) {
      const found = metricDocs(cold.docs, name);
      expect(found, name).toHaveLength(1);
      const [{ doc, directive }] = found as [{ doc: Json; directive: Json }];
      expect(directive.Namespace).toBe(METRICS_NAMESPACE);
      expect(directive.Dimensions).toEqual([["service", "route"]]);
      expect(doc.service).toBe(SERVICE_NAME);
      expect(doc.route).toBe(`GET ${paths.institutions}/{id}`);
      expect(doc[name]).toBe(0);
      expect(typeof doc._aws.Timestamp).toBe("number");
    }
    const coldStart = metricDocs(cold.docs, "ColdStart");
    expect(coldStart).toHaveLength(1);
    expect(coldStart[0]?.directive.Namespace).toBe(METRICS_NAMESPACE);
    expect(coldStart[0]?.directive.Dimensions).toEqual([["service", "function_name"]]);
  });

  it("counts a 4xx as a client error, logs it at INFO only, and is warm the second time", async () => {
    const event = eventFor("GET", `${paths.institutions}/missing`);
    const ctx = context();
    const { result, docs } = await invoke(handler, event, ctx);
    expect(result?.statusCode).toBe(404);
    expect(requestLines(docs)).toEqual([
      expect.objectContaining({
        status: 404,
        cold_start: false,
        correlation_id: event.requestContext.requestId,
        lambda_request_id: ctx.awsRequestId,
      }),
    ]);
    expect(docs.filter((d) => d.level === "ERROR")).toEqual([]);
    expect(metricDocs(docs, METRIC.clientError)[0]?.doc).toMatchObject({ [METRIC.clientError]: 1, [METRIC.serverError]: 0 });
    expect(metricDocs(docs, "ColdStart")).toEqual([]);
  });

  it("logs a 5xx at ERROR with its stack, and counts a server error", async () => {
    const event = eventFor("GET", `${paths.institutions}/boom`);
    const { result, docs } = await invoke(handler, event, context());
    expect(result?.statusCode).toBe(500);
    const errors = docs.filter((d) => d.level === "ERROR");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ message: "request failed", correlation_id: event.requestContext.requestId });
    expect(errors[0].error.message).toBe("the table is gone");
    expect(errors[0].error.stack).toMatch(/Error: the table is gone\n\s+at /);
    expect(requestLines(docs)).toEqual([expect.objectContaining({ status: 500 })]);
    expect(metricDocs(docs, METRIC.serverError)[0]?.doc).toMatchObject({ [METRIC.clientError]: 0, [METRIC.serverError]: 1 });
  });

  it("does not leak one request's correlation id into the next", async () => {
    const event = eventFor("GET", `${paths.institutions}/inst-2`);
    const { docs } = await invoke(handler, event, context());
    expect(requestLines(docs)[0]?.correlation_id).toBe(event.requestContext.requestId);
    expect(requestLines(docs)[0]?.correlation_id).not.toBe(coldEvent.requestContext.requestId);
  });

  it("runs concurrent invocations of one module (as the local gateway does) without a shared route dimension", async () => {
    // Each waits a moment, so the two are in flight together, the way `npm start` serves the console's requests.
    const slow = handlerWith(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { statusCode: 200, body: "{}" };
    });
    const lines: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      return true;
    };
    vi.spyOn(process.stdout, "write").mockImplementation(capture);
    vi.spyOn(process.stderr, "write").mockImplementation(capture);
    const urls = [`${paths.institutions}/a`, `${paths.institutions}/a/cohorts`, paths.institutions, `${paths.institutions}/b`];
    await Promise.all(urls.map((path) => slow(eventFor("GET", path), context())));
    vi.restoreAllMocks();
    expect(lines.filter((l) => l.includes("has already been added"))).toEqual([]);
    const docs = lines.map((l) => JSON.parse(l) as Json);
    const routesFlushed = metricDocs(docs, METRIC.clientError).map(({ doc }) => doc.route);
    expect(routesFlushed.sort()).toEqual(
      [
        `GET ${paths.institutions}/{id}`,
        `GET ${paths.institutions}/{id}/cohorts`,
        `GET ${paths.institutions}`,
        `GET ${paths.institutions}/{id}`,
      ].sort(),
    );
  });

  it("leaves the Tracer off outside Lambda", () => {
    expect(telemetry.tracer.isTracingEnabled()).toBe(false);
  });

  it("honours the log level from the environment", async () => {
    vi.resetModules();
    process.env.POWERTOOLS_LOG_LEVEL = "WARN";
    try {
      const quiet = (await import("../../shared/telemetry.js")) as Telemetry;
      expect(quiet.logger.getLevelName()).toBe("WARN");
    } finally {
      process.env.POWERTOOLS_LOG_LEVEL = "INFO";
    }
  });
});

describe("import inside Lambda", () => {
  it("turns the Tracer on and makes no network call while loading", async () => {
    const calls: string[] = [];
    vi.spyOn(net.Socket.prototype, "connect").mockImplementation(function (this: net.Socket) {
      calls.push("connect");
      return this;
    });
    vi.spyOn(dgram.Socket.prototype, "send").mockImplementation(() => {
      calls.push("udp");
    });
    vi.spyOn(dns, "lookup").mockImplementation((() => {
      calls.push("dns");
    }) as never);
    vi.resetModules();
    process.env.AWS_EXECUTION_ENV = "AWS_Lambda_nodejs24.x";
    try {
      const inLambda = (await import("../../shared/telemetry.js")) as Telemetry;
      expect(inLambda.tracer.isTracingEnabled()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(calls).toEqual([]);
    } finally {
      delete process.env.AWS_EXECUTION_ENV;
    }
  });

  it("still turns the Tracer off with POWERTOOLS_TRACE_ENABLED=false", async () => {
    vi.resetModules();
    process.env.AWS_EXECUTION_ENV = "AWS_Lambda_nodejs24.x";
    process.env.POWERTOOLS_TRACE_ENABLED = "false";
    try {
      const off = (await import("../../shared/telemetry.js")) as Telemetry;
      expect(off.tracer.isTracingEnabled()).toBe(false);
    } finally {
      delete process.env.AWS_EXECUTION_ENV;
      delete process.env.POWERTOOLS_TRACE_ENABLED;
    }
  });
});
