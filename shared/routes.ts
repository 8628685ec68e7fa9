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
  /**
   * Keeps Idempotency-Key records (the idempotency table): derived by `handlers()` for a handler that serves a
   * POST, never written on a route.
   */
  readonly idempotency?: boolean;
  /**
   * Finds and creates user-pool users (SCIM provisioning, DESIGN.md §15): `cognito-idp:ListUsers` and
   * `AdminCreateUser` on the pool, nothing else.
   */
  readonly cognito?: boolean;
}

export interface Route {
  readonly method: HttpMethod;
  /** API Gateway HTTP API path syntax: `{name}` is one path segment. */
  readonly path: string;
  readonly handler: string;
  /** Who may call it, as the contract says; documentation for readers and the API document. */
  readonly who: string;
  readonly access: RouteAccess;
  /** Served without a token (no authorizer, deployed or local): only the API document and its page. */
  readonly public?: boolean;
  /**
   * `scim`: a SCIM 2.0 route (DESIGN.md §15): the Lambda REQUEST authorizer checks the connection's bearer token
   * (functions/scim/authorizer.ts) instead of the JWT authorizer; no Idempotency-Key.
   */
  readonly auth?: "scim";
}

// Refused requests write their audit event, or at least count against the probing bound (a counter in the
// events table), so every route that can refuse writes to the events table; there, writing is appending only.
const inst = "/api/v1/institutions";
const inv = "/api/v1/admin/invitations";
const sec = "/api/v1/admin/security_events";
const hooks = "/api/v1/admin/webhooks";
/** Where the SCIM service lives (DESIGN.md §15): the connection's `base_url` is the API's origin and this. */
export const SCIM_BASE_PATH = "/api/scim/v2";

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
  // Directory provisioning (DESIGN.md §15): the connection, managed by the institution's super admin,
  ...(["POST", "GET", "PATCH", "DELETE"] as const).map(
    (method): Route => ({
      method,
      path: `${inst}/{id}/scim`,
      handler: "scim/connection",
      who: "super admin of the institution",
      access: { main: method === "GET" ? "read" : "readwrite", events: "write" },
    }),
  ),
  // and the SCIM 2.0 service the directory calls with the connection's token.
  ...scimRoutes(),
  // The API document and its reference page (shared/openapi/): read no table.
  { method: "GET", path: "/api/v1/openapi.json", handler: "docs/openapi", who: "anyone, without a token", access: {}, public: true },
  { method: "GET", path: "/api/v1/docs", handler: "docs/page", who: "anyone, without a token", access: {}, public: true },
];

/** The SCIM 2.0 service's routes (RFC 7644) under `SCIM_BASE_PATH`: discovery, then Users and Groups. */
function scimRoutes(): Route[] {
  const who = "the institution's directory (SCIM bearer token)";
  // One function serves them all (functions/scim/service.ts), so the stack stays under 500 resources.
  const scim = (method: HttpMethod, path: string, access: RouteAccess): Route => ({
    method,
    path: `${SCIM_BASE_PATH}${path}`,
    handler: "scim/service",
    who,
    access,
    auth: "scim",
  });
  const discovery = ["/ServiceProviderConfig", "/ResourceTypes", "/ResourceTypes/{id}", "/Schemas", "/Schemas/{id}"].map((path) =>
    scim("GET", path, {}),
  );
  const resources = (["Users", "Groups"] as const).flatMap((type) => {
    // A user's create, replace or update may grant access to a person the user pool has yet to find or make.
    const writes = { main: "readwrite", events: "write", ...(type === "Users" && { cognito: true }) } as const;
    return [
      scim("GET", `/${type}`, { main: "read" }),
      scim("POST", `/${type}`, writes),
      scim("GET", `/${type}/{id}`, { main: "read" }),
      scim("PUT", `/${type}/{id}`, writes),
      scim("PATCH", `/${type}/{id}`, writes),
      scim("DELETE", `/${type}/{id}`, { main: "readwrite", events: "write" }),
    ];
  });
  return [...discovery, ...resources];
}

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
    // A SCIM client knows no Idempotency-Key (its POSTs are made safe by userName uniqueness instead).
    const idempotency = had.idempotency === true || (takesIdempotencyKey(r.method) && r.auth !== "scim");
    const cognito = had.cognito === true || r.access.cognito === true;
    out.set(r.handler, {
      ...(main && { main }),
      ...(events && { events }),
      ...(mail && { mail }),
      ...(idempotency && { idempotency }),
      ...(cognito && { cognito }),
    });
  }
  return out;
}
