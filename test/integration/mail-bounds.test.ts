/**
 * Issue 14, point 3 (docs/contract/README.md, "Mail volume is bounded"), with the local stack's defaults: a resend no
 * sooner than 600 s after that invitation's last mail, at most 100 invitation mails (create and resend) per
 * institution per UTC hour, at most 10 per (institution, e-mail) per UTC day. Each answers 429
 * `{"error":"Too many invitation e-mails, try again later"}` with a positive integer `Retry-After` and
 * records `rate_limit_exceeded` `{email, institution_id, limit, scope}`; the spec's pending limit keeps its
 * message and now carries `scope: "pending"`. A refused request sends no mail and stores no invitation.
 * Each new bound holds under parallel requests: exactly the mails it allows leave, counted in the local SES
 * and in the stored invitations and events.
 *
 * The hourly and daily tests start well inside one UTC hour or day (`withinOneWindow`), so that the
 * window cannot turn over while they count.
 */
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../shared/audit.js";
import { type CallResult, call, sentMail, token, uniq, uniqEmail } from "../support/api.js";
import {
  ACCEPT,
  ageLastMail,
  createInstitution,
  INV,
  invite,
  lastMailedToken,
  revoke,
  storedInvitation,
  storedInvitations,
  withinOneWindow,
} from "../support/flows.js";
import { eventsOf } from "./helpers.js";

const TOO_MANY_MAILS = { error: "Too many invitation e-mails, try again later" };
const COOLDOWN = 600;
const HOURLY = 100;
const DAILY = 10;

async function owner(): Promise<string> {
  return token(uniqEmail("owner"), { superAdmin: true, account: uniq("acct"), name: "Olive Owner" });
}

const create = (tok: string, institutionId: string, email: string) =>
  call("POST", INV, { token: tok, body: { institution_id: institutionId, email, role: "cohort_admin" } });
const resend = (tok: string, institutionId: string, id: string) =>
  call("POST", `${INV}/${id}/resend`, { token: tok, body: { institution_id: institutionId } });

/** `Retry-After` as the contract gives it: a positive integer number of seconds, at most `max`. */
function expectRetryAfter(res: CallResult, max: number): void {
  const value = res.headers["retry-after"] ?? "";
  expect(value, "Retry-After").toMatch(/^[1-9]\d*$/);
  expect(Number(value)).toBeLessThanOrEqual(max);
}

/** The caller's `rate_limit_exceeded` events about `institutionId`, oldest first. */
async function limitEvents(tok: string, institutionId: string): Promise<StoredEvent[]> {
  return (await eventsOf(tok))
    .filter((e) => e.event_type === "rate_limit_exceeded" && e.details.institution_id === institutionId)
    .reverse();
}

/** Runs `fn` over `items`, `width` at a time (setup that needs not race). */
async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  return out;
}

/** How many of the local SES's mails went to one of `emails`. */
async function mailsTo(emails: readonly string[]): Promise<number> {
  const wanted = new Set(emails);
  return (await sentMail()).filter((m) => m.destination.to.some((a) => wanted.has(a.toLowerCase()))).length;
}

describe("the pending limit carries its scope", () => {
  it("the 4th active invitation for one e-mail: 429 with its own message, Retry-After, and scope 'pending'", async () => {
    const tok = await owner();
    const inst = await createInstitution(tok);
    const email = uniqEmail("pending");
    for (let i = 0; i < 3; i++) await invite(tok, inst.id, email);
    const res = await create(tok, inst.id, email);
    expect(res).toMatchObject({ status: 429, body: { error: "Too many pending invitations for this email" } });
    expectRetryAfter(res, 7 * 86_400);
    expect((await limitEvents(tok, inst.id)).map((e) => e.details)).toEqual([
      { email, institution_id: inst.id, limit: 3, scope: "pending" },
    ]);
    expect(await sentMail(email)).toHaveLength(3);
    expect(await storedInvitations(inst.id, email)).toHaveLength(3);
  });
});

describe("resend cooldown", () => {
  it("a resend within 600 s of the invitation's mail: 429, Retry-After ≤ 600, scope 'resend'; no mail, the token unchanged", async () => {
    const tok = await owner();
    const inst = await createInstitution(tok);
    const email = uniqEmail("cool");
    const id = await invite(tok, inst.id, email);
    const before = await storedInvitation(inst.id, id);
    const res = await resend(tok, inst.id, id);
    expect({ status: res.status, body: res.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
    expectRetryAfter(res, COOLDOWN);
    expect((await limitEvents(tok, inst.id)).map((e) => e.details)).toEqual([
      { email, institution_id: inst.id, limit: expect.any(Number), scope: "resend" },
    ]);
    expect(await sentMail(email)).toHaveLength(1);
    const after = await storedInvitation(inst.id, id);
    expect(after?.token_hash).toBe(before?.token_hash);
    expect(after?.sent_at).toBe(before?.sent_at);
    // The mailed token still works: nothing was reissued.
    const invitee = await token(email);
    expect((await call("POST", ACCEPT, { token: invitee, body: { token: await lastMailedToken(email) } })).status).toBe(200);
  });

  it("counts from the last mail: once it is 11 minutes old a resend goes, and the next one waits again", async () => {
    const tok = await owner();
    const inst = await createInstitution(tok);
    const email = uniqEmail("again");
    const id = await invite(tok, inst.id, email);
    await ageLastMail(inst.id, id, COOLDOWN + 60);
    expect((await resend(tok, inst.id, id)).status).toBe(200);
    expect(await sentMail(email)).toHaveLength(2);
    const again = await resend(tok, inst.id, id);
    expect({ status: again.status, body: again.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
    expectRetryAfter(again, COOLDOWN);
    expect(await sentMail(email)).toHaveLength(2);
  });

  it("race: 20 parallel resends right after the invitation's mail send nothing", async () => {
    const tok = await owner();
    const inst = await createInstitution(tok);
    const email = uniqEmail("burst");
    const id = await invite(tok, inst.id, email);
    const results = await Promise.all(Array.from({ length: 20 }, () => resend(tok, inst.id, id)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(429));
    expect(await sentMail(email)).toHaveLength(1);
    const events = await limitEvents(tok, inst.id);
    expect(events.map((e) => e.details.scope)).toEqual(Array(20).fill("resend"));
    expect((await eventsOf(tok)).filter((e) => e.event_type === "invitation_resent")).toEqual([]);
  });

  it("race: 20 parallel resends once the cooldown has passed send exactly one mail", async () => {
    const tok = await owner();
    const inst = await createInstitution(tok);
    const email = uniqEmail("burst");
    const id = await invite(tok, inst.id, email);
    await ageLastMail(inst.id, id, COOLDOWN + 60);
    const results = await Promise.all(Array.from({ length: 20 }, () => resend(tok, inst.id, id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(429)]);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body).toEqual(TOO_MANY_MAILS);
      expectRetryAfter(r, COOLDOWN);
    }
    expect(await sentMail(email)).toHaveLength(2);
    expect((await limitEvents(tok, inst.id)).map((e) => e.details.scope)).toEqual(Array(19).fill("resend"));
    expect((await eventsOf(tok)).filter((e) => e.event_type === "invitation_resent")).toHaveLength(1);
    // The one mail that left carries the token now stored.
    const invitee = await token(email);
    expect((await call("POST", ACCEPT, { token: invitee, body: { token: await lastMailedToken(email) } })).status).toBe(200);
  });
});

describe("per-recipient daily bound", () => {
  it(
    "create→revoke cycles: the 11th mail to one address in an institution in a UTC day is refused; in another institution the mailbox bound refuses it",
    async () => {
      await withinOneWindow("day", 3 * 60_000);
      const tok = await owner();
      const inst = await createInstitution(tok);
      const email = uniqEmail("cycled");
      for (let i = 0; i < DAILY; i++) await revoke(tok, inst.id, await invite(tok, inst.id, email));
      expect(await sentMail(email)).toHaveLength(DAILY);

      const res = await create(tok, inst.id, email);
      expect({ status: res.status, body: res.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
      expectRetryAfter(res, 86_400);
      expect((await limitEvents(tok, inst.id)).map((e) => e.details)).toEqual([
        { email, institution_id: inst.id, limit: DAILY, scope: "recipient_daily" },
      ]);
      expect(await sentMail(email)).toHaveLength(DAILY);
      expect(await storedInvitations(inst.id, email)).toHaveLength(DAILY);

      // Elsewhere the per-institution count starts afresh, but the mailbox's own daily bound (issue 25,
      // docs/security.md: 10 per mailbox per UTC day across the service) is reached too.
      const other = await createInstitution(tok);
      const elsewhere = await create(tok, other.id, email);
      expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
      expect((await limitEvents(tok, other.id)).map((e) => e.details)).toEqual([
        { email, institution_id: other.id, limit: DAILY, scope: "mailbox_daily" },
      ]);
      expect(await sentMail(email)).toHaveLength(DAILY);
    },
    5 * 60_000,
  );

  it(
    "race: with 9 mails sent, 6 parallel creates for the address send exactly one more",
    async () => {
      await withinOneWindow("day", 3 * 60_000);
      const tok = await owner();
      const inst = await createInstitution(tok);
      const email = uniqEmail("cycled");
      for (let i = 0; i < DAILY - 1; i++) await revoke(tok, inst.id, await invite(tok, inst.id, email));
      // At most one of them can be active, so the pending limit (3) never decides.
      const results = await Promise.all(Array.from({ length: 6 }, () => create(tok, inst.id, email)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 429, 429, 429, 429, 429]);
      for (const r of results.filter((x) => x.status === 429)) {
        expect(r.body).toEqual(TOO_MANY_MAILS);
        expectRetryAfter(r, 86_400);
      }
      expect(await sentMail(email)).toHaveLength(DAILY);
      expect(await storedInvitations(inst.id, email)).toHaveLength(DAILY);
      expect((await limitEvents(tok, inst.id)).map((e) => e.details)).toEqual(
        Array(5).fill({ email, institution_id: inst.id, limit: DAILY, scope: "recipient_daily" }),
      );
    },
    5 * 60_000,
  );
});

describe("per-institution hourly bound", () => {
  it(
    "the 101st invitation mail of an institution in a UTC hour is refused, for a create and for a resend; no mail, nothing stored",
    async () => {
      await withinOneWindow("hour", 4 * 60_000);
      const tok = await owner();
      const inst = await createInstitution(tok);
      const emails = Array.from({ length: HOURLY }, () => uniqEmail("hourly"));
      const made = await inBatches(emails, 8, (email) => create(tok, inst.id, email));
      expect(made.map((r) => r.status)).toEqual(Array(HOURLY).fill(201));

      const extra = uniqEmail("hourly-extra");
      const res = await create(tok, inst.id, extra);
      expect({ status: res.status, body: res.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
      expectRetryAfter(res, 3_600);
      expect(await sentMail(extra)).toEqual([]);
      expect(await storedInvitations(inst.id, extra)).toEqual([]);

      // A resend is an invitation mail too: past its own cooldown, it meets the hourly bound.
      const first = made[0]?.body.invitation.id as string;
      await ageLastMail(inst.id, first, COOLDOWN + 60);
      const again = await resend(tok, inst.id, first);
      expect({ status: again.status, body: again.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
      expectRetryAfter(again, 3_600);

      expect(await mailsTo([...emails, extra])).toBe(HOURLY);
      expect((await limitEvents(tok, inst.id)).map((e) => e.details)).toEqual([
        { email: extra, institution_id: inst.id, limit: HOURLY, scope: "institution_hourly" },
        { email: emails[0], institution_id: inst.id, limit: HOURLY, scope: "institution_hourly" },
      ]);
    },
    8 * 60_000,
  );

  it(
    "race: with 90 mails sent, 20 parallel creates to new addresses send exactly 10",
    async () => {
      await withinOneWindow("hour", 4 * 60_000);
      const tok = await owner();
      const inst = await createInstitution(tok);
      const first = Array.from({ length: HOURLY - 10 }, () => uniqEmail("hourly"));
      const made = await inBatches(first, 8, (email) => create(tok, inst.id, email));
      expect(made.map((r) => r.status)).toEqual(Array(HOURLY - 10).fill(201));

      const racing = Array.from({ length: 20 }, () => uniqEmail("hourly-race"));
      const results = await Promise.all(racing.map((email) => create(tok, inst.id, email)));
      expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), ...Array(10).fill(429)]);
      for (const r of results.filter((x) => x.status === 429)) {
        expect(r.body).toEqual(TOO_MANY_MAILS);
        expectRetryAfter(r, 3_600);
      }
      const refused = racing.filter((_, i) => results[i]?.status === 429);
      expect(await mailsTo([...first, ...racing])).toBe(HOURLY);
      expect(await mailsTo(refused)).toBe(0);
      expect(await storedInvitations(inst.id)).toHaveLength(HOURLY);
      expect(
        (await limitEvents(tok, inst.id)).map((e) => e.details).sort((a, b) => String(a.email).localeCompare(String(b.email))),
      ).toEqual(refused.sort().map((email) => ({ email, institution_id: inst.id, limit: HOURLY, scope: "institution_hourly" })));
    },
    8 * 60_000,
  );
});
