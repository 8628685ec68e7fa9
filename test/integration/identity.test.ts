/**
 * Issue 14, points 6 and 7 (docs/contract/README.md#identity-and-access):
 * - cohort-super-admin status is exact membership of the group `cohort_super_admin`: a real group of the
 *   local pool named `ops,cohort_super_admin` (Cognito group names may hold commas) grants nothing;
 * - the gateway answers 401 `{"message":"Unauthorized"}`, before any handler, to a token without `exp`,
 *   one issued more than 5 minutes in the future, and one without `sub`, each signed with the pool's own
 *   key (cognito-local's, see test/support/jwt.ts) so that the missing claim is the only flaw.
 */
import { describe, expect, it } from "vitest";
import { call, tokenInGroups, uniq, uniqEmail } from "../support/api.js";
import { EVENTS, INST, INV } from "../support/flows.js";
import { idClaims, signJwt } from "../support/jwt.js";
import { claimsOf } from "./helpers.js";

const UNAUTHORIZED = { status: 401, body: { message: "Unauthorized" } };

describe("cognito:groups is exact membership", () => {
  it("a member of 'ops,cohort_super_admin' (and not of cohort_super_admin) is no cohort super admin", async () => {
    const tok = await tokenInGroups(uniqEmail("ops"), ["ops,cohort_super_admin"], { account: uniq("acct") });
    // The token is real and carries the group as one name.
    expect(claimsOf(tok)["cognito:groups"]).toEqual(["ops,cohort_super_admin"]);
    expect(await call("POST", INST, { token: tok, body: { institution: { name: "Should not exist" } } })).toMatchObject({
      status: 403,
      body: { error: "Super admin access required" },
    });
    expect(await call("GET", EVENTS, { token: tok })).toMatchObject({ status: 403, body: { error: "Super admin access required" } });
    expect((await call("GET", INST, { token: tok })).body).toEqual({ institutions: [] });
  });

  it("other near names grant nothing either; membership among other groups does", async () => {
    const account = uniq("acct");
    for (const groups of [["cohort_super_admin,ops"], ["ops", "x,cohort_super_admin,y"], ["cohort_super_admin_x"]]) {
      const tok = await tokenInGroups(uniqEmail("near"), groups, { account });
      expect(claimsOf(tok)["cognito:groups"]).toEqual(groups);
      const res = await call("POST", INST, { token: tok, body: { institution: { name: "Should not exist" } } });
      expect({ groups, status: res.status }).toEqual({ groups, status: 403 });
    }
    const real = await tokenInGroups(uniqEmail("real"), ["ops,viewers"], { account, superAdmin: true });
    expect(claimsOf(real)["cognito:groups"]).toEqual(expect.arrayContaining(["ops,viewers", "cohort_super_admin"]));
    expect((await call("POST", INST, { token: real, body: { institution: { name: uniq("Real") } } })).status).toBe(201);
  });
});

describe("gateway: tokens signed with the pool's key but lacking a required claim", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const requests = [
    ["GET", INST, undefined],
    ["POST", INST, { institution: { name: "x" } }],
    ["GET", EVENTS, undefined],
    ["POST", INV, { institution_id: "x", email: "a@b.co", role: "cohort_admin" }],
  ] as const;

  it("the same claims with nothing missing pass (so each refusal below is about its one flaw)", async () => {
    expect((await call("GET", INST, { token: signJwt(idClaims()) })).status).toBe(200);
    // Issued a minute ahead is within the 5 minutes allowed for clock skew.
    expect((await call("GET", INST, { token: signJwt(idClaims({ iat: now() + 60 })) })).status).toBe(200);
  });

  for (const [flaw, overrides] of [
    ["without exp", () => ({ exp: undefined })],
    ["issued 10 minutes in the future", () => ({ iat: now() + 600, exp: now() + 4_200 })],
    ["issued a day in the future", () => ({ iat: now() + 86_400, exp: now() + 90_000 })],
    ["without sub", () => ({ sub: undefined })],
  ] as const) {
    it(`a token ${flaw} → 401 on every route`, async () => {
      const tok = signJwt(idClaims(overrides()));
      for (const [method, path, body] of requests) {
        const res = await call(method, path, { token: tok, ...(body !== undefined && { body }) });
        expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, ...UNAUTHORIZED });
      }
    });
  }
});
