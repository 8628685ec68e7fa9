/**
 * The current user, built only from claims the JWT authorizer verified, never from the body or query.
 */

import { isIP } from "node:net";
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from "aws-lambda";
import { Unauthorized } from "./errors.js";
import { fromOrigin, originChecked } from "./origin.js";
import { EDGE, readSettings } from "./settings.js";
import { recordedText } from "./text.js";

export const SUPER_ADMIN_GROUP = "cohort_super_admin";

/**
 * `TRUST_CLOUDFRONT_VIEWER_ADDRESS=true`: every request comes through the console's CloudFront distribution
 * (the HTTP API's own endpoint is disabled), so the viewer's address is CloudFront's
 * `CloudFront-Viewer-Address`, not the connection's. The stack sets it only then; unset locally, where the
 * connection is the viewer. Read once at load, like shared/config.ts (which this module does not need).
 */
const TRUST_VIEWER_ADDRESS = readSettings(EDGE(), ["TRUST_CLOUDFRONT_VIEWER_ADDRESS"]).TRUST_CLOUDFRONT_VIEWER_ADDRESS;

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
  /** Set when the actor is an institution's directory (SCIM, DESIGN.md §15): its connection id; no user. */
  readonly directory?: string;
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
 * The viewer's IP address. Behind CloudFront the connection API Gateway sees is CloudFront's edge; the
 * viewer's is in `CloudFront-Viewer-Address` (`<ip>:<port>`, IPv6 unbracketed), which CloudFront sets
 * itself. It is trusted only with `trusted` (`TRUST_CLOUDFRONT_VIEWER_ADDRESS`: the stack sets it when
 * every request must come through CloudFront), never otherwise, as a client could send the header itself.
 */
export function viewerIp(event: Pick<APIGatewayProxyEventV2WithJWTAuthorizer, "headers" | "requestContext">, trusted: boolean): string {
  const sourceIp = event.requestContext.http?.sourceIp ?? "unknown";
  if (!trusted) return sourceIp;
  const viewer = event.headers?.["cloudfront-viewer-address"];
  const ip = viewer?.slice(0, Math.max(0, viewer.lastIndexOf(":")));
  return ip && isIP(ip) ? ip : sourceIp;
}

/**
 * Builds the caller from a verified event. A user without an `account_id` attribute acts in a personal
 * account named after their user id, so that their institutions and events are still isolated.
 */
export function callerFrom(event: APIGatewayProxyEventV2WithJWTAuthorizer): Caller {
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
    // As recorded everywhere (events, access records, invitations, mail): cut and cleaned (DESIGN.md §13).
    name: typeof claims.name === "string" && claims.name !== "" ? recordedText(claims.name) : null,
    accountId: typeof account === "string" && account !== "" ? account : `user:${id}`,
    isCohortSuperAdmin: parseGroups(claims["cognito:groups"]).includes(SUPER_ADMIN_GROUP),
    // API Gateway hands boolean claims over as strings.
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    // CloudFront's viewer address only on a request that proved it came through CloudFront (shared/origin.ts).
    ip: viewerIp(event, TRUST_VIEWER_ADDRESS && originChecked && fromOrigin(event.headers)),
  };
}

/**
 * The trail a visitor (no token) acts in until an invitation names the institution's owner: refusals of
 * tokens that name nothing. Shaped like the personal accounts (`user:<sub>`), in a namespace of its own.
 */
export const VISITOR_ACCOUNT = "visitors:unauthenticated";

/**
 * Who calls a public route that acts (open and register an invitation, DESIGN.md §14): nobody signed in, so
 * the visitor is its source address. Its id, `ip:<address>`, keys the probing bound by that address; its
 * events go to the invited institution's owner once the token names one (`actingFor`).
 */
export function visitorFrom(event: Pick<APIGatewayProxyEventV2WithJWTAuthorizer, "headers" | "requestContext">): Caller {
  const ip = viewerIp(event, TRUST_VIEWER_ADDRESS && originChecked && fromOrigin(event.headers));
  return { id: `ip:${ip}`, email: "", name: null, accountId: VISITOR_ACCOUNT, isCohortSuperAdmin: false, emailVerified: false, ip };
}

/** The visitor acting toward `account`'s institution: its events are recorded in that account's trail only. */
export const actingFor = (visitor: Caller, account: string): Caller => ({ ...visitor, accountId: account });
