/**
 * Issue 20, the cost and size side (docs/contract/administrators.md "a page reads only that page", docs/contract/README.md#data-guarantees): a page of an
 * institution's administrators reads about as many items as it shows, counted at the SDK (`ScannedCount`);
 * and removing an administrator who sent more active invitations than one transaction holds still revokes
 * every one of them, each with its event, and leaves the membership consistent.
 *
 * Run through the use cases in this process, with the hourly mail bound raised for this process only: the
 * bound is not under test here.
 */

import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { eventKeys } from "../../shared/tables.js";
import { auditMembership } from "../fault/consistency.js";
import { uniq, uniqEmail } from "../support/api.js";
import { expectWithinDesign, requestCounter } from "../support/requests.js";

process.env.INSTITUTION_HOURLY_MAIL_LIMIT = "100000";
process.env.MAIL_FROM = "no-reply@institution-admin.local";
process.env.APP_BASE_URL = "http://app.local";
const { db, dynamo } = await import("../../shared/clients.js");
const { config } = await import("../../shared/config.js");
const { createInstitution } = await import("../../shared/institutions/service.js");
const { createInvitation } = await import("../../shared/invitations/issue.js");
const { acceptInvitation } = await import("../../shared/invitations/service.js");
const { listAdministrators, removeAdministrator } = await import("../../shared/administrators/service.js");
const { activeInvitationsSentBy } = await import("../../shared/invitations/repository.js");
const { grantAccess } = await import("./helpers.js");
const { lastMailedToken } = await import("../support/flows.js");

const counted = requestCounter(dynamo);
const MEMBERS = 30;

const caller = (label: string, accountId: string, superAdmin = false): Caller => ({
  id: uniq(label),
  email: uniqEmail(label),
  name: null,
  emailVerified: true,
  accountId,
  isCohortSuperAdmin: superAdmin,
  ip: "127.0.0.1",
});

const account = uniq("acct");
const owner = caller("owner", account, true);
let institutionId: string;

beforeAll(async () => {
  ({
    institution: { id: institutionId },
  } = await createInstitution(owner, { institution: { name: uniq("Budget Admins U") } }));
  for (let n = 0; n < MEMBERS; n++)
    await grantAccess(institutionId, uniq("member"), "cohort_admin", { email: `m${String(n).padStart(2, "0")}@b.test` });
}, 120_000);

describe("administrators: a page reads what it shows", () => {
  it("a page of 5 of 31 reads the institution and 6 records; the pages hold every administrator once, by e-mail", async () => {
    const { result, requests } = await counted(() => listAdministrators(owner, institutionId, { limit: "5" }));
    expect(result.administrators).toHaveLength(5);
    expectWithinDesign(requests, { maxItemsRead: 1 + 6, change: false });

    const emails: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAdministrators(owner, institutionId, { limit: "7", ...(cursor && { cursor }) });
      emails.push(...page.administrators.map((a) => a.email));
      cursor = page.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(emails).toHaveLength(MEMBERS + 1);
    expect(emails).toEqual([...emails].sort());
    expect(new Set(emails).size).toBe(MEMBERS + 1);
  });
});

describe("administrators: removing one who sent more invitations than a transaction holds", () => {
  it("revokes all 45, each with invitation_revoked, and removes the administrator with administrator_removed", async () => {
    const sender = caller("sender", account, true);
    const senderInvitation = await createInvitation(
      owner,
      {},
      { institution_id: institutionId, email: sender.email, role: "cohort_super_admin" },
    );
    await acceptInvitation(sender, { token: await lastMailedToken(sender.email) });
    expect(senderInvitation.invitation.email).toBe(sender.email);
    const SENT = 45;
    for (let i = 0; i < SENT; i += 9)
      await Promise.all(
        Array.from({ length: Math.min(9, SENT - i) }, () =>
          createInvitation(sender, {}, { institution_id: institutionId, email: uniqEmail("invitee"), role: "cohort_admin" }),
        ),
      );
    expect(await activeInvitationsSentBy(institutionId, sender.id, new Date())).toHaveLength(SENT);

    const res = await removeAdministrator(owner, institutionId, sender.id);
    expect(res).toEqual({ message: "Administrator removed", revoked_invitations: SENT });
    expect(await activeInvitationsSentBy(institutionId, sender.id, new Date())).toEqual([]);
    const out = await db.send(
      new QueryCommand({
        TableName: config.tables.events,
        IndexName: "by_user",
        KeyConditionExpression: "g_user = :k",
        ExpressionAttributeValues: { ":k": eventKeys.accountUser(account, owner.id) },
      }),
    );
    const events = out.Items ?? [];
    expect(events.filter((e) => e.event_type === "invitation_revoked" && e.details.reason === "administrator_removed")).toHaveLength(SENT);
    expect(events.filter((e) => e.event_type === "administrator_removed")).toHaveLength(1);
    expect(await auditMembership(institutionId)).toEqual([]);
  }, 120_000);
});
