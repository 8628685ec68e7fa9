/**
 * The one route table. The CDK stack and the local gateway both read it, so the deployed API and the
 * local one cannot drift. `handler` names `functions/<handler>.ts`; routes that share a handler share
 * one Lambda function.
 */
import type { Scope } from "./api-keys/scopes.js";
import { paths } from "./paths.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Cognito actions per kind of user-pool access; the one list CDK grants from. */
export const USER_ACTIONS = {
  read: ["cognito-idp:AdminGetUser"],
  // Register looks nobody up first: AdminCreateUser's "user exists" answers that (shared/invitations/join.ts).
  join: ["cognito-idp:AdminCreateUser", "cognito-idp:AdminSetUserPassword", "cognito-idp:AdminDeleteUser"],
  /** SCIM provisioning (DESIGN.md §15): find a person by e-mail, or create them with the pool's invitation. */
  provision: ["cognito-idp:ListUsers", "cognito-idp:AdminCreateUser"],
} as const;
export type UserAccess = keyof typeof USER_ACTIONS;

/** What a handler may do to each table; CDK grants exactly this and nothing more. */
export interface RouteAccess {
  readonly main?: "read" | "write" | "readwrite";
  readonly events?: "read" | "write" | "readwrite";
  /** Sends mail through SES. */
  readonly mail?: boolean;
  /** Full exports (DESIGN.md §11): starts the export worker, or signs download links to the exports bucket. */
  readonly exports?: "start" | "read";
  /**
   * What a handler does to users in the user pool: `read` them as the pool holds them now (transfer, DESIGN.md
   * §13), or `join` (create, set the password of and delete again a user joining from an invitation,
   * §14). infra/api-function.ts grants exactly the actions of `USER_ACTIONS`.
   */
  readonly users?: UserAccess;
  /**
   * Keeps Idempotency-Key records (the idempotency table): derived by `handlers()` for a handler that serves a
   * POST, never written on a route.
   */
  readonly idempotency?: boolean;
}

/**
 * Who may call a route, as the contract says, by kind, with the words the API document shows. The middleware
 * (shared/http.ts `api()`) applies `cohort_super_admin` itself, before the body is read (403, counted against the
 * probing bound, no event). The others need the institution or the invitation looked up first (404 among the visible before
 * 403, DESIGN.md §2), so the use case checks them in that order; `public` routes have no authorizer.
 */
export const WHO = {
  public: "anyone, without a token",
  /** No token of the API either: the invitation token in the body is the credential (open and register, DESIGN.md §14). */
  invitation_token: "anyone holding the invitation's token, without a token of the API",
  any: "any authorized user",
  cohort_super_admin: "cohort super admin",
  /** Cohort super admin too, but refused with the event DESIGN.md §2 asks for (`insufficient_privileges`): the use case checks it. */
  institution_creator: "cohort super admin",
  institution_member: "user with access",
  institution_super_admin: "super admin of the institution",
  institution_super_admin_or_self: "super admin of the institution, or the administrator itself (leaving)",
  invitation_manager: "cohort super admin managing the institution",
  invitee: "the invited e-mail's user",
  /** The SCIM routes: the Lambda authorizer has checked the connection's bearer token (DESIGN.md §15). */
  scim_directory: "the institution's directory (SCIM bearer token)",
} as const;

export type Rule = { readonly kind: keyof typeof WHO };

/** The rules by name, so that a route reads `rule: rule.cohort_super_admin`. */
export const rule = Object.fromEntries(Object.keys(WHO).map((kind) => [kind, { kind }])) as {
  readonly [K in keyof typeof WHO]: { readonly kind: K };
};

export interface Route {
  readonly method: HttpMethod;
  /** API Gateway HTTP API path syntax: `{name}` is one path segment. */
  readonly path: string;
  readonly handler: string;
  /** Who may call it: enforced (see `WHO`). */
  readonly rule: Rule;
  /** The rule in the contract's words, for readers and the API document. */
  readonly who: string;
  readonly access: RouteAccess;
  /**
   * Served without a token (no authorizer, deployed or local): the API document and its page, and the two
   * routes whose credential is an invitation token in the body (open and register, DESIGN.md §14).
   */
  readonly public?: boolean;
  /**
   * `scim`: a SCIM 2.0 route (DESIGN.md §15): the Lambda REQUEST authorizer checks the connection's bearer token
   * (functions/scim/authorizer.ts) instead of the JWT authorizer; no Idempotency-Key.
   */
  readonly auth?: "scim";
  /**
   * The scope that opens the route to an institution API key (DESIGN.md §19; shared/api-keys/scopes.ts). A
   * route without one is never for keys: the JSON dialect refuses a key there (403), and the machines' API
   * (infra/machine-api.ts) does not serve it. A key never needs more than its scope: the use case treats it
   * as its institution's super admin, within that scope.
   */
  readonly scope?: Scope;
}

/** The path prefixes (shared/paths.ts), for the console's client and the tests. */
export { paths };

// Refused requests write their audit event, or at least count against the probing bound (a counter in the
// events table), so every route that can refuse writes to the events table; there, writing is appending only.
const inst = paths.institutions;
const inv = paths.invitations;
const sec = paths.securityEvents;
const hooks = paths.webhooks;
/** Where the SCIM service lives (DESIGN.md §15). */
export const SCIM_BASE_PATH = paths.scim;

/** A route as the table declares it: `who` and `public` follow from its rule. */
type Declared = Omit<Route, "who" | "public">;

const table: readonly Declared[] = [
  { method: "GET", path: inst, handler: "institutions/list", rule: rule.any, scope: "institution:read", access: { main: "read" } },
  {
    method: "POST",
    path: inst,
    handler: "institutions/create",
    rule: rule.institution_creator,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${inst}/{id}`,
    handler: "institutions/show",
    scope: "institution:read",
    rule: rule.institution_member,
    access: { main: "read", events: "write" },
  },
  {
    method: "PATCH",
    path: `${inst}/{id}`,
    handler: "institutions/update",
    scope: "institution:write",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "PUT",
    path: `${inst}/{id}`,
    handler: "institutions/update",
    scope: "institution:write",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}`,
    handler: "institutions/delete",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${inst}/{id}/cohorts`,
    handler: "cohorts/list",
    scope: "cohorts:read",
    rule: rule.institution_member,
    access: { main: "read", events: "write" },
  },
  {
    method: "POST",
    path: `${inst}/{id}/cohorts`,
    handler: "cohorts/create",
    scope: "cohorts:write",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/cohorts/{cohort_id}`,
    handler: "cohorts/delete",
    scope: "cohorts:write",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${inst}/{id}/administrators`,
    handler: "administrators/list",
    scope: "administrators:read",
    rule: rule.institution_member,
    access: { main: "read", events: "write" },
  },
  {
    method: "PATCH",
    path: `${inst}/{id}/administrators/{user_id}`,
    handler: "administrators/update",
    scope: "administrators:write",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/administrators/{user_id}`,
    handler: "administrators/remove",
    scope: "administrators:write",
    rule: rule.institution_super_admin_or_self,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "POST",
    path: `${inst}/{id}/transfer`,
    handler: "administrators/transfer",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write", users: "read" },
  },
  {
    method: "GET",
    path: inv,
    handler: "invitations/list",
    rule: rule.institution_member,
    scope: "invitations:read",
    access: { main: "read", events: "write" },
  },
  {
    method: "POST",
    path: inv,
    handler: "invitations/create",
    scope: "invitations:write",
    rule: rule.invitation_manager,
    access: { main: "readwrite", events: "write", mail: true },
  },
  {
    method: "DELETE",
    path: `${inv}/{id}`,
    handler: "invitations/revoke",
    scope: "invitations:write",
    rule: rule.invitation_manager,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "POST",
    path: `${inv}/{id}/resend`,
    handler: "invitations/resend",
    scope: "invitations:write",
    rule: rule.invitation_manager,
    access: { main: "readwrite", events: "write", mail: true },
  },
  {
    method: "POST",
    path: paths.invitationsAccept,
    handler: "invitations/accept",
    rule: rule.invitee,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "POST",
    path: paths.invitationsPreview,
    handler: "invitations/preview",
    rule: rule.invitee,
    access: { main: "read", events: "write" },
  },
  // Joining from an invitation (DESIGN.md §14): no token, the invitation token is the credential.
  {
    method: "POST",
    path: paths.invitationsOpen,
    handler: "invitations/open",
    rule: rule.invitation_token,
    access: { main: "read", events: "write", users: "read" },
  },
  {
    method: "POST",
    path: paths.invitationsRegister,
    handler: "invitations/register",
    rule: rule.invitation_token,
    access: { main: "readwrite", events: "write", users: "join" },
  },
  { method: "GET", path: sec, handler: "security-events/list", rule: rule.cohort_super_admin, access: { events: "readwrite" } },
  {
    method: "GET",
    path: `${sec}/export`,
    handler: "security-events/export",
    rule: rule.cohort_super_admin,
    access: { events: "readwrite" },
  },
  {
    method: "GET",
    path: `${sec}/alerts`,
    handler: "security-events/alerts",
    rule: rule.cohort_super_admin,
    access: { events: "readwrite" },
  },
  {
    method: "GET",
    path: `${sec}/digests`,
    handler: "security-events/digests",
    rule: rule.cohort_super_admin,
    access: { events: "readwrite" },
  },
  // Full exports (shared/exports/): the worker that writes the file is no route (infra/streaming.ts).
  {
    method: "POST",
    path: `${sec}/exports`,
    handler: "exports/create",
    rule: rule.cohort_super_admin,
    access: { main: "readwrite", events: "write", exports: "start" },
  },
  {
    method: "GET",
    path: `${sec}/exports/{id}`,
    handler: "exports/show",
    rule: rule.cohort_super_admin,
    access: { main: "read", events: "write", exports: "read" },
  },
  { method: "GET", path: `${sec}/{id}`, handler: "security-events/show", rule: rule.cohort_super_admin, access: { events: "readwrite" } },
  // Webhooks (shared/webhooks/): deliveries go out from the events table's stream, not from a route.
  { method: "GET", path: hooks, handler: "webhooks/list", rule: rule.cohort_super_admin, access: { main: "read", events: "write" } },
  {
    method: "POST",
    path: hooks,
    handler: "webhooks/create",
    rule: rule.cohort_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "DELETE",
    path: `${hooks}/{id}`,
    handler: "webhooks/delete",
    rule: rule.cohort_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${hooks}/{id}/deliveries`,
    handler: "webhooks/deliveries",
    rule: rule.cohort_super_admin,
    access: { main: "read", events: "write" },
  },
  // Directory provisioning (DESIGN.md §15): the connection, managed by the institution's super admin,
  ...(["POST", "GET", "PATCH", "DELETE"] as const).map(
    (method): Declared => ({
      method,
      path: `${inst}/{id}/scim`,
      handler: "scim/connection",
      rule: rule.institution_super_admin,
      access: { main: method === "GET" ? "read" : "readwrite", events: "write" },
    }),
  ),
  // and the SCIM 2.0 service the directory calls with the connection's token.
  ...scimRoutes(),
  // The institution's API keys (DESIGN.md §19), managed by its super admin; never by a key.
  {
    method: "POST",
    path: `${inst}/{id}/api_keys`,
    handler: "api-keys/manage",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  {
    method: "GET",
    path: `${inst}/{id}/api_keys`,
    handler: "api-keys/manage",
    rule: rule.institution_super_admin,
    access: { main: "read", events: "write" },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/api_keys/{key_id}`,
    handler: "api-keys/manage",
    rule: rule.institution_super_admin,
    access: { main: "readwrite", events: "write" },
  },
  // The API document and its reference page (shared/openapi/): read no table.
  { method: "GET", path: paths.openapi, handler: "docs/openapi", rule: rule.public, access: {} },
  { method: "GET", path: paths.docs, handler: "docs/page", rule: rule.public, access: {} },
];

export const routes: readonly Route[] = table.map((r) => ({
  ...r,
  who: WHO[r.rule.kind],
  ...((r.rule.kind === "public" || r.rule.kind === "invitation_token") && { public: true }),
}));

/**
 * The routes an API key may call (a `scope`), and the public ones: what the machines' API serves
 * (infra/machine-api.ts), and what the local gateway serves to an `iak_` bearer, as that API would.
 */
export const machineRoutes = (table: readonly Route[] = routes): Route[] => table.filter((r) => r.scope !== undefined || r.public);

/** The route API Gateway matched (`$context.routeKey`, as `routeKey()` spells it), if it is one of the table's. */
export const routeOf = (key: string): Route | undefined => routes.find((r) => routeKey(r) === key);

/** The SCIM 2.0 service's routes (RFC 7644) under `SCIM_BASE_PATH`: discovery, then Users and Groups. */
function scimRoutes(): Declared[] {
  // One function serves them all (functions/scim/service.ts), so the stack stays under 500 resources.
  const scim = (method: HttpMethod, path: string, access: RouteAccess): Declared => ({
    method,
    path: `${SCIM_BASE_PATH}${path}`,
    handler: "scim/service",
    rule: rule.scim_directory,
    access,
    auth: "scim",
  });
  const discovery = ["/ServiceProviderConfig", "/ResourceTypes", "/ResourceTypes/{id}", "/Schemas", "/Schemas/{id}"].map((path) =>
    scim("GET", path, {}),
  );
  const resources = (["Users", "Groups"] as const).flatMap((type) => {
    // A user's create, replace or update may grant access to a person the user pool has yet to find or make.
    const writes = { main: "readwrite", events: "write", ...(type === "Users" && { users: "provision" as const }) } as const;
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

/** A route as API Gateway names it (`$context.routeKey`): `GET <paths.institutions>/{id}`. */
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
 * serving a read route and a write route on one table may read and write it, mails if any route does, and
 * reaches the exports its route names (infra/streaming.ts grants them); one serving a POST keeps Idempotency-Key
 * records.
 */
export function handlers(table: readonly Route[] = routes): Map<string, RouteAccess> {
  const out = new Map<string, RouteAccess>();
  for (const r of table) {
    const had = out.get(r.handler) ?? {};
    const main = unite(had.main, r.access.main);
    const events = unite(had.events, r.access.events);
    const mail = had.mail === true || r.access.mail === true;
    const users = had.users ?? r.access.users;
    const exports = had.exports ?? r.access.exports;
    // A SCIM client knows no Idempotency-Key (its POSTs are made safe by userName uniqueness instead).
    const idempotency = had.idempotency === true || (takesIdempotencyKey(r.method) && r.auth !== "scim");
    out.set(r.handler, {
      ...(main && { main }),
      ...(events && { events }),
      ...(mail && { mail }),
      ...(users && { users }),
      ...(exports && { exports }),
      ...(idempotency && { idempotency }),
    });
  }
  return out;
}
