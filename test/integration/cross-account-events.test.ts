/**
 * Issue 14, point 1 (docs/contract/README.md#identity-and-access, "Security events are scoped by account"): an event that concerns an
 * institution owned by another account is recorded in the actor's account and in the owner's, with the
 * same id and the actor's user fields, and the owner sees it in its list, show, export and alerts. Neither
 * account sees the other's unrelated events; a probe of an id that does not exist concerns no owner.
 *
 * The scene: account A owns an institution; a user of account B is invited into it as a cohort super
 * admin, accepts, invites someone and revokes that invitation, and also probes another of A's
 * institutions that is not visible to them; another user of B probes A's institution five times and an
 * id that does not exist once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { parseCsv } from "../support/csv.js";
import { acceptLatest, allEvents, createInstitution, EVENTS, INST, INV, invite, type ListedEvent, revoke } from "../support/flows.js";
import { userIdOf } from "./helpers.js";

interface Scene {
  owner: string;
  /** A's other super admin, who never touches anything: the owner's account has two readers. */
  ownerColleague: string;
  member: string;
  memberId: string;
  memberEmail: string;
  prober: string;
  proberId: string;
  inst: { id: string; name: string };
  hidden: { id: string; name: string };
  /** Events of A that concern nobody in B. */
  ownersOwn: ListedEvent[];
  /** What B's trail holds after the scene, by type. */
  inB: ListedEvent[];
}

let s: Scene;

beforeAll(async () => {
  const accountA = uniq("acct-a");
  const accountB = uniq("acct-b");
  const memberEmail = uniqEmail("member");
  const [owner, ownerColleague, member, prober] = await Promise.all([
    token(uniqEmail("owner"), { superAdmin: true, account: accountA, name: "Olive Owner" }),
    token(uniqEmail("colleague"), { superAdmin: true, account: accountA }),
    token(memberEmail, { superAdmin: true, account: accountB, name: "Bob Member" }),
    token(uniqEmail("prober"), { superAdmin: true, account: accountB, name: "Pat Prober" }),
  ]);
  const inst = await createInstitution(owner);
  const hidden = await createInstitution(owner);
  await invite(owner, inst.id, memberEmail, "cohort_super_admin");
  const ownersOwn = await allEvents(owner);

  // B's member acts inside A's institution.
  await acceptLatest(member, memberEmail);
  const invitee = uniqEmail("invitee");
  const invitation = await invite(member, inst.id, invitee);
  await revoke(member, inst.id, invitation);
  // …and looks at an A institution it has no access to.
  expect((await call("GET", `${INST}/${hidden.id}`, { token: member })).status).toBe(404);

  // B's prober: four looks at the institution, one through the invitation endpoints, one at an id that does not exist.
  for (let i = 0; i < 4; i++) expect((await call("GET", `${INST}/${inst.id}`, { token: prober })).status).toBe(404);
  expect((await call("GET", INV, { token: prober, query: { institution_id: inst.id } })).status).toBe(404);
  expect((await call("GET", `${INST}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { token: prober })).status).toBe(404);

  s = {
    owner,
    ownerColleague,
    member,
    memberId: await userIdOf(member),
    memberEmail,
    prober,
    proberId: await userIdOf(prober),
    inst,
    hidden,
    ownersOwn,
    inB: await allEvents(member),
  };
});

/** B's events that concern A's institutions: each must also be in A's trail. */
function crossEvents(): ListedEvent[] {
  const concernsA = (e: ListedEvent) =>
    [s.inst.id, s.hidden.id].includes(String(e.details.institution_id ?? e.details.attempted_institution_id ?? ""));
  return s.inB.filter(concernsA);
}

describe("cross-account events: recorded in the owner's account too", () => {
  it("B's trail holds the events of the scene (so the checks below have something to find)", () => {
    const types = crossEvents()
      .map((e) => e.event_type)
      .sort();
    expect(types).toEqual(
      ["invitation_accepted", "invitation_created", "invitation_revoked", ...Array(6).fill("unauthorized_institution_access")].sort(),
    );
    expect(s.inB.filter((e) => e.details.attempted_institution_id === "01ARZ3NDEKTSV4RRFFQ69G5FAV")).toHaveLength(1);
  });

  it("A's list holds each of them under the same id, with the actor's e-mail and the same details", async () => {
    const inA = await allEvents(s.owner);
    const byId = new Map(inA.map((e) => [e.id, e]));
    expect(byId.size).toBe(inA.length); // one entry per event, no duplicate copies
    for (const e of crossEvents()) {
      expect(byId.get(e.id), `${e.event_type} ${e.id}`).toEqual(e);
    }
    const actors = new Set(crossEvents().map((e) => e.user_email));
    expect([...actors].sort()).toEqual([expect.stringMatching(/^member-/), expect.stringMatching(/^prober-/)].sort());
    // Any super admin of A reads them, not only the owner who was involved.
    const colleague = new Set((await allEvents(s.ownerColleague)).map((e) => e.id));
    for (const e of crossEvents()) expect(colleague.has(e.id)).toBe(true);
  });

  it("A's list filters find them: by the outsider's user id, and by type", async () => {
    const byMember = await allEvents(s.owner, { user_id: s.memberId });
    expect(byMember.map((e) => e.id).sort()).toEqual(
      crossEvents()
        .filter((e) => e.user_email === s.memberEmail)
        .map((e) => e.id)
        .sort(),
    );
    const probes = await allEvents(s.owner, { event_type: "unauthorized_institution_access" });
    expect(probes.map((e) => e.id).sort()).toEqual(
      crossEvents()
        .filter((e) => e.event_type === "unauthorized_institution_access")
        .map((e) => e.id)
        .sort(),
    );
    const byProberProbes = await allEvents(s.owner, { user_id: s.proberId, event_type: "unauthorized_institution_access" });
    expect(byProberProbes).toHaveLength(5);
  });

  it("A's show returns each with the actor's user fields", async () => {
    for (const e of crossEvents()) {
      const res = await call("GET", `${EVENTS}/${e.id}`, { token: s.owner });
      expect(res.status, `${e.event_type} ${e.id}`).toBe(200);
      const isMember = e.user_email === s.memberEmail;
      expect(res.body).toMatchObject({
        id: e.id,
        event_type: e.event_type,
        details: e.details,
        user: isMember
          ? { id: s.memberId, email: s.memberEmail, name: "Bob Member" }
          : { id: s.proberId, email: e.user_email, name: "Pat Prober" },
      });
    }
  });

  it("A's export holds a row for each, with the actor's user id", async () => {
    const res = await call("GET", `${EVENTS}/export`, { token: s.owner });
    expect(res.status).toBe(200);
    const rows = parseCsv(res.text);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    for (const e of crossEvents()) {
      const row = byId.get(e.id);
      expect(row, `${e.event_type} ${e.id}`).toBeDefined();
      expect(row?.[1]).toBe(e.event_type);
      expect(row?.[3]).toBe(e.user_email === s.memberEmail ? s.memberId : s.proberId);
      expect(row?.[4]).toBe(e.user_email);
    }
  });

  it("A's alerts count the probes of its institutions (5 by the prober, 1 by the member): the unauthorized-access alert fires", async () => {
    const res = await call("GET", `${EVENTS}/alerts`, { token: s.owner });
    expect(res.status).toBe(200);
    expect(res.body.summary.unauthorized_institution_access).toBe(6);
    expect(res.body.alerts).toContainEqual({ type: "unauthorized_access", severity: "high", count: 6 });
    // B's own count is unchanged by the copies: its 6 probes of A plus the one of an id that does not exist.
    const inB = await call("GET", `${EVENTS}/alerts`, { token: s.prober });
    expect(inB.body.summary.unauthorized_institution_access).toBe(7);
  });
});

describe("cross-account events: nothing more crosses", () => {
  it("a probe of an id that does not exist stays in B's trail only", async () => {
    const ghost = s.inB.find((e) => e.details.attempted_institution_id === "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(ghost).toBeDefined();
    const inA = new Set((await allEvents(s.owner)).map((e) => e.id));
    expect(inA.has(String(ghost?.id))).toBe(false);
    expect((await call("GET", `${EVENTS}/${ghost?.id}`, { token: s.owner })).status).toBe(404);
  });

  it("B never sees A's own events: not in its list, show or export", async () => {
    expect(s.ownersOwn.length).toBeGreaterThanOrEqual(3); // two institution_created, one invitation_created
    const inB = new Set((await allEvents(s.member)).map((e) => e.id));
    const exported = parseCsv((await call("GET", `${EVENTS}/export`, { token: s.prober })).text).map((r) => r[0]);
    for (const e of s.ownersOwn) {
      expect(inB.has(e.id), `${e.event_type} ${e.id}`).toBe(false);
      expect(exported).not.toContain(e.id);
      expect(await call("GET", `${EVENTS}/${e.id}`, { token: s.member })).toMatchObject({
        status: 404,
        body: { error: "Security event not found" },
      });
    }
  });

  it("A's trail holds nothing of B's beyond what concerns A's institutions", async () => {
    const crossIds = new Set(crossEvents().map((e) => e.id));
    const ownIds = new Set(s.ownersOwn.map((e) => e.id));
    const foreign = (await allEvents(s.owner)).filter(
      (e) => !ownIds.has(e.id) && !crossIds.has(e.id) && e.user_email !== null && !e.user_email.startsWith("owner-"),
    );
    expect(foreign).toEqual([]);
  });
});
