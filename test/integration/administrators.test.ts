/**
 * Issue 20 (docs/contract/administrators.md): who holds access to an institution, changing it, taking it away, handing the
 * institution over, and previewing an invitation. Every route over HTTP, every status of the check order
 * (look up among visible 404 → role 403 → body 400 → target 404 → rule 422 → action), the event in the
 * actor's trail and in the owner's, 404 after removal, re-invitation after removal, the seat count.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "../../shared/audit.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { paths } from "../../shared/routes.js";
import { auditMembership } from "../fault/consistency.js";
import { call, token, tokenInGroups, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { ACCEPT, allEvents, createInstitution, INST, invite, lastMailedToken, storedInvitation } from "../support/flows.js";
import { eventsOf, userIdOf } from "./helpers.js";

const PREVIEW = paths.invitationsPreview;
const admins = (id: string) => `${INST}/${id}/administrators`;
const admin = (id: string, userId: string) => `${INST}/${id}/administrators/${encodeURIComponent(userId)}`;
const transfer = (id: string) => `${INST}/${id}/transfer`;
const UNKNOWN_INST = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
// The document's path templates, for the typed client.
const INSTITUTION = `${paths.institutions}/{id}` as const;
const ADMINS = `${paths.institutions}/{id}/administrators` as const;
const ADMIN = `${paths.institutions}/{id}/administrators/{user_id}` as const;
const TRANSFER = `${paths.institutions}/{id}/transfer` as const;
/** The parameters naming an institution. */
const at = (id: string) => ({ params: { path: { id } } });
/** The parameters naming an administrator of an institution. */
const of = (id: string, user_id: string) => ({ params: { path: { id, user_id } } });

interface Person {
  token: string;
  id: string;
  email: string;
}

let account: string;
let domain: string;
let owner: Person;

async function person(label: string, opts: { superAdmin?: boolean; account?: string; name?: string } = {}): Promise<Person> {
  const email = uniqEmail(label, opts.account && opts.account !== account ? `${uniq("d")}.test` : domain);
  const tok = await token(email, {
    superAdmin: opts.superAdmin ?? false,
    account: opts.account ?? account,
    ...(opts.name && { name: opts.name }),
  });
  return { token: tok, id: await userIdOf(tok), email };
}

/** The API as `p`. */
const api = (p: Person) => apiClient(p.token);

/** A new administrator of `institutionId`, by invitation and accept. */
async function join(
  institutionId: string,
  role: "cohort_admin" | "cohort_super_admin" = "cohort_admin",
  opts: { superAdmin?: boolean; account?: string; name?: string; inviter?: Person } = {},
): Promise<Person & { invitationId: string }> {
  const p = await person("admin", opts);
  const invitationId = await invite((opts.inviter ?? owner).token, institutionId, p.email, role);
  ok(await api(p).POST(paths.invitationsAccept, { body: { token: await lastMailedToken(p.email) } }));
  return { ...p, invitationId };
}

/** Every administrator of an institution, page by page (`limit` a page). */
async function listAll(tok: string, institutionId: string, limit = 200) {
  const out = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const params = { path: { id: institutionId }, query: { limit, cursor } };
    const { administrators, meta } = ok(await apiClient(tok).GET(ADMINS, { params }));
    expect(meta.count).toBe(administrators.length);
    out.push(...administrators);
    cursor = meta.next_cursor ?? undefined;
    if (!cursor) return out;
  }
  throw new Error("too many pages");
}

/** The newest event of `type` in `tok`'s user's own trail. */
async function lastOf(tok: string, type: string): Promise<StoredEvent | undefined> {
  return (await eventsOf(tok)).find((e) => e.event_type === type);
}

/** Seats (the institution's `members`) and what the list says agree, and the count is `n`. */
async function expectSeats(institutionId: string, n: number) {
  const inst = await getInstitution(institutionId);
  expect(Object.keys(inst?.members ?? {})).toHaveLength(n);
  const listed = await listAll(owner.token, institutionId, 3);
  expect(listed.map((a) => a.user_id).sort()).toEqual(Object.keys(inst?.members ?? {}).sort());
  expect(await auditMembership(institutionId)).toEqual([]);
}

beforeAll(async () => {
  account = uniq("acct");
  domain = `${uniq("d")}.test`;
  owner = await person("olive", { superAdmin: true, name: "Olive Owner" });
});

describe("GET /institutions/:id/administrators", () => {
  it("lists every administrator by e-mail, paged, with who they are; members of another account show theirs", async () => {
    const inst = await createInstitution(owner.token);
    const local = await join(inst.id, "cohort_admin", { name: "Ada Admin" });
    const foreignAccount = uniq("acct-b");
    const foreign = await join(inst.id, "cohort_super_admin", { account: foreignAccount });
    const third = await join(inst.id);

    const all = await listAll(local.token, inst.id, 2);
    expect(all.map((a) => a.email)).toEqual([owner.email, local.email, foreign.email, third.email].sort());
    const byId = new Map(all.map((a) => [a.user_id, a]));
    expect(byId.get(owner.id)).toMatchObject({
      role: "cohort_super_admin",
      is_super_admin: true,
      invitation_id: null,
      account_id: account,
      name: "Olive Owner",
    });
    expect(byId.get(local.id)).toMatchObject({
      role: "cohort_admin",
      is_super_admin: false,
      invitation_id: local.invitationId,
      account_id: account,
      name: "Ada Admin",
    });
    expect(byId.get(foreign.id)).toMatchObject({
      role: "cohort_super_admin",
      account_id: foreignAccount,
      invitation_id: foreign.invitationId,
    });

    const first = ok(await api(owner).GET(ADMINS, { params: { path: { id: inst.id }, query: { limit: 3 } } }));
    expect(first.meta).toMatchObject({ count: 3, limit: 3 });
    expect(first.meta.next_cursor).toEqual(expect.any(String));
    const cursor = first.meta.next_cursor ?? undefined;
    const rest = ok(await api(owner).GET(ADMINS, { params: { path: { id: inst.id }, query: { limit: 3, cursor } } }));
    expect(rest.meta).toEqual({ count: 1, limit: 3, next_cursor: null });
  });

  it("404 with unauthorized_institution_access (action manage_administrators) for an institution the caller cannot see, in the owner's trail too", async () => {
    const inst = await createInstitution(owner.token);
    const stranger = await person("stranger", { account: uniq("acct-x") });
    const res = await call("GET", admins(inst.id), { token: stranger.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Institution not found or access denied" });
    const event = await lastOf(stranger.token, "unauthorized_institution_access");
    expect(event?.details).toEqual({ attempted_institution_id: inst.id, action: "manage_administrators" });
    const inOwners = (await allEvents(owner.token, { event_type: "unauthorized_institution_access" })).find((e) => e.id === event?.id);
    expect(inOwners?.user_email).toBe(stranger.email);
    expect((await call("GET", admins(UNKNOWN_INST), { token: owner.token })).status).toBe(404);
    expect((await call("GET", admins("not-an-id"), { token: owner.token })).status).toBe(404);
  });

  it("400 for a bad limit or cursor (after the look-up)", async () => {
    const inst = await createInstitution(owner.token);
    for (const query of [
      { limit: 0 },
      { limit: 201 },
      { limit: "x" },
      { cursor: "!!" },
      { cursor: Buffer.from("no-separator").toString("base64url") },
    ]) {
      const res = await call("GET", admins(inst.id), { token: owner.token, query });
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
    // The look-up comes first: an invisible institution is 404 whatever the query.
    expect((await call("GET", admins(UNKNOWN_INST), { token: owner.token, query: { limit: 0 } })).status).toBe(404);
  });
});

describe("PATCH /institutions/:id/administrators/:user_id", () => {
  it("the super admin changes a role: the seat and the record change, administrator_role_changed is recorded", async () => {
    const inst = await createInstitution(owner.token);
    const ada = await join(inst.id);
    const changed = ok(await api(owner).PATCH(ADMIN, { ...of(inst.id, ada.id), body: { role: "cohort_super_admin" } }));
    expect(changed).toMatchObject({
      message: "Role updated",
      administrator: { user_id: ada.id, role: "cohort_super_admin", is_super_admin: false },
    });
    expect(ok(await api(ada).GET(INSTITUTION, at(inst.id))).role).toBe("cohort_super_admin");
    const listed = (await listAll(owner.token, inst.id)).find((a) => a.user_id === ada.id);
    expect(listed?.role).toBe("cohort_super_admin");
    const event = await lastOf(owner.token, "administrator_role_changed");
    expect(event?.details).toEqual({
      institution_id: inst.id,
      institution_name: inst.name,
      user_id: ada.id,
      email: ada.email,
      from: "cohort_admin",
      to: "cohort_super_admin",
    });
    expect((await allEvents(owner.token, { event_type: "administrator_role_changed" })).map((e) => e.id)).toContain(event?.id);

    // The same role again changes nothing and records nothing.
    ok(await api(owner).PATCH(ADMIN, { ...of(inst.id, ada.id), body: { role: "cohort_super_admin" } }));
    expect((await lastOf(owner.token, "administrator_role_changed"))?.id).toBe(event?.id);
  });

  it("check order: 404 invisible → 403 not the super admin (with its event) → 400 role → 404 target → 422 the super admin's own role", async () => {
    const inst = await createInstitution(owner.token);
    const ada = await join(inst.id, "cohort_super_admin", { superAdmin: true });
    const stranger = await person("stranger");

    const invisible = await call("PATCH", admin(inst.id, ada.id), { token: stranger.token, body: { role: "bogus" } });
    expect(invisible.status).toBe(404);
    // An institution id too long for a key is as unknown as any other (it once reached a key: 500).
    for (const method of ["PATCH", "DELETE"])
      expect((await call(method, admin("x".repeat(2000), ada.id), { token: owner.token, body: { role: "cohort_admin" } })).status).toBe(
        404,
      );

    const forbidden = await call("PATCH", admin(inst.id, owner.id), { token: ada.token, body: { role: "bogus" } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: "Only the institution's super admin can manage administrators" });
    expect((await lastOf(ada.token, "insufficient_privileges"))?.details).toEqual({
      action: "manage_administrators",
      required_role: "super_admin",
      institution_id: inst.id,
      institution_name: inst.name,
    });

    for (const body of [{ role: "bogus" }, {}, undefined, { role: ["cohort_admin"] }]) {
      const res = await call("PATCH", admin(inst.id, "nobody"), { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: "Invalid role specified" });
    }
    const unknown = await call("PATCH", admin(inst.id, stranger.id), { token: owner.token, body: { role: "cohort_admin" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "Administrator not found" });
    expect((await call("PATCH", admin(inst.id, "constructor"), { token: owner.token, body: { role: "cohort_admin" } })).status).toBe(404);

    const own = await call("PATCH", admin(inst.id, owner.id), { token: owner.token, body: { role: "cohort_admin" } });
    expect(own.status).toBe(422);
    expect(own.body).toEqual({ error: "The super admin's role cannot be changed" });
  });
});

describe("DELETE /institutions/:id/administrators/:user_id", () => {
  it("removal takes the access, the seat, the marker and the invitations the administrator sent; the person answers 404 and can be invited again", async () => {
    const inst = await createInstitution(owner.token);
    const sender = await join(inst.id, "cohort_super_admin", { superAdmin: true });
    const stays = await join(inst.id);
    await expectSeats(inst.id, 3);
    const invitees = [uniqEmail("invitee", domain), uniqEmail("invitee", domain)];
    const sentIds = [
      await invite(sender.token, inst.id, invitees[0] as string),
      await invite(sender.token, inst.id, invitees[1] as string),
    ];
    const ownersInvitation = await invite(owner.token, inst.id, uniqEmail("kept", domain));

    const removal = ok(await api(owner).DELETE(ADMIN, of(inst.id, sender.id)));
    expect(removal).toEqual({ message: "Administrator removed", revoked_invitations: 2 });

    // The removed person's next request: 404, as for anyone without access.
    expect((await call("GET", `${INST}/${inst.id}`, { token: sender.token })).status).toBe(404);
    expect(ok(await api(sender).GET(paths.institutions)).institutions.map((i) => i.id)).not.toContain(inst.id);
    expect((await call("DELETE", admin(inst.id, sender.id), { token: owner.token })).status).toBe(404);
    await expectSeats(inst.id, 2);

    // Its invitations are revoked, and their tokens refused; the owner's invitation is untouched.
    for (const id of sentIds)
      expect(await storedInvitation(inst.id, id)).toMatchObject({ revoke_reason: "administrator_removed", revoked_by: owner.id });
    expect((await storedInvitation(inst.id, ownersInvitation))?.revoked_at).toBeUndefined();
    const refused = await call("POST", ACCEPT, {
      token: await token(invitees[0] as string, { account }),
      body: { token: await lastMailedToken(invitees[0] as string) },
    });
    expect(refused.status).toBe(422);

    // Events: the removal, and one revocation per invitation, in the owner's trail.
    const removed = await lastOf(owner.token, "administrator_removed");
    expect(removed?.details).toEqual({
      institution_id: inst.id,
      institution_name: inst.name,
      user_id: sender.id,
      email: sender.email,
      self: false,
    });
    const revoked = (await eventsOf(owner.token)).filter(
      (e) => e.event_type === "invitation_revoked" && e.details.reason === "administrator_removed",
    );
    expect(revoked.map((e) => e.details.invitation_id).sort()).toEqual([...sentIds].sort());

    // Invited again: the e-mail no longer counts as having access; accepted, it is back with a seat.
    await invite(owner.token, inst.id, sender.email, "cohort_admin");
    ok(await api(sender).POST(paths.invitationsAccept, { body: { token: await lastMailedToken(sender.email) } }));
    expect(ok(await api(sender).GET(INSTITUTION, at(inst.id))).role).toBe("cohort_admin");
    await expectSeats(inst.id, 3);
    ok(await api(stays).GET(INSTITUTION, at(inst.id)));
  });

  it("an administrator of another account leaves: administrator_removed in its trail and the owner's, same id", async () => {
    const inst = await createInstitution(owner.token);
    const member = await join(inst.id, "cohort_admin", { account: uniq("acct-b"), superAdmin: true });
    const left = ok(await api(member).DELETE(ADMIN, of(inst.id, member.id)));
    expect(left).toEqual({ message: "Administrator removed", revoked_invitations: 0 });
    const own = (await allEvents(member.token, { event_type: "administrator_removed" }))[0];
    expect(own?.details).toEqual({
      institution_id: inst.id,
      institution_name: inst.name,
      user_id: member.id,
      email: member.email,
      self: true,
    });
    const owners = (await allEvents(owner.token, { event_type: "administrator_removed" })).find((e) => e.id === own?.id);
    expect(owners?.user_email).toBe(member.email);
    expect((await call("GET", `${INST}/${inst.id}`, { token: member.token })).status).toBe(404);
    await expectSeats(inst.id, 1);
  });

  it("check order: 404 invisible → 403 removing another without being the super admin (with its event) → 404 target → 422 the super admin", async () => {
    const inst = await createInstitution(owner.token);
    const ada = await join(inst.id);
    const bob = await join(inst.id);
    const stranger = await person("stranger");

    expect((await call("DELETE", admin(inst.id, ada.id), { token: stranger.token })).status).toBe(404);
    expect((await call("DELETE", admin(UNKNOWN_INST, ada.id), { token: owner.token })).status).toBe(404);

    const forbidden = await call("DELETE", admin(inst.id, bob.id), { token: ada.token });
    expect(forbidden.status).toBe(403);
    expect((await lastOf(ada.token, "insufficient_privileges"))?.details).toMatchObject({
      action: "manage_administrators",
      required_role: "super_admin",
    });
    // Also for a target that does not exist: the role comes before the target.
    expect((await call("DELETE", admin(inst.id, stranger.id), { token: ada.token })).status).toBe(403);

    const unknown = await call("DELETE", admin(inst.id, stranger.id), { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "Administrator not found" });
    expect((await call("DELETE", admin(inst.id, "__proto__"), { token: owner.token })).status).toBe(404);

    for (const who of [owner, ada]) {
      const res = await call("DELETE", admin(inst.id, owner.id), { token: who.token });
      expect(res.status).toBe(who === owner ? 422 : 403);
      if (who === owner) expect(res.body).toEqual({ error: "The super admin cannot be removed; transfer the institution first" });
    }
    await expectSeats(inst.id, 3);
  });

  it("the seat count stays right through removals, accepts and invitations", async () => {
    const inst = await createInstitution(owner.token);
    const people = await Promise.all([join(inst.id), join(inst.id), join(inst.id)]);
    await expectSeats(inst.id, 4);
    for (const p of people.slice(0, 2)) ok(await api(owner).DELETE(ADMIN, of(inst.id, p.id)));
    await expectSeats(inst.id, 2);
    await join(inst.id);
    const leaver = people[2] as Person;
    ok(await api(leaver).DELETE(ADMIN, of(inst.id, leaver.id)));
    await expectSeats(inst.id, 2);
  });
});

describe("POST /institutions/:id/transfer", () => {
  it("hands the institution to a cohort super admin of its account; the former keeps access as cohort_super_admin", async () => {
    const inst = await createInstitution(owner.token);
    const heir = await join(inst.id, "cohort_super_admin", { superAdmin: true });
    const handed = ok(await api(owner).POST(TRANSFER, { ...at(inst.id), body: { user_id: heir.id } }));
    expect(handed.message).toBe(`Institution transferred to ${heir.email}`);
    expect(handed.institution.super_admin_id).toBe(heir.id);

    expect(ok(await api(heir).GET(INSTITUTION, at(inst.id)))).toMatchObject({ is_super_admin: true, role: "cohort_super_admin" });
    expect(ok(await api(owner).GET(INSTITUTION, at(inst.id)))).toMatchObject({ is_super_admin: false, role: "cohort_super_admin" });
    // Every member's list carries the new super admin (the summaries were refreshed).
    const listedTo = async (p: Person) => ok(await api(p).GET(paths.institutions)).institutions.find((i) => i.id === inst.id);
    expect((await listedTo(owner))?.is_super_admin).toBe(false);
    expect((await listedTo(heir))?.is_super_admin).toBe(true);

    const event = await lastOf(owner.token, "institution_transferred");
    expect(event?.details).toEqual({
      institution_id: inst.id,
      institution_name: inst.name,
      from_user_id: owner.id,
      to_user_id: heir.id,
      to_email: heir.email,
    });
    // The former super admin can no longer manage administrators; the new one can remove it.
    expect((await call("POST", transfer(inst.id), { token: owner.token, body: { user_id: owner.id } })).status).toBe(403);
    ok(await api(heir).DELETE(ADMIN, of(inst.id, owner.id)));
    expect((await call("GET", `${INST}/${inst.id}`, { token: owner.token })).status).toBe(404);
  });

  it("check order: 404 → 403 → 400 body → 404 target → 422 self, another account, the role", async () => {
    const inst = await createInstitution(owner.token);
    const plain = await join(inst.id, "cohort_admin");
    const foreign = await join(inst.id, "cohort_super_admin", { account: uniq("acct-b") });
    const stranger = await person("stranger");

    expect((await call("POST", transfer(inst.id), { token: stranger.token, body: {} })).status).toBe(404);
    const forbidden = await call("POST", transfer(inst.id), { token: plain.token, body: {} });
    expect(forbidden.status).toBe(403);
    expect((await lastOf(plain.token, "insufficient_privileges"))?.details).toMatchObject({
      action: "manage_administrators",
      required_role: "super_admin",
    });
    for (const body of [{}, { user_id: "" }, { user_id: 7 }, undefined, []]) {
      const res = await call("POST", transfer(inst.id), { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await call("POST", transfer(inst.id), { token: owner.token, body: { user_id: stranger.id } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "Administrator not found" });

    const cases: [string, string][] = [
      [owner.id, "You are already the institution's super admin"],
      [foreign.id, "The new super admin must belong to the institution's account"],
      [plain.id, "The new super admin must have the role cohort_super_admin"],
    ];
    for (const [userId, error] of cases) {
      const res = await call("POST", transfer(inst.id), { token: owner.token, body: { user_id: userId } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error });
    }
    expect((await getInstitution(inst.id))?.super_admin_id).toBe(owner.id);
  });

  it("checks the target's account as the user pool holds it now: an heir moved to another account since acceptance gets 422", async () => {
    const inst = await createInstitution(owner.token);
    const heir = await join(inst.id, "cohort_super_admin", { superAdmin: true });
    // The pool moves the heir to another account; its access record still says the account it accepted with.
    await tokenInGroups(heir.email, [], { superAdmin: true, account: uniq("acct-moved") });
    const res = await call("POST", transfer(inst.id), { token: owner.token, body: { user_id: heir.id } });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({ error: "The new super admin must belong to the institution's account" });
    expect((await getInstitution(inst.id))?.super_admin_id).toBe(owner.id);
    // Back in the institution's account, the same transfer goes through.
    await tokenInGroups(heir.email, [], { superAdmin: true, account });
    ok(await api(owner).POST(TRANSFER, { ...at(inst.id), body: { user_id: heir.id } }));
    expect((await getInstitution(inst.id))?.super_admin_id).toBe(heir.id);
  });
});

describe("POST /invitations/preview", () => {
  it("says what accepting would grant, for the invitee only, and consumes nothing", async () => {
    const inst = await createInstitution(owner.token, { name: uniq("Acme College") });
    const invitee = await person("invitee");
    const id = await invite(owner.token, inst.id, invitee.email, "cohort_admin");
    const tok = await lastMailedToken(invitee.email);

    for (let i = 0; i < 2; i++) {
      expect(ok(await api(invitee).POST(paths.invitationsPreview, { body: { token: tok } }))).toEqual({
        institution: { name: inst.name },
        role: "cohort_admin",
        invited_by: { email: owner.email, name: "Olive Owner" },
        expires_at: (await storedInvitation(inst.id, id))?.expires_at,
      });
    }
    expect((await storedInvitation(inst.id, id))?.used_at).toBeUndefined();

    const other = await person("other");
    const mismatch = await call("POST", PREVIEW, { token: other.token, body: { token: tok } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toEqual({ error: "Invalid or expired invitation" });
    expect((await lastOf(other.token, "token_validation_failure"))?.details).toEqual({ reason: "email_mismatch" });
    for (const body of [{ token: "x".repeat(43) }, { token: 1 }, {}, undefined]) {
      const res = await call("POST", PREVIEW, { token: invitee.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await lastOf(invitee.token, "token_validation_failure"))?.details).toEqual({ reason: "unknown" });

    ok(await api(invitee).POST(paths.invitationsAccept, { body: { token: tok } }));
    // Reopened by its invitee once accepted: "already accepted" (docs/joining.md), and nothing recorded.
    const reopened = await call("POST", PREVIEW, { token: invitee.token, body: { token: tok } });
    expect(reopened.status).toBe(409);
    expect(reopened.body).toMatchObject({ error: "Invitation already accepted" });
    expect((await lastOf(invitee.token, "token_validation_failure"))?.details).toEqual({ reason: "unknown" });
  });

  it("an invitation whose inviter has left is refused by preview and accept", async () => {
    const inst = await createInstitution(owner.token);
    const inviter = await join(inst.id, "cohort_super_admin", { superAdmin: true });
    const invitee = await person("invitee");
    await invite(inviter.token, inst.id, invitee.email);
    const tok = await lastMailedToken(invitee.email);
    ok(await api(invitee).POST(paths.invitationsPreview, { body: { token: tok } }));
    expect(ok(await api(inviter).DELETE(ADMIN, of(inst.id, inviter.id))).revoked_invitations).toBe(1);
    expect((await call("POST", PREVIEW, { token: invitee.token, body: { token: tok } })).status).toBe(422);
    expect((await call("POST", ACCEPT, { token: invitee.token, body: { token: tok } })).status).toBe(422);
    expect((await lastOf(invitee.token, "token_validation_failure"))?.details).toEqual({ reason: "revoked" });
  });
});
