/**
 * The JSON API's dialect of the one pipeline (shared/pipeline.ts): after the origin secret and the viewer's address,
 * the caller (401 before anything reads the body; a public route's visitor) → the route's rule (403) → body size
 * (413) → JSON body (400) → `Idempotency-Key` on a POST (idempotency.ts: a replay answers the first response) →
 * the handler; the error mapping of `errors.ts` turns anything thrown into the contract's response.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from "aws-lambda";
import { lacksScope, NOT_FOR_KEYS } from "./api-keys/scopes.js";
import { type Caller, callerFrom, keyCallerFrom, lambdaContextOf, visitorFrom } from "./caller.js";
import { IDEMPOTENCY_HEADER } from "./constants.js";
import { Forbidden, toResponse } from "./errors.js";
import type { IdempotencyContext } from "./idempotency.js";
import { idempotencyTable } from "./idempotency-table.js";
import { type Dialect, type HttpResult, type PipelineContext, pipeline, type Step } from "./pipeline.js";
import { requireSuperAdmin } from "./refusals.js";
import { routeOf } from "./routes.js";

export { MAX_BODY_BYTES } from "./pipeline.js";

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type ApiResult = HttpResult;
type ApiContext = PipelineContext & { caller?: Caller } & IdempotencyContext;
type Middleware = Step<ApiEvent, ApiContext>;

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

/**
 * The verified caller, before anything reads the body: a bad token with a malformed body is 401. A person on the
 * people's API (the JWT authorizer's claims), or an institution API key on the machines' API (the key
 * authorizer's context, docs/api-keys.md): each API has one authorizer, so an event carries one or the other.
 */
const caller: Middleware = {
  before: (request) => {
    const key = lambdaContextOf(request.event);
    request.context.caller = key ? keyCallerFrom(key, request.context.ip) : callerFrom(request.event, request.context.ip);
  },
};

/** A public route's visitor (no authorizer runs): who it is comes from its source address alone. */
const visitor: Middleware = {
  before: (request) => {
    request.context.caller = visitorFrom(request.context.ip);
  },
};

/**
 * The route's rule (shared/routes.ts `WHO`), after the caller and before the body: a cohort-super-admin route
 * answers anyone else 403, counted against the probing bound (refusals.ts). The other rules need the institution
 * or invitation looked up first (404 before 403, docs/contract/README.md#identity-and-access), so their use cases apply them. A route key the
 * table lacks is a deployment fault: 500, never served without its rule.
 * An API key's grant is its scopes alone (docs/api-keys.md): a route without a scope, or outside the key's, is 403
 * before anything is read; its institution is then the one it sees (institutions/service.ts `requireVisible`).
 */
const rule: Middleware = {
  before: async (request) => {
    const route = routeOf(request.event.routeKey);
    if (!route) throw new Error(`No route ${request.event.routeKey} in the route table`);
    const who = request.context.caller as Caller;
    if (who.apiKey) {
      if (route.scope === undefined) throw new Forbidden(NOT_FOR_KEYS);
      if (!who.apiKey.scopes.includes(route.scope)) throw new Forbidden(lacksScope(route.scope));
      return;
    }
    if (route.rule.kind === "cohort_super_admin") await requireSuperAdmin(who);
  },
};

const answer = (err: unknown) => result(toResponse(err));
const signedIn: Dialect<ApiEvent, ApiContext> = { answer, caller: [caller, rule], last: idempotency };
// A public route takes no Idempotency-Key (routes.ts, `takesIdempotencyKey`): the header is not read.
const visiting: Dialect<ApiEvent, ApiContext> = { answer, caller: [visitor, rule], last: [] };

/**
 * Wraps a thin handler: it receives the verified caller and the parsed request, and returns a response.
 * `public: true` for a public route of the route table: the caller is then the visitor (`visitorFrom`).
 */
export function api(fn: (req: ApiRequest) => Promise<ApiResponse>, { public: open = false }: { public?: boolean } = {}) {
  return pipeline(
    open ? visiting : signedIn,
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
