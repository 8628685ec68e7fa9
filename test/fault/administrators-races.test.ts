/**
 * Issue 20, point 3 (docs/contract/administrators.md race rules): removals racing accepts, role changes and transfers, and
 * transfers racing each other, never leave an access record without its seat or marker, a seat count that
 * differs from the records, or a super admin without access (`auditMembership`). Every answer is one the
 * contract allows for a race (never a 5xx), and the stored state is the one the answers describe.
 *
 * Under test/fault/ so it has the stack to itself: the races are decided by timing.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { keys } from "../../shared/tables.js";
import { userIdOf } from "../integration/helpers.js";
import { type CallResult, call, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, createInstitution, INST, INV, invite, lastMailedToken, type Role } from "../support/flows.js";
import { auditMembership, eventsOfUser } from "./consistency.js";

const admin = (id: string, userId: string) => `${INST}/${id}/administrators/${userId}`;

let account: string;
let domain: string;
let owner: string;
let ownerId: string;
let ownerUser: { userId: string; accountId: string };

interface Person {
  token: string;
  id: string;
  email: string;
}

async function person(label: string, superAdmin = false): Promise<Person> {
  const email = uniqEmail(label, domain);
  const tok = await token(email, { account, superAdmin });
  return { token: tok, id: await userIdOf(tok), email };
}

/** A new administrator by invitation (from `inviter`, the owner by default) and accept. */
async function join(institutionId: string, role: Role = "cohort_admin", superAdmin = false, inviter = owner): Promise<Person> {
  const p = await person("admin", superAdmin);
  await invite(inviter, institutionId, p.email, role);
  const res = await call("POST", ACCEPT, { token: p.token, body: { token: await lastMailedToken(p.email) } });
  expect(res.status, res.text).toBe(200);
  return p;
}

/** An invitee with a pending invitation from `inviter`, ready to accept. */
async function pending(institutionId: string, inviter = owner): Promise<Person & { invitation: string }> {
  const p = await person("invitee");
  await invite(inviter, institutionId, p.email);
  return { ...p, invitation: await lastMailedToken(p.email) };
}

function expectStatuses(results: CallResult[], allowed: number[]) {
  for (const r of results) expect(allowed, `${r.status} ${r.text}`).toContain(r.status);
}

async function expectConsistent(institutionId: string) {
  expect(await auditMembership(institutionId)).toEqual([]);
}

beforeAll(async () => {
  account = uniq("acct");
  domain = `${uniq("d")}.test`;
  owner = await token(uniqEmail("owner", domain), { superAdmin: true, account, name: "Race Owner" });
  ownerId = await userIdOf(owner);
  ownerUser = { userId: ownerId, accountId: account };
});

describe("administrator races", () => {
  it("the membership audit can fail: it names a seat without its record, a marker without a seat, a super admin without a seat", async () => {
    const inst = await createInstitution(owner);
    const ada = await join(inst.id);
    await expectConsistent(inst.id);
    const T = config.tables.main;
    await db.send(new DeleteCommand({ TableName: T, Key: keys.access(ada.id, inst.id) }));
    await db.send(
      new UpdateCommand({
        TableName: T,
        Key: keys.institution(inst.id),
        UpdateExpression: "REMOVE #m.#u",
        ExpressionAttributeNames: { "#m": "members", "#u": ownerId },
      }),
    );
    await db.send(new PutCommand({ TableName: T, Item: { ...keys.memberEmail(inst.id, "ghost@x.test"), user_id: "ghost" } }));
    const problems = await auditMembership(inst.id);
    expect(problems).toEqual(
      expect.arrayContaining([
        `super admin ${ownerId} holds no cohort_super_admin seat`,
        `seat of ${ada.id} without its access record`,
        expect.stringMatching(/^access record of .* without its seat$/),
        expect.stringMatching(/e-mail marker .* of ghost, who holds no seat$/),
      ]),
    );
  });

  it("10 parallel removals and accepts on one institution (some accepts of invitations the removed sent): seats, records, markers agree", async () => {
    for (let round = 0; round < 2; round++) {
      const inst = await createInstitution(owner);
      const senders = [await join(inst.id, "cohort_super_admin", true), await join(inst.id, "cohort_super_admin", true)];
      const plain = await Promise.all([join(inst.id), join(inst.id), join(inst.id)]);
      const fromOwner = await Promise.all([pending(inst.id), pending(inst.id), pending(inst.id)]);
      const fromSenders = [await pending(inst.id, senders[0]?.token), await pending(inst.id, senders[1]?.token)];
      const removed = [...senders, ...plain];
      const accepting = [...fromOwner, ...fromSenders];

      const results = await Promise.all([
        ...removed.map((p) => call("DELETE", admin(inst.id, p.id), { token: owner })),
        ...accepting.map((p) => call("POST", ACCEPT, { token: p.token, body: { token: p.invitation } })),
      ]);
      const removals = results.slice(0, removed.length);
      const accepts = results.slice(removed.length);
      expectStatuses(removals, [200, 409]);
      // An invitation its sender's removal revoked first is refused (422); the others are accepted or conflict.
      expectStatuses(accepts.slice(0, fromOwner.length), [200, 409]);
      expectStatuses(accepts.slice(fromOwner.length), [200, 409, 422]);
      await expectConsistent(inst.id);

      const seats = Object.keys((await getInstitution(inst.id))?.members ?? {});
      const removedIds = removed.filter((_, i) => removals[i]?.status === 200).map((p) => p.id);
      const acceptedIds = accepting.filter((_, i) => accepts[i]?.status === 200).map((p) => p.id);
      const kept = removed.filter((_, i) => removals[i]?.status !== 200).map((p) => p.id);
      expect(seats.sort()).toEqual([ownerId, ...kept, ...acceptedIds].sort());
      for (const id of removedIds) expect(seats).not.toContain(id);
      // A sender removed before its invitee accepted: that accept was refused; accepted first: the removal revoked one fewer.
      fromSenders.forEach((_, i) => {
        const senderRemoved = removals[i]?.status === 200;
        const accepted = accepts[fromOwner.length + i]?.status === 200;
        if (senderRemoved) expect(removals[i]?.body.revoked_invitations).toBe(accepted ? 0 : 1);
      });
      // Every change has its event, and every event its change.
      const removedEvents = (await eventsOfUser(ownerUser)).filter(
        (e) => e.event_type === "administrator_removed" && e.details.institution_id === inst.id,
      );
      expect(removedEvents.map((e) => e.details.user_id).sort()).toEqual([...removedIds].sort());
      for (const [i, p] of accepting.entries()) {
        const accepted = (await eventsOfUser({ userId: p.id, accountId: account })).filter((e) => e.event_type === "invitation_accepted");
        expect(accepted, p.email).toHaveLength(accepts[i]?.status === 200 ? 1 : 0);
      }
      console.log(
        `[admin races] round ${round}: removals ${removals.map((r) => r.status).join(",")}; accepts ${accepts.map((r) => r.status).join(",")}`,
      );
    }
  });

  it("a removal racing a role change of the same administrator: removed, or changed then removed; never a seat without its record", async () => {
    const seen = new Set<string>();
    const inst = await createInstitution(owner);
    for (let round = 0; round < 5; round++) {
      const target = await join(inst.id);
      const [removal, change] = await Promise.all([
        call("DELETE", admin(inst.id, target.id), { token: owner }),
        call("PATCH", admin(inst.id, target.id), { token: owner, body: { role: "cohort_super_admin" } }),
      ]);
      seen.add(`remove ${removal.status} / change ${change.status}`);
      expectStatuses([removal], [200, 409]);
      expectStatuses([change], [200, 404, 409]);
      await expectConsistent(inst.id);
      const seat = (await getInstitution(inst.id))?.members[target.id];
      if (removal.status === 200) expect(seat).toBeUndefined();
      else expect(seat).toBe(change.status === 200 ? "cohort_super_admin" : "cohort_admin");
    }
    console.log(`[admin races] removal vs role change: ${[...seen].join("; ")}`);
  });

  it("a transfer racing the removal of its target: never both; the super admin always holds access", async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const inst = await createInstitution(owner);
      const heir = await join(inst.id, "cohort_super_admin", true);
      const [move, removal] = await Promise.all([
        call("POST", `${INST}/${inst.id}/transfer`, { token: owner, body: { user_id: heir.id } }),
        call("DELETE", admin(inst.id, heir.id), { token: owner }),
      ]);
      seen.add(`transfer ${move.status} / remove ${removal.status}`);
      expectStatuses([move], [200, 404, 409]);
      expectStatuses([removal], [200, 403, 409]);
      expect(move.status === 200 && removal.status === 200).toBe(false);
      await expectConsistent(inst.id);
      const stored = await getInstitution(inst.id);
      if (move.status === 200) {
        expect(stored?.super_admin_id).toBe(heir.id);
        expect(stored?.members[heir.id]).toBe("cohort_super_admin");
      } else {
        expect(stored?.super_admin_id).toBe(ownerId);
      }
      if (removal.status === 200) expect(stored?.members[heir.id]).toBeUndefined();
    }
    console.log(`[admin races] transfer vs removal of its target: ${[...seen].join("; ")}`);
  });

  it("two transfers racing: one wins, the other is refused as no longer the super admin; one super admin, with access", async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const inst = await createInstitution(owner);
      const heirs = [await join(inst.id, "cohort_super_admin", true), await join(inst.id, "cohort_super_admin", true)];
      const results = await Promise.all(
        heirs.map((h) => call("POST", `${INST}/${inst.id}/transfer`, { token: owner, body: { user_id: h.id } })),
      );
      seen.add(results.map((r) => r.status).join("/"));
      expectStatuses(results, [200, 403, 409]);
      const winners = results.filter((r) => r.status === 200);
      expect(winners.length).toBeLessThanOrEqual(1);
      await expectConsistent(inst.id);
      const stored = await getInstitution(inst.id);
      const winner = winners[0]?.body.institution.super_admin_id ?? ownerId;
      expect(stored?.super_admin_id).toBe(winner);
      expect(stored?.version).toBe(3 + winners.length);
    }
    console.log(`[admin races] two transfers: ${[...seen].join("; ")}`);
  });

  it("removal is final (M2): invitations racing their sender's removal are revoked by it or refused; 20 rounds, no live invitation left", async () => {
    const T = config.tables.main;
    const inst = await createInstitution(owner);
    const seen = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const sender = await join(inst.id, "cohort_super_admin", true);
      const invites = [0, 1, 2].map(() =>
        call("POST", INV, {
          token: sender.token,
          body: { institution_id: inst.id, email: uniqEmail("raced", domain), role: "cohort_admin" },
        }),
      );
      const [removal, ...created] = await Promise.all([call("DELETE", admin(inst.id, sender.id), { token: owner }), ...invites]);
      expectStatuses([removal as CallResult], [200]);
      expectStatuses(created, [201, 403, 404, 409]);
      const made = created.filter((r) => r.status === 201).length;
      seen.add(`invites ${created.map((r) => r.status).join(",")} / revoked ${removal?.body.revoked_invitations}`);
      // Every invitation that was created went with the removal: revoked by it, none still active.
      const items = await db.send(
        new QueryCommand({
          TableName: T,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :inv)",
          FilterExpression: "created_by_id = :by",
          ExpressionAttributeValues: { ":pk": keys.invitation(inst.id, "").pk, ":inv": "INV#", ":by": sender.id },
          ConsistentRead: true,
        }),
      );
      const live = (items.Items ?? []).filter((i) => i.revoked_at === undefined && i.used_at === undefined);
      expect(
        live.map((i) => i.id),
        `round ${round}`,
      ).toEqual([]);
      expect(items.Items ?? []).toHaveLength(made);
      expect(removal?.body.revoked_invitations, `round ${round}`).toBe(made);
    }
    console.log(`[admin races] removal vs its sender's invitations: ${[...seen].join("; ")}`);
    await expectConsistent(inst.id);
  }, 240_000);

  it("a removal racing an accept by the removed administrator's own invitee and its own leave: the books balance", async () => {
    const inst = await createInstitution(owner);
    const leaver = await join(inst.id, "cohort_super_admin", true);
    const invitee = await pending(inst.id, leaver.token);
    const [leave, remove, accept] = await Promise.all([
      call("DELETE", admin(inst.id, leaver.id), { token: leaver.token }),
      call("DELETE", admin(inst.id, leaver.id), { token: owner }),
      call("POST", ACCEPT, { token: invitee.token, body: { token: invitee.invitation } }),
    ]);
    expectStatuses([leave, remove], [200, 404, 409]);
    expect([leave, remove].filter((r) => r.status === 200)).toHaveLength(1);
    expectStatuses([accept], [200, 409, 422]);
    await expectConsistent(inst.id);
  });
});
