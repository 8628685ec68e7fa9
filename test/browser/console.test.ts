/**
 * The console in a real browser (Debian's Chromium) against the run's local stack, as its people use it:
 * an administrator's first sign-in (new password), an institution created, edited and refused deletion,
 * an invitation mailed through the local SES and accepted by the invitee in a browser of their own; an
 * outsider who sees nothing; the audit trail with its filters, pages, detail and CSV; the alerts.
 * Every page is checked with axe-core and photographed into `.local/screenshots/` for review.
 *
 * The steps build on each other (one story), so they run in order in this one file.
 */
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithTemporaryPassword, issueIdToken } from "../../infra/local/cognito.js";
import { call, invitationTokenIn, sentMail, stack, uniq, uniqEmail } from "../support/api.js";
import {
  axeViolations,
  consoleUrl,
  heading,
  launch,
  openPage,
  type PageWatch,
  screenshot,
  strongPassword,
  submitSignIn,
} from "./support.js";

const ownerDomain = `${uniq("acme")}.test`;
const owner = {
  email: uniqEmail("olive", ownerDomain),
  name: "Olive Owner",
  temporary: strongPassword("Temp"),
  password: strongPassword("Olive"),
};
// A colleague of the owner's account: what she does shows in the owner's audit trail.
const invitee = { email: uniqEmail("ada", ownerDomain), name: "Ada Admin", password: strongPassword("Ada") };
const outsider = { email: uniqEmail("eve"), name: "Eve Outsider", password: strongPassword("Eve") };
const institutionName = `Acme College ${uniq("n")}`;

let browser: Browser;
const contexts: BrowserContext[] = [];
const watches: PageWatch[] = [];
/** The owner's page, signed in from the first step on. */
let ownerPage: Page;
let institutionId = "";
let acceptLink = "";

async function newPerson(): Promise<Page> {
  const { context, page, watch } = await openPage(browser);
  contexts.push(context);
  watches.push(watch);
  return page;
}

/** axe-core finds no serious or critical violation on the page as it stands. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

/** The flash message that says `text`. */
const flash = (page: Page, text: string) => page.getByText(text).first();

beforeAll(async () => {
  browser = await launch();
  await createUserWithTemporaryPassword(stack, owner.email, owner.temporary, { superAdmin: true, name: owner.name });
  await issueIdToken(stack, invitee.email, { name: invitee.name, password: invitee.password });
  await issueIdToken(stack, outsider.email, { superAdmin: true, name: outsider.name, password: outsider.password });
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
});

describe("the console", () => {
  it("signs an administrator in for the first time: the temporary password must be replaced", async () => {
    ownerPage = await newPerson();
    const page = ownerPage;
    await page.goto(consoleUrl("/"));
    await heading(page, "Sign in");
    await screenshot(page, "01-sign-in");
    await expectAccessible(page, "sign-in");

    await submitSignIn(page, owner.email, owner.temporary);
    await heading(page, "Choose a new password");
    await page.getByLabel("New password", { exact: true }).fill(owner.password);
    await page.getByLabel("Repeat the new password").fill(`${owner.password}x`);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.getByText("The two passwords differ.").waitFor();
    await page.getByLabel("Repeat the new password").fill(owner.password);
    await screenshot(page, "02-new-password");
    await expectAccessible(page, "new password");
    await page.getByRole("button", { name: "Set password and sign in" }).click();

    await heading(page, "Institutions");
    await page.getByText("No institutions", { exact: true }).waitFor();
    // The name from the ID token shows in the top bar.
    await page.getByRole("button", { name: new RegExp(owner.email) }).waitFor();
    await screenshot(page, "03-institutions-empty");
    await expectAccessible(page, "institutions (empty)");

    // The new password is now the one that works, and the temporary one no longer does.
    const signIn = await fetch(stack.cognitoEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth" },
      body: JSON.stringify({
        ClientId: stack.userPoolClientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: owner.email, PASSWORD: owner.password },
      }),
    });
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as { AuthenticationResult?: { IdToken?: string } }).AuthenticationResult?.IdToken).toBeTruthy();
  });

  it("creates an institution: the contract's 422 messages show at their fields, then it is created", async () => {
    const page = ownerPage;
    await page.getByRole("button", { name: "Create institution" }).first().click();
    await heading(page, "Create institution");
    await expectAccessible(page, "create form");

    await page.getByLabel(/^Contact e-mail/).fill("not-an-address");
    await page.getByLabel(/^Contact phone/).fill("12");
    await page.getByRole("button", { name: "Create institution" }).click();
    // Each message at its own field, linked to its input for screen readers.
    for (const [label, message] of [
      [/^Name/, "Name can't be blank"],
      [/^Contact e-mail/, "Contact email is invalid"],
      [/^Contact phone/, "Contact phone is invalid"],
    ] as const) {
      const input = page.getByLabel(label);
      await page.getByText(message).waitFor();
      expect(await input.getAttribute("aria-invalid"), message).toBe("true");
      const describedBy = (await input.getAttribute("aria-describedby")) ?? "";
      const described = await Promise.all(describedBy.split(/\s+/).map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(described.join(" "), message).toContain(message);
    }
    await screenshot(page, "04-create-errors");
    await expectAccessible(page, "create form with errors");

    await page.getByLabel(/^Name/).fill(institutionName);
    await page.getByLabel(/^Registration number/).fill(uniq("AC"));
    await page.getByLabel(/^Contact e-mail/).fill("desk@acme.test");
    await page.getByLabel(/^Contact phone/).fill("+44 20 7946 0000");
    await page.getByRole("checkbox", { name: "Email notifications" }).uncheck();
    await page.getByRole("button", { name: "Create institution" }).click();

    await heading(page, institutionName);
    await flash(page, "Institution created successfully").waitFor();
    institutionId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
    expect(institutionId).toMatch(/^[0-9A-Z]{26}$/);
    await page.getByText("Your role: Cohort super admin · you are its super admin").waitFor();
    // Settings with their defaults: the one set differs from its default, the others follow theirs.
    const settings = page.locator("dl, [class*='key-value-pairs']").filter({ hasText: "Email notifications" }).first();
    await settings.getByText("Set (default: on)").waitFor();
    expect(await settings.getByText("Default", { exact: true }).count()).toBe(3);
    await screenshot(page, "05-institution-details");
    await expectAccessible(page, "institution details");
  });

  it("edits the institution, sending only what changed", async () => {
    const page = ownerPage;
    await page.getByRole("button", { name: "Edit" }).click();
    await heading(page, `Edit ${institutionName}`);
    expect(await page.getByLabel(/^Name/).inputValue()).toBe(institutionName);
    await page.getByLabel(/^Address/).fill("1 Main Street\nSpringfield");
    await screenshot(page, "06-edit");
    await page.getByRole("button", { name: "Save changes" }).click();
    await heading(page, institutionName);
    await flash(page, "Institution updated successfully").waitFor();
    await page.getByText("Springfield").waitFor();

    const token = await issueIdToken(stack, owner.email, { superAdmin: true, name: owner.name, password: owner.password });
    const events = await call("GET", "/api/v1/admin/security_events", { token, query: { event_type: "institution_updated" } });
    expect(events.body.events[0]?.details).toMatchObject({ institution_id: institutionId, changes: ["address"] });
  });

  it("adds a cohort, and then deleting is refused with the contract's message in the dialog", async () => {
    const page = ownerPage;
    await page.getByRole("tab", { name: "Cohorts" }).click();
    await page.getByRole("button", { name: "Create cohort" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create cohort" }).click();
    await dialog.getByText("Name can't be blank").waitFor();
    await dialog.getByLabel("Name").fill("Class of 2026");
    await dialog.getByRole("button", { name: "Create cohort" }).click();
    await page.getByRole("row").filter({ hasText: "Class of 2026" }).waitFor();
    await screenshot(page, "07-cohorts");
    await expectAccessible(page, "cohorts");

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByText("Cannot delete institution with existing cohorts").waitFor();
    await screenshot(page, "08-delete-refused");
    await expectAccessible(page, "delete refused");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect((await call("GET", `/api/v1/institutions/${institutionId}`, { token: await ownerToken() })).status).toBe(200);
  });

  it("invites an administrator: the e-mail's 422 shows at its field, the mail arrives, the invitation is listed", async () => {
    const page = ownerPage;
    await page.getByRole("tab", { name: "Administrators and invitations" }).click();
    await page.getByText("No active invitations").waitFor();
    await page.getByRole("button", { name: "Invite administrator" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("E-mail address").fill("ada@");
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await dialog.getByText("Email is invalid").waitFor();
    expect(await dialog.getByLabel("E-mail address").getAttribute("aria-invalid")).toBe("true");
    await screenshot(page, "09-invite-error");
    await expectAccessible(page, "invite dialog");

    await dialog.getByLabel("E-mail address").fill(invitee.email);
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await flash(page, `Invitation sent to ${invitee.email}`).waitFor();
    const row = page.getByRole("row").filter({ hasText: invitee.email });
    await row.getByText("Active").waitFor();
    await row.getByText("Cohort admin").waitFor();
    await screenshot(page, "10-invitations");
    await expectAccessible(page, "invitations");

    const mail = (await sentMail(invitee.email)).at(-1);
    expect(mail).toBeDefined();
    const token = invitationTokenIn(mail as NonNullable<typeof mail>);
    acceptLink = /(https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_-]+)/.exec(mail?.body.text ?? "")?.[1] ?? "";
    // The link opens the console, on the stack's own origin.
    expect(acceptLink).toBe(consoleUrl(`/invitations/accept?token=${token}`));
    // Only the preview is ever on screen.
    expect(await page.locator("body").innerText()).not.toContain(token);
  });

  it("shows a 429's Retry-After as a time", async () => {
    const page = ownerPage;
    const crowded = uniqEmail("bob");
    const token = await ownerToken();
    // The pending limit is 3 per address: three invitations, then the console asks for a fourth.
    for (let i = 0; i < 3; i++) {
      const res = await call("POST", "/api/v1/admin/invitations", {
        token,
        body: { institution_id: institutionId, email: crowded, role: "cohort_admin" },
      });
      expect(res.status).toBe(201);
    }
    await page.getByRole("button", { name: "Invite administrator" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("E-mail address").fill(crowded);
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    // The pending limit frees up when the oldest of those invitations expires: in 7 days, at a date and time.
    const notice = dialog.getByText(/You can try again at \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} \(in 7 days\)\./);
    await notice.waitFor();
    await screenshot(page, "11-invite-429");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    // The time shown is the one the API gave.
    const again = await call("POST", "/api/v1/admin/invitations", {
      token,
      body: { institution_id: institutionId, email: crowded, role: "cohort_admin" },
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("lets the invitee accept from the mail link in a browser of their own, signing in first", async () => {
    const page = await newPerson();
    await page.goto(acceptLink);
    await page.getByText("Sign in to accept your invitation").waitFor();
    // The token left the address bar (and the history) at once.
    expect(page.url()).toBe(consoleUrl("/invitations/accept"));
    await screenshot(page, "12-accept-sign-in");
    await expectAccessible(page, "accept: sign in");

    await submitSignIn(page, invitee.email, "Wrong-Passw0rd!");
    await page.getByText("Incorrect e-mail address or password.", { exact: true }).waitFor();
    await screenshot(page, "13-sign-in-failed");
    // This time by keyboard alone: the fields in order, Enter submits.
    await page.getByLabel("E-mail address").focus();
    await page.keyboard.press("Control+A");
    await page.keyboard.type(invitee.email);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Control+A");
    await page.keyboard.type(invitee.password);
    await page.keyboard.press("Enter");

    await heading(page, "Accept invitation");
    const token = new URL(acceptLink).searchParams.get("token") ?? "";
    await page.getByText(`${token.slice(0, 8)}…`).waitFor();
    await page.getByText(`Signed in as`).waitFor();
    expect(await page.locator("body").innerText()).not.toContain(token);
    await screenshot(page, "14-accept");
    await expectAccessible(page, "accept");

    await page.getByRole("button", { name: "Accept invitation" }).focus();
    await page.keyboard.press("Enter");
    await heading(page, institutionName);
    await flash(page, `You are now Cohort admin of ${institutionName}.`).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/institutions/${institutionId}`);
    await page.getByText("Your role: Cohort admin").waitFor();
    // A cohort admin may look but not change: the actions are not offered.
    expect(await page.getByRole("button", { name: "Edit" }).count()).toBe(0);
    await screenshot(page, "15-accepted");

    await page.getByRole("link", { name: "Institutions" }).first().click();
    const row = page.getByRole("row").filter({ hasText: institutionName });
    await row.getByText("Cohort admin").waitFor();
    // Not a cohort super admin: no audit trail in the navigation, and a clear notice at its address.
    expect(await page.getByRole("link", { name: "Security events" }).count()).toBe(0);
    await page.goto(consoleUrl("/security-events"));
    await page.getByText("Super admin access required").waitFor();
    await page.getByText("Access denied").first().waitFor();
    await screenshot(page, "16-events-403");
    await expectAccessible(page, "security events 403");

    // The same link a second time: every reason it can fail is spelled out.
    await page.goto(acceptLink);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.getByText("This invitation cannot be accepted").waitFor();
    await page.getByText("It was already accepted.").waitFor();
    await page.getByText(`It was sent to another e-mail address than ${invitee.email}.`).waitFor();
    await screenshot(page, "17-accept-failed");
    await expectAccessible(page, "accept failed");

    // A link cut short never reaches the API.
    await page.goto(consoleUrl(`/invitations/accept?token=${token.slice(0, 20)}`));
    await page.getByText("This invitation link is incomplete").waitFor();
    // A tab that never held a link (signed in, but no token in its storage) says what is missing.
    const fresh = await page.context().newPage();
    await fresh.goto(consoleUrl("/invitations/accept"));
    await fresh.getByText("This page needs the link from your invitation e-mail").waitFor();
    await fresh.close();
  });

  it("shows an outsider nothing: no institution in the list, a not-found notice at its address", async () => {
    const page = await newPerson();
    await page.goto(consoleUrl("/institutions"));
    await submitSignIn(page, outsider.email, outsider.password);
    await heading(page, "Institutions");
    await page.getByText("No institutions", { exact: true }).waitFor();
    expect(await page.locator("body").innerText()).not.toContain(institutionName);

    await page.goto(consoleUrl(`/institutions/${institutionId}`));
    await page.getByText("Institution not found or access denied").waitFor();
    await page.getByText("Not found", { exact: true }).waitFor();
    expect(await page.locator("body").innerText()).not.toContain(institutionName);
    await screenshot(page, "18-outsider-not-found");
    await expectAccessible(page, "outsider not found");

    // Their own audit trail holds their attempt, and nothing of the owner's account.
    await page.goto(consoleUrl("/security-events"));
    await heading(page, "Security events");
    const rows = page.getByTestId("events-table").locator("tbody tr");
    await rows.filter({ hasText: "Unauthorized institution access" }).first().waitFor();
    expect(await page.locator("body").innerText()).not.toContain("Institution created");

    // Signing out ends the session: the console asks for a sign-in again, also after a reload.
    await page.getByRole("button", { name: new RegExp(outsider.email) }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await heading(page, "Sign in");
    await page.reload();
    await heading(page, "Sign in");
  });

  it("lists the account's security events with filters, cursor paging and each event's detail", async () => {
    const page = ownerPage;
    // The owner follows a stale link: a clear notice, and an event in the trail.
    await page.goto(consoleUrl("/institutions/01KZZZZZZZZZZZZZZZZZZZZZZZ"));
    await page.getByText("Institution not found or access denied").waitFor();
    await page.getByRole("link", { name: "Security events" }).click();
    await heading(page, "Security events");
    const table = page.getByTestId("events-table");
    for (const type of ["Institution created", "Institution updated", "Cohort created", "Invitation created", "Invitation accepted"]) {
      await table.getByRole("row").filter({ hasText: type }).first().waitFor();
    }
    await table.getByRole("row").filter({ hasText: "Unauthorized institution access" }).first().waitFor();
    await screenshot(page, "19-security-events");
    await expectAccessible(page, "security events");

    // Filter by type: only that type is left.
    await page.getByRole("button", { name: /Event type/ }).click();
    await page.getByRole("option", { name: /Institution created/ }).click();
    await page.waitForURL(/event_type=institution_created/);
    await table.locator("tbody tr").filter({ hasText: "Institution created" }).first().waitFor();
    const types = await table.locator("tbody tr > :nth-child(2)").allInnerTexts();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(["Institution created"]));
    await screenshot(page, "20-security-events-filtered");

    // Filter by user: the owner's id, from an event's detail.
    await table.getByRole("link").first().click();
    await page.getByText("User ID").waitFor();
    await page.getByText(institutionName).first().waitFor();
    await screenshot(page, "21-security-event");
    await expectAccessible(page, "security event");
    await page.getByRole("link", { name: "Events of this user" }).click();
    await page.waitForURL(/user_id=/);
    await table.locator("tbody tr").first().waitFor();
    const users = await table.locator("tbody tr > :nth-child(3)").allInnerTexts();
    expect(new Set(users)).toEqual(new Set([owner.email]));

    // Pages of two, through the cursor: the second page continues where the first ended.
    await page.goto(consoleUrl("/security-events?limit=2"));
    await table.locator("tbody tr").nth(1).waitFor();
    const first = await table.locator("tbody tr").allInnerTexts();
    expect(first).toHaveLength(2);
    await page.getByRole("button", { name: /next page/i }).click();
    await page.locator('button[aria-current="true"]', { hasText: /^2$/ }).waitFor();
    await table.locator("tbody tr").first().waitFor();
    const second = await table.locator("tbody tr").allInnerTexts();
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((r) => first.includes(r))).toEqual([]);
    await screenshot(page, "22-security-events-page-2");
  });

  it("downloads the CSV export of the security events", async () => {
    const page = ownerPage;
    await page.goto(consoleUrl("/security-events"));
    await heading(page, "Security events");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^security_events_\d{8}_\d{6}\.csv$/);
    const csv = await readFile((await download.path()) as string, "utf8");
    const lines = csv.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("id,event_type,created_at,user_id,user_email,ip_address,description,details");
    const created = lines.find((l) => l.includes(",institution_created,"));
    expect(created).toContain(owner.email);
    expect(created).toContain(institutionName);
    expect(lines.some((l) => l.includes(",invitation_accepted,") && l.includes(invitee.email))).toBe(true);
  });

  it("exports all matching events with Export all: progress, then the download link to the file", async () => {
    const page = ownerPage;
    await page.goto(consoleUrl("/security-events?event_type=institution_created"));
    await heading(page, "Security events");
    await page.getByRole("button", { name: "Export all" }).click();
    await page.getByRole("menuitem", { name: "All matching events as CSV" }).click();
    const link = page.getByTestId("export-download");
    await link.waitFor({ timeout: 60_000 });
    expect(await link.innerText()).toMatch(/Download CSV \(\d+ rows\)/);
    const file = await fetch((await link.getAttribute("href")) as string);
    expect(file.status).toBe(200);
    const lines = (await file.text()).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("id,event_type,created_at,user_id,user_email,ip_address,description,details");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.split(",")[1] === "institution_created")).toBe(true);
    expect(lines.some((l) => l.includes(institutionName))).toBe(true);
    await screenshot(page, "22b-security-events-export-all");
  });

  it("shows the alerts: the summary, the alerts by severity and the chart of the hour", async () => {
    const page = ownerPage;
    // Five more lookups of institutions that do not exist reach the unauthorized-access alert.
    const token = await ownerToken();
    for (let i = 0; i < 5; i++)
      expect((await call("GET", `/api/v1/institutions/01KYYYYYYYYYYYYYYYYYYYYY${i}Y`, { token })).status).toBe(404);
    const api = await call("GET", "/api/v1/admin/security_events/alerts", { token });
    expect(api.status).toBe(200);

    await page.getByRole("link", { name: "Alerts" }).click();
    await heading(page, "Alerts");
    const count = api.body.summary.unauthorized_institution_access as number;
    expect(count).toBeGreaterThanOrEqual(6);
    await page
      .getByTestId("summary-unauthorized_institution_access")
      .filter({ hasText: new RegExp(`^${count}$`) })
      .waitFor();
    const alertRow = page.getByTestId("alerts-table").getByRole("row").filter({ hasText: "Unauthorized institution access" });
    await alertRow.getByText("High").waitFor();

    if (Array.isArray(api.body.series)) {
      // The per-minute series as bars: the current minute holds this account's probes.
      const chart = page.getByTestId("alerts-chart");
      await chart.locator("svg").first().waitFor();
      expect(await chart.locator("svg rect").count()).toBeGreaterThan(0);
      await chart.getByText("Unauthorized institution access").first().waitFor();
    } else {
      // An API without `series`: the console says so instead of drawing an empty chart.
      await page.getByText("This API version returns no per-minute series").waitFor();
    }
    await page.getByTestId("alerts-updated").waitFor();
    await screenshot(page, "23-alerts");
    await expectAccessible(page, "alerts");

    // Refreshed on demand: the time of the last update moves.
    const before = await page.getByTestId("alerts-updated").innerText();
    await page.waitForTimeout(1100);
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.getByTestId("alerts-updated").filter({ hasNotText: before }).waitFor();
  });

  it("renews an expired ID token with the refresh token, and asks for a new sign-in once that fails too", async () => {
    // Signed in with a password (cognito-local keeps no refresh token of a new-password challenge's sign-in).
    const page = await newPerson();
    await page.goto(consoleUrl("/institutions"));
    await submitSignIn(page, invitee.email, invitee.password);
    await page.getByRole("row").filter({ hasText: institutionName }).waitFor();
    type Stored = { idToken: string; refreshToken?: string };
    const KEY = "institution-admin.session";
    // (Each function below runs in the page, so each names the page's localStorage itself.)
    // An ID token the API refuses (its signature broken), as an expired one is.
    const broken = await page.evaluate((key) => {
      const ls = (globalThis as unknown as { localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void } })
        .localStorage;
      const session = JSON.parse(ls.getItem(key) ?? "{}") as { idToken: string };
      const [header, payload, signature = ""] = session.idToken.split(".");
      session.idToken = [header, payload, `${signature.slice(0, -6)}AAAAAA`].join(".");
      ls.setItem(key, JSON.stringify(session));
      return session.idToken;
    }, KEY);
    await page.goto(consoleUrl("/institutions"));
    await page.getByRole("row").filter({ hasText: institutionName }).waitFor();
    const renewed = await page.evaluate((key) => {
      const ls = (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage;
      return JSON.parse(ls.getItem(key) ?? "{}") as Stored;
    }, KEY);
    expect(renewed.idToken).not.toBe(broken);
    expect(renewed.refreshToken).toBeTruthy();

    // Both refused: the console says why it asks for a sign-in.
    await page.evaluate((key) => {
      const ls = (globalThis as unknown as { localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void } })
        .localStorage;
      const session = JSON.parse(ls.getItem(key) ?? "{}") as { idToken: string; refreshToken?: string };
      const [header, payload, signature = ""] = session.idToken.split(".");
      session.idToken = [header, payload, `${signature.slice(0, -6)}AAAAAA`].join(".");
      session.refreshToken = "not-a-refresh-token";
      ls.setItem(key, JSON.stringify(session));
    }, KEY);
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Sign in");
    await page.getByText("Your session has expired. Sign in again.").waitFor();
    await screenshot(page, "24-session-expired");
  });

  it("reported no uncaught error and no Content-Security-Policy violation on any page", () => {
    expect(watches.flatMap((w) => w.problems)).toEqual([]);
  });
});

async function ownerToken(): Promise<string> {
  return issueIdToken(stack, owner.email, { superAdmin: true, name: owner.name, password: owner.password });
}
