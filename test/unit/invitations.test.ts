/** Pure parts of invitations: tokens, input parsing, statuses, the mail, the pending-limit arithmetic. */
import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.MAIN_TABLE ??= "main";
  process.env.EVENTS_TABLE ??= "events";
});

const { freeSlots, retryAfterSeconds } = await import("../../shared/invitations/issue.js");
const { invitationMail, acceptLink } = await import("../../shared/invitations/message.js");
const { statusOf, strongerRole, toIssued, toListItem } = await import("../../shared/invitations/model.js");
const { invitationParams, parseEmail, tokenSchema } = await import("../../shared/invitations/schema.js");
const { hashToken, newInvitationToken, previewOf } = await import("../../shared/invitations/token.js");
const v = await import("valibot");

describe("tokens", () => {
  it("are 32 random bytes in base64url, stored as SHA-256 hex, previewed as 8 chars and ...", () => {
    const t = newInvitationToken();
    expect(t.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(t.token, "base64url")).toHaveLength(32);
    expect(t.hash).toBe(createHash("sha256").update(t.token).digest("hex"));
    expect(hashToken(t.token)).toBe(t.hash);
    expect(t.preview).toBe(`${t.token.slice(0, 8)}...`);
    expect(previewOf("abcdefghijk")).toBe("abcdefgh...");
    expect(newInvitationToken().token).not.toBe(t.token);
  });

  it("only the issued shape passes the accept schema", () => {
    expect(v.is(tokenSchema, newInvitationToken().token)).toBe(true);
    for (const bad of ["", "short", `${"a".repeat(43)}=`, "a".repeat(44), 42, null]) expect(v.is(tokenSchema, bad)).toBe(false);
  });
});

describe("input", () => {
  it("e-mail is trimmed and lower-cased, and checked", () => {
    expect(parseEmail("  Ada.Lovelace+x@Example.COM ")).toBe("ada.lovelace+x@example.com");
    for (const bad of [
      undefined,
      null,
      7,
      "",
      "   ",
      "ada",
      "ada@",
      "@x.com",
      "a b@x.com",
      "ada@x",
      "ada@x.com#slot#0",
      `${"a".repeat(250)}@x.com`,
    ])
      expect(parseEmail(bad)).toBeUndefined();
  });

  it("parameters come from the body first, then the query; a non-string institution_id is absent", () => {
    expect(invitationParams({ institution_id: "Q", email: "q@x.com" }, { institution_id: "B", role: "cohort_admin" })).toEqual({
      institution_id: "B",
      email: "q@x.com",
      role: "cohort_admin",
    });
    expect(invitationParams({}, { institution_id: 12 })).toEqual({ email: undefined, role: undefined });
    expect(invitationParams({ institution_id: "Q" }, "not an object")).toEqual({ institution_id: "Q", email: undefined, role: undefined });
  });
});

describe("model", () => {
  const now = new Date("2030-01-01T00:00:00.000Z");
  const base = {
    id: "I",
    institution_id: "S",
    email: "a@x.com",
    role: "cohort_admin" as const,
    token_hash: "h",
    token_preview: "abcdefgh...",
    sent_at: "2029-12-30T00:00:00.000Z",
    expires_at: "2030-01-06T00:00:00.000Z",
    created_at: "2029-12-30T00:00:00.000Z",
    created_by: "owner@x.com",
    created_by_id: "u",
    slot: 0,
  };

  it("status: revoked and used win over expired; expiry is exclusive of the instant", () => {
    expect(statusOf(base, now)).toBe("active");
    expect(statusOf({ ...base, expires_at: now.toISOString() }, now)).toBe("expired");
    expect(statusOf({ ...base, used_at: "x", expires_at: "2000-01-01T00:00:00.000Z" }, now)).toBe("used");
    expect(statusOf({ ...base, revoked_at: "x", expires_at: "2000-01-01T00:00:00.000Z" }, now)).toBe("revoked");
  });

  it("views expose no hash and no bookkeeping", () => {
    expect(toListItem(base, now)).toEqual({
      id: "I",
      email: "a@x.com",
      role: "cohort_admin",
      token_preview: "abcdefgh...",
      sent_at: base.sent_at,
      expires_at: base.expires_at,
      used_at: null,
      created_by: "owner@x.com",
      status: "active",
    });
    expect(toIssued(base)).toEqual({
      id: "I",
      email: "a@x.com",
      role: "cohort_admin",
      token_preview: "abcdefgh...",
      expires_at: base.expires_at,
    });
  });

  it("accepting never demotes", () => {
    expect(strongerRole(undefined, "cohort_admin")).toBe("cohort_admin");
    expect(strongerRole("cohort_super_admin", "cohort_admin")).toBe("cohort_super_admin");
    expect(strongerRole("cohort_admin", "cohort_super_admin")).toBe("cohort_super_admin");
  });
});

describe("the invitation mail", () => {
  const token = newInvitationToken().token;
  const mail = invitationMail({
    to: "ada@x.com",
    institutionName: "Acme <script>alert(1)</script> & Co",
    inviterName: 'Olive "O" Owner',
    inviterEmail: "olive@x.com",
    role: "cohort_super_admin",
    token,
    expiresAt: "2030-01-08T09:10:11.123Z",
    appBaseUrl: "https://app.example.com",
  });

  it("holds institution, inviter, role, accept link and expiry in both parts", () => {
    const link = `https://app.example.com/invitations/accept?token=${token}`;
    expect(acceptLink("https://app.example.com", token)).toBe(link);
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("Cohort super admin");
      expect(part).toContain("olive@x.com");
      expect(part).toContain("2030-01-08 09:10:11 UTC");
      expect(part).toContain(link);
    }
    expect(mail.text).toContain("Acme <script>alert(1)</script> & Co");
    expect(mail.to).toBe("ada@x.com");
  });

  it("escapes user-controlled text in HTML and keeps the token out of the subject", () => {
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("Acme &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co");
    expect(mail.html).toContain("Olive &quot;O&quot; Owner");
    expect(mail.subject).not.toContain(token);
    expect(mail.subject).toContain("Acme");
  });
});

describe("the mail defangs every link-like form in user text", () => {
  const forms = [
    "evil。test",
    "evil．test",
    "evil｡test",
    "login.evil。test/path",
    "ｅｖｉｌ．ｔｅｓｔ",
    "203.0.113.5/login",
    "see 10.0.0.1/x now",
    "198。51。100。7/a",
    "http://203.0.113.5/x",
  ];
  const DOT = "[.\u3002\uFF0E\uFF61]";
  const host = new RegExp(`(?:[\\p{L}\\p{N}-]+${DOT})+\\p{L}{2,}`, "u");
  const ipv4 = new RegExp(`\\d{1,3}(?:${DOT}\\d{1,3}){3}`, "u");
  for (const form of forms) {
    it(`in the institution's name and the inviter's: ${form}`, () => {
      const m = invitationMail({
        to: "ada@x.com",
        institutionName: `Acme ${form}`,
        inviterName: `Olive ${form}`,
        inviterEmail: "olive@x.com",
        role: "cohort_admin",
        token: "t".repeat(43),
        expiresAt: "2030-01-08T09:10:11.123Z",
        appBaseUrl: "https://app.example.com",
      });
      // Everything but the accept link and the inviter's own (validated) address.
      for (const part of [m.subject, m.text, m.html]) {
        const user = part
          .replaceAll("https://app.example.com/invitations/accept", "")
          .replaceAll("olive@x.com", "")
          .replaceAll("ada@x.com", "");
        expect(user, part).not.toMatch(host);
        expect(user, part).not.toMatch(ipv4);
        expect(user, part).not.toMatch(/:\/\//);
      }
      expect(m.text).toContain("[.]");
    });
  }
});

describe("pending-limit slots", () => {
  const now = new Date("2030-01-01T00:00:00.000Z");
  const held = (n: number, expires: string) => ({ n, invitation_id: `I${n}`, expires_at: expires });

  it("a slot is free when absent, expired, or beyond a lowered limit", () => {
    expect(freeSlots([], 3, now).sort()).toEqual([0, 1, 2]);
    expect(freeSlots([held(0, "2030-01-02T00:00:00.000Z"), held(2, "2029-12-31T00:00:00.000Z")], 3, now).sort()).toEqual([1, 2]);
    expect(
      freeSlots([held(0, "2031-01-01T00:00:00.000Z"), held(1, "2031-01-01T00:00:00.000Z"), held(5, "2031-01-01T00:00:00.000Z")], 2, now),
    ).toEqual([]);
  });

  it("Retry-After is the seconds until the earliest held slot expires", () => {
    const slots = [held(0, "2030-01-01T01:00:00.000Z"), held(1, "2030-01-01T00:10:00.500Z"), held(2, "2029-01-01T00:00:00.000Z")];
    expect(retryAfterSeconds(slots, 3, now)).toBe(601);
    expect(retryAfterSeconds([], 3, now)).toBe(1);
  });
});
