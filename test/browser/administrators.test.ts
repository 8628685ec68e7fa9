/**
 * Issue 20 in a real browser (Debian's Chromium) against the run's local stack: the institution's super
 * admin sees who holds access (a member of another account marked), removes an administrator through a
 * dialog that names the person and the invitations that go with them, and transfers the institution; an
 * invitee's accept page says who invited them, to what, as what, until when (the preview).
 *
 * Each test starts from its own account and data, seeded through the API, its people signed in already.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call, invitationTokenIn, sentMail, uniq } from "../support/api.js";
import {
  consoleUrl,
  heading,
  newAccount,
  newPerson,
  type Person,
  photographAndCheck,
  screenshot,
  seedInstitution,
  settled,
  useBrowser,
} from "./support.js";

const { browse } = useBrowser();

/** Invites `email` as `role` through the API; returns the mailed token. */
async function inviteToken(token: string, institutionId: string, email: string, role = "cohort_admin"): Promise<string> {
  const res = await call("POST", paths.invitations, { token, body: { institution_id: institutionId, email, role } });
  expect(res.status, res.text).toBe(201);
  const mail = (await sentMail(email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return invitationTokenIn(mail);
}

/** A new administrator of the institution, by invitation and accept through the API. */
async function join(owner: Person & { token: string }, institutionId: string, label: string, domain: string, role = "cohort_admin") {
  const p = await newPerson(label, domain, { superAdmin: role === "cohort_super_admin" });
  const tok = await inviteToken(owner.token, institutionId, p.email, role);
  const res = await call("POST", paths.invitationsAccept, { token: p.token, body: { token: tok } });
  expect(res.status, res.text).toBe(200);
  const id = (JSON.parse(Buffer.from(p.token.split(".")[1] ?? "", "base64url").toString()) as { sub: string }).sub;
  return { ...p, id };
}

/** The institution page's administrators table, settled. */
async function administrators(page: Page, institutionId: string) {
  await page.goto(consoleUrl(`/institutions/${institutionId}?tab=invitations`));
  const table = page.getByTestId("administrators-table");
  await settled(table);
  return table;
}

describe("administrators in the console", () => {
  it("lists who holds access, marks another account's member, and removes an administrator with the invitations they sent", async () => {
    const { domain, owner } = await newAccount("admins");
    const inst = await seedInstitution(owner.token);
    const sam = await join(owner, inst.id, "sam", domain, "cohort_super_admin");
    const foreign = await join(owner, inst.id, "bob", `${uniq("other")}.test`);
    const pendingEmail = `pending-${uniq("p")}@${domain}`;
    await inviteToken(sam.token, inst.id, pendingEmail);

    const page = await browse(owner);
    const table = await administrators(page, inst.id);
    await expect.poll(async () => await table.locator("tbody tr").count()).toBe(3);
    const foreignRow = table.locator("tbody tr", { hasText: foreign.email });
    await foreignRow.getByText("Other account").waitFor();
    expect(await table.locator("tbody tr", { hasText: sam.email }).getByText("Other account").count()).toBe(0);
    await table.locator("tbody tr", { hasText: owner.email }).getByText("Institution's super admin", { exact: true }).waitFor();
    await photographAndCheck(page, "20-administrators", "administrators");

    await table.getByRole("radio", { name: `Select ${sam.email}` }).check();
    await page.getByRole("button", { name: "Remove", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Remove administrator" });
    await dialog.getByText(sam.email).first().waitFor();
    await dialog.getByTestId("invitations-to-revoke").getByText(pendingEmail).waitFor();
    await photographAndCheck(page, "21-remove-administrator", "remove dialog");
    await dialog.getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByText(`${sam.email} removed (1 invitation revoked).`).waitFor();
    await expect.poll(async () => await table.locator("tbody tr", { hasText: sam.email }).count()).toBe(0);

    expect((await call("GET", `${paths.institutions}/${inst.id}`, { token: sam.token })).status).toBe(404);
  });

  it("transfers the institution to a cohort super admin; the former super admin sees it as an administrator", async () => {
    const { domain, owner } = await newAccount("transfer");
    const inst = await seedInstitution(owner.token);
    const heir = await join(owner, inst.id, "hal", domain, "cohort_super_admin");

    const page = await browse(owner);
    const table = await administrators(page, inst.id);
    await table.getByRole("radio", { name: `Select ${heir.email}` }).check();
    await page.getByRole("button", { name: "Transfer", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Transfer institution" });
    await dialog.getByText(heir.email).waitFor();
    await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
    await page.getByText(`Institution transferred to ${heir.email}`).waitFor();
    await screenshot(page, "22-transferred");

    const shown = await call("GET", `${paths.institutions}/${inst.id}`, { token: owner.token });
    expect(shown.body).toMatchObject({ is_super_admin: false, role: "cohort_super_admin", institution: { super_admin_id: heir.id } });
    // The page now offers the former super admin what any administrator has: leaving, not managing.
    await page.getByRole("button", { name: "Leave institution" }).waitFor();
    expect(await page.getByRole("button", { name: "Transfer", exact: true }).count()).toBe(0);
  });

  it("the accept page says who invited you, to what, as what, until when", async () => {
    const { domain, owner } = await newAccount("preview");
    const inst = await seedInstitution(owner.token);
    const invitee = await newPerson("ivy", domain);
    const tok = await inviteToken(owner.token, inst.id, invitee.email);
    const expires = (await call("GET", paths.invitations, { token: owner.token, query: { institution_id: inst.id } })).body.invitations[0]
      .expires_at as string;
    const date = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(
      new Date(expires),
    );

    const page = await browse(invitee);
    await page.goto(consoleUrl(`/invitations/accept?token=${tok}`));
    await heading(page, "Accept invitation");
    await page
      .getByText(`${owner.name} (${owner.email}) invited you to administer ${inst.name} as Cohort admin. Expires ${date}.`)
      .waitFor();
    await photographAndCheck(page, "23-accept-preview", "accept preview");
    // The preview consumed nothing: accepting still works.
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await heading(page, inst.name);
  });
});
