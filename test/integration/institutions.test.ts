/**
 * Institutions and cohorts over HTTP through the local gateway, with real tokens from the local Cognito
 * and real DynamoDB Local: the authorization matrix, the contract's bodies, and the events written.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { createInstitution, INST } from "../support/flows.js";
import { eventsOf, grantAccess, lastEvent, userIdOf } from "./helpers.js";

interface Actors {
  owner: string;
  admin: string;
  sameAccount: string;
  otherAccount: string;
  noGroup: string;
}

async function actors(): Promise<Actors> {
  const account = uniq("acct");
  const [owner, admin, sameAccount, otherAccount, noGroup] = await Promise.all([
    token(uniqEmail("owner", "example.com"), { superAdmin: true, account, name: "Olive Owner" }),
    token(uniqEmail("admin", "example.com"), { superAdmin: true, account }),
    token(uniqEmail("same", "example.com"), { superAdmin: true, account }),
    token(uniqEmail("other", "example.com"), { superAdmin: true, account: uniq("acct") }),
    token(uniqEmail("plain", "example.com"), { account }),
  ]);
  return { owner, admin, sameAccount, otherAccount, noGroup };
}

describe("institutions: authorization matrix", () => {
  let a: Actors;
  let inst: { id: string; name: string };

  beforeAll(async () => {
    a = await actors();
    inst = await createInstitution(a.owner, { registration_number: uniq("REG") });
    await grantAccess(inst.id, await userIdOf(a.admin), "cohort_admin");
  });

  it("list: each user sees exactly the institutions they have access to, with their role", async () => {
    const owner = ok(await apiClient(a.owner).GET(paths.institutions));
    expect(owner.institutions).toContainEqual({
      id: inst.id,
      name: inst.name,
      registration_number: expect.any(String),
      contact_email: null,
      role: "cohort_super_admin",
      is_super_admin: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const admin = ok(await apiClient(a.admin).GET(paths.institutions));
    expect(admin.institutions).toEqual([expect.objectContaining({ id: inst.id, role: "cohort_admin", is_super_admin: false })]);
    for (const tok of [a.sameAccount, a.otherAccount]) {
      expect(ok(await apiClient(tok).GET(paths.institutions))).toEqual({ institutions: [] });
    }
    expect(await call("GET", INST)).toMatchObject({ status: 401, body: { message: "Unauthorized" } });
  });

  it("show: owner and admin get the record with role views; others get 404 and an event", async () => {
    const params = { path: { id: inst.id } };
    const owner = ok(await apiClient(a.owner).GET(`${paths.institutions}/{id}`, { params }));
    expect(owner).toEqual({
      institution: expect.objectContaining({ id: inst.id, name: inst.name, settings: {}, super_admin_id: await userIdOf(a.owner) }),
      role: "cohort_super_admin",
      is_super_admin: true,
      settings: { allow_student_enrollment: true, require_verification: true, auto_finalize: false, email_notifications: true },
    });
    expect(Object.keys(owner.institution).sort()).toEqual(
      [
        "id",
        "name",
        "registration_number",
        "address",
        "contact_email",
        "contact_phone",
        "settings",
        "account_id",
        "super_admin_id",
        "created_at",
        "updated_at",
      ].sort(),
    );
    const admin = ok(await apiClient(a.admin).GET(`${paths.institutions}/{id}`, { params }));
    expect(admin).toMatchObject({ role: "cohort_admin", is_super_admin: false });

    for (const tok of [a.sameAccount, a.otherAccount]) {
      const res = await call("GET", `${INST}/${inst.id}`, { token: tok });
      expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
      expect(await lastEvent(tok)).toMatchObject({
        event_type: "unauthorized_institution_access",
        details: { attempted_institution_id: inst.id },
      });
    }
    expect((await call("GET", `${INST}/${inst.id}`)).status).toBe(401);
  });

  it("update: only the institution's super admin; admin 403, others 404, each with its event", async () => {
    const admin = await call("PATCH", `${INST}/${inst.id}`, { token: a.admin, body: { institution: { name: "Hijack" } } });
    expect(admin).toMatchObject({ status: 403, body: { error: "Only super admins can update institutions" } });
    expect(await lastEvent(a.admin)).toMatchObject({
      event_type: "insufficient_privileges",
      details: { action: "update_institution", required_role: "super_admin", institution_id: inst.id },
    });
    for (const tok of [a.sameAccount, a.otherAccount]) {
      const res = await call("PUT", `${INST}/${inst.id}`, { token: tok, body: { institution: { name: "Hijack" } } });
      expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
      expect(await lastEvent(tok)).toMatchObject({ event_type: "unauthorized_institution_access" });
    }
    expect((await call("PATCH", `${INST}/${inst.id}`, { body: { institution: {} } })).status).toBe(401);

    const owner = await call("PATCH", `${INST}/${inst.id}`, {
      token: a.owner,
      body: { institution: { contact_email: "Desk@Example.com", settings: { auto_finalize: true }, account_id: "evil" } },
    });
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({
      message: "Institution updated successfully",
      institution: { contact_email: "desk@example.com", settings: { auto_finalize: true }, name: inst.name },
    });
    expect(owner.body.institution.account_id).not.toBe("evil");
    expect(await lastEvent(a.owner)).toMatchObject({
      event_type: "institution_updated",
      details: { institution_id: inst.id, changes: ["contact_email", "settings"] },
    });
    // The summary on every access record follows the change.
    const list = ok(await apiClient(a.admin).GET(paths.institutions));
    expect(list.institutions[0]).toMatchObject({ contact_email: "desk@example.com" });
  });

  it("cohorts: owner creates, admin lists, admin cannot create, outsiders get 404", async () => {
    const params = { path: { id: inst.id } };
    const created = ok(
      await apiClient(a.owner).POST(`${paths.institutions}/{id}/cohorts`, { params, body: { cohort: { name: "2026" } } }),
      201,
    );
    expect(created).toMatchObject({ cohort: { id: expect.any(String), name: "2026" } });
    expect(await lastEvent(a.owner)).toMatchObject({ event_type: "cohort_created", details: { institution_id: inst.id } });
    const adminList = ok(await apiClient(a.admin).GET(`${paths.institutions}/{id}/cohorts`, { params }));
    expect(adminList).toMatchObject({ cohorts: [{ id: created.cohort.id, name: "2026" }] });
    const adminCreate = await call("POST", `${INST}/${inst.id}/cohorts`, { token: a.admin, body: { cohort: { name: "x" } } });
    expect(adminCreate.status).toBe(403);
    expect(await lastEvent(a.admin)).toMatchObject({ event_type: "insufficient_privileges", details: { action: "create_cohort" } });
    for (const tok of [a.sameAccount, a.otherAccount]) {
      expect((await call("GET", `${INST}/${inst.id}/cohorts`, { token: tok })).status).toBe(404);
      expect((await call("POST", `${INST}/${inst.id}/cohorts`, { token: tok, body: { cohort: { name: "x" } } })).status).toBe(404);
    }
    expect((await call("POST", `${INST}/${inst.id}/cohorts`, { token: a.owner, body: {} })).body).toEqual({
      error: "param is missing or the value is empty: cohort",
    });
    expect((await call("POST", `${INST}/${inst.id}/cohorts`, { token: a.owner, body: { cohort: { name: " " } } })).body).toEqual({
      errors: ["Name can't be blank"],
    });
  });

  it("delete: refused while a cohort exists; admin 403, outsiders 404", async () => {
    const admin = await call("DELETE", `${INST}/${inst.id}`, { token: a.admin });
    expect(admin).toMatchObject({ status: 403, body: { error: "Only super admins can delete institutions" } });
    expect(await lastEvent(a.admin)).toMatchObject({
      event_type: "insufficient_privileges",
      details: { action: "destroy_institution", required_role: "super_admin", institution_id: inst.id },
    });
    for (const tok of [a.sameAccount, a.otherAccount]) {
      expect((await call("DELETE", `${INST}/${inst.id}`, { token: tok })).status).toBe(404);
    }
    expect((await call("DELETE", `${INST}/${inst.id}`)).status).toBe(401);
    const refused = await call("DELETE", `${INST}/${inst.id}`, { token: a.owner });
    expect(refused).toMatchObject({ status: 422, body: { error: "Cannot delete institution with existing cohorts" } });
    ok(await apiClient(a.owner).GET(`${paths.institutions}/{id}`, { params: { path: { id: inst.id } } }));
  });

  it("create: needs cohort-super-admin status", async () => {
    const res = await call("POST", INST, { token: a.noGroup, body: { institution: { name: "Nope" } } });
    expect(res).toMatchObject({ status: 403, body: { error: "Super admin access required" } });
    const event = await lastEvent(a.noGroup);
    expect(event).toMatchObject({
      event_type: "insufficient_privileges",
      details: { action: "create_institution", required_role: "cohort_super_admin" },
    });
    expect(event?.details).not.toHaveProperty("institution_id");
    expect((await call("POST", INST, { body: { institution: { name: "x" } } })).status).toBe(401);
  });
});

describe("institutions: create, update, delete to the contract", () => {
  it("creates with the caller as super admin, ignores mass assignment, logs institution_created", async () => {
    const account = uniq("acct");
    const tok = await token(uniqEmail("c", "example.com"), { superAdmin: true, account });
    const res = await call("POST", INST, {
      token: tok,
      body: {
        institution: {
          name: "  Northwind College ",
          registration_number: "NW-1",
          address: "1 Main St",
          contact_email: "info@northwind.edu",
          contact_phone: "+1 555 0100",
          settings: { allow_student_enrollment: false, sudo: true },
          id: "chosen",
          account_id: "other",
          super_admin_id: "someone",
          created_at: "1999-01-01T00:00:00.000Z",
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Institution created successfully");
    const i = res.body.institution;
    expect(i).toMatchObject({
      name: "Northwind College",
      registration_number: "NW-1",
      address: "1 Main St",
      contact_email: "info@northwind.edu",
      contact_phone: "+1 555 0100",
      settings: { allow_student_enrollment: false },
      account_id: account,
      super_admin_id: await userIdOf(tok),
    });
    expect(i.id).not.toBe("chosen");
    expect(i.created_at).not.toBe("1999-01-01T00:00:00.000Z");
    expect(await lastEvent(tok)).toMatchObject({
      event_type: "institution_created",
      account_id: account,
      details: { institution_id: i.id, name: "Northwind College" },
    });
    const show = ok(await apiClient(tok).GET(`${paths.institutions}/{id}`, { params: { path: { id: i.id } } }));
    expect(show.settings).toEqual({
      allow_student_enrollment: false,
      require_verification: true,
      auto_finalize: false,
      email_notifications: true,
    });
  });

  it("answers 400 for a missing institution key, 422 for invalid fields, and writes nothing", async () => {
    const tok = await token(uniqEmail("v", "example.com"), { superAdmin: true, account: uniq("acct") });
    const missing = await call("POST", INST, { token: tok, body: { name: "x" } });
    expect(missing).toMatchObject({ status: 400, body: { error: "param is missing or the value is empty: institution" } });
    const invalid = await call("POST", INST, { token: tok, body: { institution: { contact_email: "nope", contact_phone: "x" } } });
    expect(invalid).toMatchObject({
      status: 422,
      body: { errors: ["Name can't be blank", "Contact email is invalid", "Contact phone is invalid"] },
    });
    const malformed = await call("POST", INST, {
      token: tok,
      rawBody: '{"institution": {',
      headers: { "content-type": "application/json" },
    });
    expect(malformed).toMatchObject({ status: 400, body: { error: "Malformed JSON body" } });
    const huge = await call("POST", INST, { token: tok, body: { institution: { name: "x", address: "a".repeat(70_000) } } });
    expect(huge).toMatchObject({ status: 413, body: { error: "Request body too large" } });
    expect(ok(await apiClient(tok).GET(paths.institutions)).institutions).toEqual([]);
    // Nothing but the sign-in that gave the token (the pool's trigger records it).
    expect((await eventsOf(tok)).map((e) => e.event_type)).toEqual(["sign_in"]);
  });

  it("keeps registration numbers unique per account, case-insensitively, and frees them on change and delete", async () => {
    const account = uniq("acct");
    const tok = await token(uniqEmail("r", "example.com"), { superAdmin: true, account });
    const other = await token(uniqEmail("r", "example.com"), { superAdmin: true, account: uniq("acct") });
    const number = uniq("REG");
    const first = await createInstitution(tok, { registration_number: number });
    const dup = await call("POST", INST, { token: tok, body: { institution: { name: "Dup", registration_number: number.toLowerCase() } } });
    expect(dup).toMatchObject({ status: 422, body: { errors: ["Registration number has already been taken"] } });
    await createInstitution(other, { registration_number: number }); // another account may use it

    const second = await createInstitution(tok, { registration_number: `${number}-B` });
    const clash = await call("PATCH", `${INST}/${second.id}`, { token: tok, body: { institution: { registration_number: number } } });
    expect(clash).toMatchObject({ status: 422, body: { errors: ["Registration number has already been taken"] } });

    const api = apiClient(tok);
    const at = (id: string) => ({ params: { path: { id } } });
    ok(await api.PATCH(`${paths.institutions}/{id}`, { ...at(first.id), body: { institution: { registration_number: `${number}-A` } } }));
    ok(await api.PATCH(`${paths.institutions}/{id}`, { ...at(second.id), body: { institution: { registration_number: number } } }));

    const deleted = ok(await api.DELETE(`${paths.institutions}/{id}`, at(first.id)));
    expect(deleted).toMatchObject({ message: `Institution '${first.name}' deleted successfully` });
    expect(await lastEvent(tok)).toMatchObject({ event_type: "institution_deleted", details: { institution_name: first.name } });
    expect((await call("GET", `${INST}/${first.id}`, { token: tok })).status).toBe(404);
    expect(ok(await api.GET(paths.institutions)).institutions.map((i) => i.id)).toEqual([second.id]);
    await createInstitution(tok, { registration_number: `${number}-A` });
  });

  it("reads a lone surrogate (a JSON escape, not a character) as U+FFFD: answered as stored, unique as stored", async () => {
    const tok = await token(uniqEmail("s", "example.com"), { superAdmin: true, account: uniq("acct") });
    const made = await createInstitution(tok, { name: "Lone \ud800", registration_number: "R\udfff" });
    expect(made).toMatchObject({ name: "Lone \ufffd", registration_number: "R\ufffd" });
    const api = apiClient(tok);
    const params = { path: { id: made.id } };
    expect(ok(await api.GET(`${paths.institutions}/{id}`, { params })).institution).toMatchObject({
      name: "Lone \ufffd",
      registration_number: "R\ufffd",
    });
    // Another lone surrogate is the same stored number; a well-formed pair passes through untouched.
    const dup = await call("POST", INST, { token: tok, body: { institution: { name: "Dup", registration_number: "R\udbff" } } });
    expect(dup).toMatchObject({ status: 422, body: { errors: ["Registration number has already been taken"] } });
    const cohort = ok(
      await api.POST(`${paths.institutions}/{id}/cohorts`, { params, body: { cohort: { name: "x\udc00 \ud83d\ude00" } } }),
      201,
    );
    expect(cohort).toMatchObject({ cohort: { name: "x\ufffd \ud83d\ude00" } });
    expect(ok(await api.GET(`${paths.institutions}/{id}/cohorts`, { params })).cohorts).toMatchObject([{ name: "x\ufffd \ud83d\ude00" }]);
  });

  it("update validates after the role check and keeps the stored record on failure", async () => {
    const tok = await token(uniqEmail("u", "example.com"), { superAdmin: true, account: uniq("acct") });
    const inst = await createInstitution(tok, { name: "Stable" });
    expect((await call("PATCH", `${INST}/${inst.id}`, { token: tok, body: {} })).status).toBe(400);
    const bad = await call("PUT", `${INST}/${inst.id}`, { token: tok, body: { institution: { name: null, contact_email: "bad" } } });
    expect(bad).toMatchObject({ status: 422, body: { errors: ["Name can't be blank", "Contact email is invalid"] } });
    const api = apiClient(tok);
    const params = { path: { id: inst.id } };
    expect(ok(await api.GET(`${paths.institutions}/{id}`, { params })).institution.name).toBe("Stable");
    const put = ok(await api.PUT(`${paths.institutions}/{id}`, { params, body: { institution: { address: "Elsewhere" } } }));
    expect(put.institution).toMatchObject({ name: "Stable", address: "Elsewhere" });
  });

  it("treats a malformed id like an unknown one", async () => {
    const tok = await token(uniqEmail("m", "example.com"), { superAdmin: true, account: uniq("acct") });
    for (const id of ["nope", "%20", "0".repeat(300)]) {
      const res = await call("GET", `${INST}/${id}`, { token: tok });
      expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
    }
    expect(await lastEvent(tok)).toMatchObject({
      event_type: "unauthorized_institution_access",
      // Not a well-formed id: recorded as its first 64 code points (issue 14).
      details: { attempted_institution_id: "0".repeat(64) },
    });
  });

  it("8 simultaneous creates with one registration number give exactly one 201", async () => {
    const tok = await token(uniqEmail("race", "example.com"), { superAdmin: true, account: uniq("acct") });
    const number = uniq("RACE");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        call("POST", INST, { token: tok, body: { institution: { name: `Racer ${n}`, registration_number: number } } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    expect(ok(await apiClient(tok).GET(paths.institutions)).institutions).toHaveLength(1);
  });
});
