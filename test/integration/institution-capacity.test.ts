/**
 * An institution at its administrator limit (`MAX_MEMBERS`): update and delete still commit in one
 * transaction with every member's access record (a transaction holds at most 100 items), and no invitation
 * create or accept takes it past the limit. Members beyond the owner are granted directly in the table;
 * everything under test is called over HTTP with real tokens.
 */
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { INSTITUTION_FULL, MAX_MEMBERS, TOO_MANY_FOR_CHANGE } from "../../shared/institutions/model.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { keys } from "../../shared/tables.js";
import { call, invitationTokenIn, sentMail, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, INST, INV } from "../support/flows.js";
import { idClaims, signJwt } from "../support/jwt.js";
import { grantAccess, userIdOf } from "./helpers.js";

const accessRecord = async (userId: string, institutionId: string) =>
  (await db.send(new GetCommand({ TableName: config.tables.main, Key: keys.access(userId, institutionId), ConsistentRead: true }))).Item;

describe(`an institution with ${MAX_MEMBERS} administrators`, () => {
  let owner: string;
  let ownerEmail: string;
  /** The owner's token after the pool moved it to another account. */
  let moved: string;
  let institutionId: string;
  let pendingEmail: string;
  let pendingId: string;
  let pendingToken: string;
  const seated: string[] = [];

  beforeAll(async () => {
    const domain = `${uniq("full")}.test`;
    ownerEmail = uniqEmail("owner", domain);
    owner = await token(ownerEmail, { superAdmin: true });
    const created = await call("POST", INST, {
      token: owner,
      body: { institution: { name: uniq("Full House"), registration_number: uniq("REG") } },
    });
    expect(created.status).toBe(201);
    institutionId = created.body.institution.id;

    // Invited while there was room; accepted only once the last seat is gone.
    pendingEmail = uniqEmail("late", domain);
    const invited = await call("POST", INV, {
      token: owner,
      body: { institution_id: institutionId, email: pendingEmail, role: "cohort_admin" },
    });
    expect(invited.status).toBe(201);
    pendingId = invited.body.invitation.id;
    const mail = (await sentMail(pendingEmail))[0];
    if (!mail) throw new Error("no invitation mail");
    pendingToken = invitationTokenIn(mail);

    for (let n = 1; n < MAX_MEMBERS; n++) {
      const userId = uniq("seat");
      await grantAccess(institutionId, userId, n % 10 === 0 ? "cohort_super_admin" : "cohort_admin");
      seated.push(userId);
    }
    expect(Object.keys((await getInstitution(institutionId))?.members ?? {})).toHaveLength(MAX_MEMBERS);
  }, 60_000);

  it("invitation create for a new e-mail: 422 with the limit, and no mail", async () => {
    const email = uniqEmail("one-too-many");
    const res = await call("POST", INV, { token: owner, body: { institution_id: institutionId, email, role: "cohort_admin" } });
    expect(res).toMatchObject({ status: 422, body: { errors: [INSTITUTION_FULL] } });
    expect(await sentMail(email)).toEqual([]);
  });

  it("accept by a new member: 422 with the limit; the invitation stays active and grants nothing", async () => {
    const invitee = await token(pendingEmail);
    const res = await call("POST", ACCEPT, { token: invitee, body: { token: pendingToken } });
    expect(res).toMatchObject({ status: 422, body: { error: INSTITUTION_FULL } });
    const stored = await db.send(new GetCommand({ TableName: config.tables.main, Key: keys.invitation(institutionId, pendingId) }));
    expect(stored.Item?.used_at).toBeUndefined();
    expect(await accessRecord(await userIdOf(invitee), institutionId)).toBeUndefined();
    expect(Object.keys((await getInstitution(institutionId))?.members ?? {})).toHaveLength(MAX_MEMBERS);
  });

  it("PATCH by the super admin with another account in its token (events in two trails, over 100 items): 422, never 500, nothing changes", async () => {
    const before = await getInstitution(institutionId);
    // The pool moved the super admin to another account: each event now goes to its trail and the owner's. The token
    // is minted without a sign-in, so the new account has no event in this period yet: its first one carries the
    // period's activity marker too (shared/audit.ts), the item that puts this change over the limit. (A sign-in
    // would record one first, its marker with it, and the change would fit.)
    moved = signJwt(
      idClaims({
        sub: await userIdOf(owner),
        email: ownerEmail,
        "custom:account_id": uniq("acct-moved"),
        "cognito:groups": ["cohort_super_admin"],
      }),
    );
    const patch = await call("PATCH", `${INST}/${institutionId}`, {
      token: moved,
      body: { institution: { name: uniq("Moved House"), registration_number: uniq("REG") } },
    });
    expect(patch, patch.text).toMatchObject({ status: 422, body: { errors: [TOO_MANY_FOR_CHANGE] } });
    expect(await getInstitution(institutionId)).toEqual(before);
  });

  it("PATCH with a new registration number (the largest update transaction): 200, and every member's list shows it", async () => {
    const name = uniq("Renamed House");
    const res = await call("PATCH", `${INST}/${institutionId}`, {
      token: owner,
      body: { institution: { name, registration_number: uniq("REG") } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const records = await Promise.all(seated.map((userId) => accessRecord(userId, institutionId)));
    expect(records.map((r) => r?.institution?.name)).toEqual(seated.map(() => name));
  });

  it("DELETE: 200, and every member's access record goes with it", async () => {
    // By the moved super admin first: it fits one transaction (200) or answers 422, never 500.
    const byMoved = await call("DELETE", `${INST}/${institutionId}`, { token: moved });
    if (byMoved.status !== 200) expect(byMoved, byMoved.text).toMatchObject({ status: 422, body: { error: TOO_MANY_FOR_CHANGE } });
    const res = byMoved.status === 200 ? byMoved : await call("DELETE", `${INST}/${institutionId}`, { token: owner });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const records = await Promise.all([await userIdOf(owner), ...seated].map((userId) => accessRecord(userId, institutionId)));
    expect(records.filter(Boolean)).toEqual([]);
  });
});
