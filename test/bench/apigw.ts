/**
 * Payload format 2.0 events for invoking handlers in-process, shaped like the samples in `infra/events/`
 * (and like the local gateway builds them): claims in `requestContext.authorizer.jwt.claims`, array claims
 * flattened to `[a b]`, path parameters, query, a JSON body.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from "aws-lambda";
import { flattenClaims, lambdaContext } from "../../infra/local/gateway.js";
import { ROOT } from "../../infra/local/services.js";
import type { HttpMethod } from "../../shared/routes.js";

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type Claims = Record<string, string>;

const sample = JSON.parse(readFileSync(`${ROOT}infra/events/institutions-show.json`, "utf8")) as ApiEvent;

/** Claims as the Cognito ID token of a user carries them, flattened as API Gateway hands them to Lambda. */
export function userClaims(user: { sub?: string; email: string; name?: string; account: string; superAdmin?: boolean }): Claims {
  const sub = user.sub ?? randomUUID();
  const iat = Math.floor(Date.now() / 1000);
  return flattenClaims({
    sub,
    email: user.email,
    email_verified: "true",
    ...(user.name && { name: user.name }),
    ...(user.superAdmin && { "cognito:groups": ["cohort_super_admin"] }),
    "custom:account_id": user.account,
    "cognito:username": sub,
    iss: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_BENCH",
    aud: "benchclientid",
    token_use: "id",
    auth_time: iat,
    iat,
    exp: iat + 3600,
    jti: randomUUID(),
  });
}

/** The claims of a real ID token (payload decoded, not verified: the gateway verifies it). */
export function claimsOfToken(token: string): Claims {
  const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  return flattenClaims(payload);
}

export interface EventSpec {
  readonly method: HttpMethod;
  /** Route path with `{id}`, as in shared/routes.ts. */
  readonly route: string;
  readonly id?: string;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
  readonly claims: Claims;
}

export function apiEvent(spec: EventSpec): ApiEvent {
  const rawPath = spec.id === undefined ? spec.route : spec.route.replace("{id}", encodeURIComponent(spec.id));
  const query = spec.query ?? {};
  const rawQueryString = new URLSearchParams(query).toString();
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const { "content-length": _len, "content-type": _type, ...headers } = sample.headers;
  const at = new Date();
  const routeKey = `${spec.method} ${spec.route}`;
  return {
    version: "2.0",
    routeKey,
    rawPath,
    rawQueryString,
    headers: {
      ...headers,
      "x-amzn-trace-id": `Root=1-${Math.floor(at.getTime() / 1000).toString(16)}-${randomBytes(12).toString("hex")}`,
      ...(body !== undefined && { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
    },
    ...(rawQueryString && { queryStringParameters: query }),
    ...(spec.id !== undefined && { pathParameters: { id: spec.id } }),
    requestContext: {
      ...sample.requestContext,
      authorizer: { jwt: { claims: spec.claims, scopes: null as unknown as string[] } },
      http: { ...sample.requestContext.http, method: spec.method, path: rawPath },
      requestId: randomBytes(12).toString("base64url"),
      routeKey,
      time: sample.requestContext.time,
      timeEpoch: at.getTime(),
    },
    ...(body !== undefined && { body }),
    isBase64Encoded: false,
  };
}

/** A Lambda context as the local gateway builds it (15 s timeout, as the stack configures). */
export function context(handler: string): Context {
  return lambdaContext(handler, "us-east-1", Date.now() + 15_000);
}
