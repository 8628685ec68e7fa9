/**
 * Institution API keys (docs/api-keys.md), over HTTP through the local gateway, which plays the edge and the machines'
 * API: an `iak_` bearer goes to the key-capable routes behind the key authorizer (functions/api-keys/authorizer.ts),
 * anything else to the `$default` refusal. The super admin makes, lists and revokes keys; each scope opens its
 * routes and only those (403 naming the scope); a key sees exactly its institution (another's id is 404, recorded
 * as for a person); revocation and expiry reach the key through the clock header, never a sleep; the trail names
 * the key as the actor, in the owner's trail; `Idempotency-Key` is per key.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { lacksScope, NOT_FOR_KEYS, SCOPES, type Scope } from "../../shared/api-keys/scopes.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { paths, type Route, routeKey, routes } from "../../shared/routes.js";
import { type CallOptions, type CallResult, call, sentMail, testNow, token, uniq, uniqEmail } from "../support/api.js";
import { keysPath, makeKey } from "../support/api-keys.js";
import { apiClient, ok } from "../support/client.js";
import { allEvents, createInstitution, EVENTS, INST, INV, lastMailedToken } from "../support/flows.js";
import { grantAccess } from "./helpers.js";

let owner: string;
let ownerEmail: string;
let domain: string;
/** An administrator (cohort_admin) of the owner's institutions. */
let member: string;
let memberId: string;

beforeAll(async () => {
  domain = `${uniq("keys")}.test`;
  ownerEmail = uniqEmail("owner", domain);
  owner = await token(ownerEmail, { superAdmin: true });
  const memberEmail = uniqEmail("member", domain);
  member = await token(memberEmail);
  memberId = String(JSON.parse(Buffer.from(member.split(".")[1] ?? "", "base64url").toString()).sub);
});

const MINUTE = 60_000;

/** An institution of the owner's, with `member` as its cohort admin. */
async function institution(): Promise<string> {
  const { id } = await createInstitution(owner);
  await grantAccess(id, memberId, "cohort_admin", { email: "member@granted.test" });
  return id;
}

/** The request every key-capable route answers with success, for a fresh scene in `id`. */
async function happyCall(route: Route, id: string): Promise<{ path: string; opts: CallOptions; status: number }> {
  const inst = `${INST}/${id}`;
  const admin = async (role: "cohort_admin" | "cohort_super_admin" = "cohort_admin") => {
    const user = `granted-${randomUUID()}`;
    await grantAccess(id, user, role);
    return user;
  };
  const invitation = async () => {
    const res = await call("POST", INV, { token: owner, body: { institution_id: id, email: uniqEmail("inv"), role: "cohort_admin" } });
    expect(res.status, res.text).toBe(201);
    return res.body.invitation.id as string;
  };
  switch (routeKey(route)) {
    case `GET ${INST}`:
      return { path: INST, opts: {}, status: 200 };
    case `GET ${INST}/{id}`:
      return { path: inst, opts: {}, status: 200 };
    case `PATCH ${INST}/{id}`:
    case `PUT ${INST}/{id}`:
      return { path: inst, opts: { body: { institution: { address: uniq("Street") } } }, status: 200 };
    case `GET ${INST}/{id}/cohorts`:
      return { path: `${inst}/cohorts`, opts: {}, status: 200 };
    case `POST ${INST}/{id}/cohorts`:
      return { path: `${inst}/cohorts`, opts: { body: { cohort: { name: uniq("Cohort") } } }, status: 201 };
    case `DELETE ${INST}/{id}/cohorts/{cohort_id}`: {
      const made = await call("POST", `${inst}/cohorts`, { token: owner, body: { cohort: { name: uniq("Gone") } } });
      return { path: `${inst}/cohorts/${made.body.cohort.id}`, opts: {}, status: 200 };
    }
    case `GET ${INST}/{id}/administrators`:
      return { path: `${inst}/administrators`, opts: {}, status: 200 };
    case `PATCH ${INST}/{id}/administrators/{user_id}`:
      // A demotion: a key never makes a super admin.
      return { path: `${inst}/administrators/${await admin("cohort_super_admin")}`, opts: { body: { role: "cohort_admin" } }, status: 200 };
    case `DELETE ${INST}/{id}/administrators/{user_id}`:
      return { path: `${inst}/administrators/${await admin()}`, opts: {}, status: 200 };
    case `GET ${INV}`:
      return { path: INV, opts: { query: { institution_id: id } }, status: 200 };
    case `POST ${INV}`:
      return { path: INV, opts: { body: { institution_id: id, email: uniqEmail("by-key"), role: "cohort_admin" } }, status: 201 };
    case `DELETE ${INV}/{id}`:
      return { path: `${INV}/${await invitation()}`, opts: { query: { institution_id: id } }, status: 200 };
    case `POST ${INV}/{id}/resend`:
      // Past the resend cooldown.
      return {
        path: `${INV}/${await invitation()}/resend`,
        opts: { query: { institution_id: id }, clockOffsetMs: 11 * MINUTE },
        status: 200,
      };
    default:
      throw new Error(`no happy call for ${routeKey(route)}: a new key-capable route needs one here`);
  }
}

const scoped = routes.filter((r) => r.scope !== undefined);

/** An empty JSON body for a method that takes one. */
const bodyFor = (route: Route): CallOptions => (route.method === "GET" ? {} : { body: {} });

/** A path of `route` with every parameter a well-formed id of `id`'s institution or a made-up one. */
function anyPath(route: Route, id: string): string {
  return route.path.replace("{id}", id).replace(/\{[^}]+\}/g, "01M84M2ES7DTY37NE05PPBJBQG");
}

describe("managing keys", () => {
  it("the super admin makes a key shown once (iak_ + 43 base64url characters), lists it without the key, revokes it", async () => {
    const id = await institution();
    const expires = new Date(testNow().getTime() + 30 * 86_400_000).toISOString();
    const made = await makeKey(owner, id, ["cohorts:write", "institution:read", "cohorts:write"], {
      name: " SIS sync ",
      expires_at: expires,
    });
    expect(made.key).toMatch(/^iak_[A-Za-z0-9_-]{43}$/);
    expect(made.created.body.api_key).toMatchObject({
      name: "SIS sync",
      // Each once, in the console's order.
      scopes: ["institution:read", "cohorts:write"],
      key_preview: `${made.key.slice(0, 8)}...`,
      created_by: ownerEmail.toLowerCase(),
      expires_at: expires,
      last_used_at: null,
    });
    const listed = await call("GET", keysPath(id), { token: owner });
    expect(listed.status).toBe(200);
    expect(listed.body.api_keys).toEqual([made.created.body.api_key]);
    expect(listed.text).not.toContain(made.key);

    const revoked = await call("DELETE", `${keysPath(id)}/${made.id}`, { token: owner });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await call("GET", keysPath(id), { token: owner })).body.api_keys).toEqual([]);
    expect((await call("DELETE", `${keysPath(id)}/${made.id}`, { token: owner })).status).toBe(404);
    expect((await call("DELETE", `${keysPath(id)}/not-an-id`, { token: owner })).body).toEqual({ error: "API key not found" });
  });

  it("refuses an administrator who is not the super admin (403, recorded) and a stranger (404, recorded)", async () => {
    const id = await institution();
    const refused = await call("POST", keysPath(id), { token: member, body: { name: "x", scopes: ["cohorts:read"] } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Only the institution's super admin can manage its API keys" });
    expect((await call("GET", keysPath(id), { token: member })).status).toBe(403);
    const stranger = await token(uniqEmail("stranger"), { superAdmin: true });
    expect((await call("GET", keysPath(id), { token: stranger })).status).toBe(404);
    const events = await allEvents(owner, { event_type: "insufficient_privileges" });
    expect(events.some((e) => e.details.action === "manage_api_keys" && e.details.institution_id === id)).toBe(true);
  });

  it("validates the body: 400 for no object, 422 with the contract's messages", async () => {
    const id = await institution();
    const post = (body: unknown) => call("POST", keysPath(id), { token: owner, body });
    expect((await post([1])).status).toBe(400);
    expect((await post("x")).status).toBe(400);
    const cases: [unknown, string][] = [
      [{ scopes: ["cohorts:read"] }, "Name can't be blank"],
      [{ name: "   ", scopes: ["cohorts:read"] }, "Name can't be blank"],
      [{ name: "x".repeat(65), scopes: ["cohorts:read"] }, "Name is too long (maximum is 64 characters)"],
      [{ name: "two\nlines", scopes: ["cohorts:read"] }, "Name must be one line of visible text"],
      [{ name: "x", scopes: [] }, `Scopes must list one or more of ${SCOPES.join(", ")}`],
      [{ name: "x", scopes: ["everything"] }, `Scopes must list one or more of ${SCOPES.join(", ")}`],
      [{ name: "x", scopes: "cohorts:read" }, `Scopes must list one or more of ${SCOPES.join(", ")}`],
      [{ name: "x", scopes: ["cohorts:read"], expires_at: "tomorrow" }, "Expires at must be an ISO 8601 time"],
      [{ name: "x", scopes: ["cohorts:read"], expires_at: "2001-01-01T00:00:00.000Z" }, "Expires at must be in the future"],
      [
        { name: "x", scopes: ["cohorts:read"], expires_at: new Date(testNow().getTime() + 367 * 86_400_000).toISOString() },
        "Expires at must be at most a year ahead",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors, JSON.stringify(body)).toContain(message);
    }
    // 64 code points, an emoji counting as one; a year ahead to the millisecond is allowed.
    const year = new Date(testNow().getTime());
    year.setUTCFullYear(year.getUTCFullYear() + 1);
    const edge = new Date(year.getTime() - 5000).toISOString();
    expect((await post({ name: "🔑".repeat(64), scopes: ["cohorts:read"], expires_at: edge })).status).toBe(201);
  });

  it("holds at most 20 live keys per institution; an expired key no longer counts", async () => {
    const id = await institution();
    const soon = new Date(testNow().getTime() + 10 * MINUTE).toISOString();
    await makeKey(owner, id, ["cohorts:read"], { expires_at: soon });
    for (let i = 0; i < 19; i++) await makeKey(owner, id, ["cohorts:read"]);
    const over = await call("POST", keysPath(id), { token: owner, body: { name: "21st", scopes: ["cohorts:read"] } });
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ error: "An institution has at most 20 live API keys: revoke one first" });
    // Eleven minutes on, the first has expired: room for one.
    await makeKey(owner, id, ["cohorts:read"], { clockOffsetMs: 11 * MINUTE });
    expect((await call("GET", keysPath(id), { token: owner })).body.api_keys).toHaveLength(21);
  });
});

describe("scopes", () => {
  it("each scope opens its routes: a key holding only a route's scope gets the route's success", async () => {
    const id = await institution();
    for (const route of scoped) {
      const scope = route.scope as Scope;
      const { key } = await makeKey(owner, id, [scope]);
      const { path, opts, status } = await happyCall(route, id);
      const res = await call(route.method, path, { ...opts, token: key });
      expect(res.status, `${routeKey(route)} with ${scope}: ${res.text}`).toBe(status);
    }
  });

  it("and only those: every other scoped route answers 403 naming its scope, before anything is read", async () => {
    const id = await institution();
    for (const scope of SCOPES) {
      const { key } = await makeKey(owner, id, [scope]);
      for (const route of scoped.filter((r) => r.scope !== scope)) {
        const res = await call(route.method, anyPath(route, id), { token: key, query: { institution_id: id }, ...bodyFor(route) });
        expect(res.status, `${routeKey(route)} with ${scope}`).toBe(403);
        expect(res.body).toEqual({ error: lacksScope(route.scope as Scope) });
      }
    }
  });

  it("no key calls a route without a scope: the trail, the key routes, deleting or transferring, SSO, SCIM, creating institutions", async () => {
    const id = await institution();
    const { key } = await makeKey(owner, id, [...SCOPES]);
    const never = routes.filter((r) => r.scope === undefined && !r.public);
    for (const path of [EVENTS, keysPath(id), `${INST}/${id}`, `${INST}/${id}/transfer`, INST, `${INST}/${id}/scim`]) {
      expect(never.some((r) => anyPath(r, id) === path || r.path === path)).toBe(true);
    }
    for (const route of never) {
      // SCIM's own routes answer in their own shape elsewhere; a key gets the machines' API's {error}.
      const res = await call(route.method, anyPath(route, id), { token: key, ...bodyFor(route), contract: false });
      expect(res.status, routeKey(route)).toBe(403);
      expect(res.body, routeKey(route)).toEqual({ error: NOT_FOR_KEYS });
    }
    // A path no route has is API Gateway's 404, key or no key.
    expect((await call("GET", `${paths.api}/nothing-here`, { token: key, contract: false })).status).toBe(404);
    // Nothing changed: the institution and its keys are as they were.
    expect(await getInstitution(id)).toBeDefined();
    expect((await call("GET", keysPath(id), { token: owner })).body.api_keys).toHaveLength(1);
  });

  it("a key never makes a super admin by a role change either: 403, recorded", async () => {
    const id = await institution();
    const { key } = await makeKey(owner, id, ["administrators:write"]);
    const user = `granted-${randomUUID()}`;
    await grantAccess(id, user, "cohort_admin");
    const res = await call("PATCH", `${INST}/${id}/administrators/${user}`, { token: key, body: { role: "cohort_super_admin" } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 403,
      body: { error: "API keys cannot give the cohort_super_admin role" },
    });
    const refused = (await allEvents(owner, { event_type: "insufficient_privileges" })).find((e) => e.details.institution_id === id);
    expect(refused?.details).toMatchObject({ action: "manage_administrators", required_role: "super_admin" });
  });

  it("a key invites cohort_admin only: a super admin invitation is 403, recorded", async () => {
    const id = await institution();
    const { key, id: keyId } = await makeKey(owner, id, ["invitations:write"], { name: "Inviter" });
    const res = await call("POST", INV, { token: key, body: { institution_id: id, email: uniqEmail("boss"), role: "cohort_super_admin" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "API keys invite cohort_admin only" });
    const refused = (await allEvents(owner, { event_type: "insufficient_privileges" })).find((e) => e.details.institution_id === id);
    expect(refused?.details).toMatchObject({
      action: "manage_invitations",
      required_role: "super_admin",
      api_key: { id: keyId, name: "Inviter" },
    });
  });
});

describe("a key sees exactly its institution", () => {
  it("GET /institutions lists its institution only; another institution's id is 404, recorded in both trails", async () => {
    const id = await institution();
    const otherOfOwner = await institution();
    const otherOwner = await token(uniqEmail("other-owner"), { superAdmin: true });
    const elsewhere = (await createInstitution(otherOwner)).id;
    const { key, id: keyId, name } = await makeKey(owner, id, ["institution:read", "cohorts:read"]);

    const listed = await call("GET", INST, { token: key });
    expect(listed.status).toBe(200);
    expect(listed.body.institutions.map((i: { id: string }) => i.id)).toEqual([id]);
    expect(listed.body.institutions[0]).toMatchObject({ role: "cohort_super_admin", is_super_admin: true });
    expect((await call("GET", `${INST}/${id}`, { token: key })).status).toBe(200);

    for (const other of [otherOfOwner, elsewhere, "01M84M2ES7DTY37NE05PPBJBQG", "not-an-id"]) {
      const res = await call("GET", `${INST}/${other}`, { token: key });
      expect(res.status, other).toBe(404);
      expect(res.body).toEqual({ error: "Institution not found or access denied" });
      expect((await call("GET", `${INST}/${other}/cohorts`, { token: key })).status).toBe(404);
    }
    const mine = (await allEvents(owner, { event_type: "unauthorized_institution_access" })).filter(
      (e) => (e.details.api_key as { id?: string } | undefined)?.id === keyId,
    );
    expect(mine.map((e) => e.details.attempted_institution_id)).toEqual(expect.arrayContaining([otherOfOwner, elsewhere, "not-an-id"]));
    expect(mine.every((e) => e.user_email === null && e.description.startsWith(`API key '${name}' tried to reach an institution`))).toBe(
      true,
    );
    // The other account owns `elsewhere`: the probe is in its trail too.
    const theirs = await allEvents(otherOwner, { event_type: "unauthorized_institution_access" });
    expect(theirs.some((e) => e.details.attempted_institution_id === elsewhere && (e.details.api_key as { id: string }).id === keyId)).toBe(
      true,
    );
  });
});

describe("revocation and expiry", () => {
  it("a revoked key is refused (401) within 60 s: at once when its answer is not cached, else a minute on", async () => {
    const id = await institution();
    const unused = await makeKey(owner, id, ["cohorts:read"]);
    const used = await makeKey(owner, id, ["cohorts:read"]);
    const cohorts = `${INST}/${id}/cohorts`;
    expect((await call("GET", cohorts, { token: used.key })).status).toBe(200);
    for (const k of [unused, used]) expect((await call("DELETE", `${keysPath(id)}/${k.id}`, { token: owner })).status).toBe(200);

    const refused = await call("GET", cohorts, { token: unused.key });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: "Unauthorized" });
    // The machines' API may answer from its authorizer's cache for up to 60 s after the revocation; not after.
    expect([200, 401]).toContain((await call("GET", cohorts, { token: used.key })).status);
    expect((await call("GET", cohorts, { token: used.key, clockOffsetMs: 61_000 })).status).toBe(401);
  });

  it("an expired key is refused at once, even while its authorizer's answer is cached", async () => {
    const id = await institution();
    const expires = new Date(testNow().getTime() + 30_000).toISOString();
    const { key } = await makeKey(owner, id, ["cohorts:read"], { expires_at: expires });
    const cohorts = `${INST}/${id}/cohorts`;
    expect((await call("GET", cohorts, { token: key })).status).toBe(200);
    // 31 s on: the cached answer (60 s) still lets it through, and the function refuses it.
    const cached = await call("GET", cohorts, { token: key, clockOffsetMs: 31_000 });
    expect(cached.status).toBe(401);
    expect(cached.body).toEqual({ message: "Unauthorized" });
    expect((await call("GET", cohorts, { token: key, clockOffsetMs: 120_000 })).status).toBe(401);
  });

  it("notes the last use at most once a minute", async () => {
    const id = await institution();
    const { key, id: keyId } = await makeKey(owner, id, ["cohorts:read"]);
    const lastUsed = async () =>
      (await call("GET", keysPath(id), { token: owner })).body.api_keys.find((k: { id: string }) => k.id === keyId).last_used_at;
    const cohorts = `${INST}/${id}/cohorts`;
    expect(await lastUsed()).toBeNull();
    expect((await call("GET", cohorts, { token: key })).status).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    for (let i = 0; i < 3; i++) expect((await call("GET", cohorts, { token: key, clockOffsetMs: 10_000 * i })).status).toBe(200);
    expect(await lastUsed()).toBe(first);
    expect((await call("GET", cohorts, { token: key, clockOffsetMs: 2 * MINUTE })).status).toBe(200);
    expect(Date.parse(await lastUsed())).toBeGreaterThan(Date.parse(first));
  });
});

describe("the trail names the key", () => {
  it("as the actor of what it does, in the owner's trail: user null, details.api_key, 'API key …' in the description", async () => {
    const id = await institution();
    const { key, id: keyId } = await makeKey(owner, id, ["cohorts:write", "invitations:write"], { name: "SIS sync" });
    const cohort = await call("POST", `${INST}/${id}/cohorts`, { token: key, body: { cohort: { name: "Autumn" } } });
    expect(cohort.status).toBe(201);
    const email = uniqEmail("staff");
    const invited = await call("POST", INV, { token: key, body: { institution_id: id, email, role: "cohort_admin" } });
    expect(invited.status, invited.text).toBe(201);

    const events = await allEvents(owner);
    const byKey = events.filter((e) => (e.details.api_key as { id?: string } | undefined)?.id === keyId);
    // The institution by its name (docs/contract/events.md), as for any actor.
    const instName: string = (await call("GET", `${INST}/${id}`, { token: owner })).body.institution.name;
    expect(byKey.map((e) => [e.event_type, e.description])).toEqual([
      ["invitation_created", `API key 'SIS sync' invited ${email} as cohort_admin to '${instName}'`],
      ["cohort_created", `API key 'SIS sync' created cohort 'Autumn' in '${instName}'`],
    ]);
    for (const e of byKey) {
      expect(e.user_email).toBeNull();
      expect(e.details.api_key).toEqual({ id: keyId, name: "SIS sync" });
      const shown = await call("GET", `${EVENTS}/${e.id}`, { token: owner });
      expect(shown.body.user).toEqual({ id: null, email: null, name: null });
    }
    const created = events.find((e) => e.event_type === "api_key_created" && e.details.api_key_id === keyId);
    expect(created?.details).toEqual({
      institution_id: id,
      api_key_id: keyId,
      name: "SIS sync",
      scopes: ["cohorts:write", "invitations:write"],
      expires_at: null,
      institution_name: instName,
    });
    expect(created?.user_email).toBe(ownerEmail.toLowerCase());

    // The invitation names the key, and the invitee can accept it.
    const list = await call("GET", INV, { token: owner, query: { institution_id: id } });
    expect(list.body.invitations.find((i: { email: string }) => i.email === email).created_by).toBe("API key 'SIS sync'");
    const mail = (await sentMail(email)).at(-1);
    expect(mail?.body.text).toContain("API key 'SIS sync' has invited you");
    const invitee = await token(email);
    const accepted = await call("POST", paths.invitationsAccept, { token: invitee, body: { token: await lastMailedToken(email) } });
    expect(accepted.status, accepted.text).toBe(200);

    expect((await call("DELETE", `${keysPath(id)}/${keyId}`, { token: owner })).status).toBe(200);
    const revoked = (await allEvents(owner, { event_type: "api_key_revoked" })).find((e) => e.details.api_key_id === keyId);
    expect(revoked?.description).toBe(`${ownerEmail.toLowerCase()} revoked API key 'SIS sync' of institution '${instName}'`);
  });
});

describe("Idempotency-Key", () => {
  it("is per key: a retry with the same key replays, another key or a person with the same value does not", async () => {
    const id = await institution();
    const a = await makeKey(owner, id, ["cohorts:write", "cohorts:read"]);
    const b = await makeKey(owner, id, ["cohorts:write"]);
    const value = randomUUID();
    const post = (tok: string, name: string): Promise<CallResult> =>
      call("POST", `${INST}/${id}/cohorts`, { token: tok, body: { cohort: { name } }, headers: { "idempotency-key": value } });
    const first = await post(a.key, "Once");
    const again = await post(a.key, "Once");
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const other = await post(b.key, "Once");
    expect(other.status).toBe(201);
    expect(other.body.cohort.id).not.toBe(first.body.cohort.id);
    const person = await post(owner, "Once");
    expect(person.body.cohort.id).not.toBe(first.body.cohort.id);
    const reused = await post(a.key, "Another");
    expect(reused.status).toBe(422);
    const cohorts = await call("GET", `${INST}/${id}/cohorts`, { token: a.key });
    expect(cohorts.body.cohorts.filter((c: { name: string }) => c.name === "Once")).toHaveLength(3);
  });
});

describe("the typed client with a key (docs/api-keys.md)", () => {
  it("calls the same paths as people, typed by the document, and reads a refusal as the document's error", async () => {
    const id = await institution();
    const { key } = await makeKey(owner, id, ["cohorts:write"]);
    const api = apiClient(key);
    const made = ok(
      await api.POST(`${paths.institutions}/{id}/cohorts`, {
        params: { path: { id }, header: { "Idempotency-Key": randomUUID() } },
        body: { cohort: { name: "Autumn 2026" } },
      }),
      201,
    );
    expect(made.cohort.name).toBe("Autumn 2026");
    const { error, response } = await api.GET(`${paths.institutions}/{id}`, { params: { path: { id } } });
    expect(response.status).toBe(403);
    expect(error).toEqual({ error: "API key lacks the scope institution:read" });
  });
});
