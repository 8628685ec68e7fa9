/**
 * Hostile input against the administrator endpoints and the invitation preview (docs/contract/administrators.md), through the
 * real gateway: random user ids in the path (prototype names, separators, unicode, huge), random bodies
 * (wrong types, pollution keys, injection-looking strings), random queries and cursors.
 *
 * The oracle follows the check order: institution 404 → role 403 → body 400 → target 404 → rule 422 →
 * 200. The caller is the institution's super admin; the only real targets it is offered are those whose
 * change is refused by a rule (itself; a member of another account or without the role for a transfer)
 * or harmless to repeat (a role change, kept in a model). No refused request changes the institution:
 * its version, seats and super admin are compared after every answer. Never a 5xx.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getInstitution } from "../../shared/institutions/repository.js";
import { paths } from "../../shared/routes.js";
import { claimsOf, eventsOf } from "../integration/helpers.js";
import { call as apiCall, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, invite, lastMailedToken, type Role } from "../support/flows.js";
import {
  anyString,
  badId,
  eventsOutsideWhitelist,
  expectNoPollution,
  hit,
  hostileJson,
  hostileKey,
  hostileQuery,
  INHERITED_NAMES,
  PROTO_KEYS,
  pollution,
  printTally,
  queryString,
  type RawResult,
  received,
  runs,
  seg,
  sometimes,
  storedOutsideWhitelist,
  targetTooLong,
  withKeys,
  wrongType,
} from "./support.js";

const INST = paths.institutions;
const PREVIEW = paths.invitationsPreview;
const NOT_FOUND = { error: "Institution not found or access denied" };
const ADMIN_NOT_FOUND = { error: "Administrator not found" };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

let owner: string;
let ownerId: string;
let outsider: string;
let outsiderId: string;
let institutionId: string;
/** A cohort admin of the institution's account (transfer: refused for its role). */
let plainId: string;
/** A cohort super admin of another account (transfer: refused for its account). */
let foreignId: string;
/** Roles the model expects, by user id. */
const roles = new Map<string, string>();
let version = 0;

async function person(role: Role, account: string) {
  const email = uniqEmail("member");
  const tok = await token(email, { account });
  await invite(owner, institutionId, email, role);
  const res = await apiCall("POST", ACCEPT, { token: tok, body: { token: await lastMailedToken(email) } });
  expect(res.status, res.text).toBe(200);
  return String(claimsOf(tok).sub);
}

beforeAll(async () => {
  const account = uniq("acct");
  owner = await token(uniqEmail("owner"), { superAdmin: true, account, name: "Hostile Owner" });
  outsider = await token(uniqEmail("outsider"), { superAdmin: true, account: uniq("acct") });
  ownerId = String(claimsOf(owner).sub);
  outsiderId = String(claimsOf(outsider).sub);
  const inst = await apiCall("POST", INST, { token: owner, body: { institution: { name: "Hostile Admins U" } } });
  institutionId = inst.body.institution.id;
  plainId = await person("cohort_admin", account);
  foreignId = await person("cohort_super_admin", uniq("acct-b"));
  for (const [id, role] of [
    [ownerId, "cohort_super_admin"],
    [plainId, "cohort_admin"],
    [foreignId, "cohort_super_admin"],
  ])
    roles.set(id as string, role as string);
  version = (await getInstitution(institutionId))?.version ?? 0;
});

afterAll(() => printTally("administrators"));

function expectAnswer(res: RawResult, status: number, body: unknown, input: unknown) {
  const context = `input ${JSON.stringify(input)?.slice(0, 400)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.status, context).toBe(status);
  if (body !== undefined) expect(res.body, context).toEqual(body);
}

/** The institution as the model says it is: a refused request changed nothing; a role change bumped the version once. */
async function expectStored(context: string) {
  const stored = await getInstitution(institutionId);
  expect(stored?.version, context).toBe(version);
  expect(stored?.super_admin_id, context).toBe(ownerId);
  expect(new Map(Object.entries(stored?.members ?? {})), context).toEqual(roles);
}

const pathFor = (base: string, q: [string, string][]) => (q.length > 0 ? `${base}?${queryString(q)}` : base);

/** The institution in a path: the real one mostly, else ids that are not it. */
const institutionPath = fc.oneof({ weight: 5, arbitrary: fc.constant("real") }, { weight: 1, arbitrary: badId });
/** A user id in a path: hostile strings, prototype names, the real members now and then. */
const userIdValue = () =>
  fc.oneof(
    { weight: 4, arbitrary: badId },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS, ...INHERITED_NAMES) },
    { weight: 2, arbitrary: fc.constantFrom(ownerId, plainId, foreignId, outsiderId) },
  );

const roleValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("cohort_admin", "cohort_super_admin") },
  { weight: 1, arbitrary: fc.constantFrom(" cohort_admin", "COHORT_ADMIN", "admin", "cohort_admin\u0000") },
  { weight: 1, arbitrary: anyString },
  { weight: 1, arbitrary: wrongType("string") },
);

/** A body with `key` (or not), random extra keys, sometimes pollution, sometimes replaced by any JSON. */
const bodyWith = (key: string, value: fc.Arbitrary<unknown>) =>
  fc
    .tuple(
      sometimes(value, 1).chain((v) => fc.tuple(fc.constant(v), fc.constantFrom(true, true, true, false))),
      fc.dictionary(hostileKey, hostileJson, { maxKeys: 2 }),
      sometimes(pollution({ [outsiderId]: "cohort_super_admin", polluted: "yes" }), 4),
      sometimes(hostileJson, 8),
    )
    .map(([[v, present], extra, polluter, replace]) => {
      let body: unknown = withKeys(extra, present ? { [key]: v } : {});
      if (polluter) body = withKeys(body, polluter);
      if (replace !== null) body = replace;
      return body;
    });

async function call(endpoint: string, method: string, path: string, body?: unknown): Promise<RawResult> {
  return hit(endpoint, method, path, { token: owner, ...(body !== undefined && { json: body }) });
}

describe("hostile input: administrators", () => {
  it("GET …/administrators: 404 for another institution, 400 for a bad limit or cursor, 200 otherwise", async () => {
    const limitValue = fc.oneof(fc.constantFrom("1", "2", "200", "0", "201", "-1", "1.5", " 3 ", "1e2"), anyString);
    await fc.assert(
      fc.asyncProperty(institutionPath, hostileQuery, sometimes(limitValue, 2), async (inst, q, limit) => {
        const query = [...q, ...(limit === null ? [] : ([["limit", limit]] as [string, string][]))];
        const id = inst === "real" ? institutionId : seg(inst);
        const res = await call(`GET ${paths.institutions}/{id}/administrators`, "GET", pathFor(`${INST}/${id}/administrators`, query));
        if (targetTooLong(res)) return;
        const input = { inst, query };
        if (inst !== "real") return expectAnswer(res, 404, NOT_FOUND, input);
        expect([200, 400], JSON.stringify(input)).toContain(res.status);
        if (res.status === 200) {
          const limits = query.filter(([k]) => k === "limit").map(([, v]) => v);
          expect(res.body.administrators.length).toBeLessThanOrEqual(res.body.meta.limit);
          if (limits.length === 0) expect(res.body.meta.limit).toBe(50);
        } else expect(res.body).toEqual({ error: expect.stringMatching(/^Invalid (limit|cursor)/) });
      }),
      runs(150),
    );
  });

  it("PATCH …/administrators/:user_id: 404 / 400 role / 404 target / 422 the super admin / 200; nothing else stored", async () => {
    await fc.assert(
      fc.asyncProperty(institutionPath, userIdValue(), bodyWith("role", roleValue), async (inst, userId, body) => {
        const id = inst === "real" ? institutionId : seg(inst);
        const res = await call(
          `PATCH ${paths.institutions}/{id}/administrators/{user_id}`,
          "PATCH",
          `${INST}/${id}/administrators/${seg(userId)}`,
          body,
        );
        if (targetTooLong(res)) return;
        const input = { inst, userId, body };
        const sent = received(body);
        const role = isObj(sent) ? sent.role : undefined;
        if (inst !== "real") expectAnswer(res, 404, NOT_FOUND, input);
        else if (role !== "cohort_admin" && role !== "cohort_super_admin")
          expectAnswer(res, 400, { error: "Invalid role specified" }, input);
        else if (!roles.has(userId)) expectAnswer(res, 404, ADMIN_NOT_FOUND, input);
        else if (userId === ownerId) expectAnswer(res, 422, { error: "The super admin's role cannot be changed" }, input);
        else {
          expectAnswer(res, 200, undefined, input);
          expect(res.body.administrator).toMatchObject({ user_id: userId, role });
          if (roles.get(userId) !== role) version++;
          roles.set(userId, role);
        }
        await expectStored(JSON.stringify(input).slice(0, 300));
      }),
      runs(120),
    );
  });

  it("DELETE …/administrators/:user_id: 404 / 404 target / 422 the super admin; nothing stored", async () => {
    await fc.assert(
      fc.asyncProperty(
        institutionPath,
        fc.oneof(badId, fc.constantFrom(...PROTO_KEYS, ...INHERITED_NAMES, ownerId, outsiderId)),
        sometimes(hostileJson, 3),
        async (inst, userId, body) => {
          const id = inst === "real" ? institutionId : seg(inst);
          const res = await call(
            `DELETE ${paths.institutions}/{id}/administrators/{user_id}`,
            "DELETE",
            `${INST}/${id}/administrators/${seg(userId)}`,
            body ?? undefined,
          );
          if (targetTooLong(res)) return;
          const input = { inst, userId };
          if (inst !== "real") expectAnswer(res, 404, NOT_FOUND, input);
          else if (userId === ownerId)
            expectAnswer(res, 422, { error: "The super admin cannot be removed; transfer the institution first" }, input);
          else expectAnswer(res, 404, ADMIN_NOT_FOUND, input);
          await expectStored(JSON.stringify(input).slice(0, 300));
        },
      ),
      runs(120),
    );
  });

  it("POST …/transfer: 404 / 400 body / 404 target / 422 self, account, role; nothing stored", async () => {
    // The role changes above may have made the plain admin a cohort super admin, an heir: make it plain again.
    const reset = await apiCall("PATCH", `${INST}/${institutionId}/administrators/${plainId}`, {
      token: owner,
      body: { role: "cohort_admin" },
    });
    expect(reset.status, reset.text).toBe(200);
    if (roles.get(plainId) !== "cohort_admin") version++;
    roles.set(plainId, "cohort_admin");
    const userIdBody = fc.oneof(
      { weight: 3, arbitrary: userIdValue() },
      { weight: 1, arbitrary: fc.constantFrom("", " ", "x".repeat(129)) },
      { weight: 1, arbitrary: wrongType("string") },
    );
    await fc.assert(
      fc.asyncProperty(institutionPath, bodyWith("user_id", userIdBody), async (inst, body) => {
        const id = inst === "real" ? institutionId : seg(inst);
        const res = await call(`POST ${paths.institutions}/{id}/transfer`, "POST", `${INST}/${id}/transfer`, body);
        if (targetTooLong(res)) return;
        const input = { inst, body };
        const sent = received(body);
        const userId = isObj(sent) ? sent.user_id : undefined;
        if (inst !== "real") expectAnswer(res, 404, NOT_FOUND, input);
        else if (typeof userId !== "string" || userId === "" || userId.length > 128)
          expectAnswer(res, 400, { error: "param is missing or the value is empty: user_id" }, input);
        else if (!roles.has(userId)) expectAnswer(res, 404, ADMIN_NOT_FOUND, input);
        else if (userId === ownerId) expectAnswer(res, 422, { error: "You are already the institution's super admin" }, input);
        else if (userId === foreignId)
          expectAnswer(res, 422, { error: "The new super admin must belong to the institution's account" }, input);
        else if (roles.get(userId) !== "cohort_super_admin")
          expectAnswer(res, 422, { error: "The new super admin must have the role cohort_super_admin" }, input);
        else throw new Error(`the model offers no eligible heir: ${userId}`);
        await expectStored(JSON.stringify(input).slice(0, 300));
      }),
      runs(120),
    );
  });

  it("POST /invitations/preview: always 422 for a caller nobody invited, real tokens included; nothing consumed", async () => {
    const email = uniqEmail("invitee");
    await invite(owner, institutionId, email);
    const real = await lastMailedToken(email);
    const tokenValue = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(real, ` ${real}`, real.toUpperCase(), `${real}=`, real.slice(0, 42)) },
      { weight: 2, arbitrary: anyString },
      { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
      { weight: 1, arbitrary: wrongType("string") },
    );
    await fc.assert(
      fc.asyncProperty(bodyWith("token", tokenValue), hostileQuery, async (body, q) => {
        const res = await call(`POST ${paths.invitationsPreview}`, "POST", pathFor(PREVIEW, q), body);
        if (targetTooLong(res)) return;
        expectAnswer(res, 422, { error: "Invalid or expired invitation" }, body);
      }),
      runs(120),
    );
    // Nothing was consumed: the invitee can still preview it, then accept it.
    const invitee = await token(email, {});
    const preview = await apiCall("POST", PREVIEW, { token: invitee, body: { token: real } });
    expect(preview.status, preview.text).toBe(200);
    expect((await apiCall("POST", ACCEPT, { token: invitee, body: { token: real } })).status).toBe(200);
    roles.set(String(claimsOf(invitee).sub), "cohort_admin");
    version++;
  });

  it("afterwards: stored attributes within the whitelist, events too; no pollution", async () => {
    const { problems } = await storedOutsideWhitelist([ownerId, outsiderId, plainId, foreignId]);
    expect(problems).toEqual([]);
    expect(eventsOutsideWhitelist((await eventsOf(owner)) as unknown as Record<string, unknown>[])).toEqual([]);
    await expectNoPollution(outsider, institutionId);
  });
});
