/**
 * The current user, built only from claims the JWT authorizer verified, never from the body or query.
 */

import type { APIGatewayProxyEventV2WithJWTAuthorizer } from "aws-lambda";
import { keyActorId } from "./api-keys/model.js";
import { isScope, type Scope } from "./api-keys/scopes.js";
import { now as clock } from "./clock.js";
import { Unauthorized } from "./errors.js";
import { recordedText } from "./text.js";

export const SUPER_ADMIN_GROUP = "cohort_super_admin";

export interface Caller {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly accountId: string;
  /** Cohort-super-admin status: member of the `cohort_super_admin` group. */
  readonly isCohortSuperAdmin: boolean;
  /** The identity provider verified `email` (`email_verified` true): required to accept an invitation. */
  readonly emailVerified: boolean;
  readonly ip: string;
  /** Set when the actor is an institution's directory (SCIM, docs/scim.md): its connection id; no user. */
  readonly directory?: string;
  /** Set when the actor is an institution API key (docs/api-keys.md): the key, its one institution and its scopes; no user. */
  readonly apiKey?: ApiKeyActor;
}

/** An institution API key as the caller: what its authorizer found by the key's hash. */
export interface ApiKeyActor {
  readonly id: string;
  readonly name: string;
  readonly institutionId: string;
  readonly scopes: readonly Scope[];
  /** When it stops working (ISO), or null. */
  readonly expiresAt: string | null;
}

/**
 * What the key authorizer (functions/api-keys/authorizer.ts) hands the functions in `requestContext.authorizer.lambda`:
 * strings only, `scopes` space-separated, `expires_at` empty for a key that never expires.
 */
export interface KeyContext {
  readonly api_key_id: string;
  readonly api_key_name: string;
  readonly institution_id: string;
  readonly account_id: string;
  readonly scopes: string;
  readonly expires_at: string;
}

type Claims = Record<string, string | number | boolean | string[]>;

/**
 * Group membership from the `cognito:groups` claim, matched exactly. API Gateway hands array claims to
 * Lambda flattened to `[a b]`: split on whitespace only, as Cognito group names hold none (a comma is part
 * of a name, so `ops,cohort_super_admin` is not the super-admin group). A string is never parsed as JSON:
 * a group may be named `"cohort_super_admin"`, quotes included, and its flattened claim
 * `["cohort_super_admin"]` must not read as the group. A real array (another authorizer) is read as is.
 */
export function parseGroups(value: Claims[string] | undefined): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  const text = String(value).trim();
  const inner = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  return inner.split(/\s+/).filter(Boolean);
}

/**
 * Builds the caller from a verified event and the viewer's address (the pipeline's, shared/origin.ts
 * `viewerAddress`). A user without an `account_id` attribute acts in a personal account named after their user
 * id, so that their institutions and events are still isolated.
 */
export function callerFrom(event: APIGatewayProxyEventV2WithJWTAuthorizer, ip: string): Caller {
  const claims = (event.requestContext.authorizer?.jwt?.claims ?? {}) as Claims;
  const id = claims.sub;
  // The authorizer refuses such tokens; a handler invoked without one refuses them too.
  if (typeof id !== "string" || id === "") throw new Unauthorized();
  // Identity (e-mail, account, groups as the service reads them) lives in ID tokens only.
  if (claims.token_use !== undefined && claims.token_use !== "id") throw new Unauthorized();
  const account = claims["custom:account_id"];
  return {
    id,
    email: typeof claims.email === "string" ? claims.email.toLowerCase() : "",
    // As recorded everywhere (events, access records, invitations, mail): cut and cleaned (docs/security.md).
    name: typeof claims.name === "string" && claims.name !== "" ? recordedText(claims.name) : null,
    accountId: typeof account === "string" && account !== "" ? account : `user:${id}`,
    isCohortSuperAdmin: parseGroups(claims["cognito:groups"]).includes(SUPER_ADMIN_GROUP),
    // API Gateway hands boolean claims over as strings.
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    ip,
  };
}

/** The Lambda authorizer's context of an event, when a Lambda authorizer (the key authorizer) let it through. */
export const lambdaContextOf = (event: APIGatewayProxyEventV2WithJWTAuthorizer): Record<string, unknown> | undefined =>
  (event.requestContext.authorizer as { lambda?: Record<string, unknown> } | undefined)?.lambda;

/**
 * The key as the caller, from the key authorizer's context (never from the request itself). The authorizer's
 * answer may be cached for up to a minute, so a key past its `expires_at` is refused here too (401), at once.
 * Its account is its institution's: its events go to that trail (docs/api-keys.md).
 */
export function keyCallerFrom(context: Record<string, unknown>, ip: string): Caller {
  const text = (name: keyof KeyContext) => (typeof context[name] === "string" ? (context[name] as string) : "");
  const id = text("api_key_id");
  const institutionId = text("institution_id");
  const accountId = text("account_id");
  if (id === "" || institutionId === "" || accountId === "") throw new Unauthorized();
  const expiresAt = text("expires_at") === "" ? null : text("expires_at");
  if (expiresAt !== null && !(Date.parse(expiresAt) > clock().getTime())) throw new Unauthorized();
  const scopes = text("scopes").split(" ").filter(isScope);
  const name = text("api_key_name");
  return {
    id: keyActorId(id),
    email: "",
    name: null,
    accountId,
    isCohortSuperAdmin: false,
    emailVerified: false,
    ip,
    apiKey: { id, name, institutionId, scopes, expiresAt },
  };
}

/**
 * The trail a visitor (no token) acts in until an invitation names the institution's owner: refusals of
 * tokens that name nothing. Shaped like the personal accounts (`user:<sub>`), in a namespace of its own.
 */
export const VISITOR_ACCOUNT = "visitors:unauthenticated";

/**
 * Who calls a public route that acts (open and register an invitation, docs/joining.md): nobody signed in, so
 * the visitor is its source address. Its id, `ip:<address>`, keys the probing bound by that address; its
 * events go to the invited institution's owner once the token names one (`actingFor`).
 */
export function visitorFrom(ip: string): Caller {
  return { id: `ip:${ip}`, email: "", name: null, accountId: VISITOR_ACCOUNT, isCohortSuperAdmin: false, emailVerified: false, ip };
}

/** The visitor acting toward `account`'s institution: its events are recorded in that account's trail only. */
export const actingFor = (visitor: Caller, account: string): Caller => ({ ...visitor, accountId: account });
