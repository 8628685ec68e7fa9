/**
 * The one middy stack every handler uses: body size limit (413) → JSON body (400) → the handler, with the
 * error mapping of `errors.ts` turning anything thrown into the contract's response.
 */
import middy from "@middy/core";
import jsonBodyParser from "@middy/http-json-body-parser";
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { type Caller, callerFrom } from "./caller.js";
import { BadRequest, messages, PayloadTooLarge, toResponse } from "./errors.js";
import { log } from "./log.js";

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type ApiResult = APIGatewayProxyStructuredResultV2;

export const MAX_BODY_BYTES = 64 * 1024;

export interface ApiRequest {
  readonly caller: Caller;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | undefined>>;
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

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });
export const created = (body: unknown): ApiResponse => ({ status: 201, body });

/**
 * Over the limit? UTF-8 takes at most 3 bytes per UTF-16 unit, and base64 decodes to fewer bytes than it
 * has characters, so most bodies need no count.
 */
function tooLarge(event: ApiEvent): boolean {
  const raw = event.body;
  if (raw === undefined || raw === null) return false;
  if (event.isBase64Encoded) return raw.length > MAX_BODY_BYTES && Buffer.from(raw, "base64").length > MAX_BODY_BYTES;
  return raw.length * 3 > MAX_BODY_BYTES && Buffer.byteLength(raw) > MAX_BODY_BYTES;
}

// The option exists in the middleware but not yet in its type declarations.
const parseJson = jsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof jsonBodyParser>[0]);

/**
 * A JSON escape of a UTF-16 surrogate: the only way a lone one (not a character, and not storable) can
 * reach a handler, as the gateway decodes bytes as UTF-8. DynamoDB would store it as U+FFFD while the
 * response echoed it, and two different ones would collide in a unique key: it is read as U+FFFD here,
 * as an invalid UTF-8 byte is. Rare, so only a body that has such an escape pays for the reviver.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const parseWellFormedJson = jsonBodyParser({
  disableContentTypeCheck: true,
  reviver: (_key: string, value: unknown) => (typeof value === "string" ? value.toWellFormed() : value),
} as Parameters<typeof jsonBodyParser>[0]);
const jsonText = (event: ApiEvent, raw: string) => (event.isBase64Encoded ? Buffer.from(raw, "base64").toString() : raw);

/** 413 past the limit; parses a non-empty body whatever its content type (curl users forget it), 400 when malformed. */
const body: middy.MiddlewareObj<ApiEvent, ApiResult> = {
  before: async (request) => {
    if (tooLarge(request.event)) throw new PayloadTooLarge();
    const raw = request.event.body;
    if (raw === undefined || raw === null || raw.trim() === "") {
      request.event.body = undefined;
      return;
    }
    try {
      const parser = SURROGATE_ESCAPE.test(jsonText(request.event, raw)) ? parseWellFormedJson : parseJson;
      await parser.before?.(request as never);
    } catch {
      throw new BadRequest(messages.malformedJson);
    }
  },
};

function result(response: { status: number; body: unknown; headers?: Record<string, string> }): ApiResult {
  const isText = typeof response.body === "string";
  return {
    statusCode: response.status,
    headers: { "content-type": "application/json; charset=utf-8", ...response.headers },
    body: isText ? (response.body as string) : JSON.stringify(response.body),
  };
}

/** Maps every error to the contract; only 5xx are logged in full, with the request id, never sent to the client. */
const errors: middy.MiddlewareObj<ApiEvent, ApiResult> = {
  onError: async (request) => {
    const response = toResponse(request.error);
    if (response.status >= 500) {
      const err = request.error;
      log("error", "request failed", {
        requestId: request.context.awsRequestId,
        route: request.event.routeKey,
        status: response.status,
        error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
      });
    }
    request.response = result(response);
  },
};

/** Wraps a thin handler: it receives validated transport input and the verified caller, and returns a response. */
export function api(fn: (req: ApiRequest) => Promise<ApiResponse>) {
  // onError middlewares run in reverse order of `use`, so registering the error mapping first makes it run last.
  return middy<ApiEvent, ApiResult, Error, Context>()
    .use(errors)
    .use(body)
    .handler(async (event, context) =>
      result(
        await fn({
          caller: callerFrom(event),
          params: event.pathParameters ?? {},
          query: event.queryStringParameters ?? {},
          body: event.body as unknown,
          requestId: context.awsRequestId,
        }),
      ),
    );
}
