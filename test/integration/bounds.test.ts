/**
 * Issue 25 (docs/security.md), against the local stack with its defaults: bounds that hold across
 * institutions (10 invitation mails per mailbox per UTC day, `+tag` folded; 200 per account per UTC
 * hour; 100 institutions created per account per UTC day), the probing bound (more than 30 refusals in a
 * minute → 429 `refused_requests` until the minute ends, recorded once), recorded values cleaned,
 * membership by own properties only, exact group claims, `email_verified` on accept. Each bound answers
 * 429 with `Retry-After` and `rate_limit_exceeded {…, scope}`, and holds under parallel requests.
 *
 * The account-wide counters are brought near their limit by writing the counter item the bound reads (as
 * `ageLastMail` ages an invitation), then the last few are raced for over HTTP.
 */
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../shared/audit.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { eventKeys, keys } from "../../shared/tables.js";
import { type CallResult, call, sentMail, testNow, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, createInstitution, EVENTS, INST, INV, invite, lastMailedToken, revoke, withinOneWindow } from "../support/flows.js";
import { idClaims, signJwt } from "../support/jwt.js";
import { eventsOf, userIdOf } from "./helpers.js";

const TOO_MANY_MAILS = { error: "Too many invitation e-mails, try again later" };
const TOO_MANY_INSTITUTIONS = { error: "Too many institutions created today, try again later" };
const TOO_MANY_REFUSALS = { error: "Too many refused requests, try again later" };
const NOT_FOUND = { error: "Institution not found or access denied" };

const owner = (account = uniq("acct")) => token(uniqEmail("owner"), { superAdmin: true, account, name: "Olive Owner" });
const create = (tok: string, institutionId: string, email: string) =>
  call("POST", INV, { token: tok, body: { institution_id: institutionId, email, role: "cohort_admin" } });

function expectRetryAfter(res: CallResult, max: number): void {
  const value = res.headers["retry-after"] ?? "";
  expect(value, "Retry-After").toMatch(/^[1-9]\d*$/);
  expect(Number(value)).toBeLessThanOrEqual(max);
}

const limitEvents = async (tok: string, scope: string): Promise<StoredEvent[]> =>
  (await eventsOf(tok)).filter((e) => e.event_type === "rate_limit_exceeded" && e.details.scope === scope);

/** Mail the local SES accepted for any address of the mailbox `local@domain` (`local+tag@domain` included). */
async function mailsToMailbox(local: string, domain: string): Promise<number> {
  const mailbox = new RegExp(`^${local}(\\+[^@]*)?@${domain.replace(/\./g, "\\.")}$`, "i");
  return (await sentMail()).filter((m) => m.destination.to.some((a) => mailbox.test(a))).length;
}

/** Sets a counter of the main table, as that many counted writes would have left it. */
async function seedCounter(key: { pk: string; sk: string }, attribute: string, value: number): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: config.tables.main,
      Key: key,
      UpdateExpression: "SET #n = :n",
      ExpressionAttributeNames: { "#n": attribute },
      ExpressionAttributeValues: { ":n": value },
    }),
  );
}

// The test's own time: withinOneWindow may have moved its requests into the next window.
const hour = () => testNow().toISOString().slice(0, 13);
const day = () => testNow().toISOString().slice(0, 10);

describe("mail bounds across institutions", () => {
  it("sub-addresses are one mailbox: victim+1…+12 from one institution, the 11th mail is refused with scope mailbox_daily", async () => {
    await withinOneWindow("day", 2 * 60_000);
    const tok = await owner();
    const inst = await createInstitution(tok);
    const local = uniq("victim");
    const domain = `${uniq("target")}.test`;
    for (let i = 1; i <= 10; i++) await invite(tok, inst.id, `${local}+${i}@${domain}`);
    const res = await create(tok, inst.id, `${local}+11@${domain}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
    expectRetryAfter(res, 86_400);
    // Case and tag alike: the same mailbox.
    expect((await create(tok, inst.id, `${local.toUpperCase()}+12@${domain.toUpperCase()}`)).status).toBe(429);
    expect(await mailsToMailbox(local, domain)).toBe(10);
    expect((await limitEvents(tok, "mailbox_daily")).map((e) => e.details)).toEqual([
      { email: `${local}+12@${domain}`, institution_id: inst.id, limit: 10, scope: "mailbox_daily" },
      { email: `${local}+11@${domain}`, institution_id: inst.id, limit: 10, scope: "mailbox_daily" },
    ]);
  });

  it("fair bounds: one tenant spends its 10 mails to a person; another tenant can still invite that person", async () => {
    await withinOneWindow("day", 2 * 60_000);
    const email = uniqEmail("shared");
    const [first, second] = [await owner(), await owner()];
    const firstInst = await createInstitution(first);
    for (let i = 0; i < 10; i++) await revoke(first, firstInst.id, await invite(first, firstInst.id, email));
    // The first tenant's bound holds across its institutions.
    const firstOther = await createInstitution(first);
    const refused = await create(first, firstOther.id, email);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 429, body: TOO_MANY_MAILS });
    expect((await limitEvents(first, "mailbox_daily")).map((e) => e.details)).toEqual([
      { email, institution_id: firstOther.id, limit: 10, scope: "mailbox_daily" },
    ]);
    // Another tenant's mail to the same person is its own count: the first tenant cannot block it.
    const secondInst = await createInstitution(second);
    const invited = await create(second, secondInst.id, email);
    expect(invited.status, invited.text).toBe(201);
    expect(await sentMail(email)).toHaveLength(11);
  });

  it("three accounts' institutions cycling invite/revoke at one address: 10 mails each, 30 in all reach it", async () => {
    await withinOneWindow("day", 2 * 60_000);
    const email = uniqEmail("cycled");
    const owners = await Promise.all([owner(), owner(), owner()]);
    const insts = await Promise.all(owners.map((t) => createInstitution(t)));
    const sent = [0, 0, 0];
    const refused: CallResult[] = [];
    for (let round = 0; round < 11; round++) {
      for (const [i, tok] of owners.entries()) {
        const inst = insts[i] as { id: string };
        const res = await create(tok, inst.id, email);
        if (res.status === 429) {
          refused.push(res);
          continue;
        }
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        sent[i] = (sent[i] ?? 0) + 1;
        await revoke(tok, inst.id, res.body.invitation.id);
      }
    }
    expect(sent).toEqual([10, 10, 10]);
    expect(refused.map((r) => ({ status: r.status, body: r.body }))).toEqual(Array(3).fill({ status: 429, body: TOO_MANY_MAILS }));
    expect(await sentMail(email)).toHaveLength(30);
  });

  it("race: the service-wide ceiling, 50 mails a day per mailbox: at 48, 6 tenants racing send exactly 2; scope mailbox_daily_ceiling", async () => {
    await withinOneWindow("day", 2 * 60_000);
    const local = uniq("ceiling");
    const domain = `${uniq("target")}.test`;
    await seedCounter(keys.mailboxDailyMails(`${local}@${domain}`, day()), "mails", 48);
    const owners = await Promise.all(Array.from({ length: 6 }, () => owner()));
    const insts = await Promise.all(owners.map((t) => createInstitution(t)));
    const results = await Promise.all(insts.map((inst, i) => create(owners[i] as string, inst.id, `${local}+t${i}@${domain}`)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body).toEqual(TOO_MANY_MAILS);
      expectRetryAfter(r, 86_400);
    }
    expect(await mailsToMailbox(local, domain)).toBe(2);
    const ceilings = (await Promise.all(owners.map((t) => limitEvents(t, "mailbox_daily_ceiling")))).flat();
    expect(ceilings.map((e) => e.details.limit)).toEqual([50, 50, 50, 50]);
  });

  it("race: with 8 mails to a mailbox, 6 parallel invitations from 6 institutions to its sub-addresses send exactly 2", async () => {
    await withinOneWindow("day", 2 * 60_000);
    const local = uniq("raced");
    const domain = `${uniq("target")}.test`;
    const tok = await owner();
    const first = await createInstitution(tok);
    for (let i = 0; i < 8; i++) await invite(tok, first.id, `${local}+${i}@${domain}`);
    const insts = await Promise.all(Array.from({ length: 6 }, () => createInstitution(tok)));
    const results = await Promise.all(insts.map((inst, i) => create(tok, inst.id, `${local}+r${i}@${domain}`)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    for (const r of results.filter((x) => x.status === 429)) expect(r.body).toEqual(TOO_MANY_MAILS);
    expect(await mailsToMailbox(local, domain)).toBe(10);
    expect(await limitEvents(tok, "mailbox_daily")).toHaveLength(4);
  });

  it("race: an account at 190 mails this hour, 20 parallel invitations from its institutions send exactly 10; scope account_hourly", async () => {
    await withinOneWindow("hour", 2 * 60_000);
    const account = uniq("acct");
    const tok = await owner(account);
    const insts = await Promise.all([createInstitution(tok), createInstitution(tok)]);
    await seedCounter(keys.accountHourlyMails(account, hour()), "mails", 190);
    const emails = Array.from({ length: 20 }, () => uniqEmail("hourly"));
    const results = await Promise.all(emails.map((email, i) => create(tok, (insts[i % 2] as { id: string }).id, email)));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), ...Array(10).fill(429)]);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body).toEqual(TOO_MANY_MAILS);
      expectRetryAfter(r, 3_600);
    }
    const refused = emails.filter((_, i) => results[i]?.status === 429);
    let mailed = 0;
    for (const email of emails) mailed += (await sentMail(email)).length;
    expect(mailed).toBe(10);
    const events = await limitEvents(tok, "account_hourly");
    expect(events.map((e) => e.details.email).sort()).toEqual(refused.sort());
    expect(events.every((e) => e.details.limit === 200)).toBe(true);
    // Another account is another count.
    const other = await owner();
    expect((await create(other, (await createInstitution(other)).id, uniqEmail("elsewhere"))).status).toBe(201);
  });
});

describe("institution creation per account per day", () => {
  it("race: an account at 95 institutions today, 10 parallel creates make exactly 5; the rest 429 institution_daily, nothing stored", async () => {
    await withinOneWindow("day", 2 * 60_000);
    const account = uniq("acct");
    const tok = await owner(account);
    await seedCounter(keys.accountDailyInstitutions(account, day()), "institutions", 95);
    const names = Array.from({ length: 10 }, () => uniq("Daily"));
    const results = await Promise.all(names.map((name) => call("POST", INST, { token: tok, body: { institution: { name } } })));
    expect(results.map((r) => r.status).sort()).toEqual([...Array(5).fill(201), ...Array(5).fill(429)]);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body).toEqual(TOO_MANY_INSTITUTIONS);
      expectRetryAfter(r, 86_400);
    }
    const listed = (await call("GET", INST, { token: tok })).body.institutions.map((i: { name: string }) => i.name);
    expect(listed.sort()).toEqual(names.filter((_, i) => results[i]?.status === 201).sort());
    const events = await limitEvents(tok, "institution_daily");
    expect(events.map((e) => e.details)).toEqual(Array(5).fill({ limit: 100, scope: "institution_daily" }));
    expect((await eventsOf(tok)).filter((e) => e.event_type === "institution_created")).toHaveLength(5);
  });
});

describe("probing is bounded", () => {
  it("race: 45 parallel looks at another account's institution: 30 answered 404 and recorded, 15 answered 429 until the minute ends, recorded once", async () => {
    await withinOneWindow("minute", 59_000);
    const victim = await owner();
    const inst = await createInstitution(victim);
    const prober = await owner();
    const results = await Promise.all(Array.from({ length: 45 }, () => call("GET", `${INST}/${inst.id}`, { token: prober })));
    expect(results.filter((r) => r.status === 404).map((r) => r.body)).toEqual(Array(30).fill(NOT_FOUND));
    const bounded = results.filter((r) => r.status === 429);
    expect(bounded).toHaveLength(15);
    for (const r of bounded) {
      expect(r.body).toEqual(TOO_MANY_REFUSALS);
      expectRetryAfter(r, 60);
    }
    const probes = (await eventsOf(prober)).filter((e) => e.event_type === "unauthorized_institution_access");
    expect(probes).toHaveLength(30);
    const once = await limitEvents(prober, "refused_requests");
    expect(once.map((e) => e.details)).toEqual([{ limit: 30, scope: "refused_requests" }]);
    // The owner's trail holds the 30 probes and the one bound, not 45.
    const ownerView = await call("GET", EVENTS, { token: victim, query: { user_id: await userIdOf(prober), limit: 200 } });
    const types = ownerView.body.events.map((e: { event_type: string }) => e.event_type).sort();
    expect(types).toEqual(["rate_limit_exceeded", ...Array(30).fill("unauthorized_institution_access")]);
    // Successful requests never meet the bound.
    expect((await call("GET", INST, { token: prober })).status).toBe(200);
  });

  it("403s and failed invitation tokens count too: the 31st refusal of any kind in a minute is 429", async () => {
    await withinOneWindow("minute", 59_000);
    const account = uniq("acct");
    const plain = await token(uniqEmail("plain"), { account });
    for (let i = 0; i < 10; i++)
      expect((await call("POST", INST, { token: plain, body: { institution: { name: "x" } } })).status).toBe(403);
    for (let i = 0; i < 10; i++) expect((await call("GET", EVENTS, { token: plain })).status).toBe(403);
    for (let i = 0; i < 10; i++) expect((await call("POST", ACCEPT, { token: plain, body: { token: "made-up" } })).status).toBe(422);
    const res = await call("POST", ACCEPT, { token: plain, body: { token: "made-up" } });
    expect({ status: res.status, body: res.body }).toEqual({ status: 429, body: TOO_MANY_REFUSALS });
    expect((await call("GET", EVENTS, { token: plain })).status).toBe(429);
    const failures = (await eventsOf(plain)).filter((e) => e.event_type === "token_validation_failure");
    expect(failures).toHaveLength(10);
    expect(await limitEvents(plain, "refused_requests")).toHaveLength(1);
    // Counted per caller: a colleague in the same account is not bounded.
    const colleague = await token(uniqEmail("colleague"), { account });
    expect((await call("POST", ACCEPT, { token: colleague, body: { token: "made-up" } })).status).toBe(422);
  });

  it("mail-bound 429s count too: a flood past the pending limit records 30 rate_limit_exceeded, then one refused_requests, no more", async () => {
    await withinOneWindow("minute", 25_000);
    const tok = await owner();
    const inst = await createInstitution(tok);
    const email = uniqEmail("flooded");
    for (let i = 0; i < 3; i++) await invite(tok, inst.id, email);
    const results = await Promise.all(Array.from({ length: 40 }, () => create(tok, inst.id, email)));
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(429));
    const bounded = results.filter((r) => r.body?.error === TOO_MANY_REFUSALS.error);
    expect(bounded).toHaveLength(10);
    for (const r of bounded) expectRetryAfter(r, 60);
    expect(await limitEvents(tok, "pending")).toHaveLength(30);
    expect((await limitEvents(tok, "refused_requests")).map((e) => e.details)).toEqual([{ limit: 30, scope: "refused_requests" }]);
  });
});

describe("recorded values are clean", () => {
  it("a path id with bidi overrides and zero-width characters is recorded cut to 64 code points, each Cc/Cf as U+FFFD, on one line", async () => {
    const prober = await owner();
    const forged = `\u202Eecnatsni\u202D olive@acme.test deleted institution 'Acme College'\u200B\u2028${"x".repeat(100)}`;
    const res = await call("GET", `${INST}/${encodeURIComponent(forged)}`, { token: prober });
    expect(res.status).toBe(404);
    const [event] = (await eventsOf(prober)).filter((e) => e.event_type === "unauthorized_institution_access");
    const recorded = String(event?.details.attempted_institution_id);
    expect([...recorded]).toHaveLength(64);
    expect(recorded).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    expect(recorded.startsWith("\ufffdecnatsni\ufffd olive@acme.test")).toBe(true);
    expect(event?.description).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
  });

  it("the export's filters are recorded cut and on one line: event_type of 6,000 characters with CR and LF", async () => {
    const admin = await owner();
    const eventType = `${"a".repeat(3000)}\r\nforged line\r\n${"b".repeat(3000)}`;
    const res = await call("GET", `${EVENTS}/export`, { token: admin, query: { event_type: eventType } });
    expect(res.status).toBe(200);
    const [exported] = (await eventsOf(admin)).filter((e) => e.event_type === "security_events_exported");
    const recorded = String((exported?.details.filters as Record<string, unknown> | undefined)?.event_type);
    expect([...recorded]).toHaveLength(64);
    expect(recorded).toBe("a".repeat(64));
    const crlf = `${"a".repeat(60)}\r\nx`;
    await call("GET", `${EVENTS}/export`, { token: admin, query: { event_type: crlf } });
    const [again] = (await eventsOf(admin)).filter((e) => e.event_type === "security_events_exported");
    expect((again?.details.filters as Record<string, unknown> | undefined)?.event_type).toBe(`${"a".repeat(60)}\ufffd\ufffdx`);
  });

  it("a full export's filters are stored and echoed as recorded: cut to 64 code points, Cc/Cf and invisible fillers as U+FFFD", async () => {
    const admin = await owner();
    const eventType = `${"a".repeat(60)}\u3164\r\n${"b".repeat(100)}`;
    const userId = `u\u115F\u1160\uFFA0\u200B\u2028x`;
    const res = await call("POST", `${EVENTS}/exports`, {
      token: admin,
      body: { format: "jsonl", event_type: eventType, user_id: userId },
    });
    expect(res.status, res.text).toBe(202);
    const clean = { event_type: `${"a".repeat(60)}\ufffd\ufffd\ufffdb`, user_id: "u\ufffd\ufffd\ufffd\ufffd\ufffdx" };
    expect(res.body.export.filters).toMatchObject(clean);
    const shown = await call("GET", `${EVENTS}/exports/${res.body.export.id}`, { token: admin });
    expect(shown.body.export.filters).toMatchObject(clean);
    const [exported] = (await eventsOf(admin)).filter((e) => e.event_type === "security_events_exported");
    expect(exported?.details.filters).toMatchObject(clean);
  });

  it("a name claim with Hangul fillers and other invisible characters is recorded with each as U+FFFD, in events and in the administrators list", async () => {
    const account = uniq("acct");
    const name = `\u3164\u115F\u1160\uFFA0\u034F\u2800Eve\uFE0F`;
    const tok = signJwt(idClaims({ sub: uniq("sub"), name, "custom:account_id": account, "cognito:groups": ["cohort_super_admin"] }));
    const inst = await createInstitution(tok);
    const [event] = (await eventsOf(tok)).filter((e) => e.event_type === "institution_created");
    expect(event?.user_name).toBe(`${"\ufffd".repeat(6)}Eve\ufffd`);
    const listed = await call("GET", `${INST}/${inst.id}/administrators`, { token: tok });
    expect(listed.body.administrators[0]?.name).toBe(`${"\ufffd".repeat(6)}Eve\ufffd`);
  });

  it("an actor's name claim with bidi controls and line breaks is recorded clean and cut", async () => {
    const name = `Eve\u202E\u2028${"e".repeat(100)}`;
    const tok = signJwt(idClaims({ sub: uniq("sub"), name, "custom:account_id": uniq("acct") }));
    expect((await call("GET", `${INST}/${uniq("nope")}`, { token: tok })).status).toBe(404);
    const [event] = await eventsOf(tok);
    expect(event?.user_name).toBe(`Eve\ufffd\ufffd${"e".repeat(59)}`);
  });
});

describe("membership by own properties only", () => {
  for (const sub of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    it(`a token whose sub is '${sub}' sees nothing of another account's institution`, async () => {
      const victim = await owner();
      const inst = await createInstitution(victim);
      const tok = signJwt(idClaims({ sub, "custom:account_id": uniq("acct"), "cognito:groups": ["cohort_super_admin"] }));
      expect(await call("GET", `${INST}/${inst.id}`, { token: tok })).toMatchObject({ status: 404, body: NOT_FOUND });
      expect((await call("GET", `${INST}/${inst.id}/cohorts`, { token: tok })).status).toBe(404);
      expect((await call("GET", INV, { token: tok, query: { institution_id: inst.id } })).status).toBe(404);
      expect((await create(tok, inst.id, uniqEmail("x"))).status).toBe(404);
      expect((await call("DELETE", `${INST}/${inst.id}`, { token: tok })).status).toBe(404);
      const stored = await db.send(new GetCommand({ TableName: config.tables.main, Key: keys.institution(inst.id) }));
      expect(stored.Item).toBeDefined();
    });
  }

  it("a user whose sub is 'constructor' can still create and use its own institution", async () => {
    const tok = signJwt(idClaims({ sub: "constructor", "custom:account_id": uniq("acct"), "cognito:groups": ["cohort_super_admin"] }));
    const inst = await createInstitution(tok);
    expect((await call("GET", `${INST}/${inst.id}`, { token: tok })).status).toBe(200);
  });
});

describe("claims", () => {
  it('a group named "cohort_super_admin" with the quotes, or a JSON-looking one, grants nothing', async () => {
    for (const group of ['"cohort_super_admin"', '["cohort_super_admin"]', "[cohort_super_admin]", "cohort_super_admin,ops"]) {
      const tok = signJwt(idClaims({ sub: uniq("sub"), "custom:account_id": uniq("acct"), "cognito:groups": [group] }));
      const res = await call("POST", INST, { token: tok, body: { institution: { name: "x" } } });
      expect({ group, status: res.status }).toEqual({ group, status: 403 });
      expect((await call("GET", EVENTS, { token: tok })).status).toBe(403);
    }
  });

  it("accept requires email_verified: false or missing → 422 token_validation_failure 'email_unverified', nothing consumed", async () => {
    const tok = await owner();
    const inst = await createInstitution(tok);
    const email = uniqEmail("invitee");
    await invite(tok, inst.id, email);
    const invitationToken = await lastMailedToken(email);
    const sub = uniq("sub");
    for (const verified of [false, "false", undefined]) {
      const unverified = signJwt(idClaims({ sub, email, email_verified: verified, "custom:account_id": uniq("acct") }));
      const res = await call("POST", ACCEPT, { token: unverified, body: { token: invitationToken } });
      expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { error: "Invalid or expired invitation" } });
      expect((await eventsOf(unverified))[0]?.details).toEqual({ reason: "email_unverified" });
    }
    const verified = signJwt(idClaims({ sub, email, email_verified: true, "custom:account_id": uniq("acct") }));
    expect((await call("POST", ACCEPT, { token: verified, body: { token: invitationToken } })).status).toBe(200);
  });
});

describe("the recorded IP address", () => {
  it("locally (not fronted by CloudFront) is the connection's: a CloudFront-Viewer-Address sent by the client is ignored", async () => {
    const tok = await owner();
    await call("GET", `${INST}/${uniq("nope")}`, { token: tok, headers: { "CloudFront-Viewer-Address": "203.0.113.9:4444" } });
    const [event] = await eventsOf(tok);
    expect(event?.ip_address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

describe("refusal counters", () => {
  it("live in the events table under the caller, one per UTC minute, expiring by TTL", async () => {
    await withinOneWindow("minute", 10_000);
    const tok = await owner();
    for (let i = 0; i < 3; i++) await call("GET", `${INST}/${uniq("nope")}`, { token: tok });
    const minute = testNow().toISOString().slice(0, 16);
    const key = eventKeys.refusals(await userIdOf(tok), minute);
    const item = await db.send(new GetCommand({ TableName: config.tables.events, Key: key, ConsistentRead: true }));
    expect(item.Item?.refused).toBe(3);
    expect(item.Item?.ttl).toBeGreaterThan(Date.now() / 1000);
  });
});
