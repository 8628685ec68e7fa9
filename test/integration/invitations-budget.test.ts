/**
 * The design's promise for the invitation endpoints, at the SDK: no Scan; create, accept and revoke each
 * write their change with its event in one transaction (create before it sends the mail), reading a
 * bounded handful of items; list reads what it shows.
 */
import { describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { uniq, uniqEmail } from "../support/api.js";
import { expectWithinDesign, requestCounter } from "../support/requests.js";

// The mail settings are read when shared/mail.ts loads, so set them before importing the use cases.
process.env.MAIL_FROM = "no-reply@institution-admin.local";
process.env.APP_BASE_URL = "http://app.local";
const { dynamo } = await import("../../shared/clients.js");
const { ses } = await import("../../shared/mail.js");
const { config } = await import("../../shared/config.js");
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

  it("create, accept and revoke: one transaction each, a few items read; list: what it shows", async () => {
    const { institution } = await createInstitution(owner, { institution: { name: uniq("Budget U") } });
    const email = uniqEmail("budget-invitee");
    const create = await counted(() => createInvitation(owner, {}, { institution_id: institution.id, email, role: "cohort_admin" }));
    // The institution, and the e-mail's pending slots (at most the per-e-mail limit of them).
    expectWithinDesign(create.requests, { maxItemsRead: 1 + config.pendingInvitationLimit, change: true });
    // The mail goes once the invitation is stored, so a failed write sends nothing.
    const commands = create.requests.map((r) => r.command);
    expect(commands.filter((c) => c === "SendEmail")).toHaveLength(1);
    expect(commands.indexOf("SendEmail")).toBeGreaterThan(commands.indexOf("TransactWriteItems"));

    const list = await counted(() => listInvitations(owner, { institution_id: institution.id }));
    expect(list.result.invitations).toHaveLength(1);
    // The institution, and for the one shown (and one past it, to know of a next page) its index entry and record.
    expectWithinDesign(list.requests, { maxItemsRead: 1 + 2 * 2, change: false });

    const [mail] = await sentMail(email);
    if (!mail) throw new Error("no mail");
    const invitee: Caller = { ...owner, id: uniq("user"), email, isCohortSuperAdmin: false };
    const accept = await counted(() => acceptInvitation(invitee, { token: invitationTokenIn(mail) }));
    // The token, the invitation, the institution (and the invitee's access, if any).
    expectWithinDesign(accept.requests, { maxItemsRead: 4, change: true });

    const second = await createInvitation(owner, {}, { institution_id: institution.id, email: uniqEmail("b2"), role: "cohort_admin" });
    const revoke = await counted(() => revokeInvitation(owner, second.invitation.id, { institution_id: institution.id }, undefined));
    // The institution and the invitation.
    expectWithinDesign(revoke.requests, { maxItemsRead: 2, change: true });
  });
});
