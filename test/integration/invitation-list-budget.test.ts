/**
 * Issue 14, point 9, the cost side (docs/contract/invitations.md: "A page reads only the invitations of the requested kind
 * … not every invitation the institution ever had"; docs/contract/README.md#data-guarantees: "cost grows with the page, not the table"): an
 * institution with 2 active invitations and 300 revoked ones lists its 2 with a bounded number of items
 * read, counted at the SDK (`ScannedCount` of every Query, so a filter over the whole partition shows).
 *
 * The 302 invitations are made and revoked through the use cases themselves (in this process, so that
 * their layout is whatever the implementation's is), with the hourly mail bound raised for this process
 * only: the bound is not under test here, and 302 mails in one hour is three times its default.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { uniq, uniqEmail } from "../support/api.js";
import { expectWithinDesign, requestCounter } from "../support/requests.js";

// Read when shared/config.ts and shared/mail.ts load, so set before importing the use cases.
process.env.INSTITUTION_HOURLY_MAIL_LIMIT = "100000";
process.env.ACCOUNT_HOURLY_MAIL_LIMIT = "100000";
process.env.MAIL_FROM = "no-reply@institution-admin.local";
process.env.APP_BASE_URL = "http://app.local";
const { dynamo } = await import("../../shared/clients.js");
const { createInstitution } = await import("../../shared/institutions/service.js");
const { createInvitation } = await import("../../shared/invitations/issue.js");
const { listInvitations, revokeInvitation } = await import("../../shared/invitations/service.js");

const counted = requestCounter(dynamo);

const REVOKED = 300;

const owner: Caller = {
  id: uniq("user"),
  email: uniqEmail("budget-owner"),
  name: "Budget Owner",
  accountId: uniq("acct"),
  isCohortSuperAdmin: true,
  emailVerified: true,
  ip: "127.0.0.1",
};
let institutionId: string;
let active: string[];

async function inBatches<T>(items: readonly T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

beforeAll(async () => {
  ({
    institution: { id: institutionId },
  } = await createInstitution(owner, { institution: { name: uniq("Budget U") } }));
  const invite = async () =>
    (await createInvitation(owner, {}, { institution_id: institutionId, email: uniqEmail("gone"), role: "cohort_admin" })).invitation.id;
  await inBatches(Array.from({ length: REVOKED }), 8, async () => {
    await revokeInvitation(owner, await invite(), { institution_id: institutionId }, undefined);
  });
  active = [await invite(), await invite()].reverse();
}, 300_000);

/**
 * Items a page showing `shown` invitations may read: the institution, and for each invitation shown (and one
 * past them, to know whether a next page exists) an index entry and its record. Nothing of another kind.
 */
const bound = (shown: number) => 1 + 2 * (shown + 1);

describe("invitations: a page reads what it shows, not the history", () => {
  it("the 2 active of 302: the default page reads about as many items as it shows, and writes nothing", async () => {
    const { result, requests } = await counted(() => listInvitations(owner, { institution_id: institutionId }));
    expect(result.invitations.map((i: { id: string }) => i.id)).toEqual(active);
    expectWithinDesign(requests, { maxItemsRead: bound(2), change: false });
  });

  it("a page of one reads a handful of items", async () => {
    const { result, requests } = await counted(() => listInvitations(owner, { institution_id: institutionId, limit: "1" }));
    expect(result.invitations.map((i: { id: string }) => i.id)).toEqual(active.slice(0, 1));
    expectWithinDesign(requests, { maxItemsRead: bound(1), change: false });
  });

  it("the used list (none used) reads no revoked invitation either", async () => {
    const { result, requests } = await counted(() => listInvitations(owner, { institution_id: institutionId, show_used: "true" }));
    expect(result.invitations).toEqual([]);
    expectWithinDesign(requests, { maxItemsRead: bound(0), change: false });
  });
});
