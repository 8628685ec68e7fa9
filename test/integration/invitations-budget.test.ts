/**
 * The request budget of the invitation endpoints, counted at the SDK: create makes the institution
 * GetItem, one Query and one transaction before it sends the mail; list is a GetItem and one Query;
 * nothing makes a Scan.
 */
import { describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { uniq, uniqEmail } from "../support/api.js";
import { requestCounter } from "../support/requests.js";

// The mail settings are read when shared/mail.ts loads, so set them before importing the use cases.
process.env.MAIL_FROM = "no-reply@institution-admin.local";
process.env.APP_BASE_URL = "http://app.local";
const { dynamo } = await import("../../shared/clients.js");
const { ses } = await import("../../shared/mail.js");
const { createInstitution } = await import("../../shared/institutions/service.js");
const { createInvitation } = await import("../../shared/invitations/issue.js");
const { acceptInvitation, listInvitations, revokeInvitation } = await import("../../shared/invitations/service.js");
const { sentMail, invitationTokenIn } = await import("../support/api.js");

const counted = requestCounter(dynamo, ses);

describe("invitations: request budget", () => {
  const owner: Caller = {
    id: uniq("user"),
    email: uniqEmail("budget-owner"),
    name: "Budget Owner",
    accountId: uniq("acct"),
    isCohortSuperAdmin: true,
    emailVerified: true,
    ip: "127.0.0.1",
  };

  it("create: one read, one query, one transaction, then the mail; list: one read and one query", async () => {
    const { institution } = await createInstitution(owner, { institution: { name: uniq("Budget U") } });
    const email = uniqEmail("budget-invitee");
    const create = await counted(() => createInvitation(owner, {}, { institution_id: institution.id, email, role: "cohort_admin" }));
    expect(create.requests).toEqual(["GetItemCommand", "QueryCommand", "TransactWriteItemsCommand", "SendEmailCommand"]);

    const list = await counted(() => listInvitations(owner, { institution_id: institution.id }));
    expect(list.requests).toEqual(["GetItemCommand", "QueryCommand"]);
    expect(list.result.invitations).toHaveLength(1);

    const [mail] = await sentMail(email);
    if (!mail) throw new Error("no mail");
    const invitee: Caller = { ...owner, id: uniq("user"), email, isCohortSuperAdmin: false };
    const accept = await counted(() => acceptInvitation(invitee, { token: invitationTokenIn(mail) }));
    expect(accept.requests.sort()).toEqual(["GetItemCommand", "GetItemCommand", "GetItemCommand", "TransactWriteItemsCommand"].sort());

    const second = await createInvitation(owner, {}, { institution_id: institution.id, email: uniqEmail("b2"), role: "cohort_admin" });
    const revoke = await counted(() => revokeInvitation(owner, second.invitation.id, { institution_id: institution.id }, undefined));
    expect(revoke.requests).toEqual(["GetItemCommand", "GetItemCommand", "TransactWriteItemsCommand"]);
  });
});
