/**
 * Transaction conflicts: two (or ten) writers on one item at the same moment. Whatever the interleaving,
 * every answer is one the contract allows (200/201, 404, 409, 422; never 500) and the stored state is the
 * one the answers describe: the winner's change, with its event, and nothing of the losers.
 *
 * Under test/fault/ so it has the stack to itself: the races are decided by timing, and the other files'
 * load would only make them rarer, not different.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "../../shared/audit.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { registrationGuard } from "../../shared/institutions/registration-number.js";
import { paths } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { claimsOf } from "../integration/helpers.js";
import { type CallResult, call, invitationTokenIn, sentMail, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, ageLastMail, createInstitution, INST, INV, inviteMailed } from "../support/flows.js";
import { type AuditedUser, auditUsers, eventsOfUser, partitionOf } from "./consistency.js";

let account: string;
let domain: string;
let owner: string;
let ownerUser: AuditedUser;

const userOf = (tok: string): AuditedUser => ({
  userId: String(claimsOf(tok).sub),
  accountId: String(claimsOf(tok)["custom:account_id"]),
});

beforeAll(async () => {
  account = uniq("acct");
  domain = `${uniq("d")}.test`;
  owner = await token(uniqEmail("owner", domain), { superAdmin: true, account, name: "Race Owner" });
  ownerUser = userOf(owner);
});

async function stored(key: { pk: string; sk: string }) {
  return (await db.send(new GetCommand({ TableName: config.tables.main, Key: key, ConsistentRead: true }))).Item;
}

const eventsAbout = (events: StoredEvent[], type: string, key: string, value: string) =>
  events.filter((e) => e.event_type === type && e.details[key] === value);

/** No answer outside the contract's set for a race, and never a 5xx. */
function expectStatuses(results: CallResult[], allowed: number[]) {
  for (const r of results) expect(allowed, `${r.status} ${r.text}`).toContain(r.status);
}

describe("transaction conflicts", () => {
  it("10 simultaneous PATCHes of one institution: 200 or 409; the stored record is the last winner's, with one event per 200", async () => {
    const inst = await createInstitution(owner, { name: uniq("Race U"), registration_number: uniq("REG") });
    const numbers = Array.from({ length: 10 }, () => uniq("REG"));
    const results = await Promise.all(
      numbers.map((n, i) =>
        call("PATCH", `${INST}/${inst.id}`, {
          token: owner,
          body: { institution: { name: `Racer ${i} ${uniq()}`, registration_number: n, settings: { auto_finalize: i % 2 === 0 } } },
        }),
      ),
    );
    expectStatuses(results, [200, 409]);
    const winners = results.filter((r) => r.status === 200);
    expect(winners.length).toBeGreaterThan(0);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: expect.any(String) });

    const meta = await stored(keys.institution(inst.id));
    expect(meta?.version).toBe(1 + winners.length);
    const last = winners.map((r) => r.body.institution).sort((a, b) => a.updated_at.localeCompare(b.updated_at));
    const lastTime = last.at(-1).updated_at;
    const candidates = last.filter((x) => x.updated_at === lastTime);
    expect(candidates.map((c) => c.name)).toContain(meta?.name);
    const final = candidates.find((c) => c.name === meta?.name);
    expect(meta).toMatchObject({ registration_number: final.registration_number, settings: final.settings });

    // One guard, for the final number: the old one and the losers' numbers are free.
    for (const n of numbers) {
      const guard = await stored(registrationGuard(account, n));
      if (n === final.registration_number) expect(guard?.institution_id).toBe(inst.id);
      else expect(guard).toBeUndefined();
    }
    const events = eventsAbout(await eventsOfUser(ownerUser), "institution_updated", "institution_id", inst.id);
    expect(events).toHaveLength(winners.length);
    // The list (access records) shows the stored name.
    const list = await call("GET", INST, { token: owner });
    expect(list.body.institutions.find((i: { id: string }) => i.id === inst.id)?.name).toBe(meta?.name);
  });

  it("cohort create racing institution delete: the delete succeeds with no cohort left, or is 422 with the cohort present", async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const inst = await createInstitution(owner, { name: uniq("Race U") });
      const [cohort, del] = await Promise.all([
        call("POST", `${INST}/${inst.id}/cohorts`, { token: owner, body: { cohort: { name: uniq("Cohort") } } }),
        call("DELETE", `${INST}/${inst.id}`, { token: owner }),
      ]);
      seen.add(`cohort ${cohort.status} / delete ${del.status}`);
      expectStatuses([cohort], [201, 404, 409]);
      expectStatuses([del], [200, 422, 409]);
      const items = await partitionOf(inst.id);
      const meta = items.find((i) => i.sk === "META");
      const cohorts = items.filter((i) => String(i.sk).startsWith(keys.cohortPrefix));
      if (del.status === 200) {
        expect(del.body).toEqual({ message: `Institution '${inst.name}' deleted successfully` });
        expect(cohort.status).not.toBe(201);
        expect(meta).toBeUndefined();
        expect(cohorts).toEqual([]); // never orphaned
      } else if (del.status === 422) {
        expect(del.body).toEqual({ error: "Cannot delete institution with existing cohorts" });
        expect(cohort.status).toBe(201);
        expect(cohorts.map((c) => c.id)).toEqual([cohort.body.cohort.id]);
        expect(meta?.cohort_count).toBe(1);
      }
      if (cohort.status === 404) expect(cohort.body).toEqual({ error: "Institution not found or access denied" });
    }
    console.log(`[conflicts] cohort vs delete outcomes: ${[...seen].join("; ")}`);
    expect((await auditUsers([ownerUser])).problems).toEqual([]);
  });

  it("revoke racing accept of one invitation: exactly one wins, and the state (record, access, events) is the winner's", async () => {
    const inst = await createInstitution(owner, { name: uniq("Race U") });
    const seen = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const inv = await inviteMailed(owner, inst.id, uniqEmail("invitee", domain));
      const invitee = await token(inv.email, { account });
      const [revoke, accept] = await Promise.all([
        call("DELETE", `${INV}/${inv.id}`, { token: owner, query: { institution_id: inst.id } }),
        call("POST", ACCEPT, { token: invitee, body: { token: inv.token } }),
      ]);
      seen.add(revoke.status === 200 ? "revoke won" : "accept won");
      expect([revoke.status, accept.status].sort()).toEqual([200, 422]);
      const record = await stored(keys.invitation(inst.id, inv.id));
      const show = await call("GET", `${INST}/${inst.id}`, { token: invitee });
      const ownerEvents = await eventsOfUser(ownerUser);
      const inviteeEvents = await eventsOfUser(userOf(invitee));
      const revokedEvents = eventsAbout(ownerEvents, "invitation_revoked", "invitation_id", inv.id);
      const acceptedEvents = eventsAbout(inviteeEvents, "invitation_accepted", "invitation_id", inv.id);
      if (revoke.status === 200) {
        expect(revoke.body).toEqual({ message: "Invitation revoked" });
        expect(accept.body).toEqual({ error: "Invalid or expired invitation" });
        expect(record).toMatchObject({ revoked_at: expect.any(String) });
        expect(record?.used_at).toBeUndefined();
        expect(show.status).toBe(404);
        expect([revokedEvents.length, acceptedEvents.length]).toEqual([1, 0]);
        expect(inviteeEvents.filter((e) => e.event_type === "token_validation_failure")).toHaveLength(1);
      } else {
        expect(revoke.body).toEqual({ error: "Failed to revoke invitation" });
        expect(accept.body).toMatchObject({ institution: { id: inst.id }, role: "cohort_admin" });
        expect(record).toMatchObject({ used_at: expect.any(String) });
        expect(record?.revoked_at).toBeUndefined();
        expect(show).toMatchObject({ status: 200, body: { role: "cohort_admin" } });
        expect([revokedEvents.length, acceptedEvents.length]).toEqual([0, 1]);
      }
      // The slot is free either way.
      expect(await stored(keys.invitationSlot(inst.id, inv.email, Number(record?.slot)))).toBeUndefined();
    }
    console.log(`[conflicts] revoke vs accept: ${[...seen].join(", ")}`);
  });

  it("resend racing accept with the old token: one of them wins; a lost accept leaves the resent invitation usable", async () => {
    const inst = await createInstitution(owner, { name: uniq("Race U") });
    const seen = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const inv = await inviteMailed(owner, inst.id, uniqEmail("invitee", domain));
      const invitee = await token(inv.email, { account });
      const mailsBefore = (await sentMail(inv.email)).length;
      await ageLastMail(inst.id, inv.id, 11 * 60);
      const [resend, accept] = await Promise.all([
        call("POST", `${INV}/${inv.id}/resend`, { token: owner, body: { institution_id: inst.id } }),
        call("POST", ACCEPT, { token: invitee, body: { token: inv.token } }),
      ]);
      seen.add(`resend ${resend.status} / accept ${accept.status}`);
      expectStatuses([resend, accept], [200, 409, 422]);
      expect(resend.status === 200 && accept.status === 200).toBe(false);
      const record = await stored(keys.invitation(inst.id, inv.id));
      const resentEvents = eventsAbout(await eventsOfUser(ownerUser), "invitation_resent", "invitation_id", inv.id);
      const acceptedEvents = eventsAbout(await eventsOfUser(userOf(invitee)), "invitation_accepted", "invitation_id", inv.id);
      if (accept.status === 200) {
        expect(resend.body).toEqual({ error: "Cannot resend a used invitation" });
        expect(record).toMatchObject({ used_at: expect.any(String) });
        expect([resentEvents.length, acceptedEvents.length]).toEqual([0, 1]);
        expect((await sentMail(inv.email)).length).toBe(mailsBefore);
      } else {
        expect(accept).toMatchObject({ status: 422, body: { error: "Invalid or expired invitation" } });
        expect(record?.used_at).toBeUndefined();
        if (resend.status === 200) {
          expect([resentEvents.length, acceptedEvents.length]).toEqual([1, 0]);
          const mails = await sentMail(inv.email);
          expect(mails.length).toBe(mailsBefore + 1);
          const fresh = invitationTokenIn(mails[mails.length - 1] as (typeof mails)[number]);
          expect(await stored(keys.token(String(record?.token_hash)))).toBeDefined();
          // The old token is dead, the new one works.
          expect((await call("POST", ACCEPT, { token: invitee, body: { token: inv.token } })).status).toBe(422);
          expect((await call("POST", ACCEPT, { token: invitee, body: { token: fresh } })).status).toBe(200);
        }
      }
    }
    console.log(`[conflicts] resend vs accept: ${[...seen].join(", ")}`);
  });

  it("accepts racing PATCHes of one institution (both bump its version): every member's summary shows the final name", async () => {
    const inst = await createInstitution(owner, { name: uniq("Race U") });
    const invitations = [];
    for (let i = 0; i < 5; i++) invitations.push(await inviteMailed(owner, inst.id, uniqEmail("invitee", domain)));
    const invitees = await Promise.all(invitations.map((inv) => token(inv.email, { account })));
    const results = await Promise.all([
      ...invitations.map((inv, i) => call("POST", ACCEPT, { token: invitees[i] as string, body: { token: inv.token } })),
      ...Array.from({ length: 5 }, (_, i) =>
        call("PATCH", `${INST}/${inst.id}`, { token: owner, body: { institution: { name: `Moving ${i} ${uniq()}` } } }),
      ),
    ]);
    const accepts = results.slice(0, 5);
    const patches = results.slice(5);
    expectStatuses(accepts, [200, 409]);
    expectStatuses(patches, [200, 409]);
    const meta = await stored(keys.institution(inst.id));
    const accepted = accepts.filter((r) => r.status === 200).length;
    const patched = patches.filter((r) => r.status === 200).length;
    expect(meta?.version).toBe(1 + accepted + patched);
    expect(Object.keys(meta?.members ?? {})).toHaveLength(1 + accepted);
    for (const [i, tok] of invitees.entries()) {
      const list = await call("GET", INST, { token: tok });
      if (accepts[i]?.status === 200) expect(list.body.institutions).toEqual([expect.objectContaining({ id: inst.id, name: meta?.name })]);
      else expect(list.body.institutions).toEqual([]);
    }
    const ownerList = await call("GET", INST, { token: owner });
    expect(ownerList.body.institutions.find((i: { id: string }) => i.id === inst.id)?.name).toBe(meta?.name);
    console.log(`[conflicts] 5 accepts + 5 patches: ${accepted} accepts and ${patched} patches won, ${10 - accepted - patched} × 409`);
  });

  it("a delete racing PATCHes: the delete lands (or 409), a PATCH after it is 404, and the events count the winners", async () => {
    for (let round = 0; round < 4; round++) {
      const inst = await createInstitution(owner, { name: uniq("Race U") });
      const results = await Promise.all([
        call("DELETE", `${INST}/${inst.id}`, { token: owner }),
        ...Array.from({ length: 4 }, (_, i) =>
          call("PATCH", `${INST}/${inst.id}`, { token: owner, body: { institution: { address: `No. ${i}` } } }),
        ),
      ]);
      const [del, ...patches] = results as [CallResult, ...CallResult[]];
      expectStatuses([del], [200, 409]);
      expectStatuses(patches, [200, 404, 409]);
      const meta = await stored(keys.institution(inst.id));
      const events = await eventsOfUser(ownerUser);
      const updated = eventsAbout(events, "institution_updated", "institution_id", inst.id);
      expect(updated).toHaveLength(patches.filter((p) => p.status === 200).length);
      if (del.status === 200) {
        expect(meta).toBeUndefined();
        expect(eventsAbout(events, "institution_deleted", "institution_name", inst.name)).toHaveLength(1);
        expect((await call("GET", `${INST}/${inst.id}`, { token: owner })).status).toBe(404);
      } else {
        expect(meta?.version).toBe(1 + updated.length);
      }
    }
  });

  it("12 refused requests at once in one account (all bump one alert counter): all 404, never 500, and all counted", async () => {
    const admin = await token(uniqEmail("counter", domain), { superAdmin: true, account: uniq("acct") });
    const users = await Promise.all(
      Array.from({ length: 12 }, (_, i) => token(uniqEmail(`prober${i}`, domain), { account: userOf(admin).accountId })),
    );
    const results = await Promise.all(users.map((tok) => call("GET", `${INST}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { token: tok })));
    for (const r of results)
      expect({ status: r.status, body: r.body }).toEqual({ status: 404, body: { error: "Institution not found or access denied" } });
    const alerts = await call("GET", `${paths.securityEvents}/alerts`, { token: admin });
    expect(alerts.status).toBe(200);
    expect(alerts.body.summary.unauthorized_institution_access).toBe(12);
  });
});
