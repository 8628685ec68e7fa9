/**
 * The one route table. The CDK stack and the local gateway both read it, so the deployed API and the
 * local one cannot drift. `handler` names `functions/<handler>.ts`; routes that share a handler share
 * one Lambda function.
 */
import type { Scope } from "./api-keys/scopes.js";
import { paths } from "./paths.js";
import type { EventsIndex, MainIndex } from "./tables.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Cognito actions per kind of user-pool access; the one list CDK grants from. */
export const USER_ACTIONS = {
  read: ["cognito-idp:AdminGetUser"],
  // Register looks nobody up first: AdminCreateUser's "user exists" answers that (shared/invitations/join.ts).
  join: ["cognito-idp:AdminCreateUser", "cognito-idp:AdminSetUserPassword", "cognito-idp:AdminDeleteUser"],
  /** SCIM provisioning (docs/scim.md): find a person by e-mail, or create them with the pool's invitation. */
  provision: ["cognito-idp:ListUsers", "cognito-idp:AdminCreateUser"],
  /**
   * An SSO connection (docs/sso.md, shared/sso/pool.ts): the pool's identity provider of the institution, and
   * its place among the console app client's supported providers (read, then written back whole).
   */
  sso: [
    "cognito-idp:CreateIdentityProvider",
    "cognito-idp:UpdateIdentityProvider",
    "cognito-idp:DeleteIdentityProvider",
    "cognito-idp:DescribeUserPoolClient",
    "cognito-idp:UpdateUserPoolClient",
  ],
  /** The caller's own second sign-in step (docs/contract/people.md, `PUT /me/mfa`). */
  mfa: ["cognito-idp:AdminSetUserMFAPreference"],
  /** Revoking every session of the caller (docs/contract/people.md, `POST /me/sign_out_everywhere`). */
  sign_out: ["cognito-idp:AdminUserGlobalSignOut"],
  /**
   * Deleting an institution with an SSO connection (shared/sso/release.ts): its provider taken off the app client's
   * list (read, then written back whole), then deleted.
   */
  sso_release: ["cognito-idp:DescribeUserPoolClient", "cognito-idp:UpdateUserPoolClient", "cognito-idp:DeleteIdentityProvider"],
} as const;
export type UserAccess = keyof typeof USER_ACTIONS;

/**
 * A DynamoDB call on the main table, as IAM authorizes it: a `TransactWriteItems` has no action of its own, each
 * of its items is its own `PutItem`, `UpdateItem`, `DeleteItem` or `ConditionCheckItem`. `Query <index>` queries
 * that index (an index is only ever queried).
 */
export type MainCall =
  | "GetItem"
  | "BatchGetItem"
  | "Query"
  | "PutItem"
  | "UpdateItem"
  | "DeleteItem"
  | "ConditionCheckItem"
  | `Query ${MainIndex}`;

/**
 * A call on the events table. Writing there is appending (docs/security.md): `append` puts an event (and its period's
 * activity marker), `count` updates the alert and refused-request counters; neither ever deletes or rewrites.
 */
export type EventsCall = "GetItem" | "Query" | `Query ${EventsIndex}` | "append" | "count";

/** The order calls are listed in (`handlers()`, the grants): reads, writes, then index queries by name. */
const CALL_ORDER: readonly string[] = [
  "GetItem",
  "BatchGetItem",
  "Query",
  "PutItem",
  "UpdateItem",
  "DeleteItem",
  "ConditionCheckItem",
  "append",
  "count",
];
const byCallOrder = (a: string, b: string): number => {
  const rank = (c: string) => (CALL_ORDER.includes(c) ? CALL_ORDER.indexOf(c) : CALL_ORDER.length);
  return rank(a) - rank(b) || a.localeCompare(b);
};

/**
 * What a handler does to each table, call by call: CDK grants exactly these and nothing more (infra/tables.ts),
 * and the test run's IAM check (docs/iam.md) fails on a call a handler makes that is not here, and, on a full
 * run, on one here that no request made.
 */
export interface RouteAccess {
  readonly main?: readonly MainCall[];
  readonly events?: readonly EventsCall[];
  /** Sends mail through SES. */
  readonly mail?: boolean;
  /** Full exports (docs/events-out.md): starts the export worker, or signs download links to the exports bucket. */
  readonly exports?: "start" | "read";
  /**
   * What a handler does to users in the user pool: `read` them as the pool holds them now (transfer, docs/contract/README.md
   * docs/security.md), or `join` (create, set the password of and delete again a user joining from an invitation,
   * docs/joining.md), `provision` them (SCIM, docs/scim.md), keep an institution's identity provider in it (`sso`, docs/sso.md),
   * or the caller's own second step and sessions (`mfa`, `sign_out`, docs/contract/people.md).
   * infra/api-function.ts grants exactly the actions of `USER_ACTIONS`.
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
 * 403, docs/contract/README.md#identity-and-access), so the use case checks them in that order; `public` routes have no authorizer.
 */
export const WHO = {
  public: "anyone, without a token",
  /** No token of the API either: the invitation token in the body is the credential (open and register, docs/joining.md). */
  invitation_token: "anyone holding the invitation's token, without a token of the API",
  any: "any authorized user",
  cohort_super_admin: "a user with the cohort-super-admin status",
  /** Cohort super admin too, but refused with the event docs/contract/README.md#identity-and-access asks for (`insufficient_privileges`): the use case checks it. */
  institution_creator: "a user with the cohort-super-admin status",
  institution_member: "user with access",
  institution_super_admin: "the institution's super admin",
  institution_super_admin_or_self: "the institution's super admin, or the administrator itself (leaving)",
  invitation_manager: "a user with the cohort-super-admin status and the role `cohort_super_admin` on the institution",
  invitee: "the invited e-mail's user",
  /** The SCIM routes: the Lambda authorizer has checked the connection's bearer token (docs/scim.md). */
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
   * routes whose credential is an invitation token in the body (open and register, docs/joining.md).
   */
  readonly public?: boolean;
  /**
   * `scim`: a SCIM 2.0 route (docs/scim.md): the Lambda REQUEST authorizer checks the connection's bearer token
   * (functions/scim/authorizer.ts) instead of the JWT authorizer; no Idempotency-Key.
   */
  readonly auth?: "scim";
  /**
   * The scope that opens the route to an institution API key (docs/api-keys.md; shared/api-keys/scopes.ts). A
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
/**
 * The trail's writes of a route that can refuse: its events, and the probing bound's counter. A route whose
 * refusals record no event of their own (the cohort super admin's: the trail, exports, webhooks) still appends
 * one: the first refusal past the bound records `rate_limit_exceeded` (shared/refusals.ts).
 */
const TRAIL = ["append", "count"] as const satisfies readonly EventsCall[];
const inst = paths.institutions;
const inv = paths.invitations;
const sec = paths.securityEvents;
const hooks = paths.webhooks;
/** Where the SCIM service lives (docs/scim.md). */
export const SCIM_BASE_PATH = paths.scim;

/** A route as the table declares it: `who` and `public` follow from its rule. */
type Declared = Omit<Route, "who" | "public">;

const table: readonly Declared[] = [
  // An API key's list is its one institution (GetItem); a person's, their access records (Query).
  {
    method: "GET",
    path: inst,
    handler: "institutions/list",
    rule: rule.any,
    scope: "institution:read",
    access: { main: ["GetItem", "Query"] },
  },
  {
    method: "POST",
    path: inst,
    handler: "institutions/create",
    rule: rule.institution_creator,
    access: { main: ["PutItem", "UpdateItem"], events: TRAIL },
  },
  {
    method: "GET",
    path: `${inst}/{id}`,
    handler: "institutions/show",
    scope: "institution:read",
    rule: rule.institution_member,
    access: { main: ["GetItem"], events: TRAIL },
  },
  {
    method: "PATCH",
    path: `${inst}/{id}`,
    handler: "institutions/update",
    scope: "institution:write",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "PutItem", "UpdateItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "PUT",
    path: `${inst}/{id}`,
    handler: "institutions/update",
    scope: "institution:write",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "PutItem", "UpdateItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}`,
    handler: "institutions/delete",
    rule: rule.institution_super_admin,
    // With it go its domains, guards, SSO connection (leased; the app client's lock) and API keys (docs/sso.md).
    access: {
      main: ["GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"],
      events: TRAIL,
      users: "sso_release",
    },
  },
  {
    method: "GET",
    path: `${inst}/{id}/cohorts`,
    handler: "cohorts/list",
    scope: "cohorts:read",
    rule: rule.institution_member,
    access: { main: ["GetItem", "Query"], events: TRAIL },
  },
  {
    method: "POST",
    path: `${inst}/{id}/cohorts`,
    handler: "cohorts/create",
    scope: "cohorts:write",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "PutItem", "UpdateItem"], events: TRAIL },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/cohorts/{cohort_id}`,
    handler: "cohorts/delete",
    scope: "cohorts:write",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "UpdateItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "GET",
    path: `${inst}/{id}/administrators`,
    handler: "administrators/list",
    scope: "administrators:read",
    rule: rule.institution_member,
    access: { main: ["GetItem", "Query by_institution_member"], events: TRAIL },
  },
  {
    method: "PATCH",
    path: `${inst}/{id}/administrators/{user_id}`,
    handler: "administrators/update",
    scope: "administrators:write",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "UpdateItem"], events: TRAIL },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/administrators/{user_id}`,
    handler: "administrators/remove",
    scope: "administrators:write",
    rule: rule.institution_super_admin_or_self,
    // The invitations the person sent: their records in the person's partition (Query), then the invitations themselves.
    access: { main: ["GetItem", "BatchGetItem", "Query", "UpdateItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "POST",
    path: `${inst}/{id}/transfer`,
    handler: "administrators/transfer",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "UpdateItem"], events: TRAIL, users: "read" },
  },
  {
    method: "GET",
    path: inv,
    handler: "invitations/list",
    rule: rule.institution_member,
    scope: "invitations:read",
    access: { main: ["GetItem", "Query by_invitation_state"], events: TRAIL },
  },
  {
    method: "POST",
    path: inv,
    handler: "invitations/create",
    scope: "invitations:write",
    rule: rule.invitation_manager,
    access: { main: ["GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"], events: TRAIL, mail: true },
  },
  {
    method: "DELETE",
    path: `${inv}/{id}`,
    handler: "invitations/revoke",
    scope: "invitations:write",
    rule: rule.invitation_manager,
    access: { main: ["GetItem", "UpdateItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "POST",
    path: `${inv}/{id}/resend`,
    handler: "invitations/resend",
    scope: "invitations:write",
    rule: rule.invitation_manager,
    access: { main: ["GetItem", "PutItem", "UpdateItem", "DeleteItem"], events: TRAIL, mail: true },
  },
  {
    method: "POST",
    path: paths.invitationsAccept,
    handler: "invitations/accept",
    rule: rule.invitee,
    access: { main: ["GetItem", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"], events: TRAIL },
  },
  {
    method: "POST",
    path: paths.invitationsPreview,
    handler: "invitations/preview",
    rule: rule.invitee,
    access: { main: ["GetItem"], events: TRAIL },
  },
  // Joining from an invitation (docs/joining.md): no token, the invitation token is the credential.
  {
    method: "POST",
    path: paths.invitationsOpen,
    handler: "invitations/open",
    rule: rule.invitation_token,
    access: { main: ["GetItem"], events: TRAIL, users: "read" },
  },
  {
    method: "POST",
    path: paths.invitationsRegister,
    handler: "invitations/register",
    rule: rule.invitation_token,
    access: { main: ["GetItem", "PutItem", "UpdateItem", "DeleteItem"], events: TRAIL, users: "join" },
  },
  {
    method: "GET",
    path: sec,
    handler: "security-events/list",
    rule: rule.cohort_super_admin,
    access: { events: ["Query", "Query by_user", "Query by_type", ...TRAIL] },
  },
  {
    method: "GET",
    path: `${sec}/export`,
    handler: "security-events/export",
    rule: rule.cohort_super_admin,
    access: { events: ["Query", "Query by_type", ...TRAIL] },
  },
  {
    method: "GET",
    path: `${sec}/alerts`,
    handler: "security-events/alerts",
    rule: rule.cohort_super_admin,
    access: { events: ["Query", "Query by_type", ...TRAIL] },
  },
  {
    method: "GET",
    path: `${sec}/digests`,
    handler: "security-events/digests",
    rule: rule.cohort_super_admin,
    access: { events: ["Query", ...TRAIL] },
  },
  // Full exports (shared/exports/): the worker that writes the file is no route (infra/streaming.ts).
  {
    method: "POST",
    path: `${sec}/exports`,
    handler: "exports/create",
    rule: rule.cohort_super_admin,
    access: { main: ["Query", "PutItem", "UpdateItem"], events: TRAIL, exports: "start" },
  },
  {
    method: "GET",
    path: `${sec}/exports/{id}`,
    handler: "exports/show",
    rule: rule.cohort_super_admin,
    access: { main: ["GetItem"], events: TRAIL, exports: "read" },
  },
  {
    method: "GET",
    path: `${sec}/{id}`,
    handler: "security-events/show",
    rule: rule.cohort_super_admin,
    access: { events: ["GetItem", ...TRAIL] },
  },
  // Webhooks (shared/webhooks/): deliveries go out from the events table's stream, not from a route.
  { method: "GET", path: hooks, handler: "webhooks/list", rule: rule.cohort_super_admin, access: { main: ["Query"], events: TRAIL } },
  {
    method: "POST",
    path: hooks,
    handler: "webhooks/create",
    rule: rule.cohort_super_admin,
    access: { main: ["PutItem", "UpdateItem"], events: TRAIL },
  },
  {
    method: "DELETE",
    path: `${hooks}/{id}`,
    handler: "webhooks/delete",
    rule: rule.cohort_super_admin,
    access: { main: ["GetItem", "UpdateItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "GET",
    path: `${hooks}/{id}/deliveries`,
    handler: "webhooks/deliveries",
    rule: rule.cohort_super_admin,
    access: { main: ["GetItem", "Query"], events: TRAIL },
  },
  // The caller's own account (docs/contract/people.md): the pool's change and its event, in the caller's trail. No
  // refusal of theirs is counted (a 422 is the caller's own state), so the trail's write is the event alone. Not for
  // API keys (no scope): a key is no person of the pool.
  { method: "PUT", path: `${paths.me}/mfa`, handler: "me/mfa", rule: rule.any, access: { events: ["append"], users: "mfa" } },
  {
    method: "POST",
    path: `${paths.me}/sign_out_everywhere`,
    handler: "me/sign-out-everywhere",
    rule: rule.any,
    access: { events: ["append"], users: "sign_out" },
  },
  // Directory provisioning (docs/scim.md): the connection, managed by the institution's super admin,
  ...(["POST", "GET", "PATCH", "DELETE"] as const).map(
    (method): Declared => ({
      method,
      path: `${inst}/{id}/scim`,
      handler: "scim/connection",
      rule: rule.institution_super_admin,
      // Reading it reads the institution and the connection's items; a change writes them and the access it grants.
      access:
        method === "GET"
          ? { main: ["GetItem", "Query"], events: TRAIL }
          : { main: ["GetItem", "Query", "PutItem", "UpdateItem", "DeleteItem"], events: TRAIL },
    }),
  ),
  // and the SCIM 2.0 service the directory calls with the connection's token.
  ...scimRoutes(),
  // Verified domains (docs/sso.md, shared/domains/): one function for the four routes, by route key.
  {
    method: "GET",
    path: `${inst}/{id}/domains`,
    handler: "domains/routes",
    rule: rule.institution_member,
    access: { main: ["GetItem", "Query"], events: TRAIL },
  },
  {
    method: "POST",
    path: `${inst}/{id}/domains`,
    handler: "domains/routes",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "Query", "PutItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "POST",
    path: `${inst}/{id}/domains/{domain_id}/verify`,
    handler: "domains/routes",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "Query", "PutItem", "DeleteItem"], events: TRAIL },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/domains/{domain_id}`,
    handler: "domains/routes",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "Query", "PutItem", "DeleteItem"], events: TRAIL },
  },
  // The SSO connection (shared/sso/): its identity provider lives in the user pool.
  ...(["POST", "GET", "PATCH", "DELETE"] as const).map(
    (method): Declared => ({
      method,
      path: `${inst}/{id}/sso`,
      handler: "sso/connection",
      rule: rule.institution_super_admin,
      access:
        method === "GET"
          ? { main: ["GetItem"], events: TRAIL }
          : { main: ["GetItem", "PutItem", "UpdateItem", "DeleteItem"], events: TRAIL, users: "sso" },
    }),
  ),
  // Home-realm discovery: public, reads three items, records nothing.
  { method: "POST", path: paths.ssoDiscover, handler: "sso/discover", rule: rule.public, access: { main: ["GetItem"] } },
  // The institution's API keys (docs/api-keys.md), managed by its super admin; never by a key. Making one reads the
  // institution and its keys' partition, then writes the key, its lookup item and the partition's version,
  // checking the institution is still there; revoking reads the key and deletes both of its items.
  {
    method: "POST",
    path: `${inst}/{id}/api_keys`,
    handler: "api-keys/manage",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "Query", "PutItem", "UpdateItem", "ConditionCheckItem"], events: TRAIL },
  },
  {
    method: "GET",
    path: `${inst}/{id}/api_keys`,
    handler: "api-keys/manage",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "Query"], events: TRAIL },
  },
  {
    method: "DELETE",
    path: `${inst}/{id}/api_keys/{key_id}`,
    handler: "api-keys/manage",
    rule: rule.institution_super_admin,
    access: { main: ["GetItem", "DeleteItem"], events: TRAIL },
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
  // Reads: the institution, and the connection's users and groups (one partition). A change writes them and the
  // access they grant; a removal reads the invitations the person sent, to revoke them (docs/security.md). Its events
  // are appended; the directory's refusals are the authorizer's, and count nothing.
  const reads = { main: ["GetItem", "Query"] } as const satisfies RouteAccess;
  const changes = {
    main: ["GetItem", "BatchGetItem", "Query", "PutItem", "UpdateItem", "DeleteItem"],
    events: ["append"],
  } as const satisfies RouteAccess;
  const resources = (["Users", "Groups"] as const).flatMap((type) => {
    // A user's create, replace or update may grant access to a person the user pool has yet to find or make.
    const writes = { ...changes, ...(type === "Users" && { users: "provision" as const }) };
    return [
      scim("GET", `/${type}`, reads),
      // `GET /Users/?filter=…`, with the trailing slash Entra ID's validator sends: an HTTP API route cannot end in
      // a slash, and `/Users` does not match it, so a greedy parameter catches it (the handler answers the list for
      // an empty one, 404 for anything deeper). `/Users/{id}` wins over it for one segment.
      scim("GET", `/${type}/{proxy+}`, reads),
      scim("POST", `/${type}`, writes),
      scim("GET", `/${type}/{id}`, reads),
      scim("PUT", `/${type}/{id}`, writes),
      scim("PATCH", `/${type}/{id}`, writes),
      scim("DELETE", `/${type}/{id}`, changes),
    ];
  });
  return [...discovery, ...resources];
}

/**
 * Which routes take an `Idempotency-Key` (docs/contract/README.md#retries-and-concurrent-edits): every POST of a
 * signed-in caller, by its method alone, so a new POST route needs nothing to get it. Not a public route's: a
 * retry's record is keyed by its caller, and an anonymous one has none to keep one visitor's answer from
 * another's. Not SCIM's: a directory knows no such header (its POSTs are safe by userName uniqueness). The
 * middleware (shared/idempotency.ts), the API document and `handlers()` (so the stack's grants and bundles) all
 * ask this.
 */
export const takesIdempotencyKey = (r: Pick<Route, "method" | "auth" | "public">): boolean =>
  r.method === IDEMPOTENT_METHOD && r.auth !== "scim" && r.public !== true;

/** The one method whose requests take an `Idempotency-Key` (the middleware checks a request's own). */
export const IDEMPOTENT_METHOD = "POST";

/** A route as API Gateway names it (`$context.routeKey`): `GET <paths.institutions>/{id}`. */
export const routeKey = (r: Pick<Route, "method" | "path">): string => `${r.method} ${r.path}`;

/** Both lists' calls, once each, in `CALL_ORDER`; undefined when neither has any. */
function unite<C extends string>(a: readonly C[] | undefined, b: readonly C[] | undefined): readonly C[] | undefined {
  const all = [...new Set([...(a ?? []), ...(b ?? [])])].sort(byCallOrder);
  return all.length > 0 ? all : undefined;
}

const WRITES: readonly string[] = ["PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem", "append", "count"];

/** Whether `access` writes to a table (the API document gives such a route its 409). */
export const writesData = (access: RouteAccess): boolean =>
  [...(access.main ?? []), ...(access.events ?? [])].some((call) => WRITES.includes(call));

/**
 * Distinct handlers of a route table (default: `routes`) with the union of their routes' access: a handler
 * serving a read route and a write route on one table makes the calls of both, mails if any route does, and
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
    const idempotency = had.idempotency === true || takesIdempotencyKey(r);
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
