/**
 * Invitation use cases with the data layer, the audit writer and SES replaced: the contract's check order,
 * the read/write budget, the mail-failure compensation, accept's reasons, and that the token goes nowhere
 * but the mail.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.MAIN_TABLE ??= "main";
  process.env.EVENTS_TABLE ??= "events";
});

vi.mock("../../shared/audit.js", () => ({
  auditItems: vi.fn((_caller: unknown, event: unknown) => [{ audit: event }]),
  draftAudit: vi.fn((_caller: unknown, type: unknown) => (details: unknown) => [{ audit: { type, details } }]),
  recordEvent: vi.fn(async () => {}),
}));
vi.mock("../../shared/institutions/service.js", () => ({ requireVisible: vi.fn() }));
vi.mock("../../shared/institutions/repository.js", () => ({
  getInstitution: vi.fn(),
  grantAccessItems: vi.fn(() => []),
}));
vi.mock("../../shared/invitations/repository.js", () => ({
  getInvitation: vi.fn(),
  getTokenRef: vi.fn(),
  listInvitations: vi.fn(),
  readEmailState: vi.fn(),
  insertInvitation: vi.fn(),
  revokeInvitation: vi.fn(),
  useInvitation: vi.fn(),
  reissueToken: vi.fn(),
}));
vi.mock("../../shared/mail.js", () => ({
  requireMailConfig: vi.fn(() => ({ from: "noreply@x.com", appBaseUrl: "https://app.x.com" })),
  // The mail as built (the real SES request is exercised by the integration tests).
  prepareMail: vi.fn((mail: unknown) => mail),
  sendMail: vi.fn(async () => {}),
}));
vi.mock("../../shared/log.js", () => ({ log: vi.fn() }));

const audit = await import("../../shared/audit.js");
const instService = await import("../../shared/institutions/service.js");
const instRepo = await import("../../shared/institutions/repository.js");
const repo = await import("../../shared/invitations/repository.js");
const mail = await import("../../shared/mail.js");
const { log } = await import("../../shared/log.js");
const { NotFound, toResponse } = await import("../../shared/errors.js");
const { createInvitation, resendInvitation } = await import("../../shared/invitations/issue.js");
const { acceptInvitation, listInvitations, revokeInvitation } = await import("../../shared/invitations/service.js");
const { issueToken } = await import("../../shared/invitations/token.js");
type Caller = import("../../shared/caller.js").Caller;
type Invitation = import("../../shared/invitations/model.js").Invitation;
type Institution = import("../../shared/institutions/model.js").Institution;

/** What reached `sendMail`: the mail itself, `prepareMail` being the identity here. */
const sentMail = (k = 0) => vi.mocked(mail.sendMail).mock.calls[k]?.[0] as unknown as import("../../shared/mail.js").Mail | undefined;

const INST = "01JAAA00000000000000000000";
const INV = "01JBBB00000000000000000000";
const owner: Caller = { id: "owner", email: "owner@x.com", name: "Olive", accountId: "acct", isCohortSuperAdmin: true, ip: "1.1.1.1" };
const institution: Institution = {
  id: INST,
  name: "Acme",
  registration_number: null,
  address: null,
  contact_email: null,
  contact_phone: null,
  settings: {},
  account_id: "acct",
  super_admin_id: "owner",
  created_at: "2030-01-01T00:00:00.000Z",
  updated_at: "2030-01-01T00:00:00.000Z",
  version: 3,
  members: { owner: "cohort_super_admin", manager: "cohort_super_admin", admin: "cohort_admin" },
};
const visible = (caller: Caller) => {
  const role = institution.members[caller.id];
  if (!role) throw new Error("not visible in this test");
  return { institution, role, isSuperAdmin: caller.id === institution.super_admin_id };
};
const manager: Caller = { ...owner, id: "manager", email: "manager@x.com" };
const admin: Caller = { ...owner, id: "admin", email: "admin@x.com" };

const future = () => new Date(Date.now() + 86_400_000).toISOString();
function invitation(over: Partial<Invitation> = {}): Invitation {
  return {
    id: INV,
    institution_id: INST,
    email: "ada@x.com",
    role: "cohort_admin",
    token_hash: "oldhash",
    token_preview: "abcdefgh...",
    sent_at: new Date().toISOString(),
    expires_at: future(),
    created_at: new Date().toISOString(),
    created_by: "owner@x.com",
    created_by_id: "owner",
    slot: 1,
    ...over,
  };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return toResponse(err);
  }
  throw new Error("expected a failure");
}
const events = () => vi.mocked(audit.recordEvent).mock.calls.map(([, e]) => e);

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(instService.requireVisible).mockImplementation(async (caller, id) => {
    if (id !== INST) {
      await audit.recordEvent(caller, {
        type: "unauthorized_institution_access",
        details: { attempted_institution_id: id ?? null, action: "manage_invitations" },
      });
      throw new NotFound("Institution not found or access denied");
    }
    return visible(caller);
  });
  vi.mocked(repo.readEmailState).mockResolvedValue({ member: false, slots: [] });
  vi.mocked(repo.insertInvitation).mockResolvedValue("ok");
  vi.mocked(repo.revokeInvitation).mockResolvedValue({ kind: "ok" });
  vi.mocked(repo.reissueToken).mockResolvedValue({ kind: "ok" });
  vi.mocked(repo.useInvitation).mockResolvedValue({ kind: "ok" });
  vi.mocked(mail.sendMail).mockResolvedValue(undefined);
});

describe("create: check order", () => {
  const body = (over: Record<string, unknown> = {}) => ({ institution_id: INST, email: " Ada@X.com ", role: "cohort_admin", ...over });

  it("unknown institution → 404 with the manage_invitations event, before anything else", async () => {
    const res = await failure(createInvitation(owner, {}, body({ institution_id: "nope", role: "bogus" })));
    expect(res).toMatchObject({ status: 404, body: { error: "Institution not found or access denied" } });
    expect(events()).toEqual([
      { type: "unauthorized_institution_access", details: { attempted_institution_id: "nope", action: "manage_invitations" } },
    ]);
  });

  it("institution_id from the query works too", async () => {
    await createInvitation(owner, { institution_id: INST }, { email: "ada@x.com", role: "cohort_admin" });
    expect(repo.insertInvitation).toHaveBeenCalledOnce();
  });

  it.each([
    ["no cohort-super-admin status", { ...owner, isCohortSuperAdmin: false }],
    ["access role cohort_admin", admin],
  ])("not managing (%s) → 403 + insufficient_privileges, before the role value", async (_, caller) => {
    const res = await failure(createInvitation(caller, {}, body({ role: "bogus" })));
    expect(res).toMatchObject({ status: 403, body: { error: "Super admin access required" } });
    expect(events()).toEqual([
      {
        type: "insufficient_privileges",
        details: { action: "manage_invitations", required_role: "cohort_super_admin", institution_id: INST },
      },
    ]);
  });

  it.each([["bogus"], [undefined], [7]])("role %s → 400, before the limit and the e-mail", async (role) => {
    const res = await failure(createInvitation(owner, {}, body({ role, email: "not-an-email" })));
    expect(res).toMatchObject({ status: 400, body: { error: "Invalid role specified" } });
    expect(repo.readEmailState).not.toHaveBeenCalled();
    expect(events()).toEqual([]);
  });

  it("over the pending limit → 429 + Retry-After + rate_limit_exceeded, before the invitation step", async () => {
    const soon = new Date(Date.now() + 90_000).toISOString();
    vi.mocked(repo.readEmailState).mockResolvedValue({
      member: true,
      slots: [0, 1, 2].map((n) => ({ n, invitation_id: `I${n}`, expires_at: n === 1 ? soon : future() })),
    });
    const res = await failure(createInvitation(manager, {}, body({ role: "cohort_super_admin" })));
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(Number(res.headers["Retry-After"])).toBeGreaterThanOrEqual(89);
    expect(Number(res.headers["Retry-After"])).toBeLessThanOrEqual(90);
    expect(events()).toEqual([{ type: "rate_limit_exceeded", details: { email: "ada@x.com", institution_id: INST, limit: 3 } }]);
    expect(repo.insertInvitation).not.toHaveBeenCalled();
  });

  it.each([[undefined], [""], ["nope"], [42]])("e-mail %s → 422 Email is invalid, without a read", async (email) => {
    const res = await failure(createInvitation(owner, {}, body({ email })));
    expect(res).toMatchObject({ status: 422, body: { errors: ["Email is invalid"] } });
    expect(repo.readEmailState).not.toHaveBeenCalled();
  });

  it("a manager who is not the institution's super admin cannot invite a super admin → 403", async () => {
    const res = await failure(createInvitation(manager, {}, body({ role: "cohort_super_admin" })));
    expect(res).toMatchObject({ status: 403, body: { error: "Only the institution's super admin can invite super admins" } });
    expect(events()).toEqual([
      { type: "insufficient_privileges", details: { action: "manage_invitations", required_role: "super_admin", institution_id: INST } },
    ]);
    await createInvitation(owner, {}, body({ role: "cohort_super_admin" }));
    expect(repo.insertInvitation).toHaveBeenCalledOnce();
  });

  it("an e-mail with access (a member's, or the caller's own) → 422", async () => {
    expect(await failure(createInvitation(owner, {}, body({ email: "OWNER@x.com" })))).toMatchObject({
      status: 422,
      body: { errors: ["Email already has access to this institution"] },
    });
    vi.mocked(repo.readEmailState).mockResolvedValue({ member: true, slots: [] });
    expect(await failure(createInvitation(owner, {}, body()))).toMatchObject({ status: 422 });
    vi.mocked(repo.readEmailState).mockResolvedValue({ member: false, slots: [] });
    vi.mocked(repo.insertInvitation).mockResolvedValue("has_access");
    expect(await failure(createInvitation(owner, {}, body()))).toMatchObject({ status: 422 });
    expect(mail.sendMail).not.toHaveBeenCalled();
  });
});

describe("create: the action", () => {
  it("one Query, one transaction, one mail; the token only in the mail", async () => {
    const res = await createInvitation(owner, {}, { institution_id: INST, email: "Ada@x.com", role: "cohort_admin" });
    expect(repo.readEmailState).toHaveBeenCalledOnce();
    expect(repo.insertInvitation).toHaveBeenCalledOnce();
    const [inv, inviter, items] = vi.mocked(repo.insertInvitation).mock.calls[0] ?? [];
    expect(inviter).toEqual({ id: "owner", email: "owner@x.com" });
    expect(items).toEqual([
      {
        audit: {
          type: "invitation_created",
          details: { invitation_id: inv?.id, institution_id: INST, email: "ada@x.com", role: "cohort_admin" },
        },
      },
    ]);
    const sent = sentMail();
    const token = /token=([A-Za-z0-9_-]{43})/.exec(sent?.text ?? "")?.[1] ?? "";
    expect(token).toHaveLength(43);
    expect(sent?.to).toBe("ada@x.com");
    expect(inv?.token_preview).toBe(`${token.slice(0, 8)}...`);
    expect(JSON.stringify(inv)).not.toContain(token);
    expect(res).toEqual({
      invitation: { id: inv?.id, email: "ada@x.com", role: "cohort_admin", token_preview: inv?.token_preview, expires_at: inv?.expires_at },
      message: "Invitation sent to ada@x.com",
    });
    expect(Date.parse(inv?.expires_at ?? "") - Date.parse(inv?.sent_at ?? "")).toBe(7 * 86_400_000);
    expect(JSON.stringify(res)).not.toContain(token);
  });

  it("a lost slot race reads again and answers 429 once the slots are full", async () => {
    vi.mocked(repo.insertInvitation).mockResolvedValueOnce("slot_taken");
    vi.mocked(repo.readEmailState)
      .mockResolvedValueOnce({ member: false, slots: [] })
      .mockResolvedValueOnce({ member: false, slots: [0, 1, 2].map((n) => ({ n, invitation_id: `I${n}`, expires_at: future() })) });
    const res = await failure(createInvitation(owner, {}, { institution_id: INST, email: "ada@x.com", role: "cohort_admin" }));
    expect(res.status).toBe(429);
    expect(repo.insertInvitation).toHaveBeenCalledOnce();
    expect(events().map((e) => e.type)).toEqual(["rate_limit_exceeded"]);
  });

  it("mail failure → 502, the invitation is withdrawn (token item, slot) with an honest event; no token in logs", async () => {
    vi.mocked(mail.sendMail).mockRejectedValue(Object.assign(new Error("connect ECONNREFUSED"), { name: "Error" }));
    const res = await failure(createInvitation(owner, {}, { institution_id: INST, email: "ada@x.com", role: "cohort_admin" }));
    expect(res).toMatchObject({ status: 502, body: { error: "Failed to send invitation email" } });
    const inv = vi.mocked(repo.insertInvitation).mock.calls[0]?.[0];
    const [revoked, change, items] = vi.mocked(repo.revokeInvitation).mock.calls[0] ?? [];
    expect(revoked?.id).toBe(inv?.id);
    expect(change).toMatchObject({ reason: "email_delivery_failed", expectTokenHash: inv?.token_hash, revokedBy: "owner" });
    expect(items).toEqual([
      {
        audit: {
          type: "invitation_revoked",
          details: { invitation_id: inv?.id, institution_id: INST, email: "ada@x.com", reason: "email_delivery_failed" },
        },
      },
    ]);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(sentMail()?.text ?? "")?.[1] ?? "";
    expect(token).toHaveLength(43);
    expect(JSON.stringify(vi.mocked(log).mock.calls)).not.toContain(token);
  });
});

describe("list", () => {
  it("any user with access; active by default, only used with show_used=true", async () => {
    const now = Date.now();
    const iso = (d: number) => new Date(now + d).toISOString();
    vi.mocked(repo.listInvitations).mockResolvedValue([
      invitation({ id: "A", sent_at: iso(-3000) }),
      invitation({ id: "B", sent_at: iso(-1000) }),
      invitation({ id: "U", used_at: iso(-500) }),
      invitation({ id: "R", revoked_at: iso(-500) }),
      invitation({ id: "E", expires_at: iso(-1) }),
    ]);
    const active = await listInvitations(admin, { institution_id: INST });
    expect(active.invitations.map((i) => [i.id, i.status])).toEqual([
      ["B", "active"],
      ["A", "active"],
    ]);
    const used = await listInvitations(admin, { institution_id: INST, show_used: "true" });
    expect(used.invitations.map((i) => [i.id, i.status])).toEqual([["U", "used"]]);
    expect((await listInvitations(admin, { institution_id: INST, show_used: "TRUE" })).invitations).toHaveLength(2);
    expect(JSON.stringify(active)).not.toContain("oldhash");
  });
});

describe("revoke", () => {
  it("active → revoked with its event; used, revoked, expired → 422; unknown or malformed id → 404", async () => {
    vi.mocked(repo.getInvitation).mockResolvedValue(invitation());
    expect(await revokeInvitation(owner, INV, { institution_id: INST }, undefined)).toEqual({ message: "Invitation revoked" });
    expect(vi.mocked(repo.revokeInvitation).mock.calls[0]?.[2]).toEqual([
      { audit: { type: "invitation_revoked", details: { invitation_id: INV, institution_id: INST, email: "ada@x.com" } } },
    ]);
    for (const over of [{ used_at: "x" }, { revoked_at: "x" }, { expires_at: "2000-01-01T00:00:00.000Z" }]) {
      vi.mocked(repo.getInvitation).mockResolvedValue(invitation(over));
      expect(await failure(revokeInvitation(owner, INV, {}, { institution_id: INST }))).toMatchObject({
        status: 422,
        body: { error: "Failed to revoke invitation" },
      });
    }
    vi.mocked(repo.getInvitation).mockResolvedValue(undefined);
    expect(await failure(revokeInvitation(owner, INV, { institution_id: INST }, undefined))).toMatchObject({
      status: 404,
      body: { error: "Invitation not found" },
    });
    vi.mocked(repo.getInvitation).mockClear();
    expect(await failure(revokeInvitation(owner, "../x", { institution_id: INST }, undefined))).toMatchObject({ status: 404 });
    expect(repo.getInvitation).not.toHaveBeenCalled();
  });

  it("losing a race to accept → 422", async () => {
    vi.mocked(repo.getInvitation).mockResolvedValue(invitation());
    vi.mocked(repo.revokeInvitation).mockResolvedValue({ kind: "refused", current: invitation({ used_at: "x" }) });
    expect(await failure(revokeInvitation(owner, INV, { institution_id: INST }, undefined))).toMatchObject({ status: 422 });
  });
});

describe("resend", () => {
  it("new token, restarted validity, old token replaced, mail again", async () => {
    const old = invitation({ sent_at: "2000-01-01T00:00:00.000Z", expires_at: future() });
    vi.mocked(repo.getInvitation).mockResolvedValue(old);
    const res = await resendInvitation(owner, INV, { institution_id: INST }, undefined);
    const [inv, next, items] = vi.mocked(repo.reissueToken).mock.calls[0] ?? [];
    expect(inv?.token_hash).toBe("oldhash");
    expect(next?.token_hash).not.toBe("oldhash");
    expect(Date.parse(next?.expires_at ?? "") - Date.parse(next?.sent_at ?? "")).toBe(7 * 86_400_000);
    expect(items).toEqual([
      { audit: { type: "invitation_resent", details: { invitation_id: INV, institution_id: INST, email: "ada@x.com" } } },
    ]);
    expect(res.message).toBe("Invitation resent to ada@x.com");
    expect(res.invitation).toMatchObject({
      id: INV,
      token_preview: next?.token_preview,
      sent_at: next?.sent_at,
      expires_at: next?.expires_at,
    });
    expect(mail.sendMail).toHaveBeenCalledOnce();
  });

  it("used, revoked, expired → 422; a super-admin invitation only by the institution's super admin", async () => {
    for (const over of [{ used_at: "x" }, { revoked_at: "x" }, { expires_at: "2000-01-01T00:00:00.000Z" }]) {
      vi.mocked(repo.getInvitation).mockResolvedValue(invitation(over));
      expect((await failure(resendInvitation(owner, INV, { institution_id: INST }, undefined))).status).toBe(422);
    }
    vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ role: "cohort_super_admin" }));
    expect((await failure(resendInvitation(manager, INV, { institution_id: INST }, undefined))).status).toBe(403);
    expect((await failure(resendInvitation(admin, INV, { institution_id: INST }, undefined))).body).toEqual({
      error: "Super admin access required",
    });
  });
});

describe("accept", () => {
  const t = issueToken();
  const ada: Caller = { id: "ada", email: "ada@x.com", name: null, accountId: "other", isCohortSuperAdmin: false, ip: "2.2.2.2" };
  const reasons = () => events().map((e) => (e.type === "token_validation_failure" ? e.details.reason : e.type));

  beforeEach(() => {
    vi.mocked(repo.getTokenRef).mockResolvedValue({ invitation_id: INV, institution_id: INST });
    vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ token_hash: t.hash }));
    vi.mocked(instRepo.getInstitution).mockResolvedValue(institution);
  });

  it("grants the invited role in one transaction and answers with the institution", async () => {
    const res = await acceptInvitation(ada, { token: t.token });
    expect(res).toEqual({ institution: { id: INST, name: "Acme" }, role: "cohort_admin", message: "Invitation accepted" });
    const [, use, items] = vi.mocked(repo.useInvitation).mock.calls[0] ?? [];
    expect(use).toMatchObject({ tokenHash: t.hash, userId: "ada", grant: "cohort_admin" });
    expect(items).toEqual([
      {
        audit: {
          type: "invitation_accepted",
          details: { invitation_id: INV, institution_id: INST, email: "ada@x.com", role: "cohort_admin" },
        },
      },
    ]);
    expect(JSON.stringify([items, vi.mocked(audit.draftAudit).mock.calls])).not.toContain(t.token);
  });

  it("a user who already has a stronger role keeps it; the invitation is consumed", async () => {
    const res = await acceptInvitation({ ...ada, id: "manager" }, { token: t.token });
    expect(res.role).toBe("cohort_super_admin");
    expect(vi.mocked(repo.useInvitation).mock.calls[0]?.[1].grant).toBeUndefined();
  });

  it("every failure is the same 422 with its reason, and writes nothing", async () => {
    const cases: [string, () => void, unknown][] = [
      ["unknown", () => {}, { token: "nope" }],
      ["unknown", () => {}, { token: 5 }],
      ["unknown", () => {}, undefined],
      ["unknown", () => vi.mocked(repo.getTokenRef).mockResolvedValue(undefined), { token: t.token }],
      ["unknown", () => vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ token_hash: "superseded" })), { token: t.token }],
      ["unknown", () => vi.mocked(instRepo.getInstitution).mockResolvedValue(undefined), { token: t.token }],
      ["used", () => vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ token_hash: t.hash, used_at: "x" })), { token: t.token }],
      [
        "revoked",
        () => vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ token_hash: t.hash, revoked_at: "x" })),
        { token: t.token },
      ],
      [
        "expired",
        () => vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ token_hash: t.hash, expires_at: "2000-01-01T00:00:00.000Z" })),
        { token: t.token },
      ],
    ];
    for (const [reason, arrange, body] of cases) {
      vi.clearAllMocks();
      vi.mocked(repo.getTokenRef).mockResolvedValue({ invitation_id: INV, institution_id: INST });
      vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ token_hash: t.hash }));
      vi.mocked(instRepo.getInstitution).mockResolvedValue(institution);
      arrange();
      expect(await failure(acceptInvitation(ada, body))).toMatchObject({ status: 422, body: { error: "Invalid or expired invitation" } });
      expect(reasons()).toEqual([reason]);
      expect(repo.useInvitation).not.toHaveBeenCalled();
    }
    vi.clearAllMocks();
    vi.mocked(repo.getInvitation).mockResolvedValue(invitation({ token_hash: t.hash }));
    expect(await failure(acceptInvitation({ ...ada, email: "eve@x.com" }, { token: t.token }))).toMatchObject({ status: 422 });
    expect(await failure(acceptInvitation({ ...ada, email: "" }, { token: t.token }))).toMatchObject({ status: 422 });
    expect(reasons()).toEqual(["email_mismatch", "email_mismatch"]);
    expect(JSON.stringify(events())).not.toContain(t.token);
  });

  it("losing the race to another accept → 422 used; a stale institution version → retried", async () => {
    vi.mocked(repo.useInvitation).mockResolvedValueOnce({ kind: "refused", current: invitation({ token_hash: t.hash, used_at: "x" }) });
    expect(await failure(acceptInvitation(ada, { token: t.token }))).toMatchObject({ status: 422 });
    expect(reasons()).toEqual(["used"]);
    vi.mocked(repo.useInvitation).mockResolvedValueOnce({ kind: "retry" }).mockResolvedValueOnce({ kind: "ok" });
    expect((await acceptInvitation(ada, { token: t.token })).role).toBe("cohort_admin");
    expect(repo.useInvitation).toHaveBeenCalledTimes(3);
  });
});
