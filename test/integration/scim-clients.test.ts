/**
 * Issue 38 item 4: SCIM as Entra ID's validator and Okta send it, through the local gateway and its Lambda
 * authorizer. The forms Microsoft's SCIM reference test collection sends and a well-kept server accepts: a list
 * with a trailing slash (`GET /Users/?filter=…`), bare filter values (`userName sw O`, `name.familyName eq
 * Employee`, a bare datetime), `attributes=emails[type eq "work"]`, a group member added as a bare id. Then the
 * request shapes Entra ID and Okta send today that test/integration/scim.test.ts does not already: Entra ID's
 * group flow (members added with `$ref: null`, removed by value, the membership check filter), its manager and
 * name updates; Okta's group push (rename with the id in the value, members with `display`, removal by filter),
 * its password and reactivation PATCHes, its import paging. None of it lets a malformed request change data:
 * each looser form is checked beside a malformed one that is still refused, and leaves the resource as it was.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution } from "../support/flows.js";
import { connect, entraUser, expectScimError, SCIM, scim, URN } from "../support/scim.js";

let dir: string;
let domain: string;

beforeAll(async () => {
  domain = `${uniqEmail("x").split("@")[1]}`;
  const owner = await token(uniqEmail("owner", domain), { superAdmin: true });
  const institutionId = (await createInstitution(owner)).id;
  dir = (await connect(owner, institutionId)).token;
});

const person = (label: string) => uniqEmail(label, domain);
const patchOp = (...Operations: unknown[]) => ({ schemas: [URN.patch], Operations });
const ids = (res: { body: { Resources: { id: string }[] } }) => res.body.Resources.map((r) => r.id).sort();

async function created(path: string, body: unknown): Promise<{ id: string; [k: string]: unknown }> {
  const res = await scim(dir, "POST", path, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("Entra ID's validator", () => {
  it("lists with a trailing slash: GET /Users/?filter=… and /Groups/?filter=…; a deeper path is 404", async () => {
    const email = person("slash");
    const user = await created("/Users", entraUser(email));
    const group = await created("/Groups", { displayName: uniq("Slash group"), members: [] });

    const users = await scim(dir, "GET", "/Users/", undefined, { filter: `userName eq "${email}"` });
    expect(users.status, users.text).toBe(200);
    expect(users.headers["content-type"]).toMatch(/^application\/scim\+json/);
    expect(users.body).toMatchObject({ schemas: [URN.list], totalResults: 1 });
    expect(ids(users)).toEqual([user.id]);

    const groups = await scim(dir, "GET", "/Groups/", undefined, { filter: `displayName eq "${group.displayName}"` });
    expect(groups.status, groups.text).toBe(200);
    expect(ids(groups)).toEqual([group.id]);

    // Without a filter it is the whole list, as /Users is; paging and projection hold.
    const all = await scim(dir, "GET", "/Users/", undefined, { count: 1, attributes: "userName" });
    expect(all.status, all.text).toBe(200);
    expect(all.body.itemsPerPage).toBe(1);
    expect(Object.keys(all.body.Resources[0]).sort()).toEqual(["id", "schemas", "userName"]);

    // One segment is still the resource, anything deeper names none; writes have no trailing-slash form.
    expect((await scim(dir, "GET", `/Users/${user.id}`)).body.id).toBe(user.id);
    expectScimError(await scim(dir, "GET", `/Users/${user.id}/extra`), 404);
    expectScimError(await scim(dir, "GET", "/Users/", undefined, { filter: 'userName eq "unclosed' }), 400, "invalidFilter");
    expect((await call("POST", `${SCIM}/Users/`, { token: dir, body: entraUser(person("slash-post")), contract: false })).status).toBe(404);
    // The authorizer runs on it as on every SCIM route.
    expect((await call("GET", `${SCIM}/Users/`, { contract: false })).status).toBe(401);
  });

  it("reads bare filter values: userName sw O, name.familyName eq Employee, a bare datetime, a literal in any case", async () => {
    const tag = `O${Date.now().toString(36)}`;
    const employee = await created(
      "/Users",
      entraUser(`${tag}-emp@${domain}`, { name: { givenName: "Test", familyName: "Employee" }, title: "2024" }),
    );
    const other = await created("/Users", entraUser(`${tag}-other@${domain}`, { active: false }));
    const list = async (filter: string) => {
      const res = await scim(dir, "GET", "/Users", undefined, { filter, count: 200 });
      expect(res.status, `${filter}: ${res.text}`).toBe(200);
      return ids(res);
    };
    const mine = [employee.id, other.id].sort();
    expect(await list(`userName sw ${tag}`)).toEqual(mine);
    expect(await list(`userName sw ${tag.toLowerCase()}`)).toEqual(mine);
    expect(await list(`userName sw ${tag} and name.familyName eq Employee`)).toEqual([employee.id]);
    expect(await list(`(userName sw ${tag}) and not (name.familyName eq Employee)`)).toEqual([other.id]);
    expect(await list(`userName sw ${tag} and emails[type eq work]`)).toEqual(mine);
    // A bare datetime is compared as a time, with or without milliseconds and in any zone.
    expect(await list(`userName sw ${tag} and meta.lastModified gt 2011-05-13T04:42:34Z`)).toEqual(mine);
    expect(await list(`userName sw ${tag} and meta.lastModified gt 2999-01-01T00:00:00Z`)).toEqual([]);
    const at = employee.meta as { created: string };
    const noMillis = `${at.created.slice(0, 19)}Z`;
    expect(await list(`userName sw ${tag} and meta.created ge ${noMillis}`)).toEqual(mine);
    expect(await list(`userName sw ${tag} and meta.created lt 2999-01-01T01:00:00+01:00`)).toEqual(mine);
    // true/false/null and numbers stay literals: `active eq False` is the boolean, `title eq 2024` the number.
    expect(await list(`userName sw ${tag} and active eq False`)).toEqual([other.id]);
    expect(await list(`userName sw ${tag} and active eq TRUE`)).toEqual([employee.id]);
    expect(await list(`userName sw ${tag} and title eq "2024"`)).toEqual([employee.id]);
    // Still refused: a comparison without a value, an unknown operator, an unclosed string.
    for (const filter of [`userName sw`, `userName zz ${tag}`, `userName eq "${tag}`, `userName eq ${tag} junk`]) {
      expectScimError(await scim(dir, "GET", "/Users", undefined, { filter }), 400, "invalidFilter");
    }
  });

  it('projects attributes=emails[type eq "work"]: only the values the filter matches, also with a sub-attribute', async () => {
    const email = person("multi");
    const user = await created(
      "/Users",
      entraUser(email, {
        emails: [
          { type: "work", value: email, primary: true },
          { type: "home", value: `home-${email}` },
        ],
      }),
    );
    const one = await scim(dir, "GET", `/Users/${user.id}`, undefined, { attributes: 'emails[type eq "work"]' });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({ schemas: [URN.user, URN.enterprise], id: user.id, emails: [{ type: "work", value: email, primary: true }] });

    const listed = await scim(dir, "GET", "/Users", undefined, {
      filter: `userName eq "${email}"`,
      attributes: 'userName,emails[type eq "work"].value',
    });
    expect(listed.body.Resources).toEqual([
      { schemas: [URN.user, URN.enterprise], id: user.id, userName: email, emails: [{ value: email }] },
    ]);

    const excluded = await scim(dir, "GET", `/Users/${user.id}`, undefined, { excludedAttributes: 'emails[type eq "home"]' });
    expect(excluded.body.emails).toEqual([{ type: "work", value: email, primary: true }]);
    expect(excluded.body.userName).toBe(email);

    // A filter that matches nothing leaves the attribute out; a malformed one is refused.
    const none = await scim(dir, "GET", `/Users/${user.id}`, undefined, { attributes: 'emails[type eq "other"]' });
    expect(none.body).toEqual({ schemas: [URN.user, URN.enterprise], id: user.id });
    expectScimError(await scim(dir, "GET", `/Users/${user.id}`, undefined, { attributes: 'emails[type eq "work"' }), 400);
  });

  it("adds a group member sent as a bare id, one or a list; anything else that is no member is still refused", async () => {
    const [a, b, c] = await Promise.all(["m-a", "m-b", "m-c"].map((l) => created("/Users", entraUser(person(l)))));
    const group = await created("/Groups", { displayName: uniq("Bare members"), members: [] });
    const path = `/Groups/${group.id}`;
    const members = async () => ((await scim(dir, "GET", path)).body.members ?? []).map((m: { value: string }) => m.value).sort();

    const one = await scim(dir, "PATCH", path, patchOp({ op: "Add", path: "members", value: a?.id }));
    expect(one.status, one.text).toBe(200);
    expect(one.body.members).toEqual([{ value: a?.id }]);
    const list = await scim(dir, "PATCH", path, patchOp({ op: "add", path: "members", value: [b?.id, { value: c?.id }] }));
    expect(list.status, list.text).toBe(200);
    expect(await members()).toEqual([a?.id, b?.id, c?.id].sort());
    const replaced = await scim(dir, "PATCH", path, patchOp({ op: "replace", path: "members", value: [c?.id] }));
    expect(replaced.status, replaced.text).toBe(200);
    expect(await members()).toEqual([c?.id]);
    const noPath = await scim(dir, "PATCH", path, patchOp({ op: "add", value: { members: [a?.id] } }));
    expect(noPath.status, noPath.text).toBe(200);
    expect(await members()).toEqual([a?.id, c?.id].sort());

    // Not members, bare or not: refused, and the group is as it was.
    for (const value of [5, [true], [{ display: "no value" }], null]) {
      const res = await scim(dir, "PATCH", path, patchOp({ op: "add", path: "members", value }));
      expect(res.status, `${JSON.stringify(value)}: ${res.text}`).toBe(400);
    }
    expect(await members()).toEqual([a?.id, c?.id].sort());
  });
});

describe("Entra ID's provisioning today", () => {
  it("groups: create with externalId, the membership check filter, members added with $ref null and removed by value, rename", async () => {
    const u1 = await created("/Users", entraUser(person("eg1")));
    const u2 = await created("/Users", entraUser(person("eg2")));
    const name = uniq("Entra group");
    const group = await created("/Groups", {
      schemas: [URN.group],
      externalId: uniq("ext"),
      displayName: name,
      meta: { resourceType: "Group" },
    });
    const lookup = await scim(dir, "GET", "/Groups", undefined, { filter: `displayName eq "${name}"`, excludedAttributes: "members" });
    expect(ids(lookup)).toEqual([group.id]);

    const add = await scim(
      dir,
      "PATCH",
      `/Groups/${group.id}`,
      patchOp({
        op: "Add",
        path: "members",
        value: [
          { $ref: null, value: u1.id },
          { $ref: null, value: u2.id },
        ],
      }),
    );
    expect(add.status, add.text).toBe(200);
    const isMember = (userId: string) =>
      scim(dir, "GET", "/Groups", undefined, {
        filter: `id eq "${group.id}" and members[value eq "${userId}"]`,
        excludedAttributes: "members",
      });
    expect((await isMember(u1.id)).body.totalResults).toBe(1);

    // Entra ID removes with `{value}` alone, although it added `{$ref: null, value}`.
    const remove = await scim(dir, "PATCH", `/Groups/${group.id}`, patchOp({ op: "Remove", path: "members", value: [{ value: u1.id }] }));
    expect(remove.status, remove.text).toBe(200);
    expect(remove.body.members.map((m: { value: string }) => m.value)).toEqual([u2.id]);
    expect((await isMember(u1.id)).body.totalResults).toBe(0);
    // Removing who is no member is no change, and no error.
    const again = await scim(dir, "PATCH", `/Groups/${group.id}`, patchOp({ op: "Remove", path: "members", value: [{ value: u1.id }] }));
    expect(again.status, again.text).toBe(200);
    expect(again.body.members.map((m: { value: string }) => m.value)).toEqual([u2.id]);

    const renamed = await scim(dir, "PATCH", `/Groups/${group.id}`, patchOp({ op: "Replace", path: "displayName", value: `${name} 2` }));
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.displayName).toBe(`${name} 2`);
  });

  it("users: lookup by externalId, several Replace operations with paths, manager added as a bare id and removed", async () => {
    const email = person("entra-upd");
    const user = await created("/Users", entraUser(email));
    const byExternalId = await scim(dir, "GET", "/Users", undefined, { filter: `externalId eq "${user.externalId}"` });
    expect(ids(byExternalId)).toEqual([user.id]);
    const manager = await created("/Users", entraUser(person("entra-mgr")));

    const res = await scim(
      dir,
      "PATCH",
      `/Users/${user.id}`,
      patchOp(
        { op: "Replace", path: "name.familyName", value: "Updated" },
        { op: "Replace", path: "displayName", value: "Updated Person" },
        { op: "Add", path: "title", value: "Registrar" },
        { op: "Add", path: `${URN.enterprise}:manager`, value: manager.id },
        { op: "Replace", path: "active", value: "True" },
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ displayName: "Updated Person", title: "Registrar", active: true });
    expect(res.body.name.familyName).toBe("Updated");
    expect(res.body[URN.enterprise]).toMatchObject({ department: "Registry", manager: manager.id });

    const removed = await scim(dir, "PATCH", `/Users/${user.id}`, patchOp({ op: "Remove", path: `${URN.enterprise}:manager` }));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body[URN.enterprise].manager).toBeUndefined();
    expect(removed.body[URN.enterprise].department).toBe("Registry");
  });
});

describe("Okta's provisioning today", () => {
  it("group push: create, members with display, rename with the id in the value, removal by filter", async () => {
    const u1 = await created("/Users", entraUser(person("og1")));
    const u2 = await created("/Users", entraUser(person("og2")));
    const name = uniq("Okta group");
    const group = await created("/Groups", { schemas: [URN.group], displayName: name, members: [] });
    const add = await scim(
      dir,
      "PATCH",
      `/Groups/${group.id}`,
      patchOp({
        op: "add",
        path: "members",
        value: [
          { value: u1.id, display: u1.userName },
          { value: u2.id, display: u2.userName },
        ],
      }),
    );
    expect(add.status, add.text).toBe(200);
    expect(add.body.members).toHaveLength(2);

    const renamed = await scim(
      dir,
      "PATCH",
      `/Groups/${group.id}`,
      patchOp({ op: "replace", value: { id: group.id, displayName: `${name} B` } }),
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.displayName).toBe(`${name} B`);
    expect(renamed.body.id).toBe(group.id);

    const removed = await scim(dir, "PATCH", `/Groups/${group.id}`, patchOp({ op: "remove", path: `members[value eq "${u1.id}"]` }));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.members).toEqual([{ value: u2.id, display: u2.userName }]);
    // Entra ID's removal by value also removes a member Okta added with its display.
    const byValue = await scim(dir, "PATCH", `/Groups/${group.id}`, patchOp({ op: "remove", path: "members", value: [{ value: u2.id }] }));
    expect(byValue.status, byValue.text).toBe(200);
    expect(byValue.body.members ?? []).toEqual([]);
  });

  it("users: import paging, a password change that is never kept, deactivation and reactivation without a path", async () => {
    const email = person("okta-user");
    const user = await created("/Users", {
      schemas: [URN.user],
      userName: email,
      name: { givenName: "Okta", familyName: "Person" },
      emails: [{ primary: true, value: email, type: "work" }],
      active: true,
      password: "Initial-Passw0rd",
    });
    const page1 = await scim(dir, "GET", "/Users", undefined, { startIndex: 1, count: 2 });
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body).toMatchObject({ startIndex: 1, itemsPerPage: 2 });
    const page2 = await scim(dir, "GET", "/Users", undefined, { startIndex: 3, count: 2 });
    expect(page2.body.startIndex).toBe(3);
    expect(ids(page2).some((id) => ids(page1).includes(id))).toBe(false);

    const password = await scim(dir, "PATCH", `/Users/${user.id}`, patchOp({ op: "replace", value: { password: "Changed-Passw0rd" } }));
    expect(password.status, password.text).toBe(200);
    expect(password.body.password).toBeUndefined();
    expect((await scim(dir, "GET", `/Users/${user.id}`)).text).not.toContain("Passw0rd");

    const off = await scim(dir, "PATCH", `/Users/${user.id}`, patchOp({ op: "replace", value: { active: false } }));
    expect(off.body.active).toBe(false);
    const on = await scim(dir, "PATCH", `/Users/${user.id}`, patchOp({ op: "replace", value: { active: true } }));
    expect(on.status, on.text).toBe(200);
    expect(on.body.active).toBe(true);
    // `active` that is no boolean, nor "True"/"False": refused, and the user stays active.
    expectScimError(
      await scim(dir, "PATCH", `/Users/${user.id}`, patchOp({ op: "replace", value: { active: "no" } })),
      400,
      "invalidValue",
    );
    expect((await scim(dir, "GET", `/Users/${user.id}`)).body.active).toBe(true);
  });
});
