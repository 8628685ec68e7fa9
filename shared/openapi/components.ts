/**
 * Headers, request headers and the error responses of the API document: written once, here (docs/contract/README.md, docs/api.md).
 * The schemas they name are generated from valibot (shared/openapi/responses.ts).
 */
import type { SchemaName } from "./responses.js";

export type Schema = Record<string, unknown>;

/** A `$ref` to a component schema: one generated from valibot, or a SCIM frame (specs/scim.ts). */
export const schemaRef = (name: SchemaName | "ScimError" | "ScimResource"): Schema => ({ $ref: `#/components/schemas/${name}` });
const ref = schemaRef;
const closed = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: "object",
  ...(description && { description }),
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

// ---- headers --------------------------------------------------------------------------------------

export const headers: Record<string, Schema> = {
  CacheControl: {
    description: "Every response: nothing here belongs in a shared cache.",
    required: true,
    schema: { type: "string", pattern: "(^|[ ,])no-store($|[ ,])" },
  },
  XContentTypeOptions: { description: "Every response.", required: true, schema: { type: "string", const: "nosniff" } },
  RetryAfter: {
    description: "Seconds until a new request can succeed.",
    required: true,
    schema: { type: "string", pattern: "^[1-9][0-9]*$" },
    example: "600",
  },
  ContentDisposition: {
    description: "The file name carries the export's time, UTC.",
    required: true,
    schema: { type: "string", pattern: '^attachment; filename="security_events_\\d{8}_\\d{6}\\.csv"$' },
    example: 'attachment; filename="security_events_20261123_163327.csv"',
  },
  ETag: {
    description:
      "The institution's current version, a strong entity tag. Send it back as `If-Match` on PATCH, PUT or DELETE to change only what you read.",
    required: true,
    schema: { type: "string", pattern: '^"[1-9][0-9]*"$' },
    example: '"3"',
  },
  XExportTruncated: {
    description: "Present when more events matched than one export holds (10,000 rows, or about 6 MB).",
    required: false,
    schema: { type: "string", const: "true" },
  },
};

// ---- request headers ------------------------------------------------------------------------------

export const parameters: Record<string, Schema> = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[ -~]+$" },
    example: "5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f",
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: false,
    description:
      "Change only if the institution is still at this version: the `ETag` of your last read (or `*`). Otherwise 412 and nothing changes. Without it the write applies whatever the version.",
    schema: { type: "string" },
    example: '"3"',
  },
};

/** Headers every response carries. */
export const commonHeaders = {
  "Cache-Control": { $ref: "#/components/headers/CacheControl" },
  "X-Content-Type-Options": { $ref: "#/components/headers/XContentTypeOptions" },
};

// ---- error responses ------------------------------------------------------------------------------

const json = (schema: Schema, examples: Record<string, unknown>) => ({
  "application/json": {
    schema,
    examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
  },
});

const error = (description: string, examples: Record<string, string>, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...commonHeaders, ...extraHeaders },
  content: json(ref("Error"), Object.fromEntries(Object.entries(examples).map(([name, message]) => [name, { error: message }]))),
});

const errorOrGateway = (description: string, own: string, gateway: string) => ({
  description,
  headers: commonHeaders,
  content: json({ oneOf: [ref("Error"), ref("GatewayMessage")] }, { service: { error: own }, gateway: { message: gateway } }),
});

/** The error responses by status; an operation lists those its handler can answer. */
export const responses: Record<string, Schema> = {
  BadRequest: error("A malformed request: a body that is not JSON, a missing root key, a bad parameter.", {
    malformed: "Malformed JSON body",
    missingRoot: "param is missing or the value is empty: institution",
    idempotencyKey: "Idempotency-Key must be 1 to 255 printable ASCII characters",
  }),
  Unauthorized: {
    description:
      "No token, or one that is not a valid Cognito ID token of this pool (missing, expired, wrongly signed, wrong issuer or audience, an access token). Answered before the function runs.",
    headers: commonHeaders,
    content: json(closed({ message: { type: "string", const: "Unauthorized" } }, "Written by API Gateway's JWT authorizer."), {
      unauthorized: { message: "Unauthorized" },
    }),
  },
  Forbidden: error("The caller lacks the role the operation needs; recorded as `insufficient_privileges`.", {
    superAdmin: "Super admin access required",
  }),
  NotFound: error("Not found among what the caller may see (an unknown, malformed or invisible id is the same).", {
    institution: "Institution not found or access denied",
  }),
  Conflict: error("A write kept losing races with concurrent ones; nothing was changed. Retry.", {
    conflict: "Institution was changed concurrently, please retry",
  }),
  IdempotentConflict: error(
    "A write kept losing races with concurrent ones, or a request with the same `Idempotency-Key` is still running; nothing was changed. Retry.",
    { conflict: "Institution was changed concurrently, please retry", inProgress: "A request with this Idempotency-Key is in progress" },
  ),
  PreconditionFailed: error(
    "`If-Match` does not name the institution's current version: someone changed it since you read it. Nothing was changed; read it again.",
    {
      changed: "Institution was changed by someone else",
    },
  ),
  PayloadTooLarge: {
    description: "The body is over 64 KiB (or over API Gateway's 10 MB, answered by the gateway).",
    headers: commonHeaders,
    content: json(
      { oneOf: [ref("Error"), ref("GatewayMessage")] },
      { service: { error: "Request body too large" }, gateway: { message: "Request Entity Too Large" } },
    ),
  },
  InternalError: errorOrGateway(
    "Something unexpected; the details are in the log with the request id, never in the response.",
    "Internal server error",
    "Internal Server Error",
  ),
  TooManyRequests: error(
    "Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`.",
    { mailBound: "Too many invitation e-mails, try again later" },
    { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
  ),
  BadGateway: error("The invitation e-mail could not be sent; no active invitation is left behind.", {
    mail: "Failed to send invitation email",
  }),
  ServiceUnavailable: errorOrGateway(
    "The database could not be reached in time (or the function timed out); nothing was changed.",
    "Service temporarily unavailable",
    "Service Unavailable",
  ),
};
