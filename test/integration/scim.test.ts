/**
 * Issue 33 (docs/scim.md): the SCIM 2.0 service over HTTP through the local gateway, which runs the Lambda
 * authorizer as API Gateway does. Discovery; users created, read, filtered (every operator, and/or/not,
 * grouping, a value path), projected and paged; PUT and PATCH as Entra ID and Okta send them; uniqueness;
 * DELETE; groups with member add and remove; revoked and rotated tokens; one directory never sees another's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, token, uniqEmail } from "../support/api.js";
import { createInstitution } from "../support/flows.js";
import { connect, connectionPath, entraUser, expectScimError, scim, URN } from "../support/scim.js";

let owner: string;
let institutionId: string;
let dir: string;
let domain: string;

beforeAll(async () => {
  domain = `${uniqEmail("x").split("@")[1]}`;
  owner = await token(uniqEmail("owner", domain), { superAdmin: true });
  institutionId = (await createInstitution(owner)).id;
  dir = (await connect(owner, institutionId)).token;
});

const person = (label: string) => uniqEmail(label, domain);

describe("discovery", () => {
  it("answers ServiceProviderConfig, ResourceTypes and Schemas in SCIM's shapes", async () => {
    const config = await scim(dir, "GET", "/ServiceProviderConfig");
    expect(config.status, config.text).toBe(200);
    expect(config.headers["content-type"]).toMatch(/^application\/scim\+json/);
    expect(config.body.schemas).toEqual(["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"]);
    expect(config.body.patch.supported).toBe(true);
    expect(config.body.filter).toEqual({ supported: true, maxResults: 200 });
    expect(config.body.authenticationSchemes[0].type).toBe("oauthbearertoken");

    const types = await scim(dir, "GET", "/ResourceTypes");
    expect(types.body.schemas).toEqual([URN.list]);
    expect(types.body.Resources.map((t: { id: string }) => t.id)).toEqual(["User", "Group"]);
    expect(types.body.Resources[0].schemaExtensions).toEqual([{ schema: URN.enterprise, required: false }]);
    expect((await scim(dir, "GET", "/ResourceTypes/Group")).body.endpoint).toBe("/Groups");

    const schemas = await scim(dir, "GET", "/Schemas");
    expect(schemas.body.Resources.map((s: { id: string }) => s.id)).toEqual([URN.user, URN.group, URN.enterprise]);
    const user = await scim(dir, "GET", `/Schemas/${URN.user}`);
    expect(user.body.description).toBe("User Account");
    const userName = user.body.attributes.find((a: { name: string }) => a.name === "userName");
    expect(userName).toMatchObject({ required: true, uniqueness: "server", caseExact: false });
    expect(user.body.attributes.find((a: { name: string }) => a.name === "password")).toMatchObject({
      returned: "never",
      mutability: "writeOnly",
    });
    expectScimError(await scim(dir, "GET", "/Schemas/urn:nope"), 404);
  });
});

describe("users", () => {
  it('Entra ID: looks the userName up, creates, reads, and deactivates with the string "False"', async () => {
    const email = person("entra");
    const lookup = await scim(dir, "GET", "/Users", undefined, { filter: `userName eq "${email}"` });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body).toMatchObject({ schemas: [URN.list], totalResults: 0, Resources: [] });

    const created = await scim(dir, "POST", "/Users", { ...entraUser(email), password: "Secret-never-kept-1" });
    expect(created.status, created.text).toBe(201);
    const u = created.body;
    expect(u.id).toEqual(expect.any(String));
    expect(u.userName).toBe(email);
    expect(u.password).toBeUndefined();
    expect(u.schemas).toEqual([URN.user, URN.enterprise]);
    expect(u[URN.enterprise]).toEqual({ department: "Registry", employeeNumber: "42" });
    expect(u.meta).toMatchObject({ resourceType: "User", location: expect.stringMatching(new RegExp(`/api/scim/v2/Users/${u.id}$`)) });
    expect(Date.parse(u.meta.created)).toBeGreaterThan(0);
    expect(u.meta.lastModified).toBe(u.meta.created);

    const found = await scim(dir, "GET", "/Users", undefined, { filter: `userName eq "${email.toUpperCase()}"` });
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(u.id);

    const read = await scim(dir, "GET", `/Users/${u.id}`);
    expect(read.status).toBe(200);
    expect(read.body.name.givenName).toBe(email.split("@")[0]);

    const off = await scim(dir, "PATCH", `/Users/${u.id}`, {
      schemas: [URN.patch],
      Operations: [
        { op: "Replace", path: "active", value: "False" },
        { op: "Add", path: 'emails[type eq "work"].value', value: email },
        { op: "Replace", path: `${URN.enterprise}:department`, value: "Finance" },
      ],
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    expect(off.body[URN.enterprise].department).toBe("Finance");
    expect(off.body.meta.lastModified >= off.body.meta.created).toBe(true);
  });

  it("Okta: PUT of the whole user, PATCH without a path", async () => {
    const email = person("okta");
    const created = await scim(dir, "POST", "/Users", {
      schemas: [URN.user],
      userName: email,
      name: { givenName: "Okta", familyName: "User" },
      emails: [{ primary: true, value: email, type: "work" }],
      displayName: "Okta User",
      locale: "en-US",
      externalId: "00u1",
      groups: [],
      password: "Okta-sends-one-1",
      active: true,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const put = await scim(dir, "PUT", `/Users/${id}`, {
      schemas: [URN.user],
      id,
      userName: email,
      name: { givenName: "Okta", familyName: "Renamed" },
      emails: [{ primary: true, value: email, type: "work" }],
      displayName: "Okta Renamed",
      active: true,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.name.familyName).toBe("Renamed");
    expect(put.body.locale).toBeUndefined(); // PUT replaces the whole resource
    expect(put.body.meta.created).toBe(created.body.meta.created);

    const patched = await scim(dir, "PATCH", `/Users/${id}`, {
      schemas: [URN.patch],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.active).toBe(false);
  });

  it("refuses a userName taken in any case (409 uniqueness), and keeps attribute names case-insensitive", async () => {
    const email = person("dup");
    expect((await scim(dir, "POST", "/Users", entraUser(email))).status).toBe(201);
    expectScimError(await scim(dir, "POST", "/Users", entraUser(email.toUpperCase())), 409, "uniqueness");
    const odd = await scim(dir, "POST", "/Users", { UserName: person("case"), ACTIVE: "True" });
    expect(odd.status, odd.text).toBe(201);
    expect(odd.body.userName).toEqual(expect.any(String));
    expect(odd.body.active).toBe(true);
    expectScimError(await scim(dir, "POST", "/Users", { displayName: "no userName" }), 400, "invalidValue");
  });

  it("filters with every operator, and/or/not, grouping and a value path", async () => {
    const tag = `f${Date.now().toString(36)}`;
    const a = await scim(dir, "POST", "/Users", entraUser(`${tag}-alpha@${domain}`, { title: "Dean", nickName: "ann" }));
    const b = await scim(dir, "POST", "/Users", entraUser(`${tag}-beta@${domain}`, { title: "Clerk", active: false }));
    const c = await scim(dir, "POST", "/Users", {
      userName: `${tag}-gamma@${domain}`,
      emails: [{ type: "home", value: `${tag}-gamma@home.test` }],
      title: "Dean",
    });
    for (const r of [a, b, c]) expect(r.status, r.text).toBe(201);
    const ids = async (filter: string) => {
      const res = await scim(dir, "GET", "/Users", undefined, { filter, count: 200 });
      expect(res.status, `${filter}: ${res.text}`).toBe(200);
      return (res.body.Resources as { id: string }[]).map((r) => r.id).sort();
    };
    const [A, B, C] = [a.body.id, b.body.id, c.body.id] as string[];
    const mine = `userName sw "${tag}-"`;
    expect(await ids(`userName eq "${tag}-ALPHA@${domain}"`)).toEqual([A]);
    expect(await ids(`${mine} and userName ne "${tag}-alpha@${domain}"`)).toEqual([B, C].sort());
    expect(await ids(`${mine} and userName co "BETA"`)).toEqual([B]);
    expect(await ids(`${mine} and userName ew "gamma@${domain}"`)).toEqual([C]);
    expect(await ids(`${mine} and nickName pr`)).toEqual([A]);
    expect(await ids(`${mine} and meta.created gt "${a.body.meta.created}"`)).toEqual([B, C].sort());
    expect(await ids(`${mine} and meta.created ge "${b.body.meta.created}"`)).toEqual([B, C].sort());
    expect(await ids(`${mine} and meta.created lt "${b.body.meta.created}"`)).toEqual([A]);
    expect(await ids(`${mine} and meta.created le "${b.body.meta.created}"`)).toEqual([A, B].sort());
    expect(await ids(`${mine} and (title eq "Clerk" or nickName eq "ann")`)).toEqual([A, B].sort());
    expect(await ids(`${mine} and not (title eq "Dean")`)).toEqual([B]);
    expect(await ids(`${mine} and active eq false`)).toEqual([B]);
    expect(await ids(`${mine} and emails[type eq "work" and value co "alpha"]`)).toEqual([A]);
    expect(await ids(`emails[type eq "home"] and ${mine}`)).toEqual([C]);
    expectScimError(await scim(dir, "GET", "/Users", undefined, { filter: 'userName eq "unclosed' }), 400, "invalidFilter");
  });

  it("projects attributes and pages with startIndex and count", async () => {
    const tag = `p${Date.now().toString(36)}`;
    for (let i = 0; i < 5; i++) expect((await scim(dir, "POST", "/Users", entraUser(`${tag}-${i}@${domain}`))).status).toBe(201);
    const filter = `userName sw "${tag}-"`;
    const page = await scim(dir, "GET", "/Users", undefined, { filter, startIndex: 2, count: 2, attributes: "userName,name.givenName" });
    expect(page.body).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect(page.body.Resources.map((r: { userName: string }) => r.userName)).toEqual([`${tag}-1@${domain}`, `${tag}-2@${domain}`]);
    expect(Object.keys(page.body.Resources[0]).sort()).toEqual(["id", "name", "schemas", "userName"]);
    expect(Object.keys(page.body.Resources[0].name)).toEqual(["givenName"]);
    const excluded = await scim(dir, "GET", "/Users", undefined, { filter, count: 1, excludedAttributes: `emails,${URN.enterprise}` });
    expect(excluded.body.Resources[0].emails).toBeUndefined();
    expect(excluded.body.Resources[0][URN.enterprise]).toBeUndefined();
    expect(excluded.body.Resources[0].userName).toBeDefined();
    const big = await scim(dir, "GET", "/Users", undefined, { count: 5000 });
    expect(big.body.itemsPerPage).toBeLessThanOrEqual(200);
    const none = await scim(dir, "GET", "/Users", undefined, { filter, count: 0 });
    expect(none.body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
  });

  it("DELETE answers 204, then 404", async () => {
    const created = await scim(dir, "POST", "/Users", entraUser(person("gone")));
    const del = await scim(dir, "DELETE", `/Users/${created.body.id}`);
    expect(del.status, del.text).toBe(204);
    expectScimError(await scim(dir, "GET", `/Users/${created.body.id}`), 404);
    expectScimError(await scim(dir, "DELETE", `/Users/${created.body.id}`), 404);
  });
});

describe("groups", () => {
  it("adds and removes members by value filter, and a group lists in its members' groups", async () => {
    const u1 = (await scim(dir, "POST", "/Users", entraUser(person("m1")))).body;
    const u2 = (await scim(dir, "POST", "/Users", entraUser(person("m2")))).body;
    const name = `Staff ${Date.now().toString(36)}`;
    const g = await scim(dir, "POST", "/Groups", { schemas: [URN.group], displayName: name, members: [] });
    expect(g.status, g.text).toBe(201);
    expectScimError(await scim(dir, "POST", "/Groups", { displayName: name.toUpperCase() }), 409, "uniqueness");
    const add = await scim(dir, "PATCH", `/Groups/${g.body.id}`, {
      schemas: [URN.patch],
      Operations: [{ op: "Add", path: "members", value: [{ value: u1.id }, { value: u2.id }] }],
    });
    expect(add.status, add.text).toBe(200);
    expect(add.body.members.map((m: { value: string }) => m.value).sort()).toEqual([u1.id, u2.id].sort());
    expect((await scim(dir, "GET", `/Users/${u1.id}`)).body.groups).toEqual([expect.objectContaining({ value: g.body.id, display: name })]);
    const remove = await scim(dir, "PATCH", `/Groups/${g.body.id}`, {
      schemas: [URN.patch],
      Operations: [{ op: "Remove", path: `members[value eq "${u1.id}"]` }],
    });
    expect(remove.status, remove.text).toBe(200);
    expect(remove.body.members.map((m: { value: string }) => m.value)).toEqual([u2.id]);
    const found = await scim(dir, "GET", "/Groups", undefined, { filter: `displayName eq "${name}"`, excludedAttributes: "members" });
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].members).toBeUndefined();
    const put = await scim(dir, "PUT", `/Groups/${g.body.id}`, { displayName: `${name} renamed`, members: [{ value: u1.id }] });
    expect(put.status, put.text).toBe(200);
    expect(put.body.members).toEqual([{ value: u1.id }]);
    expect((await scim(dir, "DELETE", `/Groups/${g.body.id}`)).status).toBe(204);
  });
});

describe("tokens", () => {
  it("a rotated token and a disconnected one get 401 before any handler; another institution sees none of these users", async () => {
    const other = await createInstitution(owner);
    const first = (await connect(owner, other.id)).token;
    const email = person("mine");
    expect((await scim(first, "POST", "/Users", entraUser(email))).status).toBe(201);
    const rotated = await connect(owner, other.id, 200);
    expect(rotated.body.scim.rotated_at).toEqual(expect.any(String));
    const old = await scim(first, "GET", "/Users");
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ message: "Unauthorized" });
    const fresh = rotated.token;
    expect((await scim(fresh, "GET", "/Users", undefined, { filter: `userName eq "${email}"` })).body.totalResults).toBe(1);
    // The first institution's directory sees none of the other's users, and the reverse.
    expect((await scim(dir, "GET", "/Users", undefined, { filter: `userName eq "${email}"` })).body.totalResults).toBe(0);
    const mine = (await scim(fresh, "GET", "/Users")).body.Resources.map((r: { userName: string }) => r.userName);
    expect(mine).toEqual([email]);
    expect((await scim(fresh, "GET", "/Users", undefined, {})).status).toBe(200);
    expect((await call("DELETE", connectionPath(other.id), { token: owner })).status).toBe(200);
    expect((await scim(fresh, "GET", "/Users")).status).toBe(401);
    expect((await scim("scim_not-a-token", "GET", "/Users")).status).toBe(401);
    expect((await call("GET", "/api/scim/v2/Users")).status).toBe(401);
  });
});
