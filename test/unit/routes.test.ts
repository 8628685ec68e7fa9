/**
 * `handlers()`: the access a handler's function is granted is the union of its routes' access (the DynamoDB calls
 * each route declares). A handler that serves a read route and a write route on one table must be able to do both.
 */
import { describe, expect, it } from "vitest";
import { SCOPES, type Scope } from "../../shared/api-keys/scopes.js";
import { handlers, machineRoutes, paths, type Route, routeKey, routeOf, routes, WHO, writesData } from "../../shared/routes.js";

const route = (method: Route["method"], path: string, access: Route["access"]): Route => ({
  method,
  path,
  handler: "things/shared",
  rule: { kind: "any" },
  who: "anyone",
  access,
});

describe("handlers()", () => {
  it("unites a read route and a write route on the same table: the calls of both, once each, in one order", () => {
    const table = [route("GET", "/things", { main: ["Query", "GetItem"] }), route("POST", "/things", { main: ["PutItem", "GetItem"] })];
    expect(handlers(table).get("things/shared")).toEqual({ main: ["GetItem", "Query", "PutItem"], idempotency: true });
  });

  it("keeps each index a route queries, after the table's own calls", () => {
    const table = [
      route("GET", "/things", { main: ["Query by_invitation_state", "GetItem"], events: ["Query by_user"] }),
      route("GET", "/things/{id}", { main: ["Query by_institution_member"], events: ["Query", "Query by_type"] }),
    ];
    expect(handlers(table).get("things/shared")).toEqual({
      main: ["GetItem", "Query by_institution_member", "Query by_invitation_state"],
      events: ["Query", "Query by_type", "Query by_user"],
    });
  });

  it("marks a handler that serves a POST as keeping Idempotency-Key records, and no other", () => {
    const table = [
      route("GET", "/things", { main: ["GetItem"] }),
      { ...route("POST", "/other", { main: ["PutItem"] }), handler: "other/create" },
    ];
    expect(handlers(table).get("things/shared")).toEqual({ main: ["GetItem"] });
    expect(handlers(table).get("other/create")).toEqual({ main: ["PutItem"], idempotency: true });
  });

  it("keeps a grant that a later route of the handler does not mention, and mail from any route", () => {
    const table = [
      route("GET", "/things", { main: ["GetItem"], events: ["append", "count"], mail: true }),
      route("PUT", "/things/{id}", { events: ["Query"] }),
      route("DELETE", "/things/{id}", { mail: false }),
    ];
    expect(handlers(table).get("things/shared")).toEqual({ main: ["GetItem"], events: ["Query", "append", "count"], mail: true });
  });

  it("is the route's own access for a handler with one route, and empty for a route that reads no table", () => {
    const table = [route("GET", "/things", { main: ["UpdateItem"] }), { ...route("GET", "/docs", {}), handler: "docs/page" }];
    expect(handlers(table)).toEqual(
      new Map([
        ["things/shared", { main: ["UpdateItem"] }],
        ["docs/page", {}],
      ]),
    );
  });

  it("carries a route's exports access to its handler's grants (infra/streaming.ts reads it there)", () => {
    const table = [
      route("POST", "/exports", { main: ["PutItem"], exports: "start" }),
      { ...route("GET", "/exports/{id}", { exports: "read" }), handler: "x/show" },
    ];
    expect(handlers(table).get("things/shared")).toEqual({ main: ["PutItem"], exports: "start", idempotency: true });
    expect(handlers(table).get("x/show")).toEqual({ exports: "read" });
    expect(handlers().get("exports/create")?.exports).toBe("start");
    expect(handlers().get("exports/show")?.exports).toBe("read");
  });

  it("says which access writes (the API document's 409): a write call on the main table, or appending or counting in the trail", () => {
    expect(
      writesData({
        main: ["GetItem", "BatchGetItem", "Query", "Query by_invitation_state"],
        events: ["GetItem", "Query", "Query by_user"],
      }),
    ).toBe(false);
    for (const call of ["PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"] as const)
      expect(writesData({ main: [call] })).toBe(true);
    for (const call of ["append", "count"] as const) expect(writesData({ events: [call] })).toBe(true);
    expect(writesData({})).toBe(false);
  });

  it("defaults to the route table, one entry per distinct handler", () => {
    expect([...handlers().keys()]).toEqual([...new Set(routes.map((r) => r.handler))]);
  });

  it("names a route as API Gateway does: method, space, path", () => {
    expect(routeKey({ method: "GET", path: `${paths.institutions}/{id}` })).toBe(`GET ${paths.institutions}/{id}`);
  });
});

describe("the route table's rules", () => {
  it("states who may call each route in the contract's words, from its rule; public exactly for the public and invitation-token rules", () => {
    for (const r of routes) {
      expect(r.who).toBe(WHO[r.rule.kind]);
      expect(r.public === true).toBe(r.rule.kind === "public" || r.rule.kind === "invitation_token");
    }
    expect(routes.filter((r) => r.public).map(routeKey)).toEqual([
      `POST ${paths.invitationsOpen}`,
      `POST ${paths.invitationsRegister}`,
      `POST ${paths.ssoDiscover}`,
      `GET ${paths.openapi}`,
      `GET ${paths.docs}`,
    ]);
  });

  it("finds the route of an API Gateway route key, and none for another", () => {
    expect(routeOf(`POST ${paths.webhooks}`)?.rule).toEqual({ kind: "cohort_super_admin" });
    expect(routeOf(`GET ${paths.institutions}/{id}`)?.rule).toEqual({ kind: "institution_member" });
    expect(routeOf("GET /nowhere")).toBeUndefined();
  });

  it("spells every path under one of the exported prefixes", () => {
    const prefixes = Object.values(paths);
    for (const r of routes) expect(prefixes.some((p) => r.path === p || r.path.startsWith(`${p}/`))).toBe(true);
  });
});

describe("the SSO routes (docs/sso.md)", () => {
  it("give the pool's identity-provider calls to the connection's function only, and discovery reads the main table alone", () => {
    const access = handlers();
    const trail = ["append", "count"];
    expect(access.get("sso/connection")).toEqual({
      main: ["GetItem", "PutItem", "UpdateItem", "DeleteItem"],
      events: trail,
      users: "sso",
      idempotency: true,
    });
    // Public: no Idempotency-Key (an anonymous caller has no key to keep an answer under).
    expect(access.get("sso/discover")).toEqual({ main: ["GetItem"] });
    expect(access.get("domains/routes")).toEqual({
      main: ["GetItem", "Query", "PutItem", "DeleteItem"],
      events: trail,
      idempotency: true,
    });
    expect([...access].filter(([, a]) => a.users === "sso").map(([h]) => h)).toEqual(["sso/connection"]);
  });

  it("let the institution's members read its domains and its super admin change them and the connection", () => {
    const rules = Object.fromEntries(routes.filter((r) => /\/(domains|sso)/.test(r.path)).map((r) => [routeKey(r), r.rule.kind]));
    const inst = paths.institutions;
    expect(rules).toEqual({
      [`GET ${inst}/{id}/domains`]: "institution_member",
      [`POST ${inst}/{id}/domains`]: "institution_super_admin",
      [`POST ${inst}/{id}/domains/{domain_id}/verify`]: "institution_super_admin",
      [`DELETE ${inst}/{id}/domains/{domain_id}`]: "institution_super_admin",
      [`POST ${inst}/{id}/sso`]: "institution_super_admin",
      [`GET ${inst}/{id}/sso`]: "institution_super_admin",
      [`PATCH ${inst}/{id}/sso`]: "institution_super_admin",
      [`DELETE ${inst}/{id}/sso`]: "institution_super_admin",
      [`POST ${paths.ssoDiscover}`]: "public",
    });
  });
});

describe("the route table's scopes (institution API keys, docs/api-keys.md)", () => {
  const inst = paths.institutions;
  const inv = paths.invitations;
  const scopeOf = (key: string) => routeOf(key)?.scope;

  it("names the one scope that opens each route a key may call", () => {
    const expected: Record<string, Scope> = {
      [`GET ${inst}`]: "institution:read",
      [`GET ${inst}/{id}`]: "institution:read",
      [`PATCH ${inst}/{id}`]: "institution:write",
      [`PUT ${inst}/{id}`]: "institution:write",
      [`GET ${inst}/{id}/cohorts`]: "cohorts:read",
      [`POST ${inst}/{id}/cohorts`]: "cohorts:write",
      [`DELETE ${inst}/{id}/cohorts/{cohort_id}`]: "cohorts:write",
      [`GET ${inst}/{id}/administrators`]: "administrators:read",
      [`PATCH ${inst}/{id}/administrators/{user_id}`]: "administrators:write",
      [`DELETE ${inst}/{id}/administrators/{user_id}`]: "administrators:write",
      [`GET ${inv}`]: "invitations:read",
      [`POST ${inv}`]: "invitations:write",
      [`DELETE ${inv}/{id}`]: "invitations:write",
      [`POST ${inv}/{id}/resend`]: "invitations:write",
    };
    expect(Object.fromEntries(routes.filter((r) => r.scope).map((r) => [routeKey(r), r.scope]))).toEqual(expected);
    // Every scope opens something.
    expect(new Set(Object.values(expected))).toEqual(new Set(SCOPES));
  });

  it("gives none to what stays with people: deleting or transferring, SCIM, keys, creating institutions, the trail", () => {
    for (const key of [
      `DELETE ${inst}/{id}`,
      `POST ${inst}/{id}/transfer`,
      `POST ${inst}`,
      `POST ${inst}/{id}/api_keys`,
      `GET ${inst}/{id}/api_keys`,
      `DELETE ${inst}/{id}/api_keys/{key_id}`,
      `POST ${inst}/{id}/scim`,
      `GET ${paths.securityEvents}`,
      `POST ${paths.securityEvents}/exports`,
      `POST ${paths.webhooks}`,
      `POST ${paths.invitationsAccept}`,
    ]) {
      expect(routeOf(key), key).toBeDefined();
      expect(scopeOf(key), key).toBeUndefined();
    }
    for (const r of routes.filter((r) => r.auth === "scim" || r.public)) expect(r.scope, routeKey(r)).toBeUndefined();
  });

  it("serves the machines' API the scoped routes and the public ones, nothing else", () => {
    expect(machineRoutes().map(routeKey)).toEqual(routes.filter((r) => r.scope !== undefined || r.public).map(routeKey));
    expect(machineRoutes().some((r) => r.handler === "api-keys/manage")).toBe(false);
  });
});
