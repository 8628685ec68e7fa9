/**
 * The one route table. The CDK stack and the local gateway both read it, so the deployed API and the
 * local one cannot drift. `handler` names `functions/<handler>.ts`; routes that share a handler share
 * one Lambda function.
 */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a handler may do to each table; CDK grants exactly this and nothing more. */
export interface RouteAccess {
  readonly main?: "read" | "write" | "readwrite";
  readonly events?: "read" | "write" | "readwrite";
  /** Sends mail through SES. */
  readonly mail?: boolean;
  /** Full exports (DESIGN.md §11): starts the export worker, or signs download links to the exports bucket. */
  readonly exports?: "start" | "read";
  /** Looks up, creates and deletes user-pool users (joining from an invitation, DESIGN.md §14). */
  readonly users?: boolean;
  /**
   * Keeps Idempotency-Key records (the idempotency table): derived by `handlers()` for a handler that serves a
   * POST, never written on a route.
   */
  readonly idempotency?: boolean;
}

export interface Route {
  readonly method: HttpMethod;
  /** API Gateway HTTP API path syntax: `{name}` is one path segment. */
  readonly path: string;
  readonly handler: string;
  /** Who may call it, as the contract says; documentation for readers and the API document. */
  readonly who: string;
  readonly access: RouteAccess;
  /**
   * Served without a token (no authorizer, deployed or local): the API document and its page, and the two
   * routes whose credential is an invitation token in the body (open and register, DESIGN.md §14).
   */
  readonly public?: boolean;
}

// Refused requests write their audit event, or at least count against the probing bound (a counter in the
// events table), so every route that can refuse writes to the events table; there, writing is appending only.
const inst = "/api/v1/institutions";
const inv = "/api/v1/admin/invitations";
const sec = "/api/v1/admin/security_events";
const hooks = "/api/v1/admin/webhooks";

export const routes: readonly Route[] = [
  { method: "GET", path: inst, handler: "institutions/list", who: "any authorized user", access: { main: "read" } },
  { method: "POST", path: inst, handler: "institutions/create", who: "cohort super admin", access: { main: "readwrite", events: "write" } },
  { method: "GET", path: `${inst}/{id}`, handler: "institutions/show", who: "user with access", access: { main: "read", events: "write" } },
  {
    method: "PATCH",
    path: `${inst}/{id}`,
    handler: "institutions/update",
    who: "super admin of the institution",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "PUT",
    path: `${inst}/{id}`,
    handler: "institutions/update",
    who: "super admin of the institution",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}`,
    handler: "institutions/delete",
    who: "super admin of the institution",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${inst}/{id}/cohorts`,
    handler: "cohorts/list",
    who: "user with access",
    access: { main: "read", events: "write" },
  },
  {
    method: "POST",
    path: `${inst}/{id}/cohorts`,
    handler: "cohorts/create",
    who: "super admin of the institution",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/cohorts/{cohort_id}`,
    handler: "cohorts/delete",
    who: "super admin of the institution",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${inst}/{id}/administrators`,
    handler: "administrators/list",
    who: "user with access",
    access: { main: "read", events: "write" },
  },
  {
    method: "PATCH",
    path: `${inst}/{id}/administrators/{user_id}`,
    handler: "administrators/update",
    who: "super admin of the institution",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/administrators/{user_id}`,
    handler: "administrators/remove",
    who: "super admin of the institution, or the administrator itself (leaving)",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "POST",
    path: `${inst}/{id}/transfer`,
    handler: "administrators/transfer",
    who: "super admin of the institution",
    access: { main: "readwrite", events: "write" },
  },
  { method: "GET", path: inv, handler: "invitations/list", who: "user with access", access: { main: "read", events: "write" } },
  {
    method: "POST",
    path: inv,
    handler: "invitations/create",
    who: "cohort super admin managing the institution",
    access: { main: "readwrite", events: "write", mail: true },
  },
  {
    method: "DELETE",
    path: `${inv}/{id}`,
    handler: "invitations/revoke",
    who: "cohort super admin managing the institution",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "POST",
    path: `${inv}/{id}/resend`,
    handler: "invitations/resend",
    who: "cohort super admin managing the institution",
    access: { main: "readwrite", events: "write", mail: true },
  },
  {
    method: "POST",
    path: "/api/v1/invitations/accept",
    handler: "invitations/accept",
    who: "the invited e-mail's user",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "POST",
    path: "/api/v1/invitations/preview",
    handler: "invitations/preview",
    who: "the invited e-mail's user",
    access: { main: "read", events: "write" },
  },
  // Joining from an invitation (DESIGN.md §14): no token, the invitation token is the credential.
  {
    method: "POST",
    path: "/api/v1/invitations/open",
    handler: "invitations/open",
    who: "anyone holding the invitation's token, without a token of the API",
    access: { main: "read", events: "write", users: true },
    public: true,
  },
  {
    method: "POST",
    path: "/api/v1/invitations/register",
    handler: "invitations/register",
    who: "anyone holding the invitation's token, without a token of the API",
    access: { main: "readwrite", events: "write", users: true },
    public: true,
  },
  { method: "GET", path: sec, handler: "security-events/list", who: "cohort super admin", access: { events: "readwrite" } },
  { method: "GET", path: `${sec}/export`, handler: "security-events/export", who: "cohort super admin", access: { events: "readwrite" } },
  { method: "GET", path: `${sec}/alerts`, handler: "security-events/alerts", who: "cohort super admin", access: { events: "readwrite" } },
  { method: "GET", path: `${sec}/digests`, handler: "security-events/digests", who: "cohort super admin", access: { events: "readwrite" } },
  // Full exports (shared/exports/): the worker that writes the file is no route (infra/streaming.ts).
  {
    method: "POST",
    path: `${sec}/exports`,
    handler: "exports/create",
    who: "cohort super admin",
    access: { main: "readwrite", events: "write", exports: "start" },
  },
  {
    method: "GET",
    path: `${sec}/exports/{id}`,
    handler: "exports/show",
    who: "cohort super admin",
    access: { main: "read", events: "write", exports: "read" },
  },
  { method: "GET", path: `${sec}/{id}`, handler: "security-events/show", who: "cohort super admin", access: { events: "readwrite" } },
  // Webhooks (shared/webhooks/): deliveries go out from the events table's stream, not from a route.
  { method: "GET", path: hooks, handler: "webhooks/list", who: "cohort super admin", access: { main: "read", events: "write" } },
  { method: "POST", path: hooks, handler: "webhooks/create", who: "cohort super admin", access: { main: "readwrite", events: "write" } },
  {
    method: "DELETE",
    path: `${hooks}/{id}`,
    handler: "webhooks/delete",
    who: "cohort super admin",
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${hooks}/{id}/deliveries`,
    handler: "webhooks/deliveries",
    who: "cohort super admin",
    access: { main: "read", events: "write" },
  },
  // The API document and its reference page (shared/openapi/): read no table.
  { method: "GET", path: "/api/v1/openapi.json", handler: "docs/openapi", who: "anyone, without a token", access: {}, public: true },
  { method: "GET", path: "/api/v1/docs", handler: "docs/page", who: "anyone, without a token", access: {}, public: true },
];

/**
 * Every POST takes an `Idempotency-Key` (DESIGN.md §12), by its method alone: a new POST route needs nothing
 * to get it. The middleware (shared/idempotency.ts), the API document and `handlers()` (so the stack's grants
 * and bundles) all ask this.
 */
export const takesIdempotencyKey = (method: string): boolean => method === "POST";

/** A route as API Gateway names it (`$context.routeKey`): `GET /api/v1/institutions/{id}`. */
export const routeKey = (r: Pick<Route, "method" | "path">): string => `${r.method} ${r.path}`;

type Level = NonNullable<RouteAccess["main"]>;

/** Both levels' rights: read and write together are readwrite. */
function unite(a: Level | undefined, b: Level | undefined): Level | undefined {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  return "readwrite";
}

/**
 * Distinct handlers of a route table (default: `routes`) with the union of their routes' access: a handler
 * serving a read route and a write route on one table may read and write it, and mails if any route does;
 * one serving a POST keeps Idempotency-Key records.
 */
export function handlers(table: readonly Route[] = routes): Map<string, RouteAccess> {
  const out = new Map<string, RouteAccess>();
  for (const r of table) {
    const had = out.get(r.handler) ?? {};
    const main = unite(had.main, r.access.main);
    const events = unite(had.events, r.access.events);
    const mail = had.mail === true || r.access.mail === true;
    const users = had.users === true || r.access.users === true;
    const idempotency = had.idempotency === true || takesIdempotencyKey(r.method);
    out.set(r.handler, {
      ...(main && { main }),
      ...(events && { events }),
      ...(mail && { mail }),
      ...(users && { users }),
      ...(idempotency && { idempotency }),
    });
  }
  return out;
}
