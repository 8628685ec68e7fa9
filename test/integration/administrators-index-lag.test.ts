/**
 * "Removal is final" does not depend on an index's lag (docs/security.md, "Offboarding is complete"). A removal
 * revokes the active invitations the removed person sent; it used to read them from the `by_invitation_sender`
 * GSI, which in AWS is eventually consistent: an invitation sent a moment before the removal is already counted
 * on the sender's access record (the removal's guard passes) yet may be missing from the index, and would
 * survive the removal. It now reads the sender's own records of them (`USER#<sender>` / `SENT#…`) with a
 * strongly consistent Query.
 *
 * FAULT INJECTION, and why: DynamoDB Local updates a GSI in the same write, so it cannot lag one. The lag is
 * simulated at the SDK instead: a middleware on the shared DynamoDB client of this process drops the newest item
 * (by id: ids are time-ordered) from every answer to a Query of `by_invitation_sender`, as an index that has not
 * caught up with the last write would answer. The use cases run in this process (the gateway's process has no
 * injection), so the removal meets the lagging index if it still reads it.
 *
 * The second test holds what makes the read complete over time: a resend moves the sender's record of the
 * invitation with the invitation's expiry, so a removal after the first expiry still finds it.
 *
 * Under test/integration/, not test/fault/: the fault lives in this process only, so the file needs no stack of
 * its own.
 */

import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { withClockOffset } from "../../shared/clock.js";
import { paths } from "../../shared/routes.js";
import { invitationSenderIndex, invitationStateIndex, keys } from "../../shared/tables.js";
import { auditMembership } from "../fault/consistency.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { ACCEPT, lastMailedToken, storedInvitation } from "../support/flows.js";
import { visit } from "../support/visitor.js";

process.env.MAIL_FROM = "no-reply@institution-admin.local";
process.env.APP_BASE_URL = "http://app.local";
const { db, dynamo } = await import("../../shared/clients.js");
const { config } = await import("../../shared/config.js");
const { createInstitution } = await import("../../shared/institutions/service.js");
const { createInvitation } = await import("../../shared/invitations/issue.js");
const { acceptInvitation } = await import("../../shared/invitations/service.js");
const { resendInvitation } = await import("../../shared/invitations/issue.js");
const { removeAdministrator } = await import("../../shared/administrators/service.js");
const { activeInvitationsSentBy } = await import("../../shared/invitations/repository.js");

const INVALID = { error: "Invalid or expired invitation" };
const PASSWORD = "Correct-Horse-9-battery";

/** The injected lag: while `on`, every Query of the sender index loses its newest item; `queries` counts them. */
const lag = { on: false, queries: 0, dropped: [] as string[] };
const LAG = "lag-sender-index";

/** An item's id, as the Document client or the bare client sees it (the middleware may run on either side). */
const idOf = (item: Record<string, unknown>): string => {
  const id = item.id as string | { S?: string } | undefined;
  return typeof id === "string" ? id : (id?.S ?? "");
};

beforeAll(() => {
  (dynamo as DynamoDBClient).middlewareStack.add(
    (next) => async (args) => {
      const out = await next(args);
      const input = args.input as { IndexName?: string };
      if (!lag.on || input.IndexName !== invitationSenderIndex.name) return out;
      lag.queries++;
      const output = out.output as { Items?: Record<string, unknown>[]; Count?: number };
      const items = output.Items ?? [];
      if (items.length === 0) return out;
      const newest = items.reduce((a, b) => (idOf(b) > idOf(a) ? b : a));
      lag.dropped.push(idOf(newest));
      output.Items = items.filter((i) => i !== newest);
      output.Count = output.Items.length;
      return out;
    },
    { step: "initialize", name: LAG },
  );
});
afterAll(() => {
  dynamo.middlewareStack.remove(LAG);
});

/** Runs `fn` with the index lagging. */
async function lagging<T>(fn: () => Promise<T>): Promise<T> {
  lag.on = true;
  try {
    return await fn();
  } finally {
    lag.on = false;
  }
}

/** The old path of the removal: the sender's unexpired invitations as the sender index holds them. */
async function fromSenderIndex(institutionId: string, senderId: string): Promise<string[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.main,
      IndexName: invitationSenderIndex.name,
      KeyConditionExpression: "#p = :p AND #o > :now",
      ExpressionAttributeNames: { "#p": invitationSenderIndex.partitionKey, "#o": invitationStateIndex.sortKey },
      ExpressionAttributeValues: { ":p": invitationSenderIndex.partition(institutionId, senderId), ":now": new Date().toISOString() },
    }),
  );
  return (out.Items ?? []).map((i) => String(i.id)).sort();
}

const caller = (label: string, accountId: string): Caller => ({
  id: uniq(label),
  email: uniqEmail(label),
  name: null,
  emailVerified: true,
  accountId,
  isCohortSuperAdmin: true,
  ip: "127.0.0.1",
});

/** `person` invited by `owner` as a super admin of the institution, and accepting (in this process). */
async function admit(owner: Caller, institutionId: string, person: Caller): Promise<void> {
  await createInvitation(owner, {}, { institution_id: institutionId, email: person.email, role: "cohort_super_admin" });
  await acceptInvitation(person, { token: await lastMailedToken(person.email) });
}

describe("removal is final whatever the sender index's lag", () => {
  it("an invitation the lagging index misses is still revoked by the removal, and nobody joins through it, even once its sender is back", async () => {
    const account = uniq("acct");
    const owner = caller("owner", account);
    const sender = caller("sender", account);
    const {
      institution: { id: institutionId },
    } = await createInstitution(owner, { institution: { name: uniq("Lag U") } });
    await admit(owner, institutionId, sender);

    // Two invitations by the sender, the second a moment before the removal: the one a lagging index misses.
    const send = async () => {
      const email = uniqEmail("invitee");
      const { invitation } = await createInvitation(sender, {}, { institution_id: institutionId, email, role: "cohort_admin" });
      return { id: invitation.id, email, token: await lastMailedToken(email) };
    };
    const earlier = await send();
    const latest = await send();
    expect(latest.id > earlier.id).toBe(true);
    const both = [earlier.id, latest.id].sort();

    // The old path misses it: the index, lagging, answers without the latest invitation (and, without the lag, with it).
    expect(await fromSenderIndex(institutionId, sender.id)).toEqual(both);
    expect(await lagging(() => fromSenderIndex(institutionId, sender.id))).toEqual([earlier.id]);
    expect(lag.dropped).toEqual([latest.id]);

    // The read that replaces it is complete under the same injection: it does not query the index at all.
    lag.queries = 0;
    const read = await lagging(() => activeInvitationsSentBy(institutionId, sender.id, new Date()));
    expect(read.map((i) => i.id)).toEqual(both);
    expect(lag.queries).toBe(0);

    // The removal, with the index lagging, revokes both.
    const removed = await lagging(() => removeAdministrator(owner, institutionId, sender.id));
    expect(removed).toEqual({ message: "Administrator removed", revoked_invitations: 2 });
    expect(lag.queries).toBe(0);
    for (const { id } of [earlier, latest])
      expect(await storedInvitation(institutionId, id)).toMatchObject({ revoke_reason: "administrator_removed" });
    expect(await auditMembership(institutionId)).toEqual([]);

    // The sender back (an administrator again): an invitation only its revocation stops, not the missing seat.
    await admit(owner, institutionId, sender);
    const joined = await visit("POST", paths.invitationsRegister, {
      body: { token: latest.token, name: "Late Comer", password: PASSWORD },
    });
    expect(joined.status, joined.text).toBe(422);
    expect(joined.body).toEqual(INVALID);
    const accepted = await call("POST", ACCEPT, { token: await token(latest.email), body: { token: latest.token } });
    expect(accepted.status, accepted.text).toBe(422);
    expect(accepted.body).toEqual(INVALID);
    expect(await auditMembership(institutionId)).toEqual([]);
  });

  it("a resend moves the sender's record of the invitation with it: a removal after the first expiry still revokes it", async () => {
    const DAY = 86_400_000;
    const validity = config.invitationValidityDays * DAY;
    const account = uniq("acct");
    const owner = caller("owner", account);
    const sender = caller("sender", account);
    const {
      institution: { id: institutionId },
    } = await createInstitution(owner, { institution: { name: uniq("Lag U") } });
    await admit(owner, institutionId, sender);
    const email = uniqEmail("invitee");
    const { invitation } = await createInvitation(sender, {}, { institution_id: institutionId, email, role: "cohort_admin" });
    const record = async () =>
      (await db.send(new GetCommand({ TableName: config.tables.main, Key: keys.sentInvitation(sender.id, institutionId, invitation.id) })))
        .Item;
    expect(await record()).toMatchObject({ invitation_id: invitation.id, expires_at: invitation.expires_at });

    // Resent a day before it expires (by the owner: the record is its sender's), so it is active a day past its first expiry.
    const resent = await withClockOffset(validity - DAY, () =>
      resendInvitation(owner, invitation.id, { institution_id: institutionId }, {}),
    );
    expect(resent.invitation.expires_at > invitation.expires_at).toBe(true);
    expect(await record()).toMatchObject({
      expires_at: resent.invitation.expires_at,
      ttl: Math.ceil(Date.parse(resent.invitation.expires_at) / 1000),
    });

    const removed = await withClockOffset(validity + DAY, () => lagging(() => removeAdministrator(owner, institutionId, sender.id)));
    expect(removed).toEqual({ message: "Administrator removed", revoked_invitations: 1 });
    expect(await storedInvitation(institutionId, invitation.id)).toMatchObject({ revoke_reason: "administrator_removed" });
    expect(await auditMembership(institutionId)).toEqual([]);
  });
});
