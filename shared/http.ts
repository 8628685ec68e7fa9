/**
 * The one middy stack every handler uses, one middleware per concern, in request order: telemetry
 * (Powertools: log line, metrics, trace) → security headers (on every response) → one way in (403 without
 * CloudFront's origin secret, shared/origin.ts, before anything reads the request) → the caller (401 before
 * anything reads the body; a public route's visitor) → the route's rule (403) → body size limit (413) → JSON
 * body (400) → `Idempotency-Key` on a POST
 * (idempotency.ts: a replay answers the first response) → the handler; the error mapping of `errors.ts`
 * turns anything thrown into the contract's response.
 */
import middy from "@middy/core";
import httpSecurityHeaders from "@middy/http-security-headers";
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { type Caller, callerFrom, visitorFrom } from "./caller.js";
import { IDEMPOTENCY_HEADER } from "./constants.js";
import { BadRequest, Forbidden, messages, PayloadTooLarge, toResponse } from "./errors.js";
import type { IdempotencyContext } from "./idempotency.js";
import { idempotencyTable } from "./idempotency-table.js";
import { fromOrigin } from "./origin.js";
import { requireSuperAdmin } from "./refusals.js";
import { routeOf } from "./routes.js";
import { SECURITY_HEADERS } from "./security-headers.js";
import { telemetry } from "./telemetry.js";

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type ApiResult = APIGatewayProxyStructuredResultV2;
type ApiContext = Context & { caller?: Caller; body?: unknown } & IdempotencyContext;
type Middleware = middy.MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>;

export const MAX_BODY_BYTES = 64 * 1024;

export interface ApiRequest {
  readonly caller: Caller;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  /** Request headers, names lower-cased (as API Gateway passes them). */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Parsed JSON body; `undefined` when the request had none. */
  readonly body: unknown;
  readonly requestId: string;
}

export interface ApiResponse {
  readonly status: number;
  /** Serialized as JSON, unless a string (then sent as is, with the content type from `headers`). */
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export const ok = (body: unknown, headers?: Record<string, string>): ApiResponse => ({ status: 200, body, ...(headers && { headers }) });
export const accepted = (body: unknown): ApiResponse => ({ status: 202, body });
export const created = (body: unknown, headers?: Record<string, string>): ApiResponse => ({
  status: 201,
  body,
  ...(headers && { headers }),
});

/** A CSV file to download, with `X-Export-Truncated: true` when a cap left rows out. */
export const csvFile = (file: { csv: string; filename: string; truncated: boolean }): ApiResponse => ({
  status: 200,
  body: file.csv,
  headers: {
    "content-type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${file.filename}"`,
    ...(file.truncated && { "X-Export-Truncated": "true" }),
  },
});

function result(response: ApiResponse): ApiResult {
  return {
    statusCode: response.status,
    headers: { "content-type": "application/json; charset=utf-8", ...response.headers },
    body: typeof response.body === "string" ? response.body : JSON.stringify(response.body),
  };
}

/**
 * `Idempotency-Key` on POST routes (idempotency.ts). The stack defines `TAKES_IDEMPOTENCY_KEY` per function
 * when it bundles it, "false" for a function without a POST route, and esbuild drops this import from that
 * bundle: Powertools' idempotency utility and JMESPath add about 45 KiB to a POST function and nothing to
 * the others. Unbundled (locally, in tests) it is always there.
 */
const idempotency: Middleware[] =
  process.env.TAKES_IDEMPOTENCY_KEY === "false" ? [] : [deferredIdempotency(() => import("./idempotency.js"))];

/**
 * The idempotency middleware, evaluated on the first request that carries the header, not at import: most
 * requests carry none. (The `import()` stays in the branch above, the only place esbuild must follow it.)
 */
function deferredIdempotency(load: () => Promise<typeof import("./idempotency.js")>): Middleware {
  let loaded: Promise<Middleware> | undefined;
  const middleware = () => (loaded ??= load().then((m) => m.idempotency((err) => result(toResponse(err)), idempotencyTable) as Middleware));
  return {
    before: async (request) => {
      if (request.event.headers?.[IDEMPOTENCY_HEADER] !== undefined) await (await middleware()).before?.(request);
    },
    // Only a request whose `before` ran can own a record; the middleware ignores the others.
    after: async (request) => {
      if (loaded) await (await loaded).after?.(request);
    },
    onError: async (request) => {
      if (loaded) await (await loaded).onError?.(request);
    },
  };
}

/** The helmet set; `nosniff` comes with the headers every answer carries (`SECURITY_HEADERS`). */
const helmet = httpSecurityHeaders({ contentTypeOptions: false });

/** `SECURITY_HEADERS` on every response, the error mapping's included. */
const addSecurityHeaders = (request: middy.Request<ApiEvent, ApiResult, Error, ApiContext>) => {
  if (request.response) request.response.headers = { ...request.response.headers, ...SECURITY_HEADERS };
};
const securityHeaders: Middleware = { after: addSecurityHeaders, onError: addSecurityHeaders };

/** Only through CloudFront (shared/origin.ts): a request around it is refused before anything reads it. */
const oneWayIn: Middleware = {
  before: (request) => {
    if (!fromOrigin(request.event.headers)) throw new Forbidden(messages.notThroughCloudFront);
  },
};

/** The verified caller, before anything else reads the request: a bad token with a malformed body is 401. */
const caller: Middleware = {
  before: (request) => {
    request.context.caller = callerFrom(request.event);
  },
};

/** A public route's visitor (no authorizer runs): who it is comes from its source address alone. */
const visitor: Middleware = {
  before: (request) => {
    request.context.caller = visitorFrom(request.event);
  },
};

/**
 * The route's rule (shared/routes.ts `WHO`), after the caller and before the body: a cohort-super-admin route
 * answers anyone else 403, counted against the probing bound (refusals.ts). The other rules need the institution
 * or invitation looked up first (404 before 403, DESIGN.md §2), so their use cases apply them. A route key the
 * table lacks is a deployment fault: 500, never served without its rule.
 */
const rule: Middleware = {
  before: async (request) => {
    const route = routeOf(request.event.routeKey);
    if (!route) throw new Error(`No route ${request.event.routeKey} in the route table`);
    if (route.rule.kind === "cohort_super_admin") await requireSuperAdmin(request.context.caller as Caller);
  },
};

/** 413 past 64 KiB, counted in bytes as they arrived. */
const sizeLimit: Middleware = {
  before: (request) => {
    const { body, isBase64Encoded } = request.event;
    if (body && Buffer.byteLength(body, isBase64Encoded ? "base64" : "utf8") > MAX_BODY_BYTES) throw new PayloadTooLarge();
  },
};

/**
 * Parses a non-empty body whatever its content type (curl users forget it); 400 when malformed. A lone
 * surrogate written as a JSON escape (not a character, and not storable) is read as U+FFFD, as the
 * gateway reads an invalid UTF-8 byte: DynamoDB would store it so while the answer echoed it.
 */
const jsonBody: Middleware = {
  before: (request) => {
    const { body, isBase64Encoded } = request.event;
    if (body === undefined || body.trim() === "") return;
    const text = isBase64Encoded ? Buffer.from(body, "base64").toString("utf8") : body;
    try {
      request.context.body = JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? value.toWellFormed() : value));
    } catch {
      throw new BadRequest(messages.malformedJson);
    }
  },
};

/**
 * Maps every error to the contract. A 5xx never tells the client why: telemetry logs the error with its
 * stack and the request ids.
 */
const errorMapping: Middleware = {
  onError: async (request) => {
    request.response = result(toResponse(request.error));
  },
};

/**
 * Wraps a thin handler: it receives the verified caller and the parsed request, and returns a response.
 * `public: true` for a public route of the route table: the caller is then the visitor (`visitorFrom`).
 */
export function api(fn: (req: ApiRequest) => Promise<ApiResponse>, { public: open = false }: { public?: boolean } = {}) {
  // after and onError run in reverse order of `use`: the error mapping sets the response, then the headers
  // go on, then telemetry logs the request as answered.
  return middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(telemetry() as Middleware[])
    .use(helmet)
    .use(securityHeaders)
    .use(errorMapping)
    .use(oneWayIn)
    .use(open ? visitor : caller)
    .use(rule)
    .use(sizeLimit)
    .use(jsonBody)
    .use(idempotency)
    .handler(
      async (event, context) =>
        context.idempotentReplay ??
        result(
          await fn({
            caller: context.caller as Caller,
            params: event.pathParameters ?? {},
            query: event.queryStringParameters ?? {},
            headers: event.headers ?? {},
            body: context.body,
            requestId: context.awsRequestId,
          }),
        ),
    );
}
