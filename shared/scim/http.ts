/**
 * The SCIM service's dialect of the one pipeline (shared/pipeline.ts): after the origin secret and the viewer's
 * address, the directory (from the Lambda authorizer's context, 401 without it) → body size (413) → JSON body
 * (400 `invalidSyntax`; `application/scim+json` or plain JSON) → the handler; every answer in
 * `application/scim+json`, every error in the RFC's shape (RFC 7644 §3.12).
 */

import type { APIGatewayProxyEventV2WithLambdaAuthorizer } from "aws-lambda";
import { toResponse, Unauthorized } from "../errors.js";
import { type Dialect, type HttpResult, MalformedJson, type PipelineContext, pipeline } from "../pipeline.js";
import { SCIM_BASE_PATH } from "../routes.js";
import { MAIL, readSettings } from "../settings.js";
import type { TokenTarget } from "./model.js";
import { SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from "./protocol.js";

export type ScimEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<Partial<Record<keyof TokenTarget, string>>>;
type ScimContext = PipelineContext & { directory?: Directory };

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

/** The service's base URL: the one the connection named (`SCIM_BASE_URL`), else the request's own origin. */
function baseUrl(event: ScimEvent): string {
  const configured = readSettings(MAIL(), ["APP_BASE_URL"]).APP_BASE_URL;
  if (configured) return `${configured.replace(/\/+$/, "")}${SCIM_BASE_PATH}`;
  const proto = event.headers?.["x-forwarded-proto"] ?? "https";
  return `${proto}://${event.requestContext.domainName}${SCIM_BASE_PATH}`;
}

function directoryOf(event: ScimEvent, ip: string): Directory {
  const ctx = event.requestContext.authorizer?.lambda ?? {};
  const { institution_id, connection_id, account_id } = ctx;
  // The authorizer put these there; a handler invoked without it refuses.
  if (!institution_id || !connection_id || !account_id) throw new Unauthorized();
  return { institution_id, connection_id, account_id, ip, baseUrl: baseUrl(event) };
}

function result(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: status,
    headers: { "content-type": `${SCIM_CONTENT_TYPE}; charset=utf-8`, ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  };
}

/** Every error in the RFC's shape, with its status and headers (`Retry-After`); a 5xx without detail, as the JSON API's. */
function answer(err: unknown): HttpResult {
  if (err instanceof MalformedJson) return result(400, scimErrorBody(400, err.message, "invalidSyntax"));
  const r = toResponse(err);
  const body = err instanceof ScimError ? r.body : scimErrorBody(r.status, String(r.body.error ?? r.body.message ?? "Error"));
  return result(r.status, body, r.headers);
}

/** What SCIM sets of the pipeline: its answers, and its caller, the directory the authorizer found. */
const dialect: Dialect<ScimEvent, ScimContext> = {
  answer,
  caller: [
    {
      before: (request) => {
        request.context.directory = directoryOf(request.event, request.context.ip);
      },
    },
  ],
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
  return pipeline(dialect, async (event, context) => {
    const path = event.rawPath.slice(event.rawPath.indexOf(SCIM_BASE_PATH) + SCIM_BASE_PATH.length);
    const res = await fn({
      directory: context.directory as Directory,
      params: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      body: context.body,
      path: decoded(path),
    });
    return result(res.status, res.body);
  });
}
