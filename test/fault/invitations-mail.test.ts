/**
 * Invitation mail failure, with the local SES stopped (a fault file: it has the stack to itself). The
 * contract: 502 `{error: "Failed to send invitation email"}` and no active invitation left behind, so the
 * pending-limit slot is free again; the trail shows the creation and its withdrawal.
 */
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { hashToken } from "../../shared/invitations/token.js";
import { paths } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { eventsOf } from "../integration/helpers.js";
import { call, invitationTokenIn, sentMail, ses, token, uniq, uniqEmail } from "../support/api.js";
import { ageLastMail, INV } from "../support/flows.js";

let owner: string;
let institutionId: string;

beforeAll(async () => {
  owner = await token(uniqEmail("owner"), { superAdmin: true, account: uniq("acct"), name: "Mail Owner" });
  const res = await call("POST", paths.institutions, { token: owner, body: { institution: { name: uniq("Mailless U") } } });
  expect(res.status).toBe(201);
  institutionId = res.body.institution.id;
});

afterAll(async () => {
  await ses.resume();
  await ses.start();
});

const create = (email: string) => call("POST", INV, { token: owner, body: { institution_id: institutionId, email, role: "cohort_admin" } });

async function itemsOf(email: string) {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.main,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk },
      ConsistentRead: true,
    }),
  );
  const items = out.Items ?? [];
  return {
    invitations: items.filter((i) => String(i.sk).startsWith(keys.invitationPrefix) && i.email === email),
    slots: items.filter((i) => String(i.sk).startsWith(`${keys.emailPrefix(email)}SLOT#`)),
  };
}

describe("invitation mail failure", () => {
  it("SES down: create answers 502 and leaves nothing active; once SES is back, the limit counts from zero", async () => {
    const email = uniqEmail("unlucky");
    await ses.stop();
    for (let i = 0; i < 4; i++) {
      const started = Date.now();
      const res = await create(email);
      expect(res).toMatchObject({ status: 502, body: { error: "Failed to send invitation email" } });
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    const list = await call("GET", INV, { token: owner, query: { institution_id: institutionId } });
    expect(list.body).toEqual({ invitations: [], meta: { count: 0, limit: 50, next_cursor: null } });
    const { invitations, slots } = await itemsOf(email);
    expect(invitations).toHaveLength(4);
    for (const inv of invitations) {
      expect(inv).toMatchObject({ revoked_at: expect.any(String), revoke_reason: "email_delivery_failed" });
      const tokenItem = await db.send(new GetCommand({ TableName: config.tables.main, Key: keys.token(String(inv.token_hash)) }));
      expect(tokenItem.Item).toBeUndefined();
    }
    expect(slots).toEqual([]);
    const trail = (await eventsOf(owner)).filter((e) => e.details.email === email).reverse();
    expect(trail.map((e) => e.event_type)).toEqual(Array(4).fill(["invitation_created", "invitation_revoked"]).flat());
    for (const e of trail.filter((x) => x.event_type === "invitation_revoked"))
      expect(e.details).toMatchObject({ reason: "email_delivery_failed" });

    await ses.start();
    for (let i = 0; i < 3; i++) expect((await create(email)).status).toBe(201);
    expect((await create(email)).status).toBe(429);
    expect(await sentMail(email)).toHaveLength(3);
  });

  it("SES hung (paused: connections accepted, never answered): create answers 502 promptly and leaves nothing active", async () => {
    await ses.start();
    const email = uniqEmail("hung");
    await ses.pause();
    let res: Awaited<ReturnType<typeof create>>;
    const started = Date.now();
    try {
      res = await create(email);
    } finally {
      await ses.resume();
    }
    // Two attempts of at most 5 s each (shared/mail.ts), then the withdrawal: well inside the 15 s Lambda timeout.
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(res).toMatchObject({ status: 502, body: { error: "Failed to send invitation email" } });
    const { invitations, slots } = await itemsOf(email);
    expect(invitations).toEqual([expect.objectContaining({ revoked_at: expect.any(String), revoke_reason: "email_delivery_failed" })]);
    expect(slots).toEqual([]);
    const list = await call("GET", INV, { token: owner, query: { institution_id: institutionId } });
    expect(list.body.invitations.filter((i: { email: string }) => i.email === email)).toEqual([]);
  });

  it("SES down: resend answers 502 and withdraws the invitation (its old token is already void)", async () => {
    await ses.start();
    const email = uniqEmail("resent");
    const created = await create(email);
    expect(created.status).toBe(201);
    const [mail] = await sentMail(email);
    if (!mail) throw new Error("no mail");
    const oldToken = invitationTokenIn(mail);
    // Past the resend cooldown (issue 14), so that the resend reaches SES.
    await ageLastMail(institutionId, created.body.invitation.id, 11 * 60);
    await ses.stop();
    const res = await call("POST", `${INV}/${created.body.invitation.id}/resend`, {
      token: owner,
      body: { institution_id: institutionId },
    });
    expect(res).toMatchObject({ status: 502, body: { error: "Failed to send invitation email" } });
    await ses.start();
    const { invitations, slots } = await itemsOf(email);
    expect(invitations).toEqual([expect.objectContaining({ revoked_at: expect.any(String), revoke_reason: "email_delivery_failed" })]);
    expect(invitations[0]?.token_hash).not.toBe(hashToken(oldToken));
    expect(slots).toEqual([]);
    const invitee = await token(email);
    const acc = await call("POST", paths.invitationsAccept, { token: invitee, body: { token: oldToken } });
    expect(acc).toMatchObject({ status: 422, body: { error: "Invalid or expired invitation" } });
  });
});
