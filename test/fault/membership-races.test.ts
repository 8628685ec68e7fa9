/**
 * Issue 38 item 3 (docs/security.md "Removal is final", docs/code-structure.md): whichever door takes access away, the directory or a
 * person, an invitation its sender sent meanwhile is revoked with it or refused, and stays unusable once the sender
 * has access again. Three races, 20 rounds each, over HTTP through the local gateway:
 * - (a) a SCIM deactivation racing the person's own invitations, then a reactivation;
 * - (b) a manual removal (the DELETE administrator route) racing the same, then a new invitation accepted;
 * - (c) a sign-up through the join route racing the removal of its inviter.
 * After each round every token of the removed sender is tried (register through the join route, accept): refused.
 *
 * Each test counts its outcomes and asserts that the interleaving it aims at happened in some rounds, not only
 * that the invariant held. What happens inside a request is seen in the gateway's log: the membership door says
 * when a change lost a race and reads again (and what it lost to: `access <user>` is the sender count that a
 * concurrent invitation moved), and a registration undone after its user was created says so.
 *
 * Under test/fault/ so it has the stack to itself: the races are decided by timing.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { userIdOf } from "../integration/helpers.js";
import { type CallResult, call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, createInstitution, INST, INV, invite, inviteMailed, lastMailedToken } from "../support/flows.js";
import { connect, connectionPath, entraUser, scim, URN } from "../support/scim.js";
import { visit } from "../support/visitor.js";
import { auditMembership } from "./consistency.js";

const ROUNDS = 20;
/** Invitations the sender sends in each round of (a) and (b), started a few milliseconds apart. */
const SENT = 5;
const INVALID = { error: "Invalid or expired invitation" };
const PASSWORD = "Correct-Horse-9-battery";
const LOG = () => join(stack.logDir, "gateway.log");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const admin = (institutionId: string, userId: string) => `${INST}/${institutionId}/administrators/${userId}`;

/** Where the gateway's log ends now: what a round logs comes after it. */
const logMark = () => statSync(LOG()).size;

/** The JSON lines the gateway logged since `mark`. */
function loggedSince(mark: number): Record<string, unknown>[] {
  return readFileSync(LOG())
    .subarray(mark)
    .toString("utf8")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** What the membership changes of `institutionId` touching `userId` lost races to since `mark` (they read again each time). */
const lostRaces = (mark: number, institutionId: string, userId: string): string[] =>
  loggedSince(mark)
    .filter(
      (l) =>
        l.message === "membership change lost a race; reading again" &&
        l.institution_id === institutionId &&
        Array.isArray(l.members) &&
        l.members.includes(userId),
    )
    .map((l) => String(l.lost_to));

/** Every invitation `senderId` sent to the institution, as stored. */
async function sentBy(institutionId: string, senderId: string): Promise<Record<string, unknown>[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.main,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :inv)",
      FilterExpression: "created_by_id = :by",
      ExpressionAttributeValues: { ":pk": keys.invitation(institutionId, "").pk, ":inv": "INV#", ":by": senderId },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

interface Sender {
  readonly email: string;
  readonly token: string;
  readonly id: string;
}

/** A person of `account` with the cohort-super-admin group, whom the pool knows by `email` (so the directory finds them). */
async function sender(account: string, domain: string): Promise<Sender> {
  const email = uniqEmail("sender", domain);
  const tok = await token(email, { superAdmin: true, account });
  return { email, token: tok, id: await userIdOf(tok) };
}

/** An owner of an account and a mail domain of their own (the mail bounds are per account). */
async function ownerOf(label: string): Promise<{ account: string; domain: string; owner: string }> {
  const account = uniq("acct");
  const domain = `${uniq(label)}.test`;
  return { account, domain, owner: await token(uniqEmail("owner", domain), { superAdmin: true, account }) };
}

/** `person` invited by `owner` as a super admin, and accepting: an administrator of the institution (again). */
async function joinAgain(owner: string, institutionId: string, person: Sender): Promise<void> {
  await invite(owner, institutionId, person.email, "cohort_super_admin");
  const res = await call("POST", ACCEPT, { token: person.token, body: { token: await lastMailedToken(person.email) } });
  expect(res.status, res.text).toBe(200);
}

/** `SENT` invitations by `from`, the i-th started `i * 6 + shift` ms from now: they land before, during and after a removal. */
function invitationsBy(from: Sender, institutionId: string, domain: string, shift: number): Promise<{ email: string; res: CallResult }[]> {
  return Promise.all(
    Array.from({ length: SENT }, async (_, i) => {
      await sleep(i * 6 + shift);
      const email = uniqEmail("raced", domain);
      const res = await call("POST", INV, { token: from.token, body: { institution_id: institutionId, email, role: "cohort_admin" } });
      return { email, res };
    }),
  );
}

/**
 * After the sender's removal and its return: every invitation it sent that was created is revoked by the removal
 * (none is still active), and each token is refused by register (the join route) and by accept. Returns how many
 * were created, and of those how many began after the removal was sent (so ran beside it).
 */
async function expectAllRefused(
  institutionId: string,
  from: Sender,
  sent: { email: string; res: CallResult }[],
  removalSentAt: string,
): Promise<{ created: number; beside: number }> {
  const stored = await sentBy(institutionId, from.id);
  const created = sent.filter((s) => s.res.status === 201);
  expect(stored.map((i) => i.id).sort()).toEqual(created.map((s) => s.res.body.invitation.id).sort());
  for (const inv of stored) {
    expect(inv, `invitation ${inv.id} of a removed sender`).toMatchObject({ revoke_reason: "administrator_removed" });
    expect(inv.used_at).toBeUndefined();
  }
  for (const s of created) {
    const tok = await lastMailedToken(s.email);
    const registered = await visit("POST", paths.invitationsRegister, { body: { token: tok, name: "Late Comer", password: PASSWORD } });
    expect(registered.status, registered.text).toBe(422);
    expect(registered.body).toEqual(INVALID);
    const accepted = await call("POST", ACCEPT, { token: await token(s.email), body: { token: tok } });
    expect(accepted.status, accepted.text).toBe(422);
    expect(accepted.body).toEqual(INVALID);
  }
  const beside = stored.filter((i) => String(i.created_at) >= removalSentAt).length;
  return { created: created.length, beside };
}

/** Counts of outcomes across rounds, printed at the end of each test. */
class Tally {
  readonly #counts = new Map<string, number>();
  add(outcome: string, n = 1): void {
    if (n > 0) this.#counts.set(outcome, (this.#counts.get(outcome) ?? 0) + n);
  }
  of(outcome: string): number {
    return this.#counts.get(outcome) ?? 0;
  }
  /** One round of (a) or (b): what became of the sender's invitations, and what `removal` read again for (`lost`). */
  round(removal: string, sender: Sender, invitations: { created: number; beside: number }, lost: string[]): void {
    this.add(`invitations created then revoked by the ${removal}`, invitations.created);
    this.add(`of those, begun after the ${removal} was sent`, invitations.beside);
    this.add("invitations refused", SENT - invitations.created);
    const count = `access ${sender.id}`;
    this.add(`${removal} read again: an invitation moved the sender count`, lost.filter((l) => l === count).length);
    this.add(`${removal} read again: a transaction conflict`, lost.filter((l) => l === "conflict").length);
    this.add(`${removal} read again: other`, lost.filter((l) => l !== "conflict" && l !== count).length);
  }
  toString(): string {
    return [...this.#counts].map(([k, v]) => `${k}: ${v}`).join("; ");
  }
}

describe("removal is final, at every door (20 rounds each)", () => {
  it("(a) a SCIM deactivation racing the person's own invitations, then a reactivation: no invitation of theirs is ever usable", async () => {
    const { domain, owner } = await ownerOf("scimrace");
    const tally = new Tally();
    for (let round = 0; round < ROUNDS; round++) {
      const inst = await createInstitution(owner);
      const { token: dir } = await connect(owner, inst.id);
      const mapped = await call("PATCH", connectionPath(inst.id), {
        token: owner,
        body: { role_mappings: { Leads: "cohort_super_admin" } },
      });
      expect(mapped.status, mapped.text).toBe(200);
      const person = await sender(inst.account_id as string, domain);
      const user = await scim(dir, "POST", "/Users", entraUser(person.email));
      expect(user.status, user.text).toBe(201);
      const group = await scim(dir, "POST", "/Groups", { displayName: "Leads", members: [{ value: user.body.id }] });
      expect(group.status, group.text).toBe(201);

      const mark = logMark();
      const removalSentAt = new Date().toISOString();
      const active = (value: boolean) =>
        scim(dir, "PATCH", `/Users/${user.body.id}`, { schemas: [URN.patch], Operations: [{ op: "replace", path: "active", value }] });
      const [removal, sent] = await Promise.all([active(false), invitationsBy(person, inst.id, domain, (round % 4) * 5)]);
      expect(removal.status, removal.text).toBe(200);
      const lost = lostRaces(mark, inst.id, person.id);
      // Back in the directory, and in the mapped group: a super admin again.
      expect((await active(true)).status).toBe(200);
      expect((await call("GET", `${INST}/${inst.id}`, { token: person.token })).status).toBe(200);

      tally.round("deactivation", person, await expectAllRefused(inst.id, person, sent, removalSentAt), lost);
      expect(await auditMembership(inst.id)).toEqual([]);
    }
    console.log(`[membership races] (a) SCIM deactivation vs the person's invitations: ${tally}`);
    // The interleaving aimed at, the one SCIM's copy of the removal let through: an invitation committed between the
    // deactivation's read of the sender and its commit, which made the deactivation read again.
    expect(tally.of("deactivation read again: an invitation moved the sender count")).toBeGreaterThan(0);
  }, 900_000);

  it("(b) a manual removal racing the person's own invitations, then a new invitation accepted: no invitation of theirs is ever usable", async () => {
    const { account, domain, owner } = await ownerOf("manualrace");
    const tally = new Tally();
    for (let round = 0; round < ROUNDS; round++) {
      const inst = await createInstitution(owner);
      const person = await sender(account, domain);
      await joinAgain(owner, inst.id, person);

      const mark = logMark();
      // The route's removal reads less than an invitation does before it commits: the invitations start first, and
      // the removal a little later each round.
      const sending = invitationsBy(person, inst.id, domain, 0);
      await sleep((round % 5) * 10);
      const removalSentAt = new Date().toISOString();
      const [removal, sent] = await Promise.all([call("DELETE", admin(inst.id, person.id), { token: owner }), sending]);
      expect(removal.status, removal.text).toBe(200);
      const lost = lostRaces(mark, inst.id, person.id);
      // Invited again and accepted: an administrator again.
      await joinAgain(owner, inst.id, person);

      const invitations = await expectAllRefused(inst.id, person, sent, removalSentAt);
      expect(removal.body.revoked_invitations).toBe(invitations.created);
      tally.round("removal", person, invitations, lost);
      expect(await auditMembership(inst.id)).toEqual([]);
    }
    console.log(`[membership races] (b) manual removal vs the person's invitations: ${tally}`);
    // The interleaving aimed at: an invitation committed between the removal's read of the sender and its commit.
    expect(tally.of("removal read again: an invitation moved the sender count")).toBeGreaterThan(0);
  }, 900_000);

  it("(c) a sign-up through the join route racing the removal of its inviter: accepted before the removal, or never", async () => {
    const { account, domain, owner } = await ownerOf("joinrace");
    const tally = new Tally();
    for (let round = 0; round < ROUNDS; round++) {
      const inst = await createInstitution(owner);
      const person = await sender(account, domain);
      await joinAgain(owner, inst.id, person);
      const invitee = uniqEmail("joiner", domain);
      const inv = await inviteMailed(person.token, inst.id, invitee);

      const mark = logMark();
      const registering = visit("POST", paths.invitationsRegister, { body: { token: inv.token, name: "Jo Racer", password: PASSWORD } });
      // The removal a little later each round: before the sign-up reads, while it creates the user, after it accepted.
      await sleep((round % 10) * 12);
      const removing = call("DELETE", admin(inst.id, person.id), { token: owner });
      const [registered, removal] = await Promise.all([registering, removing]);
      expect(removal.status, removal.text).toBe(200);
      const undone = loggedSince(mark).some(
        (l) => l.message === "registration undone: the new user was deleted" && l.invitation_id === inv.id,
      );
      const lost = lostRaces(mark, inst.id, person.id);

      if (registered.status === 201) {
        // Accepted while its inviter was an administrator: the removal found it used, and revoked nothing.
        expect(removal.body.revoked_invitations).toBe(0);
        tally.add("sign-up first");
        if (lost.length > 0) tally.add("sign-up committed while the removal was in flight (the removal read again)");
      } else {
        expect(registered.status, registered.text).toBe(422);
        expect(registered.body).toEqual(INVALID);
        expect(removal.body.revoked_invitations).toBe(1);
        tally.add(undone ? "removal committed while the sign-up was in flight (its user deleted again)" : "removal first");
        // The inviter back: the token still refused, by register and by accept.
        await joinAgain(owner, inst.id, person);
        const again = await visit("POST", paths.invitationsRegister, { body: { token: inv.token, name: "Jo Racer", password: PASSWORD } });
        expect(again.status, again.text).toBe(422);
        const accepted = await call("POST", ACCEPT, { token: await token(invitee), body: { token: inv.token } });
        expect(accepted.status, accepted.text).toBe(422);
      }
      expect(await auditMembership(inst.id)).toEqual([]);
    }
    console.log(`[membership races] (c) sign-up vs the removal of its inviter: ${tally}`);
    // The interleaving aimed at: one of the two committed while the other was in flight.
    expect(
      tally.of("removal committed while the sign-up was in flight (its user deleted again)") +
        tally.of("sign-up committed while the removal was in flight (the removal read again)"),
    ).toBeGreaterThan(0);
  }, 900_000);
});
