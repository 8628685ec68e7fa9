/**
 * Verified domains (docs/sso.md) over HTTP through the gateway, TXT records served by the run's DNS server on
 * loopback: who may call each route (the authorization matrix), the domain rules, add → verify (found, not
 * found, a wrong value, the lookup failing) → remove, failing after 7 days (the clock header), one domain
 * verified by at most one institution (also when two verify at once: 20 rounds, the interleaving counted), and
 * the events in the owner's trail.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { domainKeys } from "../../shared/tables.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { createInstitution } from "../support/flows.js";
import { challengeOf, dnsQueries, failDns, publishTxt } from "../support/sso.js";
import { grantAccess, userIdOf } from "./helpers.js";

const INST = paths.institutions;
const domainsOf = (id: string) => `${INST}/${id}/domains`;
const DAY = 86_400_000;
const NO_SUCH_ID = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

/** A fresh domain no other test uses. */
const freshDomain = () => `${uniq("campus")}.test`;

let owner: string;
let ownerAccount: string;
let member: string;
let stranger: string;
let otherOwner: string;

beforeAll(async () => {
  ownerAccount = uniq("acct");
  [owner, member, stranger, otherOwner] = await Promise.all([
    token(uniqEmail("dom-owner"), { superAdmin: true, account: ownerAccount }),
    token(uniqEmail("dom-member"), { account: ownerAccount }),
    token(uniqEmail("dom-stranger"), { superAdmin: true, account: uniq("acct") }),
    token(uniqEmail("dom-other"), { superAdmin: true, account: uniq("acct") }),
  ]);
});

async function add(tok: string, institutionId: string, domain: string) {
  const res = await call("POST", domainsOf(institutionId), { token: tok, body: { domain } });
  expect(res.status, res.text).toBe(201);
  return res.body.domain as { id: string; domain: string; state: string; verification: { record_name: string; record_value: string } };
}

const verify = (tok: string, institutionId: string, domainId: string, clockOffsetMs?: number) =>
  call("POST", `${domainsOf(institutionId)}/${domainId}/verify`, { token: tok, ...(clockOffsetMs !== undefined && { clockOffsetMs }) });

/** The owner's account's events of `type`, newest first, as the trail lists them. */
async function trail(type: string) {
  const res = await call("GET", paths.securityEvents, { token: owner, query: { event_type: type, limit: 200 } });
  expect(res.status).toBe(200);
  return res.body.events as { event_type: string; details: Record<string, unknown>; description: string }[];
}

describe("verified domains: who may call", () => {
  it("the super admin writes; an administrator reads; anyone else, or a malformed id, gets 404 (and its event)", async () => {
    const inst = await createInstitution(owner);
    await grantAccess(inst.id, await userIdOf(member), "cohort_super_admin");
    const d = await add(owner, inst.id, freshDomain());

    // Reading: every administrator.
    expect((await call("GET", domainsOf(inst.id), { token: member })).body.domains).toHaveLength(1);
    // Writing: the institution's super admin only, 403 with insufficient_privileges.
    const refused = await call("POST", domainsOf(inst.id), { token: member, body: { domain: freshDomain() } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Only the institution's super admin can manage its domains" });
    expect((await verify(member, inst.id, d.id)).status).toBe(403);
    expect((await call("DELETE", `${domainsOf(inst.id)}/${d.id}`, { token: member })).status).toBe(403);

    // Anyone without access: 404 before anything, also on a domain id that exists.
    const notFound = { error: "Institution not found or access denied" };
    for (const [method, path, body] of [
      ["GET", domainsOf(inst.id), undefined],
      ["POST", domainsOf(inst.id), { domain: freshDomain() }],
      ["POST", `${domainsOf(inst.id)}/${d.id}/verify`, undefined],
      ["DELETE", `${domainsOf(inst.id)}/${d.id}`, undefined],
      ["GET", domainsOf("not-an-id"), undefined],
    ] as const) {
      const res = await call(method, path, { token: stranger, ...(body && { body }) });
      expect({ status: res.status, body: res.body }, `${method} ${path}`).toEqual({ status: 404, body: notFound });
    }
    // An unknown or malformed domain id of a visible institution: 404 Domain not found.
    for (const id of [NO_SUCH_ID, "x"]) {
      expect((await verify(owner, inst.id, id)).body).toEqual({ error: "Domain not found" });
      expect((await call("DELETE", `${domainsOf(inst.id)}/${id}`, { token: owner })).status).toBe(404);
    }
    const events = await trail("insufficient_privileges");
    expect(events.some((e) => e.details.action === "manage_domains" && e.details.institution_id === inst.id)).toBe(true);
  });
});

describe("verified domains: the rules", () => {
  let institutionId: string;
  beforeAll(async () => {
    institutionId = (await createInstitution(owner)).id;
  });

  it("keeps the ASCII form, lower-cased; refuses what no institution can own, each message once", async () => {
    const label = uniq("bücher");
    const d = await add(owner, institutionId, `  ${label.toUpperCase()}.Test. `);
    expect(d.domain).toBe(new URL(`http://${label}.test`).hostname);
    expect(d.domain).toMatch(/^xn--/);
    expect(d.verification.record_name).toBe(challengeOf(d.domain));
    expect(d.verification.record_value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const refusals: [unknown, string[]][] = [
      ["co.uk", ["Domain is a public suffix, which no institution can own"]],
      ["github.io", ["Domain is a public suffix, which no institution can own"]],
      ["gmail.com", ["Domain belongs to a consumer mail provider"]],
      ["mail.outlook.com", ["Domain belongs to a consumer mail provider"]],
      ["localhost", ["Domain must have at least two labels (like example.edu)"]],
      ["", ["Domain can't be blank"]],
      [42, ["Domain can't be blank"]],
      ["a..b.edu", ["Domain is not a valid domain name"]],
      ["127.0.0.1", ["Domain is not a valid domain name"]],
      ["ex%61mple.edu", ["Domain is not a valid domain name"]],
      ["user@acme.edu", ["Domain is not a valid domain name"]],
      [`${"a".repeat(64)}.edu`, ["Domain is not a valid domain name"]],
      [`${"abc.".repeat(70)}edu`, ["Domain is too long (maximum is 253 characters)"]],
    ];
    for (const [domain, errors] of refusals) {
      const res = await call("POST", domainsOf(institutionId), { token: owner, body: { domain } });
      expect({ status: res.status, body: res.body }, JSON.stringify(domain)).toEqual({ status: 422, body: { errors } });
    }
    expect((await call("POST", domainsOf(institutionId), { token: owner })).status).toBe(400);
    // Once per institution.
    const again = await call("POST", domainsOf(institutionId), { token: owner, body: { domain: d.domain.toUpperCase() } });
    expect(again.body).toEqual({ errors: ["Domain has already been added"] });
  });

  it("holds at most 20 domains per institution", async () => {
    const inst = await createInstitution(owner);
    // One after another: adds to one institution serialise on its domain head (each is conditioned on its version).
    for (let i = 0; i < 20; i++) await add(owner, inst.id, freshDomain());
    const res = await call("POST", domainsOf(inst.id), { token: owner, body: { domain: freshDomain() } });
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { errors: ["An institution has at most 20 domains"] } });
    expect((await call("GET", domainsOf(inst.id), { token: owner })).body.domains).toHaveLength(20);
  });

  it("holds the limit and once-per-institution when adds race: the last free place goes to one of them", async () => {
    const inst = await createInstitution(owner);
    for (let i = 0; i < 19; i++) await add(owner, inst.id, freshDomain());
    const same = freshDomain();
    const racing = await Promise.all(
      [freshDomain(), freshDomain(), same, same].map((domain) => call("POST", domainsOf(inst.id), { token: owner, body: { domain } })),
    );
    const statuses = racing.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 201),
      statuses.join(","),
    ).toHaveLength(1);
    for (const r of racing) expect([201, 409, 422], r.text).toContain(r.status);
    const listed = (await call("GET", domainsOf(inst.id), { token: owner })).body.domains as { domain: string }[];
    expect(listed).toHaveLength(20);
    expect(new Set(listed.map((d) => d.domain)).size).toBe(20);
  });
});

describe("verified domains: add, verify, fail, remove", () => {
  it("verifies once the TXT record holds the domain's value: not found, a wrong value, a failing lookup first", async () => {
    const inst = await createInstitution(owner);
    const api = apiClient(owner);
    const name = freshDomain();
    const d = ok(await api.POST(`${INST}/{id}/domains`, { params: { path: { id: inst.id } }, body: { domain: name } }), 201).domain;
    expect(d).toMatchObject({ state: "pending", verified_at: null, last_checked_at: null, last_error: null });

    const notFound = await verify(owner, inst.id, d.id);
    expect(notFound.status).toBe(200);
    expect(notFound.body.domain).toMatchObject({ state: "pending", last_error: `No TXT record found at ${challengeOf(name)}` });
    expect(notFound.body.domain.last_checked_at).toEqual(expect.any(String));

    await publishTxt(challengeOf(name), ["v=spf1 -all", "someone-else's-token"]);
    const wrong = await verify(owner, inst.id, d.id);
    expect(wrong.body.domain).toMatchObject({
      state: "pending",
      last_error: `The TXT records at ${challengeOf(name)} do not hold this domain's value`,
    });

    await failDns(challengeOf(name));
    const failing = await verify(owner, inst.id, d.id);
    expect(failing.body.domain).toMatchObject({ state: "pending", last_error: "The DNS lookup failed (ESERVFAIL); try again later" });

    await publishTxt(challengeOf(name), ["someone-else's-token", d.verification.record_value]);
    const verified = await verify(owner, inst.id, d.id);
    expect(verified.status).toBe(200);
    expect(verified.body.domain).toMatchObject({ id: d.id, state: "verified", last_error: null });
    expect(verified.body.domain.verified_at).toEqual(verified.body.domain.last_checked_at);

    // Verified stays verified, without asking DNS again.
    const lookups = await dnsQueries(challengeOf(name));
    expect((await verify(owner, inst.id, d.id)).body.domain).toEqual(verified.body.domain);
    expect(await dnsQueries(challengeOf(name))).toBe(lookups);
    expect(ok(await api.GET(`${INST}/{id}/domains`, { params: { path: { id: inst.id } } })).domains).toEqual([verified.body.domain]);

    // Each step in the owner's trail, in the change's transaction.
    const failures = (await trail("domain_verification_failed")).filter((e) => e.details.domain_id === d.id);
    expect(failures.map((e) => e.details.reason).sort()).toEqual(["lookup_failed", "mismatch", "not_found"]);
    expect(failures.every((e) => e.details.state === "pending")).toBe(true);
    const [added] = (await trail("domain_added")).filter((e) => e.details.domain_id === d.id);
    expect(added?.details).toEqual({ institution_id: inst.id, domain_id: d.id, domain: name, institution_name: inst.name });
    const [ok_] = (await trail("domain_verified")).filter((e) => e.details.domain_id === d.id);
    expect(ok_?.description).toContain(`verified the domain ${name}`);
  });

  it("fails a domain not verified within 7 days (the clock moved for the request), once", async () => {
    const inst = await createInstitution(owner);
    const name = freshDomain();
    const d = await add(owner, inst.id, name);
    await publishTxt(challengeOf(name), [d.verification.record_value]);

    // Read past its deadline: shown failed, without a lookup, before anything is written.
    const later = 7 * DAY + 60_000;
    const shown = await call("GET", domainsOf(inst.id), { token: owner, clockOffsetMs: later });
    expect(shown.body.domains[0]).toMatchObject({
      state: "failed",
      last_error: "Not verified within 7 days; remove the domain and add it again",
    });
    expect(await dnsQueries(challengeOf(name))).toBe(0);

    const failed = await verify(owner, inst.id, d.id, later);
    expect(failed.status).toBe(200);
    expect(failed.body.domain).toMatchObject({ state: "failed", verified_at: null });
    // Failed for good: now too, and without a lookup.
    expect((await verify(owner, inst.id, d.id)).body.domain.state).toBe("failed");
    expect(await dnsQueries(challengeOf(name))).toBe(0);
    const events = (await trail("domain_verification_failed")).filter((e) => e.details.domain_id === d.id);
    expect(events.map((e) => [e.details.reason, e.details.state])).toEqual([["expired", "failed"]]);

    // Within the 7 days the same record verifies.
    const fresh = await add(owner, inst.id, freshDomain());
    await publishTxt(challengeOf(fresh.domain), [fresh.verification.record_value]);
    expect((await verify(owner, inst.id, fresh.id, 6 * DAY)).body.domain.state).toBe("verified");
  });

  it("removes a domain; a removed verified domain is free for another institution", async () => {
    const mine = await createInstitution(owner);
    const theirs = await createInstitution(otherOwner);
    const name = freshDomain();
    const d = await add(owner, mine.id, name);
    const other = await add(otherOwner, theirs.id, name);
    await publishTxt(challengeOf(name), [d.verification.record_value, other.verification.record_value]);
    expect((await verify(owner, mine.id, d.id)).body.domain.state).toBe("verified");

    // Verified by another institution: 409, and the attempt stays on the domain and in the trail.
    const taken = await verify(otherOwner, theirs.id, other.id);
    expect({ status: taken.status, body: taken.body }).toEqual({
      status: 409,
      body: { error: "Domain is verified by another institution" },
    });
    const [listed] = (await call("GET", domainsOf(theirs.id), { token: otherOwner })).body.domains;
    expect(listed).toMatchObject({ state: "pending", last_error: "Domain is verified by another institution" });

    const removed = await call("DELETE", `${domainsOf(mine.id)}/${d.id}`, { token: owner });
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 200, body: { message: "Domain removed" } });
    expect((await call("GET", domainsOf(mine.id), { token: owner })).body.domains).toEqual([]);
    expect((await call("DELETE", `${domainsOf(mine.id)}/${d.id}`, { token: owner })).status).toBe(404);
    const guard = await db.send(new GetCommand({ TableName: config.tables.main, Key: domainKeys.guard(name), ConsistentRead: true }));
    expect(guard.Item).toBeUndefined();

    expect((await verify(otherOwner, theirs.id, other.id)).body.domain.state).toBe("verified");
    const [event] = (await trail("domain_removed")).filter((e) => e.details.domain_id === d.id);
    expect(event?.details).toEqual({ institution_id: mine.id, domain_id: d.id, domain: name, institution_name: mine.name });
    // The room it took is free again.
    expect((await add(owner, mine.id, name)).state).toBe("pending");
  });
});

describe("verified domains: two institutions verifying one domain at once", () => {
  it("20 rounds: exactly one verifies and the other gets 409 each time; rounds where both looked the record up were decided by the guard's condition", async () => {
    const a = await createInstitution(owner);
    const b = await createInstitution(otherOwner);
    const outcomes = new Map<string, number>();
    let decidedByCondition = 0;
    for (let round = 0; round < 20; round++) {
      const name = freshDomain();
      const [da, db_] = await Promise.all([add(owner, a.id, name), add(otherOwner, b.id, name)]);
      await publishTxt(challengeOf(name), [da.verification.record_value, db_.verification.record_value]);
      const [ra, rb] = await Promise.all([verify(owner, a.id, da.id), verify(otherOwner, b.id, db_.id)]);
      const statuses = [ra.status, rb.status].sort().join("+");
      outcomes.set(statuses, (outcomes.get(statuses) ?? 0) + 1);
      expect(statuses, `round ${round}: ${ra.text} / ${rb.text}`).toBe("200+409");
      const winner = ra.status === 200 ? a.id : b.id;
      const guard = await db.send(new GetCommand({ TableName: config.tables.main, Key: domainKeys.guard(name), ConsistentRead: true }));
      expect(guard.Item?.institution_id).toBe(winner);
      // Both passed the guard's read and asked DNS: only the transaction's condition kept the loser out.
      if ((await dnsQueries(challengeOf(name))) === 2) decidedByCondition++;
    }
    console.log(`[domain race] outcomes ${JSON.stringify([...outcomes])}; decided by the guard's condition in ${decidedByCondition} of 20`);
    expect(decidedByCondition).toBeGreaterThan(0);
  }, 180_000);
});
