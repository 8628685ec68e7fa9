/**
 * The one middy pipeline of every function that answers HTTP (docs/code-structure.md): the JSON API (shared/http.ts
 * `api()`), the SCIM service (shared/scim/http.ts `scimApi()`) and the API document (shared/openapi/serve.ts).
 * It is the only module that calls `middy(` (test/unit/structure.test.ts): SCIM was once a copy of this stack
 * and lost the origin check on the way. What differs between them is a `Dialect`, never a copy of a step.
 *
 * In request order:
 * 1. telemetry, the security headers and the error mapping, which act on the way back (below);
 * 2. one way in: 403 without CloudFront's origin secret (shared/origin.ts), the first step that reads the request;
 * 3. the viewer's address: `CloudFront-Viewer-Address` only on a request that carried the secret;
 * 4. the dialect's caller (401) and route rule (403), before anything reads the body;
 * 5. body size (413), then the JSON body (400), unless the dialect reads no body;
 * 6. the dialect's last steps (the JSON API's `Idempotency-Key`), then the handler.
 * On the way back `after` and `onError` run in reverse: the error mapping turns anything thrown into the
 * dialect's answer, the security headers go on every answer (the mapping's included), and telemetry logs the
 * request as answered, last.
 */
import middy from "@middy/core";
import httpSecurityHeaders from "@middy/http-security-headers";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { BadRequest, Forbidden, messages, PayloadTooLarge } from "./errors.js";
import { fromOrigin, viewerAddress } from "./origin.js";
import { SECURITY_HEADERS } from "./security-headers.js";
import { telemetry } from "./telemetry.js";

/** Any payload format 2.0 event: the JWT authorizer's, a Lambda authorizer's, or none (public routes). */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** What the pipeline's own steps leave for the dialect's steps and the handler. */
export type PipelineContext = Context & {
  /** The viewer's address, as the trail records it (shared/origin.ts `viewerAddress`). */
  ip: string;
  /** The parsed JSON body; `undefined` when the request had none, or the dialect reads none. */
  body?: unknown;
};

export type Step<E extends HttpEvent, C extends PipelineContext> = middy.MiddlewareObj<E, HttpResult, Error, C>;

/** What differs between the functions that answer HTTP. */
export interface Dialect<E extends HttpEvent, C extends PipelineContext> {
  /** The answer to anything thrown, the pipeline's own refusals (403, 413, 400) included: `{error}`, or RFC 7644's shape. */
  readonly answer: (error: unknown) => HttpResult;
  /** Who calls (401) and the route's rule (403): the JWT's caller, a visitor, or the directory of a Lambda authorizer. */
  readonly caller?: readonly Step<E, C>[];
  /** `false` for a function that reads no body (the API document): none is measured or parsed, so none is refused. */
  readonly readsBody?: boolean;
  /** Steps after the body, right before the handler: the JSON API's `Idempotency-Key` (idempotency.ts). */
  readonly last?: readonly Step<E, C>[];
  /** Helmet's options beyond the shared ones: a page that sets its own Content-Security-Policy turns helmet's off. */
  readonly helmet?: { readonly contentSecurityPolicy?: false };
}

/** 400 for a body that is not JSON: the JSON API's `{error}`, SCIM's `invalidSyntax`. */
export class MalformedJson extends BadRequest {
  constructor() {
    super(messages.malformedJson);
  }
}

/** The largest body any function reads (413 past it). */
export const MAX_BODY_BYTES = 64 * 1024;

// The steps are typed for the widest event and context; each applies to every dialect's.
type AnyStep = Step<HttpEvent, PipelineContext>;

/** `SECURITY_HEADERS` on every response, the error mapping's included. */
const addSecurityHeaders = (request: middy.Request<HttpEvent, HttpResult, Error, PipelineContext>) => {
  if (request.response) request.response.headers = { ...request.response.headers, ...SECURITY_HEADERS };
};
const securityHeaders: AnyStep = { after: addSecurityHeaders, onError: addSecurityHeaders };

/** Only through CloudFront (shared/origin.ts): a request around it is refused before anything reads it. */
const oneWayIn: AnyStep = {
  before: (request) => {
    if (!fromOrigin(request.event.headers)) throw new Forbidden(messages.notThroughCloudFront);
  },
};

/** Where the request comes from, once: the caller, the visitor and the directory all take it from here. */
const viewer: AnyStep = {
  before: (request) => {
    request.context.ip = viewerAddress(request.event);
  },
};

/** 413 past 64 KiB, counted in bytes as they arrived. */
const sizeLimit: AnyStep = {
  before: (request) => {
    const { body, isBase64Encoded } = request.event;
    if (body && Buffer.byteLength(body, isBase64Encoded ? "base64" : "utf8") > MAX_BODY_BYTES) throw new PayloadTooLarge();
  },
};

/**
 * Parses a non-empty body whatever its content type (curl users forget it; SCIM clients send
 * `application/scim+json`); 400 when malformed. A lone surrogate written as a JSON escape (not a character, and
 * not storable) is read as U+FFFD, as the gateway reads an invalid UTF-8 byte: DynamoDB would store it so while
 * the answer echoed it.
 */
const jsonBody: AnyStep = {
  before: (request) => {
    const { body, isBase64Encoded } = request.event;
    if (body === undefined || body.trim() === "") return;
    const text = isBase64Encoded ? Buffer.from(body, "base64").toString("utf8") : body;
    try {
      request.context.body = JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? value.toWellFormed() : value));
    } catch {
      throw new MalformedJson();
    }
  },
};

/** A function as Lambda invokes it: with its own context, which the pipeline's steps then fill in. */
export type HttpHandler<E extends HttpEvent> = (event: E, context: Context) => Promise<HttpResult>;

/** Wraps `handler` in the one pipeline, in `dialect`. */
export function pipeline<E extends HttpEvent, C extends PipelineContext>(
  dialect: Dialect<E, C>,
  handler: (event: E, context: C) => Promise<HttpResult>,
): HttpHandler<E> {
  const errorMapping: Step<E, C> = {
    onError: async (request) => {
      request.response = dialect.answer(request.error);
    },
  };
  // The helmet set; `nosniff` comes with the headers every answer carries (`SECURITY_HEADERS`).
  const helmet = httpSecurityHeaders({ contentTypeOptions: false, ...dialect.helmet });
  const body = dialect.readsBody === false ? [] : [sizeLimit, jsonBody];
  const own = (steps: readonly unknown[]) => steps as Step<E, C>[];
  return middy<E, HttpResult, Error, C>()
    .use(own(telemetry()))
    .use(own([helmet, securityHeaders]))
    .use(errorMapping)
    .use(own([oneWayIn, viewer]))
    .use([...(dialect.caller ?? [])])
    .use(own(body))
    .use([...(dialect.last ?? [])])
    .handler(handler) as unknown as HttpHandler<E>;
}
