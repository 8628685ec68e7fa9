/**
 * Joining from an invitation (docs/joining.md) over HTTP through the local gateway, against the local Cognito
 * and DynamoDB Local: open and register without a token (each test file's visitor from a loopback address of
 * its own, see test/support/visitor.ts), every refusal with its status, body and event, nothing created on a
 * refusal, two registrations racing with one token, the clean-up when the invitation is revoked between the
 * user's creation and the accept, both events in the trail, sign-in of the new user, and reopening an
 * accepted link ("already accepted", no event). Also cohort delete (docs/contract/README.md) and the security events' e-mail filter.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AdminGetUserCommand } from "@aws-sdk/client-cognito-identity-provider";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { cognitoClient, signIn as signInAs } from "../../infra/local/cognito.js";
import type { StoredEvent } from "../../shared/audit.js";
import { VISITOR_ACCOUNT } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { eventKeys, keys } from "../../shared/tables.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { runExport } from "../support/exports.js";
import { ACCEPT, createInstitution, EVENTS, INST, inviteMailed, revoke, storedInvitation, withinOneWindow } from "../support/flows.js";
import { loopbackAddress, visit } from "../support/visitor.js";
import { claimsOf, eventsOf } from "./helpers.js";

const OPEN = paths.invitationsOpen;
const REGISTER = paths.invitationsRegister;
const PREVIEW = paths.invitationsPreview;
const INVALID = { error: "Invalid or expired invitation" };
const EXISTS = { error: "An account with this e-mail already exists; sign in to accept the invitation" };
const PASSWORD = "Correct-Horse-9-battery";
const DAY = 86_400_000;

/** Events recorded in `account`'s trail with `userId` as actor, oldest first. */
async function eventsBy(account: string, userId: string): Promise<StoredEvent[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.events,
      IndexName: "by_user",
      KeyConditionExpression: "g_user = :k",
      ExpressionAttributeValues: { ":k": eventKeys.accountUser(account, userId) },
    }),
  );
  return (out.Items ?? []) as StoredEvent[];
}

/** The pool's user with `email`, or undefined. */
async function poolUser(email: string) {
  const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  try {
    return await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: email }));
  } catch (err) {
    if ((err as Error).name === "UserNotFoundException") return undefined;
    throw err;
  } finally {
    cognito.destroy();
  }
}

/** Signs in with USER_PASSWORD_AUTH, as the console does locally; the ID token. */
const signIn = (email: string, password: string) => signInAs(stack, email, password);

/** The stored access records of an institution's members (the main table's partition of access items). */
async function accessOf(userId: string, institutionId: string) {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.main,
      KeyConditionExpression: "pk = :pk AND sk = :sk",
      ExpressionAttributeValues: { ":pk": keys.access(userId, institutionId).pk, ":sk": keys.access(userId, institutionId).sk },
    }),
  );
  return out.Items ?? [];
}

describe("joining from an invitation (open, register)", () => {
  const account = uniq("acct");
  const domain = `${uniq("join")}.test`;
  let owner: string;
  let inst: { id: string; name: string };
  /** This file's source address: its refusals count against a bound of its own. */
  const from = loopbackAddress();

  beforeAll(async () => {
    owner = await token(uniqEmail("owner", domain), { superAdmin: true, account, name: "Olive Owner" });
    inst = await createInstitution(owner, { name: uniq("Join U") });
  }, 120_000);

  const invitee = () => uniqEmail("joiner", domain);

  it("open: the invitation, the invited e-mail and whether it has an account; nothing consumed", async () => {
    const email = invitee();
    const inv = await inviteMailed(owner, inst.id, email);
    const res = await visit("POST", OPEN, { from, body: { token: inv.token } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      institution: { name: inst.name },
      role: "cohort_admin",
      invited_by: { email: expect.stringContaining("owner-"), name: "Olive Owner" },
      expires_at: inv.invitation.expires_at,
      email,
      has_account: false,
    });
    expect((await storedInvitation(inst.id, inv.id))?.used_at).toBeUndefined();
    // A person who has an account already: sign in instead.
    const existing = invitee();
    await token(existing, { account });
    const theirs = await inviteMailed(owner, inst.id, existing);
    const opened = await visit("POST", OPEN, { from, body: { token: theirs.token } });
    expect(opened.status).toBe(200);
    expect(opened.body.has_account).toBe(true);
  });

  it("open and register refuse an unknown, expired or revoked token with 422 and token_validation_failure; nothing is created", async () => {
    const address = loopbackAddress();
    const visitor = `ip:${address}`;
    const expiredEmail = invitee();
    const expired = await inviteMailed(owner, inst.id, expiredEmail, { clockOffsetMs: -8 * DAY });
    const revokedEmail = invitee();
    const revoked = await inviteMailed(owner, inst.id, revokedEmail);
    await revoke(owner, inst.id, revoked.id);
    const unknown = "A".repeat(43);
    for (const path of [OPEN, REGISTER]) {
      for (const body of [{ token: unknown }, { token: "short" }, {}, [], "text"]) {
        const res = await visit("POST", path, {
          from: address,
          body: { ...(typeof body === "object" && !Array.isArray(body) ? body : {}), name: "N", password: PASSWORD },
        });
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(422);
        expect(res.body).toEqual(INVALID);
      }
      for (const inv of [expired, revoked]) {
        const res = await visit("POST", path, { from: address, body: { token: inv.token, name: "Nia New", password: PASSWORD } });
        expect(res.status, res.text).toBe(422);
        expect(res.body).toEqual(INVALID);
      }
    }
    expect(await poolUser(expiredEmail)).toBeUndefined();
    expect(await poolUser(revokedEmail)).toBeUndefined();
    // Unknown tokens name no institution: the visitors' own trail. Expired and revoked ones: the owner's, and only there.
    const visitorReasons = (await eventsBy(VISITOR_ACCOUNT, visitor)).map((e) => `${e.event_type}:${String(e.details.reason)}`);
    expect(visitorReasons.filter((r) => r === "token_validation_failure:unknown")).toHaveLength(10);
    const ownerEvents = await eventsBy(account, visitor);
    expect(ownerEvents.map((e) => `${e.event_type}:${String(e.details.reason)}`).sort()).toEqual(
      ["expired", "expired", "revoked", "revoked"].map((r) => `token_validation_failure:${r}`),
    );
    expect(ownerEvents.every((e) => e.ip_address === address && e.user_email === null)).toBe(true);
  });

  it("refusals count against the probing bound of the source address: past 30 in a minute, 429 until it ends", async () => {
    const address = loopbackAddress();
    const unknown = { token: "B".repeat(43) };
    // The 32 requests in one minute of the service's clock: its start, so a busy machine has the whole minute.
    await withinOneWindow("minute", 59_000);
    const answers = [];
    for (let i = 0; i < 32; i++) answers.push(await visit("POST", i % 2 ? OPEN : REGISTER, { from: address, body: unknown }));
    expect(answers.slice(0, 30).map((a) => a.status)).toEqual(Array(30).fill(422));
    for (const a of answers.slice(30)) {
      expect(a.status).toBe(429);
      expect(a.body).toEqual({ error: "Too many refused requests, try again later" });
      expect(Number(a.headers["retry-after"])).toBeGreaterThan(0);
    }
    // Another address is not held back by it.
    expect((await visit("POST", OPEN, { from: loopbackAddress(), body: unknown })).status).toBe(422);
    const events = await eventsBy(VISITOR_ACCOUNT, `ip:${address}`);
    expect(events.filter((e) => e.event_type === "token_validation_failure")).toHaveLength(30);
    expect(events.filter((e) => e.event_type === "rate_limit_exceeded")).toEqual([
      expect.objectContaining({ details: { limit: 30, scope: "refused_requests" } }),
    ]);
  });

  it("register refuses a name or a password the pool would refuse (422 errors) and an existing account (409); nothing is created", async () => {
    const email = invitee();
    const inv = await inviteMailed(owner, inst.id, email);
    const cases: [unknown, unknown, string[]][] = [
      ["", PASSWORD, ["Name can't be blank"]],
      ["Line\nbreak", PASSWORD, ["Name contains invalid characters"]],
      ["x".repeat(129), PASSWORD, ["Name is too long (maximum is 128 characters)"]],
      [42, PASSWORD, ["Name can't be blank"]],
      [
        "Nia",
        "short",
        [
          "Password is too short (minimum is 12 characters)",
          "Password must contain an uppercase letter",
          "Password must contain a digit",
          "Password must contain a symbol",
        ],
      ],
      ["Nia", "alllowercase-and-long-1", ["Password must contain an uppercase letter"]],
      ["Nia", "NoSymbolsHere12345", ["Password must contain a symbol"]],
      ["Nia", undefined, expect.arrayContaining(["Password is too short (minimum is 12 characters)"]) as unknown as string[]],
    ];
    for (const [name, password, errors] of cases) {
      const res = await visit("POST", REGISTER, { from, body: { token: inv.token, name, password } });
      expect(res.status, `${JSON.stringify(name)} ${JSON.stringify(password)}`).toBe(422);
      expect(res.body).toEqual({ errors });
    }
    expect(await poolUser(email)).toBeUndefined();
    expect((await storedInvitation(inst.id, inv.id))?.used_at).toBeUndefined();

    const existing = invitee();
    await token(existing, { account });
    const theirs = await inviteMailed(owner, inst.id, existing);
    const res = await visit("POST", REGISTER, { from, body: { token: theirs.token, name: "Someone Else", password: PASSWORD } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(EXISTS);
    const stored = await storedInvitation(inst.id, theirs.id);
    expect(stored?.used_at).toBeUndefined();
    expect(stored?.revoked_at).toBeUndefined();
  });

  it("register creates the user, accepts, records account_created and invitation_accepted together; the user signs in and sees the institution", async () => {
    const email = invitee();
    const inv = await inviteMailed(owner, inst.id, email);
    const res = await visit("POST", REGISTER, { from, body: { token: inv.token, name: "  Nia New  ", password: PASSWORD } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ institution: { id: inst.id, name: inst.name }, role: "cohort_admin", message: "Account created" });

    const user = await poolUser(email);
    const attrs = Object.fromEntries((user?.UserAttributes ?? []).map((a) => [a.Name, a.Value]));
    expect(attrs).toMatchObject({ email, email_verified: "true", name: "Nia New", "custom:account_id": account });
    expect(user?.UserStatus).toBe("CONFIRMED");

    const idToken = await signIn(email, PASSWORD);
    const claims = claimsOf(idToken);
    expect(claims).toMatchObject({ email, "custom:account_id": account });
    // Joining never adds a group.
    expect(claims["cognito:groups"]).toBeUndefined();
    const list = ok(await apiClient(idToken).GET(paths.institutions));
    expect(list.institutions).toEqual([expect.objectContaining({ id: inst.id, role: "cohort_admin", is_super_admin: false })]);

    // Both events, one transaction: the same instant, the new user as actor, in the institution's (and the user's) account.
    // One instant, so their ids (ULIDs of that millisecond) may sort either way.
    // Then the sign-in, which the pool's trigger recorded.
    const events = (await eventsOf(idToken)).sort((a, b) => a.event_type.localeCompare(b.event_type));
    expect(events.map((e) => e.event_type)).toEqual(["account_created", "invitation_accepted", "sign_in"]);
    const [created, accepted] = events as [StoredEvent, StoredEvent];
    const named = { institution_name: inst.name };
    expect(created.details).toEqual({ user_id: claims.sub, email, institution_id: inst.id, invitation_id: inv.id, ...named });
    expect(accepted.details).toEqual({ invitation_id: inv.id, institution_id: inst.id, email, role: "cohort_admin", ...named });
    expect(created.created_at).toBe(accepted.created_at);
    expect(created.ip_address).toBe(from);
    // The owner's trail lists them, filtered by the e-mail its table shows.
    const listed = ok(await apiClient(owner).GET(paths.securityEvents, { params: { query: { user_email: email.toUpperCase() } } }));
    expect(listed.events.map((e) => e.event_type).sort()).toEqual(["account_created", "invitation_accepted", "sign_in"]);

    // Reopening the accepted link: "already accepted", for the visitor (open, register) and the signed-in invitee
    // (preview, accept), and nothing recorded.
    const before = (await eventsOf(idToken)).length;
    const visitorBefore = (await eventsBy(account, `ip:${from}`)).length;
    for (const path of [OPEN, REGISTER]) {
      const again = await visit("POST", path, { from, body: { token: inv.token, name: "Nia", password: PASSWORD } });
      expect(again.status, path).toBe(409);
      expect(again.body).toEqual({ error: "Invitation already accepted", institution: { name: inst.name } });
    }
    for (const path of [PREVIEW, ACCEPT]) {
      const again = await call("POST", path, { token: idToken, body: { token: inv.token } });
      expect(again.status, path).toBe(409);
      expect(again.body).toEqual({ error: "Invitation already accepted", institution: { name: inst.name } });
    }
    expect((await eventsOf(idToken)).length).toBe(before);
    expect((await eventsBy(account, `ip:${from}`)).length).toBe(visitorBefore);
    // Anyone else presenting the used token is refused as before, with the event.
    const stranger = await token(uniqEmail("stranger", domain), { account });
    const refused = await call("POST", ACCEPT, { token: stranger, body: { token: inv.token } });
    expect(refused.status).toBe(422);
    expect((await eventsOf(stranger))[0]).toMatchObject({ event_type: "token_validation_failure", details: { reason: "used" } });
  });

  it("two registrations with one token at once: one user, one access record; the other 409 or 422", async () => {
    for (let round = 0; round < 3; round++) {
      const email = invitee();
      const inv = await inviteMailed(owner, inst.id, email);
      const answers = await Promise.all(
        [0, 1].map((i) => visit("POST", REGISTER, { from, body: { token: inv.token, name: `Racer ${i}`, password: PASSWORD } })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(
        [
          ["201", "409"],
          ["201", "422"],
        ].map(String),
      ).toContain(statuses.map(String).join(","));
      const user = await poolUser(email);
      expect(user).toBeDefined();
      const sub = user?.UserAttributes?.find((a) => a.Name === "sub")?.Value ?? "";
      expect(await accessOf(sub, inst.id)).toHaveLength(1);
      const idToken = await signIn(email, PASSWORD);
      expect((await eventsOf(idToken)).filter((e) => e.event_type === "account_created")).toHaveLength(1);
    }
  });

  it("the user is deleted again when the invitation is revoked between its creation and the accept", async () => {
    const log = join(stack.logDir, "gateway.log");
    let undone = 0;
    // A race by nature: register and revoke at once, the revoke a little later each round, until one revoke
    // lands after the user's creation. Every round, whatever the order: an account exists only with its access.
    for (let round = 0; round < 40 && undone === 0; round++) {
      const email = invitee();
      const inv = await inviteMailed(owner, inst.id, email);
      const registering = visit("POST", REGISTER, { from, body: { token: inv.token, name: "Rae Race", password: PASSWORD } });
      await new Promise((r) => setTimeout(r, (round % 10) * 15));
      const revoking = call("DELETE", `${paths.invitations}/${inv.id}`, { token: owner, query: { institution_id: inst.id } });
      const [reg, rev] = await Promise.all([registering, revoking]);
      const user = await poolUser(email);
      if (reg.status === 201) {
        expect(rev.status).toBe(422);
        expect(user).toBeDefined();
        continue;
      }
      expect(reg.status, reg.text).toBe(422);
      expect(reg.body).toEqual(INVALID);
      expect(rev.status).toBe(200);
      expect(user).toBeUndefined();
      if (readFileSync(log, "utf8").includes(`"invitation_id":"${inv.id}"`)) undone++;
    }
    expect(undone, "no round revoked between the two steps").toBeGreaterThan(0);
  }, 300_000);
});

describe("cohort delete", () => {
  it("the super admin deletes a cohort (cohort_deleted), then the institution; others are refused in the contract's order", async () => {
    const account = uniq("acct");
    const domain = `${uniq("coh")}.test`;
    const owner = await token(uniqEmail("owner", domain), { superAdmin: true, account });
    const adminEmail = uniqEmail("admin", domain);
    const admin = await token(adminEmail, { superAdmin: true, account });
    const stranger = await token(uniqEmail("stranger"), { superAdmin: true, account: uniq("acct") });
    const inst = await createInstitution(owner);
    const api = apiClient(owner);
    const cohorts = `${paths.institutions}/{id}/cohorts` as const;
    const params = { path: { id: inst.id } };
    const cohortId = ok(await api.POST(cohorts, { params, body: { cohort: { name: "Class of 2026" } } }), 201).cohort.id;
    const inv = await inviteMailed(owner, inst.id, adminEmail);
    ok(await apiClient(admin).POST(paths.invitationsAccept, { body: { token: inv.token } }));
    const path = `${INST}/${inst.id}/cohorts/${cohortId}`;

    expect((await call("DELETE", `${INST}/${inst.id}`, { token: owner })).status).toBe(422);
    const invisible = await call("DELETE", path, { token: stranger });
    expect(invisible.status).toBe(404);
    expect(invisible.body).toEqual({ error: "Institution not found or access denied" });
    expect((await eventsOf(stranger))[0]).toMatchObject({ event_type: "unauthorized_institution_access" });
    const notOwner = await call("DELETE", path, { token: admin });
    expect(notOwner.status).toBe(403);
    expect((await eventsOf(admin))[0]).toMatchObject({
      event_type: "insufficient_privileges",
      details: { action: "destroy_cohort", required_role: "super_admin", institution_id: inst.id },
    });
    for (const id of ["01ARZ3NDEKTSV4RRFFQ69G5FAV", "not-an-id"]) {
      const unknown = await call("DELETE", `${INST}/${inst.id}/cohorts/${id}`, { token: owner });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: "Cohort not found" });
    }

    const deleted = ok(await api.DELETE(`${cohorts}/{cohort_id}`, { params: { path: { id: inst.id, cohort_id: cohortId } } }));
    expect(deleted).toEqual({ message: "Cohort 'Class of 2026' deleted" });
    expect((await eventsOf(owner))[0]).toMatchObject({
      event_type: "cohort_deleted",
      details: { institution_id: inst.id, cohort_id: cohortId, name: "Class of 2026" },
    });
    expect(ok(await api.GET(cohorts, { params })).cohorts).toEqual([]);
    expect((await call("DELETE", path, { token: owner })).status).toBe(404);
    ok(await api.DELETE(`${paths.institutions}/{id}`, { params }));
  });
});

describe("the security events' e-mail filter", () => {
  it("lists, exports and fully exports the events of the e-mail the table shows, case-insensitive", async () => {
    const account = uniq("acct");
    const domain = `${uniq("mail")}.test`;
    const ownerEmail = uniqEmail("owner", domain);
    const owner = await token(ownerEmail, { superAdmin: true, account });
    const otherEmail = uniqEmail("other", domain);
    const other = await token(otherEmail, { superAdmin: true, account });
    await createInstitution(owner);
    await createInstitution(other);
    await createInstitution(other);
    const trail = async (query: { user_email: string; event_type?: string }) =>
      ok(await apiClient(owner).GET(paths.securityEvents, { params: { query } })).events;
    // The other's events: two institutions, and the sign-in that gave their token.
    const others = [otherEmail, otherEmail, otherEmail];
    expect((await trail({ user_email: ` ${otherEmail.toUpperCase()} ` })).map((e) => e.user_email)).toEqual(others);
    expect(await trail({ user_email: ownerEmail, event_type: "institution_created" })).toHaveLength(1);
    expect(await trail({ user_email: "nobody@nowhere.test" })).toEqual([]);
    const csv = await call("GET", `${EVENTS}/export`, { token: owner, query: { user_email: otherEmail } });
    expect(csv.status).toBe(200);
    const rows = csv.text.trim().split("\n").slice(1);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.includes(otherEmail))).toBe(true);
    const full = await runExport(owner, { format: "jsonl", user_email: otherEmail.toUpperCase() });
    expect(full.export).toMatchObject({ status: "succeeded", row_count: 3, filters: { user_email: otherEmail } });
    expect(
      full.file
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).user.email),
    ).toEqual(others);
  }, 120_000);
});
