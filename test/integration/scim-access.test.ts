/**
 * Issue 33 (docs/scim.md): what the directory does to access, over HTTP. A provisioned person signs in (the
 * local Cognito made them; the test sets a password, as the pool's invitation would let them) and sees the
 * institution; `active: false` makes their very next request 404, reactivation gives access back; DELETE and
 * a changed e-mail take it too; several users with one e-mail; group role mappings; the super admin out of
 * reach; the 95-seat limit; manual changes refused while connected; the events, with the directory as actor.
 */
import { AdminGetUserCommand, AdminSetUserPasswordCommand, InitiateAuthCommand } from "@aws-sdk/client-cognito-identity-provider";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import type { StoredEvent } from "../../shared/audit.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { getAccess } from "../../shared/membership/repository.js";
import { eventKeys } from "../../shared/tables.js";
import { auditMembership } from "../fault/consistency.js";
import { call, stack, token, uniqEmail } from "../support/api.js";
import { createInstitution, INST } from "../support/flows.js";
import { connect, connectionPath, entraUser, expectScimError, scim, URN } from "../support/scim.js";
import { grantAccess, userIdOf } from "./helpers.js";

let owner: string;
let ownerEmail: string;
let domain: string;

beforeAll(async () => {
  domain = `${uniqEmail("x").split("@")[1]}`;
  ownerEmail = uniqEmail("owner", domain);
  owner = await token(ownerEmail, { superAdmin: true });
});

/** Signs a provisioned person in, as they would after the pool's invitation: a password of their own, then USER_PASSWORD_AUTH. */
async function signIn(email: string): Promise<string> {
  const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  try {
    const password = `Pw-${Math.random().toString(36).slice(2)}aA1!`;
    await cognito.send(
      new AdminSetUserPasswordCommand({ UserPoolId: stack.userPoolId, Username: email, Password: password, Permanent: true }),
    );
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: stack.userPoolClientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
    const idToken = auth.AuthenticationResult?.IdToken;
    if (!idToken) throw new Error(`no ID token for ${email}`);
    return idToken;
  } finally {
    cognito.destroy();
  }
}

async function poolUser(email: string) {
  const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  try {
    const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: email }));
    return Object.fromEntries((user.UserAttributes ?? []).map((a) => [a.Name, a.Value]));
  } finally {
    cognito.destroy();
  }
}

/** Events of `type` in `account`'s trail, newest first. */
async function eventsOfType(account: string, type: string): Promise<StoredEvent[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.events,
      IndexName: "by_type",
      KeyConditionExpression: "g_type = :t",
      ExpressionAttributeValues: { ":t": eventKeys.accountType(account, type) },
      ScanIndexForward: false,
    }),
  );
  return (out.Items ?? []) as StoredEvent[];
}

async function admins(institutionId: string) {
  const res = await call("GET", `${INST}/${institutionId}/administrators`, { token: owner, query: { limit: 200 } });
  expect(res.status, res.text).toBe(200);
  return res.body.administrators as { user_id: string; email: string; role: string; managed_by: string | null }[];
}

const deactivate = (dir: string, id: string, value: unknown = "False") =>
  scim(dir, "PATCH", `/Users/${id}`, { schemas: [URN.patch], Operations: [{ op: "Replace", path: "active", value }] });

async function setup() {
  const inst = await createInstitution(owner);
  const { token: dir } = await connect(owner, inst.id);
  return { inst, dir };
}

describe("access", () => {
  it("provisions a new person, who signs in and sees the institution; active false takes access at the next request; reactivation restores", async () => {
    const { inst, dir } = await setup();
    const email = uniqEmail("prov", domain);
    const created = await scim(dir, "POST", "/Users", entraUser(email));
    expect(created.status, created.text).toBe(201);

    const attrs = await poolUser(email);
    expect(attrs.email_verified).toBe("true");
    expect(attrs["custom:account_id"]).toBe(inst.account_id);
    expect(attrs.name).toBe(`Person ${email.split("@")[0]}`);

    const person = await signIn(email);
    const list = await call("GET", INST, { token: person });
    expect(list.body.institutions.map((i: { id: string }) => i.id)).toContain(inst.id);
    expect((await call("GET", `${INST}/${inst.id}`, { token: person })).status).toBe(200);
    const listed = (await admins(inst.id)).find((a) => a.email === email);
    expect(listed).toMatchObject({ role: "cohort_admin", managed_by: "scim" });

    expect((await deactivate(dir, created.body.id)).status).toBe(200);
    expect((await call("GET", `${INST}/${inst.id}`, { token: person })).status).toBe(404);
    expect((await admins(inst.id)).some((a) => a.email === email)).toBe(false);
    expect(await auditMembership(inst.id)).toEqual([]);

    expect((await deactivate(dir, created.body.id, true)).status).toBe(200);
    expect((await call("GET", `${INST}/${inst.id}`, { token: person })).status).toBe(200);

    const userId = await userIdOf(person);
    const provisioned = (await eventsOfType(inst.account_id as string, "administrator_provisioned")).filter(
      (e) => e.details.user_id === userId,
    );
    const deprovisioned = (await eventsOfType(inst.account_id as string, "administrator_deprovisioned")).find(
      (e) => e.details.user_id === userId,
    );
    expect(provisioned).toHaveLength(2);
    for (const e of [...provisioned, deprovisioned]) {
      expect(e?.user_id).toBeNull();
      expect(e?.details.scim_connection).toEqual(expect.any(String));
    }
    expect(deprovisioned?.details).toMatchObject({ reason: "deactivated", email, institution_id: inst.id });

    // DELETE takes it too, and the institution stays consistent.
    expect((await scim(dir, "DELETE", `/Users/${created.body.id}`)).status).toBe(204);
    expect((await call("GET", `${INST}/${inst.id}`, { token: person })).status).toBe(404);
    expect(await auditMembership(inst.id)).toEqual([]);
  });

  it("a changed e-mail moves access; several users with one e-mail keep it while any is active", async () => {
    const { inst, dir } = await setup();
    const shared = uniqEmail("shared", domain);
    const a = (await scim(dir, "POST", "/Users", entraUser(`a-${shared}`, { emails: [{ value: shared, primary: true }] }))).body;
    const b = (await scim(dir, "POST", "/Users", entraUser(`b-${shared}`, { emails: [{ value: shared, primary: true }] }))).body;
    const count = async (email: string) => (await admins(inst.id)).filter((x) => x.email === email).length;
    expect(await count(shared)).toBe(1);
    expect((await deactivate(dir, a.id)).status).toBe(200);
    expect(await count(shared)).toBe(1);
    expect((await deactivate(dir, b.id)).status).toBe(200);
    expect(await count(shared)).toBe(0);

    const moved = uniqEmail("moved", domain);
    const c = (await scim(dir, "POST", "/Users", entraUser(uniqEmail("before", domain)))).body;
    const before = c.emails[0].value;
    expect(await count(before)).toBe(1);
    const patched = await scim(dir, "PATCH", `/Users/${c.id}`, {
      schemas: [URN.patch],
      Operations: [{ op: "replace", path: 'emails[type eq "work"].value', value: moved }],
    });
    expect(patched.status, patched.text).toBe(200);
    expect(await count(before)).toBe(0);
    expect(await count(moved)).toBe(1);
    const reasons = (await eventsOfType(inst.account_id as string, "administrator_deprovisioned")).map((e) => e.details.reason);
    expect(reasons).toContain("email_changed");
    expect(await auditMembership(inst.id)).toEqual([]);
  });

  it("group role mappings take effect, from the groups and from the mappings", async () => {
    const { inst, dir } = await setup();
    const email = uniqEmail("lead", domain);
    const u = (await scim(dir, "POST", "/Users", entraUser(email))).body;
    const roleOf = async () => (await admins(inst.id)).find((x) => x.email === email)?.role;
    expect(await roleOf()).toBe("cohort_admin");
    const g = (await scim(dir, "POST", "/Groups", { displayName: "Campus Admins", members: [{ value: u.id }] })).body;
    expect(await roleOf()).toBe("cohort_admin");
    const mapped = await call("PATCH", connectionPath(inst.id), {
      token: owner,
      body: { role_mappings: { "campus admins": "cohort_super_admin" } },
    });
    expect(mapped.status, mapped.text).toBe(200);
    expect(mapped.body.scim.role_mappings).toEqual({ "campus admins": "cohort_super_admin" });
    expect(await roleOf()).toBe("cohort_super_admin");
    const removed = await scim(dir, "PATCH", `/Groups/${g.id}`, {
      schemas: [URN.patch],
      Operations: [{ op: "remove", path: `members[value eq "${u.id}"]` }],
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await roleOf()).toBe("cohort_admin");
    expect(
      (
        await scim(dir, "PATCH", `/Groups/${g.id}`, {
          schemas: [URN.patch],
          Operations: [{ op: "add", path: "members", value: [{ value: u.id }] }],
        })
      ).status,
    ).toBe(200);
    expect(await roleOf()).toBe("cohort_super_admin");
    const changes = (await eventsOfType(inst.account_id as string, "administrator_role_changed")).filter(
      (e) => e.details.institution_id === inst.id,
    );
    expect(changes.length).toBe(3);
    for (const e of changes) expect(e).toMatchObject({ user_id: null, details: { source: "scim", scim_connection: expect.any(String) } });
    const shown = await call("GET", connectionPath(inst.id), { token: owner });
    expect(shown.body.scim.last_used_at).toEqual(expect.any(String));
    expect(shown.body.scim.token).toBeUndefined();
  });

  it("never touches the super admin, refuses manual changes to directory members while connected, and allows them after", async () => {
    const { inst, dir } = await setup();
    const refused = await scim(dir, "POST", "/Users", entraUser(ownerEmail));
    expectScimError(refused, 409);
    expect(refused.body.detail).toMatch(/super admin/);
    expect((await scim(dir, "GET", "/Users", undefined, { filter: `userName eq "${ownerEmail}"` })).body.totalResults).toBe(0);

    const email = uniqEmail("managed", domain);
    expect((await scim(dir, "POST", "/Users", entraUser(email))).status).toBe(201);
    const member = (await admins(inst.id)).find((a) => a.email === email);
    if (!member) throw new Error("not provisioned");
    const path = `${INST}/${inst.id}/administrators/${member.user_id}`;
    const role = await call("PATCH", path, { token: owner, body: { role: "cohort_super_admin" } });
    expect(role.status).toBe(422);
    expect(role.body).toEqual({ error: "Managed by the institution's directory" });
    const removal = await call("DELETE", path, { token: owner });
    expect(removal.status).toBe(422);
    expect(removal.body).toEqual({ error: "Managed by the institution's directory" });

    expect((await call("DELETE", connectionPath(inst.id), { token: owner })).status).toBe(200);
    expect((await admins(inst.id)).find((a) => a.email === email)?.managed_by).toBeNull();
    expect((await call("DELETE", path, { token: owner })).status).toBe(200);
    expect(await auditMembership(inst.id)).toEqual([]);
    const disconnected = await eventsOfType(inst.account_id as string, "scim_disconnected");
    expect(disconnected[0]?.user_id).toBe(await userIdOf(owner));
  });

  it("races: 10 parallel PATCHes and DELETEs on one user, and provisioning racing a manual removal, leave records, markers and seats consistent", async () => {
    const { inst, dir } = await setup();
    const email = uniqEmail("race", domain);
    const u = (await scim(dir, "POST", "/Users", entraUser(email))).body;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i === 7 ? scim(dir, "DELETE", `/Users/${u.id}`) : deactivate(dir, u.id, i % 2 === 0 ? "False" : "True"),
      ),
    );
    for (const r of results) expect([200, 204, 404, 409], r.text).toContain(r.status);
    expect(results.filter((r) => r.status === 204)).toHaveLength(1);
    expect(await auditMembership(inst.id)).toEqual([]);
    const after = await scim(dir, "GET", `/Users/${u.id}`);
    expect(after.status).toBe(404);
    expect((await admins(inst.id)).some((a) => a.email === email)).toBe(false);

    // A person invited by hand, provisioned by the directory while the owner removes them: whichever lands first,
    // the person ends as the directory's member, and the institution stays consistent.
    const manual = uniqEmail("manual", domain);
    const manualId = await userIdOf(await token(manual, { account: inst.account_id as string }));
    await grantAccess(inst.id, manualId, "cohort_admin", { email: manual });
    const [provisioned, removed] = await Promise.all([
      scim(dir, "POST", "/Users", entraUser(manual)),
      call("DELETE", `${INST}/${inst.id}/administrators/${manualId}`, { token: owner }),
    ]);
    expect(provisioned.status, provisioned.text).toBe(201);
    expect([200, 422], removed.text).toContain(removed.status);
    expect(await auditMembership(inst.id)).toEqual([]);
    expect((await admins(inst.id)).find((a) => a.user_id === manualId)?.managed_by).toBe("scim");
  });

  it("takes over an administrator invited by hand: the access becomes the directory's, and manual removal is refused", async () => {
    const { inst, dir } = await setup();
    const manual = uniqEmail("taken", domain);
    const manualId = await userIdOf(await token(manual, { account: inst.account_id as string }));
    await grantAccess(inst.id, manualId, "cohort_admin", { email: manual });
    expect((await scim(dir, "POST", "/Users", entraUser(manual))).status).toBe(201);
    expect((await admins(inst.id)).find((a) => a.user_id === manualId)?.managed_by).toBe("scim");
    const removed = await call("DELETE", `${INST}/${inst.id}/administrators/${manualId}`, { token: owner });
    expect(removed.status, removed.text).toBe(422);
    expect(await auditMembership(inst.id)).toEqual([]);
  });

  it("keeps the owner out of the directory's reach after a transfer to a directory member: a group change, a deactivation, a deletion and a mapping change that would change its role or access are refused (409), nothing changed", async () => {
    // An owner of its own account, so that the account's trail holds this test's events alone.
    const domain = `${uniqEmail("x").split("@")[1]}`;
    const account = `acct-owner-${domain}`;
    const founder = await token(uniqEmail("founder", domain), { superAdmin: true, account });
    const inst = await createInstitution(founder);
    const { token: dir } = await connect(founder, inst.id);
    const mapped = await call("PATCH", connectionPath(inst.id), {
      token: founder,
      body: { role_mappings: { Leads: "cohort_super_admin" } },
    });
    expect(mapped.status, mapped.text).toBe(200);
    const heirEmail = uniqEmail("heir", domain);
    const heir = await token(heirEmail, { superAdmin: true, account });
    const heirId = await userIdOf(heir);
    const u = (await scim(dir, "POST", "/Users", entraUser(heirEmail))).body;
    const g = await scim(dir, "POST", "/Groups", { displayName: "Leads", members: [{ value: u.id }] });
    expect(g.status, g.text).toBe(201);
    const moved = await call("POST", `${INST}/${inst.id}/transfer`, { token: founder, body: { user_id: heirId } });
    expect(moved.status, moved.text).toBe(200);

    const trail = async () => {
      const out = await db.send(
        new QueryCommand({
          TableName: config.tables.events,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": eventKeys.partition(account) },
          ConsistentRead: true,
        }),
      );
      return (out.Items ?? []).map((e) => e.id);
    };
    const state = async () => ({
      institution: await getInstitution(inst.id),
      access: await getAccess(heirId, inst.id),
      trail: await trail(),
      group: (await scim(dir, "GET", `/Groups/${g.body.id}`)).body.members,
      user: (await scim(dir, "GET", `/Users/${u.id}`)).body.active,
    });
    const before = await state();
    expect(before.institution?.super_admin_id).toBe(heirId);
    expect(before.institution?.members[heirId]).toBe("cohort_super_admin");
    expect(before.access).toMatchObject({ role: "cohort_super_admin", managed_by: "scim" });

    // Out of the mapped group: the owner would be cohort_admin.
    const ungrouped = await scim(dir, "PATCH", `/Groups/${g.body.id}`, {
      schemas: [URN.patch],
      Operations: [{ op: "remove", path: `members[value eq "${u.id}"]` }],
    });
    expectScimError(ungrouped, 409);
    expect(ungrouped.body.detail).toMatch(/super admin/);
    // The group itself gone, the user deactivated or deleted: the same.
    expectScimError(await scim(dir, "DELETE", `/Groups/${g.body.id}`), 409);
    expectScimError(await deactivate(dir, u.id), 409);
    expectScimError(await scim(dir, "DELETE", `/Users/${u.id}`), 409);
    // The mappings, changed by the owner itself, would do it too.
    const unmapped = await call("PATCH", connectionPath(inst.id), { token: heir, body: { role_mappings: {} } });
    expect(unmapped.status, unmapped.text).toBe(409);
    expect(unmapped.body.error).toMatch(/super admin/);

    expect(await state()).toEqual(before);
    expect(await auditMembership(inst.id)).toEqual([]);
  });

  it("holds the 95-seat limit: 403 in the RFC's shape, nothing changed", async () => {
    const { inst, dir } = await setup();
    for (let i = 0; i < 94; i++) await grantAccess(inst.id, `seat-${inst.id}-${i}`, "cohort_admin");
    expect(Object.keys((await getInstitution(inst.id))?.members ?? {})).toHaveLength(95);
    const email = uniqEmail("full", domain);
    const res = await scim(dir, "POST", "/Users", entraUser(email));
    expectScimError(res, 403);
    expect((await scim(dir, "GET", "/Users", undefined, { filter: `userName eq "${email}"` })).body.totalResults).toBe(0);
    expect(Object.keys((await getInstitution(inst.id))?.members ?? {})).toHaveLength(95);
    // An inactive user takes no seat.
    expect((await scim(dir, "POST", "/Users", entraUser(email, { active: false }))).status).toBe(201);
  });
});
