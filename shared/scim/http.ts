/**
 * The middy stack of the SCIM service's handlers, the JSON API's (shared/http.ts) in SCIM's dialect: telemetry →
 * security headers → the directory (from the Lambda authorizer's context) → body size (413) → JSON body (400,
 * `application/scim+json` or plain JSON) → the handler; every error in the RFC's shape, `application/scim+json`.
 */

import middy from "@middy/core";
import httpSecurityHeaders from "@middy/http-security-headers";
import type { APIGatewayProxyEventV2WithLambdaAuthorizer, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { viewerIp } from "../caller.js";
import { toResponse, Unauthorized } from "../errors.js";
import { SCIM_BASE_PATH } from "../routes.js";
import { SECURITY_HEADERS } from "../security-headers.js";
import { EDGE, MAIL, readSettings } from "../settings.js";
import { telemetry } from "../telemetry.js";
import type { TokenTarget } from "./model.js";
import { SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from "./protocol.js";

export type ScimEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<Partial<Record<keyof TokenTarget, string>>>;
type ScimResult = APIGatewayProxyStructuredResultV2;
type ScimContext = Context & { body?: unknown };
type Middleware = middy.MiddlewareObj<ScimEvent, ScimResult, Error, ScimContext>;

/** The directory calling: its connection, as the authorizer found it by the token. */
export interface Directory extends TokenTarget {
  readonly ip: string;
  /** The service's base URL as the directory called it (`meta.location`). */
  readonly baseUrl: string;
}

export interface ScimRequest {
  readonly directory: Directory;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  /** The path below the base path: `/Schemas/urn:…`. */
  readonly path: string;
}

export interface ScimResponse {
  readonly status: number;
  readonly body?: unknown;
}

/** The JSON API's body limit (shared/http.ts, not imported: it would bring the idempotency middleware along). */
const MAX_BODY_BYTES = 64 * 1024;

const TRUST_VIEWER_ADDRESS = readSettings(EDGE(), ["TRUST_CLOUDFRONT_VIEWER_ADDRESS"]).TRUST_CLOUDFRONT_VIEWER_ADDRESS;

/** The service's base URL: the one the connection named (`SCIM_BASE_URL`), else the request's own origin. */
function baseUrl(event: ScimEvent): string {
  const configured = readSettings(MAIL(), ["APP_BASE_URL"]).APP_BASE_URL;
  if (configured) return `${configured.replace(/\/+$/, "")}${SCIM_BASE_PATH}`;
  const proto = event.headers?.["x-forwarded-proto"] ?? "https";
  return `${proto}://${event.requestContext.domainName}${SCIM_BASE_PATH}`;
}

function directoryOf(event: ScimEvent): Directory {
  const ctx = event.requestContext.authorizer?.lambda ?? {};
  const { institution_id, connection_id, account_id } = ctx;
  // The authorizer put these there; a handler invoked without it refuses.
  if (!institution_id || !connection_id || !account_id) throw new Unauthorized();
  return { institution_id, connection_id, account_id, ip: viewerIp(event as never, TRUST_VIEWER_ADDRESS), baseUrl: baseUrl(event) };
}

function result(status: number, body: unknown): ScimResult {
  return {
    statusCode: status,
    headers: { "content-type": `${SCIM_CONTENT_TYPE}; charset=utf-8` },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  };
}

const helmet = httpSecurityHeaders({ contentTypeOptions: false });
const addSecurityHeaders = (request: middy.Request<ScimEvent, ScimResult, Error, ScimContext>) => {
  if (request.response) request.response.headers = { ...request.response.headers, ...SECURITY_HEADERS };
};
const securityHeaders: Middleware = { after: addSecurityHeaders, onError: addSecurityHeaders };

const body: Middleware = {
  before: (request) => {
    const { body: raw, isBase64Encoded } = request.event;
    if (raw && Buffer.byteLength(raw, isBase64Encoded ? "base64" : "utf8") > MAX_BODY_BYTES)
      throw new ScimError(413, "Request body too large");
    if (raw === undefined || raw.trim() === "") return;
    const text = isBase64Encoded ? Buffer.from(raw, "base64").toString("utf8") : raw;
    try {
      request.context.body = JSON.parse(text, (_k, v: unknown) => (typeof v === "string" ? v.toWellFormed() : v));
    } catch {
      throw new ScimError(400, "Malformed JSON body", "invalidSyntax");
    }
  },
};

/** Every error in the RFC's shape; a 5xx without detail, as the JSON API's. */
const errorMapping: Middleware = {
  onError: async (request) => {
    const err = request.error;
    if (err instanceof ScimError) {
      request.response = result(err.status, err.body());
      return;
    }
    const r = toResponse(err);
    const detail = String(r.body.error ?? r.body.message ?? "Error");
    request.response = { ...result(r.status, scimErrorBody(r.status, detail)), headers: { ...result(0, undefined).headers, ...r.headers } };
  },
};

/** A path as the directory meant it; a malformed escape stays as sent (and names nothing). */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Wraps a thin SCIM handler. */
export function scimApi(fn: (req: ScimRequest) => Promise<ScimResponse>) {
  return middy<ScimEvent, ScimResult, Error, ScimContext>()
    .use(telemetry() as unknown as Middleware[])
    .use(helmet as unknown as Middleware)
    .use(securityHeaders)
    .use(errorMapping)
    .use(body)
    .handler(async (event, context) => {
      const directory = directoryOf(event);
      const path = event.rawPath.slice(event.rawPath.indexOf(SCIM_BASE_PATH) + SCIM_BASE_PATH.length);
      const res = await fn({
        directory,
        params: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        body: context.body,
        path: decoded(path),
      });
      return result(res.status, res.body);
    });
}
