/**
 * The local gateway behaves as the HTTP API does in front of the handlers: routing by the route table,
 * the JWT authorizer's 401 before any handler runs, 404 for unknown routes, and claims in the shape
 * API Gateway passes them.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { flattenClaims, MAX_PAYLOAD_BYTES, matchRoute } from "../../infra/local/gateway.js";
import { parseGroups } from "../../shared/caller.js";
import { paths } from "../../shared/routes.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { INST } from "../support/flows.js";
import { idClaims, signJwt } from "../support/jwt.js";

const UNAUTHORIZED = { status: 401, body: { message: "Unauthorized" } };

const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;

describe("gateway: authorizer", () => {
  it("a token carrying valid claims and cognito-local's signature passes (so the refusals below are about one flaw each)", async () => {
    const res = await call("GET", INST, { token: signJwt(idClaims()) });
    expect(res.status).toBe(200);
  });

  it("a real ID token from the local Cognito reaches the handler", async () => {
    const res = await call("GET", INST, { token: await token(uniqEmail("reader"), { name: "Rita Reader" }) });
    expect(res).toMatchObject({ status: 200, body: { institutions: [] } });
    expect(res.headers["apigw-requestid"]).toBeTruthy();
  });

  it("real tokens carry email, name, custom:account_id and cognito:groups, and the handler sees them", async () => {
    const account = uniq("acct");
    const email = uniqEmail("admin");
    const admin = await token(email, { superAdmin: true, account, name: "Ada Admin" });
    const payload = JSON.parse(Buffer.from(admin.split(".")[1] ?? "", "base64url").toString("utf8"));
    expect(payload).toMatchObject({
      email,
      name: "Ada Admin",
      "custom:account_id": account,
      "cognito:groups": ["cohort_super_admin"],
      token_use: "id",
    });

    const plain = await token(uniqEmail("plain"), { account });
    expect(JSON.parse(Buffer.from(plain.split(".")[1] ?? "", "base64url").toString("utf8"))).not.toHaveProperty("cognito:groups");
    const body = { institution: { name: "Gateway Test U" } };
    expect(await call("POST", INST, { token: admin, body })).toMatchObject({ status: 201, body: { institution: { account_id: account } } });
    expect((await call("POST", INST, { token: plain, body })).status).toBe(403);
  });

  it("no Authorization header → 401", async () => {
    expect(await call("GET", INST)).toMatchObject(UNAUTHORIZED);
    expect(await call("GET", INST, { headers: { authorization: "Bearer" } })).toMatchObject(UNAUTHORIZED);
  });

  it("a garbage token → 401", async () => {
    for (const t of ["garbage", "a.b.c", `${signJwt(idClaims()).slice(0, -10)}AAAAAAAAAA`]) {
      expect(await call("GET", INST, { token: t })).toMatchObject(UNAUTHORIZED);
    }
  });

  it("signed by another key, even under cognito-local's key id → 401", async () => {
    expect(await call("GET", INST, { token: signJwt(idClaims(), otherKey) })).toMatchObject(UNAUTHORIZED);
    expect(await call("GET", INST, { token: signJwt(idClaims(), otherKey, "some-other-kid") })).toMatchObject(UNAUTHORIZED);
  });

  it("wrong audience, wrong issuer, expired, not yet valid, or an access token → 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const flawed = [
      { aud: "another-app-client" },
      { iss: `${stack.cognitoEndpoint}/local_otherPool` },
      { iss: `https://cognito-idp.us-east-1.amazonaws.com/${stack.userPoolId}` },
      { iat: now - 7200, exp: now - 60 },
      { nbf: now + 600 },
      { token_use: "access" },
    ];
    for (const overrides of flawed) {
      expect(
        await call("POST", INST, { token: signJwt(idClaims(overrides)), body: { institution: { name: "x" } } }),
        JSON.stringify(overrides),
      ).toMatchObject(UNAUTHORIZED);
    }
  });
});

describe("gateway: the SCIM routes' Lambda authorizer", () => {
  // Its 403 (`isAuthorized: false`, a request around CloudFront) needs the origin secret: one-way-in.test.ts.
  it("no Authorization header, an empty one, or a token naming no connection → API Gateway's 401", async () => {
    const users = `${paths.scim}/Users`;
    expect(await call("GET", users)).toMatchObject(UNAUTHORIZED);
    expect(await call("GET", users, { headers: { authorization: " " } })).toMatchObject(UNAUTHORIZED);
    expect(await call("GET", users, { token: `scim_${"A".repeat(43)}` })).toMatchObject(UNAUTHORIZED);
  });
});

describe("gateway: routing", () => {
  it("unknown routes and methods → 404 Not Found, whether or not a token is sent", async () => {
    const tok = await token(uniqEmail("router"));
    // (A GET outside /api/ is the console's page: test/browser/serving.test.ts.)
    for (const [method, path] of [
      ["POST", "/nope"],
      ["GET", "/api/nope"],
      ["GET", `${paths.api}/institution`],
      ["GET", `${INST}/`],
      ["POST", `${INST}/abc`],
      ["GET", `${INST}/abc/cohorts/def`],
      ["PUT", `${paths.securityEvents}/export`],
    ] as const) {
      // No route, so no operation in the API document to check the answer against.
      expect(await call(method, path, { contract: false }), `${method} ${path}`).toMatchObject({
        status: 404,
        body: { message: "Not Found" },
      });
      expect(await call(method, path, { token: tok, contract: false }), `${method} ${path}`).toMatchObject({
        status: 404,
        body: { message: "Not Found" },
      });
    }
  });

  it("a body over API Gateway's 10 MB limit → 413 before anything else", async () => {
    const res = await call("POST", INST, { rawBody: new Uint8Array(MAX_PAYLOAD_BYTES + 1) });
    expect(res).toMatchObject({ status: 413, body: { message: "Request Entity Too Large" } });
  });
});

describe("gateway: unit", () => {
  it("a literal segment wins over {id}, as in API Gateway", () => {
    expect(matchRoute("GET", `${paths.securityEvents}/export`)?.route.handler).toBe("security-events/export");
    expect(matchRoute("GET", `${paths.securityEvents}/alerts`)?.route.handler).toBe("security-events/alerts");
    expect(matchRoute("GET", `${paths.securityEvents}/01ABC`)).toMatchObject({
      route: { handler: "security-events/show" },
      routeKey: `GET ${paths.securityEvents}/{id}`,
      pathParameters: { id: "01ABC" },
    });
    expect(matchRoute("POST", `${paths.invitations}/x%20y/resend`)?.pathParameters).toEqual({ id: "x y" });
    expect(matchRoute("PATCH", `${paths.institutions}/1`)?.route.handler).toBe(matchRoute("PUT", `${paths.institutions}/1`)?.route.handler);
    expect(matchRoute("GET", `${paths.institutions}//cohorts`)).toBeUndefined();
    // A greedy `{proxy+}` (the SCIM lists' trailing slash) takes the rest, empty included, and loses to `{id}`.
    expect(matchRoute("GET", `${paths.scim}/Users/`)).toMatchObject({
      routeKey: `GET ${paths.scim}/Users/{proxy+}`,
      pathParameters: { proxy: "" },
    });
    expect(matchRoute("GET", `${paths.scim}/Groups/a/b%20c`)?.pathParameters).toEqual({ proxy: "a/b c" });
    expect(matchRoute("GET", `${paths.scim}/Users/01ABC`)?.routeKey).toBe(`GET ${paths.scim}/Users/{id}`);
    expect(matchRoute("GET", `${paths.scim}/Users`)?.routeKey).toBe(`GET ${paths.scim}/Users`);
    expect(matchRoute("POST", `${paths.scim}/Users/`)).toBeUndefined();
  });

  it("claims are flattened as API Gateway does, and parseGroups reads cognito:groups back", () => {
    const flat = flattenClaims({
      sub: "u1",
      email_verified: true,
      exp: 1700000000,
      "cognito:groups": ["cohort_super_admin", "other"],
    });
    expect(flat).toEqual({ sub: "u1", email_verified: "true", exp: "1700000000", "cognito:groups": "[cohort_super_admin other]" });
    expect(parseGroups(flat["cognito:groups"])).toEqual(["cohort_super_admin", "other"]);
    expect(parseGroups(flattenClaims({ g: ["cohort_super_admin"] }).g)).toEqual(["cohort_super_admin"]);
    expect(parseGroups(flattenClaims({ g: [] }).g)).toEqual([]);
  });
});
