/**
 * Every domain error, in one place. `toResponse` is the one mapping from an error to the contract's
 * status and body; messages are exposed only below 500.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  readonly headers: Record<string, string> = {};
  body(): Record<string, unknown> {
    return { error: this.message };
  }
}

/** 400 `{error}`: a malformed request (bad parameter, missing root key, malformed JSON). */
export class BadRequest extends DomainError {
  readonly status = 400;
}

/**
 * 401 `{"message":"Unauthorized"}`, the body API Gateway's authorizer uses, for a verified token that is not
 * an ID token (a Cognito access token passes the HTTP API's JWT authorizer but carries no e-mail or account).
 */
export class Unauthorized extends DomainError {
  readonly status = 401;
  constructor() {
    super("Unauthorized");
  }
  override body() {
    return { message: this.message };
  }
}

/** 403 `{error}`. */
export class Forbidden extends DomainError {
  readonly status = 403;
}

/** 404 `{error}`. */
export class NotFound extends DomainError {
  readonly status = 404;
}

/** 409 `{error}`: a write lost a race it could not retry its way out of. */
export class Conflict extends DomainError {
  readonly status = 409;
}

/** 412 `{error}`: a write whose `If-Match` names a version the resource no longer has. */
export class PreconditionFailed extends DomainError {
  readonly status = 412;
}

/** 413 `{error}`. */
export class PayloadTooLarge extends DomainError {
  readonly status = 413;
  constructor() {
    super("Request body too large");
  }
}

/** 422 `{errors:[...]}`: validation of a record failed. */
export class ValidationFailed extends DomainError {
  readonly status = 422;
  constructor(readonly errors: string[]) {
    super(errors.join(", "));
  }
  override body() {
    return { errors: this.errors };
  }
}

/** 422 `{error}`: a valid request the current state refuses (delete with cohorts, revoke of a used invitation). */
export class Unprocessable extends DomainError {
  readonly status = 422;
}

/** 429 `{error}` with `Retry-After`. */
export class TooManyRequests extends DomainError {
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers["Retry-After"] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}

/** 502 `{error}`: a downstream service we depend on for the action (mail) failed. */
export class BadGateway extends DomainError {
  readonly status = 502;
}

/** 503 `{error}`: the database could not be reached in time. */
export class ServiceUnavailable extends DomainError {
  readonly status = 503;
  constructor() {
    super("Service temporarily unavailable");
  }
}

export const messages = {
  notThroughCloudFront: "Requests reach this API through its CloudFront distribution only",
  superAdminRequired: "Super admin access required",
  onlySuperAdminsUpdate: "Only super admins can update institutions",
  onlySuperAdminsDelete: "Only super admins can delete institutions",
  institutionNotFound: "Institution not found or access denied",
  invalidRole: "Invalid role specified",
  invitationNotFound: "Invitation not found",
  securityEventNotFound: "Security event not found",
  failedToRevoke: "Failed to revoke invitation",
  institutionMissing: "param is missing or the value is empty: institution",
  malformedJson: "Malformed JSON body",
  internal: "Internal server error",
  idempotencyKeyMalformed: "Idempotency-Key must be 1 to 255 printable ASCII characters",
  idempotencyKeyReused: "Idempotency-Key reused with a different request",
  idempotencyKeyInProgress: "A request with this Idempotency-Key is in progress",
  institutionChanged: "Institution was changed by someone else",
} as const;

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const networkErrorNames = new Set(["TimeoutError", "RequestTimeout", "NetworkingError", "ECONNREFUSED", "ECONNRESET", "EPIPE"]);

/** True for SDK failures that mean "DynamoDB could not be reached", as opposed to a bug or a refused request. */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  return networkErrorNames.has(err.name) || (code !== undefined && networkErrorNames.has(code));
}

/** The one mapping from any thrown value to the contract's response; `undefined` body detail for 5xx. */
export function toResponse(err: unknown): ErrorResponse {
  const known = err instanceof DomainError ? err : isUnreachable(err) ? new ServiceUnavailable() : undefined;
  if (known) return { status: known.status, headers: known.headers, body: known.body() };
  return { status: 500, headers: {}, body: { error: messages.internal } };
}
