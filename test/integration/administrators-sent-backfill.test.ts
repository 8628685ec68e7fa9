/**
 * The upgrade's backfill of the senders' records of invitations (docs/operations.md, "Upgrading to the senders'
 * records of invitations"; functions/invitations/backfill-sent.ts), against DynamoDB Local. A removal revokes what
 * the person sent by reading their `USER#<sender>` / `SENT#…` records; an invitation an earlier release sent has
 * none. Such invitations are made here as that release stored them: sent by the use case (the invitation item, in
 * the `by_invitation_sender` index, with its slot, token and the sender's count), then their sender's record deleted.
 * The custom resource's handler runs as CloudFormation's framework invokes it (Create), as its own function, so
 * its requests are judged against its role (docs/iam.md); then the removal of the sender revokes them, each with its
 * event. It runs twice: the second run writes nothing and changes nothing.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { CdkCustomResourceEvent } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { BACKFILL_HANDLER } from "../../infra/backfill.js";
import type { IamRequest } from "../../infra/local/aws-requests.js";
import { asFunction } from "../../infra/local/function-scope.js";
import { KEY_ACTOR_PREFIX } from "../../shared/api-keys/model.js";
import type { Caller } from "../../shared/caller.js";
import { withClockOffset } from "../../shared/clock.js";
import { newId } from "../../shared/ids.js";
import { eventKeys, invitationSenderIndex, invitationStateIndex, keys } from "../../shared/tables.js";
import { auditMembership } from "../fault/consistency.js";
import { build } from "../infra/support.js";
import { stack, uniq, uniqEmail } from "../support/api.js";
import { lastMailedToken, storedInvitation } from "../support/flows.js";
import { evaluate, localNames, readRecorded, rolePolicies } from "../support/iam.js";

process.env.MAIL_FROM = "no-reply@institution-admin.local";
process.env.APP_BASE_URL = "http://app.local";
const { db } = await import("../../shared/clients.js");
const { config } = await import("../../shared/config.js");
const { createInstitution } = await import("../../shared/institutions/service.js");
const { createInvitation } = await import("../../shared/invitations/issue.js");
const { acceptInvitation } = await import("../../shared/invitations/service.js");
const { removeAdministrator } = await import("../../shared/administrators/service.js");
const { activeInvitationsSentBy } = await import("../../shared/invitations/repository.js");
const { putMissingSentRecord } = await import("../../shared/membership/repository.js");
const { handler, BACKFILL_RESOURCE_ID } = await import("../../functions/invitations/backfill-sent.js");

const DAY = 86_400_000;
const T = () => config.tables.main;

const caller = (label: string, accountId: string): Caller => ({
  id: uniq(label),
  email: uniqEmail(label),
  name: null,
  emailVerified: true,
  accountId,
  isCohortSuperAdmin: true,
  ip: "127.0.0.1",
});

/** The custom resource's handler, invoked as CDK's framework invokes it on the resource's Create. */
const runBackfill = () =>
  asFunction(BACKFILL_HANDLER, () =>
    handler({
      RequestType: "Create",
      ServiceToken: "arn:aws:lambda:local:123456789012:function:framework",
      ResponseURL: "https://cloudformation.example/response",
      StackId: "arn:aws:cloudformation:local:123456789012:stack/test/1",
      RequestId: "8a3f2c1e-0000-4000-8000-000000000001",
      LogicalResourceId: "SentRecordsBackfill",
      ResourceType: "Custom::SentRecordsBackfill",
      ResourceProperties: { ServiceToken: "arn:aws:lambda:local:123456789012:function:framework", Run: "1" },
    } as CdkCustomResourceEvent),
  );

const sentRecord = async (senderId: string, institutionId: string, id: string) =>
  (await db.send(new GetCommand({ TableName: T(), Key: keys.sentInvitation(senderId, institutionId, id), ConsistentRead: true }))).Item;

/** What an earlier release left: the invitation (in the sender index), without its sender's record. */
async function asAnEarlierReleaseSent(sender: Caller, institutionId: string, offsetMs = 0) {
  const email = uniqEmail("invitee");
  const { invitation } = await withClockOffset(offsetMs, () =>
    createInvitation(sender, {}, { institution_id: institutionId, email, role: "cohort_admin" }),
  );
  await db.send(new DeleteCommand({ TableName: T(), Key: keys.sentInvitation(sender.id, institutionId, invitation.id) }));
  expect(await sentRecord(sender.id, institutionId, invitation.id)).toBeUndefined();
  expect(await storedInvitation(institutionId, invitation.id)).toMatchObject({
    [invitationSenderIndex.partitionKey]: invitationSenderIndex.partition(institutionId, sender.id),
  });
  return invitation;
}

describe("the upgrade's backfill of the senders' records of invitations", () => {
  it("gives the invitations an earlier release sent their records, so removing the sender revokes them with their events; a second run changes nothing", async () => {
    const account = uniq("acct");
    const owner = caller("owner", account);
    const sender = caller("sender", account);
    const {
      institution: { id: institutionId },
    } = await createInstitution(owner, { institution: { name: uniq("Backfill U") } });
    await createInvitation(owner, {}, { institution_id: institutionId, email: sender.email, role: "cohort_super_admin" });
    await acceptInvitation(sender, { token: await lastMailedToken(sender.email) });

    // Two pending, one expired a day ago (sent a validity and a day back), all without records.
    const pending = [await asAnEarlierReleaseSent(sender, institutionId), await asAnEarlierReleaseSent(sender, institutionId)];
    const expired = await asAnEarlierReleaseSent(sender, institutionId, -(config.invitationValidityDays * DAY + DAY));
    expect(expired.expires_at < new Date().toISOString()).toBe(true);
    // An API key's pending invitation, stored raw as that release did (in the sender index under the key's actor id).
    const keyActor = `${KEY_ACTOR_PREFIX}${uniq("key")}`;
    const byKey = newId();
    const expiresAt = new Date(Date.now() + DAY).toISOString();
    await db.send(
      new PutCommand({
        TableName: T(),
        Item: {
          ...keys.invitation(institutionId, byKey),
          ...invitationStateIndex.attributes(institutionId, "active", expiresAt, byKey),
          [invitationSenderIndex.partitionKey]: invitationSenderIndex.partition(institutionId, keyActor),
          id: byKey,
          institution_id: institutionId,
          email: uniqEmail("keyed"),
          role: "cohort_admin",
          token_hash: "0".repeat(64),
          token_preview: "abcd",
          sent_at: new Date().toISOString(),
          expires_at: expiresAt,
          created_at: new Date().toISOString(),
          created_by: "Key",
          created_by_id: keyActor,
          slot: 0,
        },
      }),
    );

    // The gap: without the records, the removal's read finds nothing the sender sent.
    expect(await activeInvitationsSentBy(institutionId, sender.id, new Date())).toEqual([]);

    const first = await runBackfill();
    expect(first.PhysicalResourceId).toBe(BACKFILL_RESOURCE_ID);
    // Other files' invitations are in the index too: theirs have records already.
    expect(first.Data?.written).toBeGreaterThanOrEqual(2);
    expect(first.Data?.apiKeys).toBeGreaterThanOrEqual(1);
    expect(first.Data?.active).toBeGreaterThanOrEqual(first.Data?.written + first.Data?.apiKeys);
    for (const inv of pending) {
      expect(await sentRecord(sender.id, institutionId, inv.id)).toEqual({
        ...keys.sentInvitation(sender.id, institutionId, inv.id),
        invitation_id: inv.id,
        expires_at: inv.expires_at,
        ttl: Math.ceil(Date.parse(inv.expires_at) / 1000),
      });
    }
    // None for the expired invitation, nor for the key (it has no seat to remove).
    expect(await sentRecord(sender.id, institutionId, expired.id)).toBeUndefined();
    expect(await sentRecord(keyActor, institutionId, byKey)).toBeUndefined();
    expect((await activeInvitationsSentBy(institutionId, sender.id, new Date())).map((i) => i.id)).toEqual(pending.map((i) => i.id).sort());

    // Again: nothing written, every record as it was.
    const records = await Promise.all(pending.map((inv) => sentRecord(sender.id, institutionId, inv.id)));
    const second = await runBackfill();
    expect(second.Data?.written).toBe(0);
    expect(second.Data?.present).toBeGreaterThanOrEqual(2);
    expect(await Promise.all(pending.map((inv) => sentRecord(sender.id, institutionId, inv.id)))).toEqual(records);
    // A record there is kept as it is: one that a resend moved later is not moved back by a stale read.
    const [kept] = pending as [(typeof pending)[number]];
    const stale = new Date(Date.parse(kept.expires_at) - DAY).toISOString();
    expect(await putMissingSentRecord(sender.id, { id: kept.id, institution_id: institutionId, expires_at: stale })).toBe(false);
    expect(await sentRecord(sender.id, institutionId, kept.id)).toEqual(records[0]);

    // The removal now revokes both pending invitations, each with its event.
    const removed = await removeAdministrator(owner, institutionId, sender.id);
    expect(removed).toEqual({ message: "Administrator removed", revoked_invitations: 2 });
    for (const inv of pending)
      expect(await storedInvitation(institutionId, inv.id)).toMatchObject({ revoke_reason: "administrator_removed", revoked_by: owner.id });
    expect(await storedInvitation(institutionId, expired.id)).not.toHaveProperty("revoked_at");
    const trail = await db.send(
      new QueryCommand({
        TableName: config.tables.events,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": eventKeys.partition(account) },
        ConsistentRead: true,
      }),
    );
    const revokedEvents = (trail.Items ?? []).filter((e) => e.event_type === "invitation_revoked");
    expect(revokedEvents.map((e) => [e.details.invitation_id, e.details.reason]).sort()).toEqual(
      pending.map((inv) => [inv.id, "administrator_removed"]).sort(),
    );
    expect((trail.Items ?? []).filter((e) => e.event_type === "administrator_removed").map((e) => e.details.user_id)).toEqual([sender.id]);
    expect(await auditMembership(institutionId)).toEqual([]);

    // Its requests are the function's own, and its role allows them: the Scan of the index, the puts of USER# items.
    const mine = readRecorded(stack.awsRequestLog).filter((r) => r.fn === BACKFILL_HANDLER);
    expect(mine.map((r) => r.action).sort()).toEqual(["dynamodb:PutItem", "dynamodb:Scan"]);
    expect(mine.find((r) => r.action === "dynamodb:Scan")?.resource).toMatch(/\/index\/by_invitation_sender$/);
    expect(mine.find((r) => r.action === "dynamodb:PutItem")?.context).toEqual({ "dynamodb:LeadingKeys": ["USER#…"] });
    const { stack: synthesized, resources } = build({}, { id: "BackfillIam", validate: false });
    const role = rolePolicies(localNames(stack), synthesized, resources).find((p) => p.handler === BACKFILL_HANDLER);
    if (!role) throw new Error("the backfill's role is not in the template");
    for (const r of mine) expect([r.action, (await evaluate(role, r)).decision]).toEqual([r.action, "Allowed"]);
    // Nothing else: no other partition, no delete or update, no other index, no Scan of the table.
    const table = `arn:aws:dynamodb:${stack.region}:123456789012:table/${stack.tables.main}`;
    const refused: Omit<IamRequest, "fn">[] = [
      { action: "dynamodb:PutItem", resource: table, context: { "dynamodb:LeadingKeys": ["INST#…"] } },
      { action: "dynamodb:DeleteItem", resource: table, context: { "dynamodb:LeadingKeys": ["USER#…"] } },
      { action: "dynamodb:UpdateItem", resource: table, context: { "dynamodb:LeadingKeys": ["USER#…"] } },
      { action: "dynamodb:Scan", resource: `${table}/index/by_invitation_state`, context: {} },
      { action: "dynamodb:Scan", resource: table, context: {} },
    ];
    for (const denied of refused)
      expect([denied.action, denied.resource, (await evaluate(role, denied)).decision]).toEqual([
        denied.action,
        denied.resource,
        "ImplicitlyDenied",
      ]);
  });

  it("does nothing on the resource's Delete", async () => {
    const out = await asFunction(BACKFILL_HANDLER, () => handler({ RequestType: "Delete" }));
    expect(out).toEqual({ PhysicalResourceId: BACKFILL_RESOURCE_ID });
  });
});
