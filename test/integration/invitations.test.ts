/**
 * Invitations over HTTP through the local gateway, with real tokens from the local Cognito, DynamoDB Local
 * and the local SES (tokens are read from the sent mail): the authorization matrix of every endpoint, each
 * rule of the contract with its status, body and event, the concurrency guarantees, and that the full token
 * never leaves the mail.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "../../shared/audit.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { type CallResult, call, invitationTokenIn, observeResponses, sentMail, stack, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { ACCEPT, ageLastMail, createInstitution, INV, inviteMailed, type Role, revoke, storedInvitation } from "../support/flows.js";
import { eventsOf, userIdOf } from "./helpers.js";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY = 86_400_000;

// Every response of this file and every token mailed, for the leak check at the end.
const responses: string[] = [];
const mailedTokens: string[] = [];
const actorsSeen = new Set<string>();

observeResponses((res, opts) => {
  responses.push(JSON.stringify(res.headers) + res.text);
  if (opts.token) actorsSeen.add(opts.token);
});

/** Runs `fn` and returns what it answered together with the events `tok`'s user caused meanwhile, oldest first. */
async function withEvents(tok: string, fn: () => Promise<CallResult>): Promise<{ res: CallResult; events: StoredEvent[] }> {
  const before = new Set((await eventsOf(tok)).map((e) => e.id));
  const res = await fn();
  const events = (await eventsOf(tok)).filter((e) => !before.has(e.id)).reverse();
  return { res, events };
}

/** The token of the newest invitation mail to `email`. */
async function mailedToken(email: string): Promise<string> {
  const mails = await sentMail(email);
  const mail = mails[mails.length - 1];
  if (!mail) throw new Error(`no mail to ${email}`);
  const t = invitationTokenIn(mail);
  mailedTokens.push(t);
  return t;
}

/** Invites `email`, keeping its token for the leak check; `clockOffsetMs` -PAST_EXPIRY makes one that has expired by now. */
async function invite(tok: string, institutionId: string, email: string, role: Role = "cohort_admin", clockOffsetMs?: number) {
  const inv = await inviteMailed(tok, institutionId, email, { role, clockOffsetMs });
  mailedTokens.push(inv.token);
  return inv;
}

/** Accepts as sent, whatever the answer (a refusal under test). */
async function accept(tok: string, invitationToken: string) {
  return call("POST", ACCEPT, { token: tok, body: { token: invitationToken } });
}

/** Accepts (200 expected): what the invitee was granted. */
async function accepted(tok: string, invitationToken: string) {
  return ok(await apiClient(tok).POST(paths.invitationsAccept, { body: { token: invitationToken } }));
}

/** Far enough for an invitation to have expired (they are valid for 7 days). */
const PAST_EXPIRY = 8 * DAY;

async function listActive(tok: string, institutionId: string) {
  return ok(await apiClient(tok).GET(paths.invitations, { params: { query: { institution_id: institutionId } } })).invitations;
}

interface World {
  account: string;
  inst: { id: string; name: string };
  owner: string;
  ownerEmail: string;
  /** Cohort-super-admin status and access role cohort_admin (accepted an admin invitation). */
  admin: string;
  adminEmail: string;
  /** Status and access role cohort_super_admin, but not the institution's super admin. */
  manager: string;
  /** Access role cohort_super_admin (accepted), but no cohort-super-admin status. */
  noGroup: string;
  /** Same account, status, no access. */
  outsider: string;
  /** Another account. */
  other: string;
}

async function world(): Promise<World> {
  const account = uniq("acct");
  const domain = `${uniq("d")}.test`;
  const ownerEmail = uniqEmail("owner", domain);
  const adminEmail = uniqEmail("admin", domain);
  const managerEmail = uniqEmail("manager", domain);
  const noGroupEmail = uniqEmail("nogroup", domain);
  const [owner, admin, manager, noGroup, outsider, other] = await Promise.all([
    token(ownerEmail, { superAdmin: true, account, name: "Olive Owner" }),
    token(adminEmail, { superAdmin: true, account }),
    token(managerEmail, { superAdmin: true, account }),
    token(noGroupEmail, { account }),
    token(uniqEmail("outsider", domain), { superAdmin: true, account }),
    token(uniqEmail("other"), { superAdmin: true, account: uniq("acct") }),
  ]);
  // Only what an accept answers of the institution.
  const { id, name } = await createInstitution(owner, { name: uniq("Invite U") });
  const inst = { id, name };
  for (const [tok, email, role] of [
    [admin, adminEmail, "cohort_admin"],
    [manager, managerEmail, "cohort_super_admin"],
    [noGroup, noGroupEmail, "cohort_super_admin"],
  ] as const) {
    const inv = await invite(owner, inst.id, email, role);
    await accepted(tok, inv.token);
  }
  return { account, inst, owner, ownerEmail, admin, adminEmail, manager, noGroup, outsider, other };
}

const notFound = (w: World, id: string | null = w.inst.id) => ({
  event_type: "unauthorized_institution_access",
  details: { attempted_institution_id: id, action: "manage_invitations" },
});
const notManaging = (w: World) => ({
  event_type: "insufficient_privileges",
  details: { action: "manage_invitations", required_role: "cohort_super_admin", institution_id: w.inst.id, institution_name: w.inst.name },
});

let w: World;
beforeAll(async () => {
  w = await world();
});

describe("invitations: authorization matrix", () => {
  it("list: anyone with access (whatever the role or status); outsiders 404 + event", async () => {
    for (const tok of [w.owner, w.admin, w.manager, w.noGroup]) {
      const { res, events } = await withEvents(tok, () => call("GET", INV, { token: tok, query: { institution_id: w.inst.id } }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ invitations: expect.any(Array), meta: expect.objectContaining({ limit: 50 }) });
      expect(events).toEqual([]);
    }
    for (const tok of [w.outsider, w.other]) {
      const { res, events } = await withEvents(tok, () => call("GET", INV, { token: tok, query: { institution_id: w.inst.id } }));
      expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
      expect(events).toEqual([expect.objectContaining(notFound(w))]);
    }
    expect((await call("GET", INV, { query: { institution_id: w.inst.id } })).status).toBe(401);
  });

  it("create: the institution's super admin and other managers; admin and no-group 403, outsiders 404, each with its event", async () => {
    for (const tok of [w.owner, w.manager]) {
      const email = uniqEmail("invitee");
      const { res, events } = await withEvents(tok, () =>
        call("POST", INV, { token: tok, body: { institution_id: w.inst.id, email, role: "cohort_admin" } }),
      );
      expect(res.status).toBe(201);
      expect(events).toEqual([
        expect.objectContaining({
          event_type: "invitation_created",
          user_id: await userIdOf(tok),
          account_id: w.account,
          details: {
            invitation_id: res.body.invitation.id,
            institution_id: w.inst.id,
            email,
            role: "cohort_admin",
            institution_name: w.inst.name,
          },
          created_at: expect.stringMatching(ISO),
        }),
      ]);
      await mailedToken(email);
    }
    for (const tok of [w.admin, w.noGroup]) {
      const { res, events } = await withEvents(tok, () =>
        call("POST", INV, { token: tok, body: { institution_id: w.inst.id, email: uniqEmail(), role: "cohort_admin" } }),
      );
      expect(res).toMatchObject({ status: 403, body: { error: "Super admin access required" } });
      expect(events).toEqual([expect.objectContaining({ ...notManaging(w), user_id: await userIdOf(tok), account_id: w.account })]);
    }
    for (const tok of [w.outsider, w.other]) {
      const { res, events } = await withEvents(tok, () =>
        call("POST", INV, { token: tok, body: { institution_id: w.inst.id, email: uniqEmail(), role: "cohort_admin" } }),
      );
      expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
      expect(events).toEqual([expect.objectContaining(notFound(w))]);
    }
    expect((await call("POST", INV, { body: { institution_id: w.inst.id, email: uniqEmail(), role: "cohort_admin" } })).status).toBe(401);
  });

  it("revoke: managers only; admin and no-group 403, outsiders 404", async () => {
    const target = await invite(w.owner, w.inst.id, uniqEmail("revokee"));
    for (const tok of [w.admin, w.noGroup]) {
      const { res, events } = await withEvents(tok, () =>
        call("DELETE", `${INV}/${target.id}`, { token: tok, query: { institution_id: w.inst.id } }),
      );
      expect(res).toMatchObject({ status: 403, body: { error: "Super admin access required" } });
      expect(events).toEqual([expect.objectContaining(notManaging(w))]);
    }
    for (const tok of [w.outsider, w.other]) {
      const { res, events } = await withEvents(tok, () =>
        call("DELETE", `${INV}/${target.id}`, { token: tok, query: { institution_id: w.inst.id } }),
      );
      expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
      expect(events).toEqual([expect.objectContaining(notFound(w))]);
    }
    expect((await call("DELETE", `${INV}/${target.id}`, { query: { institution_id: w.inst.id } })).status).toBe(401);
    // Still active after all that.
    expect((await listActive(w.owner, w.inst.id)).map((i) => i.id)).toContain(target.id);

    const { res, events } = await withEvents(w.manager, () =>
      call("DELETE", `${INV}/${target.id}`, { token: w.manager, query: { institution_id: w.inst.id } }),
    );
    expect(res).toMatchObject({ status: 200, body: { message: "Invitation revoked" } });
    expect(events).toEqual([
      expect.objectContaining({
        event_type: "invitation_revoked",
        details: { invitation_id: target.id, institution_id: w.inst.id, email: target.invitation.email, institution_name: w.inst.name },
      }),
    ]);
    const owned = await invite(w.owner, w.inst.id, uniqEmail("revokee"));
    const byOwner = await call("DELETE", `${INV}/${owned.id}`, { token: w.owner, body: { institution_id: w.inst.id } });
    expect(byOwner).toMatchObject({ status: 200, body: { message: "Invitation revoked" } });
  });

  it("resend: managers only; admin and no-group 403, outsiders 404", async () => {
    const target = await invite(w.owner, w.inst.id, uniqEmail("resendee"));
    for (const tok of [w.admin, w.noGroup]) {
      const { res, events } = await withEvents(tok, () =>
        call("POST", `${INV}/${target.id}/resend`, { token: tok, body: { institution_id: w.inst.id } }),
      );
      expect(res).toMatchObject({ status: 403, body: { error: "Super admin access required" } });
      expect(events).toEqual([expect.objectContaining(notManaging(w))]);
    }
    for (const tok of [w.outsider, w.other]) {
      const { res, events } = await withEvents(tok, () =>
        call("POST", `${INV}/${target.id}/resend`, { token: tok, body: { institution_id: w.inst.id } }),
      );
      expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
      expect(events).toEqual([expect.objectContaining(notFound(w))]);
    }
    expect((await call("POST", `${INV}/${target.id}/resend`, { body: { institution_id: w.inst.id } })).status).toBe(401);
    for (const tok of [w.manager, w.owner]) {
      // Past the resend cooldown (issue 14): each resend here is about who may, not how often.
      await ageLastMail(w.inst.id, target.id, 11 * 60);
      const { res, events } = await withEvents(tok, () =>
        call("POST", `${INV}/${target.id}/resend`, { token: tok, query: { institution_id: w.inst.id } }),
      );
      expect(res.status).toBe(200);
      expect(events).toEqual([
        expect.objectContaining({
          event_type: "invitation_resent",
          details: { invitation_id: target.id, institution_id: w.inst.id, email: target.invitation.email, institution_name: w.inst.name },
        }),
      ]);
      await mailedToken(target.invitation.email);
    }
  });

  it("accept: only the invited e-mail's user; everyone else 422 email_mismatch, and the invitation survives", async () => {
    const email = uniqEmail("acceptee");
    const target = await invite(w.owner, w.inst.id, email);
    for (const tok of [w.owner, w.admin, w.manager, w.noGroup, w.outsider, w.other]) {
      const { res, events } = await withEvents(tok, () => accept(tok, target.token));
      expect(res).toMatchObject({ status: 422, body: { error: "Invalid or expired invitation" } });
      expect(events).toEqual([expect.objectContaining({ event_type: "token_validation_failure", details: { reason: "email_mismatch" } })]);
    }
    expect((await call("POST", ACCEPT, { body: { token: target.token } })).status).toBe(401);
    const invitee = await token(email, { account: uniq("acct") });
    const { res, events } = await withEvents(invitee, () => accept(invitee, target.token));
    expect(res).toMatchObject({ status: 200, body: { institution: w.inst, role: "cohort_admin", message: expect.any(String) } });
    expect(events).toEqual([
      expect.objectContaining({
        event_type: "invitation_accepted",
        user_id: await userIdOf(invitee),
        details: { invitation_id: target.id, institution_id: w.inst.id, email, role: "cohort_admin", institution_name: w.inst.name },
      }),
    ]);
  });
});

describe("invitations: create", () => {
  it("201 with the contract's shape; e-mail trimmed and lower-cased; the mail has everything", async () => {
    const local = uniq("Mixed");
    const domain = `${uniq("d")}.test`;
    const res = await call("POST", INV, {
      token: w.owner,
      query: { institution_id: w.inst.id },
      body: { email: `  ${local.toUpperCase()}@${domain.toUpperCase()} `, role: "cohort_super_admin" },
    });
    const email = `${local}@${domain}`.toLowerCase();
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      invitation: {
        id: expect.any(String),
        email,
        role: "cohort_super_admin",
        token_preview: expect.any(String),
        expires_at: expect.stringMatching(ISO),
      },
      message: `Invitation sent to ${email}`,
    });
    const t = await mailedToken(email);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.invitation.token_preview).toBe(`${t.slice(0, 8)}...`);
    expect(res.body.invitation.token_preview).toMatch(/^[A-Za-z0-9_-]{8}\.\.\.$/);
    const expires = Date.parse(res.body.invitation.expires_at);
    expect(Math.abs(expires - (Date.now() + 7 * DAY))).toBeLessThan(60_000);

    const [mail] = (await sentMail(email)).slice(-1);
    expect(mail?.from).toBe("no-reply@institution-admin.local");
    expect(mail?.subject).toContain(w.inst.name);
    expect(mail?.subject).not.toContain(t);
    for (const part of [mail?.body.text ?? "", mail?.body.html ?? ""]) {
      expect(part).toContain(w.inst.name);
      expect(part).toContain("Olive Owner");
      expect(part).toContain(w.ownerEmail);
      expect(part).toContain("Cohort super admin");
      expect(part).toMatch(new RegExp(`https?://[^\\s"]+/invitations/accept\\?token=${t}`));
      expect(part).toContain(`${res.body.invitation.expires_at.slice(0, 10)}`);
    }
    // Stored: only the hash.
    const stored = await storedInvitation(w.inst.id, res.body.invitation.id);
    expect(JSON.stringify(stored)).not.toContain(t);
    expect(stored).toMatchObject({
      email,
      role: "cohort_super_admin",
      created_by: w.ownerEmail,
      token_preview: res.body.invitation.token_preview,
    });
  });

  it("check order: institution 404 → managing 403 → role 400 → limit 429 → e-mail 422", async () => {
    const bad = { email: "not an email", role: "boss" };
    const missing = await withEvents(w.owner, () => call("POST", INV, { token: w.owner, body: bad }));
    expect(missing.res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
    expect(missing.events).toEqual([expect.objectContaining(notFound(w, null))]);
    const malformed = await withEvents(w.owner, () => call("POST", INV, { token: w.owner, body: { ...bad, institution_id: "../../x" } }));
    expect(malformed.res.status).toBe(404);
    expect(malformed.events).toEqual([expect.objectContaining(notFound(w, "../../x"))]);

    const forbidden = await withEvents(w.admin, () => call("POST", INV, { token: w.admin, body: { ...bad, institution_id: w.inst.id } }));
    expect(forbidden.res.status).toBe(403);
    expect(forbidden.events).toEqual([expect.objectContaining(notManaging(w))]);

    for (const role of ["boss", "", null, 3, undefined]) {
      const r = await withEvents(w.owner, () =>
        call("POST", INV, { token: w.owner, body: { institution_id: w.inst.id, email: "bad", role } }),
      );
      expect(r.res).toMatchObject({ status: 400, body: { error: "Invalid role specified" } });
      expect(r.events).toEqual([]);
    }
    for (const email of ["bad", "", "a@b", " @x.test", 12, null, undefined]) {
      const r = await call("POST", INV, { token: w.owner, body: { institution_id: w.inst.id, email, role: "cohort_admin" } });
      expect(r).toMatchObject({ status: 422, body: { errors: ["Email is invalid"] } });
    }
  });

  it("e-mails that already have access: 422 (members who accepted, and the caller's own)", async () => {
    for (const email of [w.adminEmail, w.adminEmail.toUpperCase(), w.ownerEmail]) {
      const r = await call("POST", INV, { token: w.owner, body: { institution_id: w.inst.id, email, role: "cohort_admin" } });
      expect(r).toMatchObject({ status: 422, body: { errors: ["Email already has access to this institution"] } });
    }
    // The owner's e-mail was recorded when the owner invited, so another manager cannot invite it either.
    const r = await call("POST", INV, { token: w.manager, body: { institution_id: w.inst.id, email: w.ownerEmail, role: "cohort_admin" } });
    expect(r).toMatchObject({ status: 422, body: { errors: ["Email already has access to this institution"] } });
  });

  it("only the institution's super admin may invite a super admin: other managers 403", async () => {
    const email = uniqEmail("super");
    const { res, events } = await withEvents(w.manager, () =>
      call("POST", INV, { token: w.manager, body: { institution_id: w.inst.id, email, role: "cohort_super_admin" } }),
    );
    expect(res).toMatchObject({ status: 403, body: { error: "Only the institution's super admin can invite super admins" } });
    expect(events).toEqual([
      expect.objectContaining({
        event_type: "insufficient_privileges",
        details: { action: "manage_invitations", required_role: "super_admin", institution_id: w.inst.id, institution_name: w.inst.name },
      }),
    ]);
    expect(await sentMail(email)).toEqual([]);
  });

  it("pending limit: the 4th active invitation for an e-mail is 429 with Retry-After and an event; a freed slot counts again", async () => {
    const email = uniqEmail("limited");
    const first = await invite(w.owner, w.inst.id, email);
    await invite(w.owner, w.inst.id, email);
    await invite(w.manager, w.inst.id, email);
    const { res, events } = await withEvents(w.owner, () =>
      call("POST", INV, { token: w.owner, body: { institution_id: w.inst.id, email, role: "cohort_admin" } }),
    );
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: expect.any(String) });
    const retryAfter = Number(res.headers["retry-after"]);
    const firstExpiry = Date.parse(first.invitation.expires_at);
    expect(Math.abs(retryAfter - (firstExpiry - Date.now()) / 1000)).toBeLessThan(30);
    expect(events).toEqual([
      expect.objectContaining({
        event_type: "rate_limit_exceeded",
        details: { email, institution_id: w.inst.id, limit: 3, scope: "pending" },
      }),
    ]);
    // The limit comes before the invitation step: even a refused role for a super admin answers 429 here.
    const manager = await call("POST", INV, { token: w.manager, body: { institution_id: w.inst.id, email, role: "cohort_super_admin" } });
    expect(manager.status).toBe(429);
    // Another institution is another count.
    const other = await createInstitution(w.owner, { name: uniq("Invite U") });
    await invite(w.owner, other.id, email);

    // Revoked and expired invitations stop counting.
    await revoke(w.owner, w.inst.id, first.id);
    const fourth = await invite(w.owner, w.inst.id, email);
    expect((await call("POST", INV, { token: w.owner, body: { institution_id: w.inst.id, email, role: "cohort_admin" } })).status).toBe(
      429,
    );
    // Once the three active ones have expired, three more may be sent, and no fourth.
    const later = { token: w.owner, body: { institution_id: w.inst.id, email, role: "cohort_admin" }, clockOffsetMs: PAST_EXPIRY };
    for (let i = 0; i < 3; i++) expect((await call("POST", INV, later)).status).toBe(201);
    expect((await call("POST", INV, later)).status).toBe(429);
    const later8Days = apiClient(w.owner, { clockOffsetMs: PAST_EXPIRY });
    const listedLater = ok(await later8Days.GET(paths.invitations, { params: { query: { institution_id: w.inst.id } } }));
    expect(listedLater.invitations.filter((i) => i.email === email)).toHaveLength(3);
    expect(listedLater.invitations.map((i) => i.id)).not.toContain(fourth.id);
  });

  it("12 simultaneous creates for one e-mail: exactly 3 × 201 and 9 × 429, and 3 stored", async () => {
    const email = uniqEmail("race");
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("POST", INV, { token: w.owner, body: { institution_id: w.inst.id, email, role: "cohort_admin" } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(429)]);
    for (const r of results.filter((x) => x.status === 429)) expect(Number(r.headers["retry-after"])).toBeGreaterThan(7 * 86_400 - 120);
    const out = await db.send(
      new QueryCommand({
        TableName: config.tables.main,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        FilterExpression: "email = :e",
        ExpressionAttributeValues: { ":pk": keys.institution(w.inst.id).pk, ":p": keys.invitationPrefix, ":e": email },
      }),
    );
    expect(out.Items).toHaveLength(3);
    expect((await listActive(w.owner, w.inst.id)).filter((i) => i.email === email)).toHaveLength(3);
    expect(await sentMail(email)).toHaveLength(3);
    for (const m of await sentMail(email)) mailedTokens.push(invitationTokenIn(m));
    const limited = (await eventsOf(w.owner)).filter((e) => e.event_type === "rate_limit_exceeded" && e.details.email === email);
    expect(limited).toHaveLength(9);
  });
});

describe("invitations: list", () => {
  it("active by default, only used with show_used=true; every item has the contract's fields and a status", async () => {
    const inst = await createInstitution(w.owner, { name: uniq("Invite U") });
    const emails = [uniqEmail("l1"), uniqEmail("l2"), uniqEmail("l3"), uniqEmail("l4")];
    const active = await invite(w.owner, inst.id, emails[0] as string);
    const used = await invite(w.owner, inst.id, emails[1] as string, "cohort_super_admin");
    const revoked = await invite(w.owner, inst.id, emails[2] as string);
    const _expired = await invite(w.owner, inst.id, emails[3] as string, "cohort_admin", -PAST_EXPIRY);
    const usedBy = await token(emails[1] as string);
    await accepted(usedBy, used.token);
    await revoke(w.owner, inst.id, revoked.id);

    const list = await listActive(usedBy, inst.id);
    expect(list).toEqual([
      {
        id: active.id,
        email: emails[0],
        role: "cohort_admin",
        token_preview: active.invitation.token_preview,
        sent_at: expect.stringMatching(ISO),
        expires_at: active.invitation.expires_at,
        used_at: null,
        created_by: w.ownerEmail,
        status: "active",
      },
    ]);
    const usedList = ok(
      await apiClient(w.owner).GET(paths.invitations, { params: { query: { institution_id: inst.id, show_used: "true" } } }),
    );
    expect(usedList.invitations).toEqual([
      expect.objectContaining({
        id: used.id,
        email: emails[1],
        role: "cohort_super_admin",
        used_at: expect.stringMatching(ISO),
        status: "used",
      }),
    ]);
    for (const showUsed of ["false", "1", "TRUE", ""]) {
      const r = await call("GET", INV, { token: w.owner, query: { institution_id: inst.id, show_used: showUsed } });
      expect(r.body.invitations.map((i: { id: string }) => i.id)).toEqual([active.id]);
    }
    // The revoked one is kept, with revoked_at.
    expect(await storedInvitation(inst.id, revoked.id)).toMatchObject({ revoked_at: expect.stringMatching(ISO) });
    // Newest first.
    const second = await invite(w.owner, inst.id, uniqEmail("l5"));
    expect((await listActive(w.owner, inst.id)).map((i) => i.id)).toEqual([second.id, active.id]);
  });
});

describe("invitations: revoke", () => {
  it("404 for unknown, malformed or another institution's id; 422 for used, revoked, expired", async () => {
    const other = await createInstitution(w.owner, { name: uniq("Invite U") });
    const elsewhere = await invite(w.owner, other.id, uniqEmail("elsewhere"));
    for (const id of ["01ARZ3NDEKTSV4RRFFQ69G5FAV", "not-an-id", elsewhere.id]) {
      const { res, events } = await withEvents(w.owner, () =>
        call("DELETE", `${INV}/${id}`, { token: w.owner, query: { institution_id: w.inst.id } }),
      );
      expect(res).toMatchObject({ status: 404, body: { error: "Invitation not found" } });
      expect(events).toEqual([]);
    }
    const usedEmail = uniqEmail("u");
    const used = await invite(w.owner, w.inst.id, usedEmail);
    await accepted(await token(usedEmail), used.token);
    const revoked = await invite(w.owner, w.inst.id, uniqEmail("r"));
    await revoke(w.owner, w.inst.id, revoked.id);
    const expired = await invite(w.owner, w.inst.id, uniqEmail("e"), "cohort_admin", -PAST_EXPIRY);
    for (const inv of [used, revoked, expired]) {
      const { res, events } = await withEvents(w.owner, () =>
        call("DELETE", `${INV}/${inv.id}`, { token: w.owner, query: { institution_id: w.inst.id } }),
      );
      expect(res).toMatchObject({ status: 422, body: { error: "Failed to revoke invitation" } });
      expect(events).toEqual([]);
    }
    // A revoked token cannot be accepted.
    const revokedEmail = revoked.invitation.email;
    const r = await withEvents(await token(revokedEmail), async () => accept(await token(revokedEmail), revoked.token));
    expect(r.res.status).toBe(422);
    expect(r.events).toEqual([expect.objectContaining({ event_type: "token_validation_failure", details: { reason: "revoked" } })]);
  });

  it("revoke racing accept: exactly one wins", async () => {
    const email = uniqEmail("racer");
    const inv = await invite(w.owner, w.inst.id, email);
    const invitee = await token(email);
    const [revoke, acc] = await Promise.all([
      call("DELETE", `${INV}/${inv.id}`, { token: w.owner, query: { institution_id: w.inst.id } }),
      accept(invitee, inv.token),
    ]);
    expect([revoke.status, acc.status].sort()).toEqual([200, 422]);
    const stored = await storedInvitation(w.inst.id, inv.id);
    expect(Boolean(stored?.used_at) !== Boolean(stored?.revoked_at)).toBe(true);
  });
});

describe("invitations: resend", () => {
  it("new token (old one dead), sent_at now, expiry restarted, mail again; 422 when not active", async () => {
    const email = uniqEmail("again");
    const inv = await invite(w.owner, w.inst.id, email);
    await ageLastMail(w.inst.id, inv.id, 11 * 60); // past the resend cooldown (issue 14)
    const before = await storedInvitation(w.inst.id, inv.id);
    const resent = ok(
      await apiClient(w.owner).POST(`${paths.invitations}/{id}/resend`, {
        params: { path: { id: inv.id } },
        body: { institution_id: w.inst.id },
      }),
    );
    expect(resent).toEqual({
      invitation: {
        id: inv.id,
        email,
        role: "cohort_admin",
        token_preview: expect.stringMatching(/^[A-Za-z0-9_-]{8}\.\.\.$/),
        sent_at: expect.stringMatching(ISO),
        expires_at: expect.stringMatching(ISO),
      },
      message: expect.stringContaining(email),
    });
    expect(await sentMail(email)).toHaveLength(2);
    const fresh = await mailedToken(email);
    expect(fresh).not.toBe(inv.token);
    expect(resent.invitation.token_preview).toBe(`${fresh.slice(0, 8)}...`);
    expect(resent.invitation.sent_at > String(before?.sent_at)).toBe(true);
    expect(Date.parse(resent.invitation.expires_at) - Date.parse(resent.invitation.sent_at)).toBe(7 * DAY);

    const invitee = await token(email);
    const old = await withEvents(invitee, () => accept(invitee, inv.token));
    expect(old.res.status).toBe(422);
    expect(old.events).toEqual([expect.objectContaining({ details: { reason: "unknown" } })]);
    await accepted(invitee, fresh);

    const revoked = await invite(w.owner, w.inst.id, uniqEmail("rr"));
    await call("DELETE", `${INV}/${revoked.id}`, { token: w.owner, query: { institution_id: w.inst.id } });
    const expired = await invite(w.owner, w.inst.id, uniqEmail("re"), "cohort_admin", -PAST_EXPIRY);
    for (const id of [inv.id, revoked.id, expired.id]) {
      // 11 minutes on, past the cooldown: refused for its state, not for the cooldown.
      const r = await call("POST", `${INV}/${id}/resend`, {
        token: w.owner,
        body: { institution_id: w.inst.id },
        clockOffsetMs: 11 * 60_000,
      });
      expect(r).toMatchObject({ status: 422, body: { error: expect.any(String) } });
    }
    expect((await call("POST", `${INV}/nope/resend`, { token: w.owner, body: { institution_id: w.inst.id } })).body).toEqual({
      error: "Invitation not found",
    });
  });

  it("a super-admin invitation is resent only by the institution's super admin", async () => {
    const inv = await invite(w.owner, w.inst.id, uniqEmail("sa"), "cohort_super_admin");
    await ageLastMail(w.inst.id, inv.id, 11 * 60);
    const r = await call("POST", `${INV}/${inv.id}/resend`, { token: w.manager, body: { institution_id: w.inst.id } });
    expect(r).toMatchObject({ status: 403, body: { error: "Only the institution's super admin can invite super admins" } });
  });
});

describe("invitations: accept", () => {
  it("grants the invited role: the invitee then sees the institution with it", async () => {
    const email = uniqEmail("joiner");
    const inv = await invite(w.owner, w.inst.id, email, "cohort_super_admin");
    const invitee = await token(email, { superAdmin: true, account: w.account });
    expect(await accepted(invitee, inv.token)).toMatchObject({
      institution: { id: w.inst.id, name: w.inst.name },
      role: "cohort_super_admin",
    });
    const list = ok(await apiClient(invitee).GET(paths.institutions));
    expect(list.institutions).toEqual([expect.objectContaining({ id: w.inst.id, role: "cohort_super_admin", is_super_admin: false })]);
    // …and, holding the status too, manages its invitations.
    expect(
      (await call("POST", INV, { token: invitee, body: { institution_id: w.inst.id, email: uniqEmail(), role: "cohort_admin" } })).status,
    ).toBe(201);
    // Used now: its invitee accepting again hears "already accepted" (docs/joining.md), and nothing is recorded.
    const again = await withEvents(invitee, () => accept(invitee, inv.token));
    expect(again.res).toMatchObject({ status: 409, body: { error: "Invitation already accepted", institution: { name: w.inst.name } } });
    expect(again.events).toEqual([]);
  });

  it("unknown, malformed and expired tokens: 422 with the reason; a failed attempt does not consume it", async () => {
    const email = uniqEmail("late");
    const invitee = await token(email);
    for (const body of [{ token: "A".repeat(43) }, { token: "short" }, { token: 42 }, {}, undefined]) {
      const r = await withEvents(invitee, () => call("POST", ACCEPT, { token: invitee, ...(body !== undefined && { body }) }));
      expect(r.res).toMatchObject({ status: 422, body: { error: "Invalid or expired invitation" } });
      expect(r.events).toEqual([expect.objectContaining({ event_type: "token_validation_failure", details: { reason: "unknown" } })]);
    }
    const inv = await invite(w.owner, w.inst.id, email);
    expect((await accept(w.other, inv.token)).status).toBe(422);
    // Accepted 8 days later: it has expired.
    const r = await withEvents(invitee, () =>
      call("POST", ACCEPT, { token: invitee, body: { token: inv.token }, clockOffsetMs: PAST_EXPIRY }),
    );
    expect(r.res.status).toBe(422);
    expect(r.events).toEqual([expect.objectContaining({ details: { reason: "expired" } })]);

    const fresh = await invite(w.owner, w.inst.id, email);
    expect((await accept(w.outsider, fresh.token)).status).toBe(422);
    await accepted(invitee, fresh.token);
  });

  it("6 simultaneous accepts of one token by its invitee: exactly one 200, the others already accepted, no failure recorded", async () => {
    const email = uniqEmail("rush");
    const inv = await invite(w.owner, w.inst.id, email);
    const invitee = await token(email);
    const { events } = await withEvents(invitee, async () => {
      const results = await Promise.all(Array.from({ length: 6 }, () => accept(invitee, inv.token)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      return results[0] as CallResult;
    });
    expect(events.filter((e) => e.event_type === "invitation_accepted")).toHaveLength(1);
    expect(events.filter((e) => e.event_type === "token_validation_failure")).toEqual([]);
  });

  it("a user who already has access keeps the stronger role; the invitation is consumed", async () => {
    const inst = await createInstitution(w.owner, { name: uniq("Invite U") });
    const email = uniqEmail("double");
    const first = await invite(w.owner, inst.id, email, "cohort_super_admin");
    const second = await invite(w.owner, inst.id, email, "cohort_admin");
    const invitee = await token(email);
    expect((await accepted(invitee, first.token)).role).toBe("cohort_super_admin");
    expect(await accepted(invitee, second.token)).toMatchObject({ role: "cohort_super_admin" });
    expect(ok(await apiClient(invitee).GET(paths.institutions)).institutions).toEqual([
      expect.objectContaining({ id: inst.id, role: "cohort_super_admin" }),
    ]);
    expect(await listActive(w.owner, inst.id)).toEqual([]);
  });
});

describe("invitations: the token stays in the mail", () => {
  it("no response, event, log line or mail subject holds a full token", async () => {
    expect(mailedTokens.length).toBeGreaterThan(20);
    const everything = responses.join("\n");
    const events: string[] = [];
    for (const tok of actorsSeen) events.push(JSON.stringify(await eventsOf(tok)));
    const subjects = (await sentMail()).map((m) => m.subject).join("\n");
    // The handlers' log lines (the gateway runs them and keeps their output).
    const logs = readFileSync(join(stack.logDir, "gateway.log"), "utf8");
    for (const t of mailedTokens) {
      expect(logs).not.toContain(t);
      expect(everything).not.toContain(t);
      expect(events.join("\n")).not.toContain(t);
      expect(subjects).not.toContain(t);
    }
  });
});
