/**
 * Response schemas, headers and the error responses of the API document: written once, here (DESIGN.md
 * §3, §6). Objects are closed (`additionalProperties: false`), so a field the service starts to send
 * without the document saying so fails the tests that validate every response against this.
 */
import { COUNTED_TYPES, EVENT_TYPES, SETTINGS_KEYS } from "../constants.js";
import { DETAIL_KEYS } from "../event-details.js";
import type { InvitationStatus } from "../invitations/model.js";
import { ROLES } from "../roles.js";

export type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const schemaRef = ref;
const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });
const closed = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: "object",
  ...(description && { description }),
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const STATUSES = Object.keys({ active: 1, used: 1, revoked: 1, expired: 1 } satisfies Record<InvitationStatus, 1>);

const counts = (description: string): Schema => ({
  type: "object",
  description,
  properties: Object.fromEntries(COUNTED_TYPES.map((t) => [t, { type: "integer", minimum: 0 }])),
  required: [...COUNTED_TYPES],
  additionalProperties: false,
});

/** The invitation in the create response (resend adds its new `sent_at`). */
const issued = {
  id: ref("Id"),
  email: { type: "string" },
  role: ref("Role"),
  token_preview: ref("TokenPreview"),
  expires_at: ref("Timestamp"),
};

export const schemas: Record<string, Schema> = {
  Id: {
    type: "string",
    description: "An opaque id assigned by the service (time-ordered, 26 characters).",
    pattern: "^[0-9A-HJKMNP-TV-Z]{26}$",
    examples: ["01M84M2ES7DTY37NE05PPBJBQG"],
  },
  Timestamp: {
    type: "string",
    format: "date-time",
    description: "ISO 8601, UTC, with milliseconds.",
    pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
    examples: ["2026-11-23T16:33:19.655Z"],
  },
  Role: { type: "string", enum: [...ROLES] },
  Error: closed({ error: { type: "string" } }, "A single message."),
  ValidationErrors: closed(
    { errors: { type: "array", items: { type: "string" }, minItems: 1 } },
    "Every validation failure of the record, each a full message (`Name can't be blank`, `<Field> contains invalid characters`).",
  ),
  GatewayMessage: closed(
    { message: { type: "string" } },
    "Written by API Gateway itself, before or instead of the function: 401 `Unauthorized`, 413 `Request Entity Too Large` (over 10 MB), 500 `Internal Server Error` (the function failed), 503 `Service Unavailable` (it timed out).",
  ),
  Settings: {
    type: "object",
    description: "The settings stored for the institution: only the keys ever set.",
    properties: Object.fromEntries(SETTINGS_KEYS.map((k) => [k, { type: "boolean" }])),
    additionalProperties: false,
  },
  EffectiveSettings: {
    ...closed(Object.fromEntries(SETTINGS_KEYS.map((k) => [k, { type: "boolean" }]))),
    description:
      "Stored settings merged over the defaults (allow_student_enrollment true, require_verification true, auto_finalize false, email_notifications true).",
  },
  Institution: closed({
    id: ref("Id"),
    name: { type: "string" },
    registration_number: nullable({ type: "string" }),
    address: nullable({ type: "string" }),
    contact_email: nullable({ type: "string" }),
    contact_phone: nullable({ type: "string" }),
    settings: ref("Settings"),
    account_id: { type: "string" },
    super_admin_id: { type: "string" },
    created_at: ref("Timestamp"),
    updated_at: ref("Timestamp"),
  }),
  InstitutionListItem: closed({
    id: ref("Id"),
    name: { type: "string" },
    registration_number: nullable({ type: "string" }),
    contact_email: nullable({ type: "string" }),
    role: { ...ref("Role"), description: "The caller's role in the institution." },
    is_super_admin: { type: "boolean", description: "True when the caller is the institution's super admin." },
    created_at: ref("Timestamp"),
  }),
  Cohort: closed({ id: ref("Id"), name: { type: "string" }, created_at: ref("Timestamp") }),
  TokenPreview: {
    type: "string",
    description: "The first 8 characters of the invitation token and `...`; the full token is only ever in the e-mail.",
    pattern: "^[A-Za-z0-9_-]{8}\\.\\.\\.$",
  },
  IssuedInvitation: closed(issued),
  ResentInvitation: closed({ ...issued, sent_at: ref("Timestamp") }),
  InvitationListItem: closed({
    id: ref("Id"),
    email: { type: "string" },
    role: ref("Role"),
    token_preview: ref("TokenPreview"),
    sent_at: ref("Timestamp"),
    expires_at: ref("Timestamp"),
    used_at: nullable(ref("Timestamp")),
    created_by: { type: "string", description: "E-mail of the administrator who created it." },
    status: { type: "string", enum: STATUSES },
  }),
  Administrator: closed({
    user_id: { type: "string", description: "The administrator's user id (Cognito `sub`)." },
    email: { type: "string", description: "As the administrator's token said when access was granted." },
    name: nullable({ type: "string" }),
    account_id: {
      type: "string",
      description: "The administrator's own account; another than the institution's for a member from another account.",
    },
    role: ref("Role"),
    is_super_admin: { type: "boolean" },
    added_at: ref("Timestamp"),
    invitation_id: { ...nullable(ref("Id")), description: "The invitation that granted the access; null for the institution's creator." },
  }),
  InvitationPreview: closed({
    institution: closed({ name: { type: "string" } }),
    role: ref("Role"),
    invited_by: closed({ email: { type: "string" }, name: nullable({ type: "string" }) }),
    expires_at: ref("Timestamp"),
  }),
  InvitationOpened: closed({
    institution: closed({ name: { type: "string" } }),
    role: ref("Role"),
    invited_by: closed({ email: { type: "string" }, name: nullable({ type: "string" }) }),
    expires_at: ref("Timestamp"),
    email: { type: "string", description: "The invited address: the new account's e-mail and user name." },
    has_account: { type: "boolean", description: "A user with this e-mail exists: sign in and accept, rather than register." },
  }),
  AlreadyAccepted: closed(
    { error: { type: "string", const: "Invitation already accepted" }, institution: closed({ name: { type: "string" } }) },
    "The invitation was used already, by the one asking: reopening an accepted link. Nothing is recorded.",
  ),
  PageMeta: closed({
    count: { type: "integer", minimum: 0, description: "Items on this page." },
    limit: { type: "integer", minimum: 1, maximum: 200 },
    next_cursor: { ...nullable({ type: "string" }), description: "Pass as `cursor` for the next page; null on the last page." },
  }),
  EventType: { type: "string", enum: [...EVENT_TYPES] },
  EventDetails: {
    type: "object",
    description: `Event-specific data; values taken from a request are cut to 64 characters. Keys by event type: ${Object.entries(
      DETAIL_KEYS,
    )
      .map(([type, keys]) => `${type}: ${keys.join(", ")}`)
      .join("; ")}.`,
    additionalProperties: true,
  },
  ListedEvent: closed({
    id: ref("Id"),
    event_type: ref("EventType"),
    user_email: nullable({ type: "string" }),
    ip_address: { type: "string" },
    details: ref("EventDetails"),
    created_at: ref("Timestamp"),
    description: { type: "string", description: "One line of human-readable text." },
  }),
  SecurityEvent: closed({
    id: ref("Id"),
    event_type: ref("EventType"),
    user: closed(
      { id: nullable({ type: "string" }), email: nullable({ type: "string" }), name: nullable({ type: "string" }) },
      "The actor as it was when the event happened.",
    ),
    ip_address: { type: "string" },
    details: ref("EventDetails"),
    created_at: ref("Timestamp"),
    description: { type: "string" },
  }),
  AlertCounts: counts("Events of each counted type in the last hour (0 when none)."),
  Alert: closed({
    type: { type: "string", enum: ["unauthorized_access", "rate_limit", "token_failures"] },
    severity: { type: "string", enum: ["high", "medium"] },
    count: { type: "integer", minimum: 1 },
  }),
  AlertMinute: {
    ...counts("The counted types' events in one minute of the hour."),
    properties: {
      minute: { type: "string", description: "The minute, UTC (ISO 8601)." },
      ...Object.fromEntries(COUNTED_TYPES.map((t) => [t, { type: "integer", minimum: 0 }])),
    },
    required: ["minute", ...COUNTED_TYPES],
  },
  Digest: closed(
    {
      account_id: { type: "string" },
      sequence: { type: "integer", minimum: 1, description: "1 for the account's first digest, then +1 each." },
      period_start: ref("Timestamp"),
      period_end: ref("Timestamp"),
      event_count: { type: "integer", minimum: 1 },
      events_hash: { type: "string", pattern: "^[0-9a-f]{64}$" },
      previous_digest_hash: nullable({ type: "string", pattern: "^[0-9a-f]{64}$" }),
      created_at: ref("Timestamp"),
      key_id: { type: "string" },
      signature: { type: "string", description: "Base64 of the DER ECDSA P-256 / SHA-256 signature." },
    },
    "A signed digest of one account's events in one period.",
  ),
  DigestList: closed({
    digests: { type: "array", items: ref("Digest") },
    public_key: { type: "string", description: "The signing key's public key, PEM (SPKI)." },
  }),
  Alerts: closed({
    summary: ref("AlertCounts"),
    alerts: {
      type: "array",
      items: ref("Alert"),
      description:
        "Present only when a count reaches its threshold: unauthorized_access ≥ 5 (high), rate_limit ≥ 10 (medium), token_failures ≥ 20 (high).",
    },
    time_range: closed({ from: ref("Timestamp"), to: ref("Timestamp") }),
    series: {
      type: "array",
      items: ref("AlertMinute"),
      minItems: 60,
      maxItems: 60,
      description: "Per-minute counts over the same hour, oldest first, for a chart.",
    },
  }),
};

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
      "Makes a retry safe (DESIGN.md §12): a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.",
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
