/**
 * The console in a real browser (Debian's Chromium) against the run's local stack, as its people use it:
 * an administrator's first sign-in (new password), an institution created, edited and refused deletion,
 * an invitation mailed through the local SES and accepted by the invitee in a browser of their own; an
 * outsider who sees nothing; the audit trail with its filters, pages, detail and CSV; the alerts; a page
 * that fails to render. Every page is checked with axe-core and photographed into `.local/screenshots/`.
 *
 * Each test starts from its own state: its own account (an e-mail domain), its data seeded through the API
 * and its people signed in already unless signing in is what it tests. So one failure fails one test. Each
 * waits for what a person waits for (a heading, a table's rows once its loading state is gone), never for
 * a fixed time.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createUserWithTemporaryPassword } from "../../infra/local/cognito.js";
import { paths } from "../../shared/routes.js";
import { call, invitationTokenIn, sentMail, stack, uniq, uniqEmail } from "../support/api.js";
import {
  amplifyKey,
  consoleUrl,
  expectAccessible,
  heading,
  newAccount,
  newPerson,
  photographAndCheck,
  SESSION_KEY,
  screenshot,
  seedInstitution,
  seedInvitation,
  settled,
  signInTokens,
  strongPassword,
  submitSignIn,
  useBrowser,
} from "./support.js";

const { browse, browseWithWatch } = useBrowser();

/**
 * Chooses an option of a Cloudscape Select (one with a filter) as a keyboard user does: Enter opens it, the
 * label typed into its filter leaves that option, ArrowDown highlights it and Enter chooses it; then waits
 * until the Select shows the choice.
 *
 * Not with the mouse: Cloudscape chooses an option on `mouseup`, not on the click, and Playwright's click
 * checks what it hits only at its first event (`pointerdown`). The press and the release are two input
 * events, and on a busy machine the renderer runs other work between them, with the list still settling
 * after opening (its entry transition moves it once the first frames are painted). A release that misses
 * the option is a click that chose nothing: no error, no change, and the `waitForURL` after it ran out its
 * 20 s (a full run, console.test.ts:508). A keydown is one event: the choice is made in it, or the check
 * below fails at once, naming what the Select shows.
 */
async function chooseOption(page: Page, select: RegExp, label: string): Promise<void> {
  const trigger = page.getByRole("button", { name: select });
  await trigger.press("Enter");
  // Open, the Select moves the focus into its filter.
  const filter = page.locator("input:focus");
  await filter.waitFor();
  await filter.fill(label);
  const options = page.getByRole("option");
  await expect.poll(() => options.allInnerTexts(), { timeout: 20_000 }).toEqual([expect.stringContaining(label)]);
  await filter.press("ArrowDown");
  await filter.press("Enter");
  await expect.poll(() => trigger.innerText(), { timeout: 20_000 }).toContain(label);
}

/**
 * Watches, through the hook React offers its developer tools (present in production builds too; the harness installs
 * it, test/browser/support.ts), the props the frame hands to Cloudscape's components on every commit: for each
 * `Component.prop`, how often it arrived as a new object or function, and how many commits re-rendered the
 * AppLayout at all.
 */
const FRAME_PROPS_WATCH = `(() => {
  const watched = {
    TopNavigation: ["identity", "utilities"],
    SideNavigation: ["header", "items", "onFollow"],
    AppLayout: ["ariaLabels", "onNavigationChange"],
  };
  const last = new Map();
  const report = { changes: {}, layoutRenders: 0 };
  let layoutProps;
  window.__frameProps = report;
  const visit = (fiber) => {
    for (let f = fiber; f; f = f.sibling) {
      const name = f.type && f.type.displayName;
      if (name && watched[name] && f.memoizedProps) {
        if (name === "AppLayout" && f.memoizedProps !== layoutProps) {
          layoutProps = f.memoizedProps;
          report.layoutRenders++;
        }
        for (const prop of watched[name]) {
          const key = name + "." + prop;
          const value = f.memoizedProps[prop];
          if (last.has(key) && last.get(key) !== value) report.changes[key] = (report.changes[key] || 0) + 1;
          last.set(key, value);
        }
      }
      if (f.child) visit(f.child);
    }
  };
  // The harness's hook (support.ts, watchReactCommits) hands every commit to its listeners.
  window.__reactCommitListeners.push((root) => visit(root.current));
})();`;

/** The flash message that says `text`. */
const flash = (page: Page, text: string) => page.getByText(text).first();

describe("the console", () => {
  it("signs an administrator in for the first time: the temporary password must be replaced", async () => {
    const domain = `${uniq("first")}.test`;
    const owner = {
      email: uniqEmail("olive", domain),
      name: "Olive Owner",
      temporary: strongPassword("Temp"),
      password: strongPassword("Olive"),
    };
    await createUserWithTemporaryPassword(stack, owner.email, owner.temporary, { superAdmin: true, name: owner.name });
    const page = await browse();
    await page.goto(consoleUrl("/"));
    await heading(page, "Sign in");
    await photographAndCheck(page, "01-sign-in", "sign-in");

    await submitSignIn(page, owner.email, owner.temporary);
    await heading(page, "Choose a new password");
    await page.getByLabel("New password", { exact: true }).fill(owner.password);
    await page.getByLabel("Repeat the new password").fill(`${owner.password}x`);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.getByText("The two passwords differ.").waitFor();
    await page.getByLabel("Repeat the new password").fill(owner.password);
    await photographAndCheck(page, "02-new-password", "new password");
    await page.getByRole("button", { name: "Set password and sign in" }).click();

    await heading(page, "Institutions");
    await page.getByText("No institutions", { exact: true }).waitFor();
    // The name from the ID token shows in the top bar.
    await page.getByRole("button", { name: new RegExp(owner.email) }).waitFor();
    await photographAndCheck(page, "03-institutions-empty", "institutions (empty)");

    // The new password is now the one that works.
    expect((await signInTokens(owner.email, owner.password)).idToken).toBeTruthy();
  });

  it("creates an institution: the contract's 422 messages show at their fields, then it is created", async () => {
    const { owner } = await newAccount("create");
    const institutionName = `Acme College ${uniq("n")}`;
    const page = await browse(owner);
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Institutions");
    await page.getByText("No institutions", { exact: true }).waitFor();
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
      // Exactly: Cloudscape's live announcer repeats the message ("Error Contact email is invalid") for screen readers.
      await page.getByText(message, { exact: true }).waitFor();
      expect(await input.getAttribute("aria-invalid"), message).toBe("true");
      const describedBy = (await input.getAttribute("aria-describedby")) ?? "";
      const described = await Promise.all(describedBy.split(/\s+/).map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(described.join(" "), message).toContain(message);
    }
    await photographAndCheck(page, "04-create-errors", "create form with errors");

    await page.getByLabel(/^Name/).fill(institutionName);
    await page.getByLabel(/^Registration number/).fill(uniq("AC"));
    await page.getByLabel(/^Contact e-mail/).fill("desk@acme.test");
    await page.getByLabel(/^Contact phone/).fill("+44 20 7946 0000");
    await page.getByRole("checkbox", { name: "Email notifications" }).uncheck();
    await page.getByRole("button", { name: "Create institution" }).click();

    await heading(page, institutionName);
    await flash(page, "Institution created successfully").waitFor();
    const institutionId = decodeURIComponent(new URL(page.url()).pathname.split("/")[2] ?? "");
    expect(institutionId).toMatch(/^[0-9A-Z]{26}$/);
    await page.getByText("Your role: Cohort super admin · you are the institution's super admin").waitFor();
    // Settings with their defaults: the one set differs from its default, the others follow theirs.
    const settings = page.locator("dl, [class*='key-value-pairs']").filter({ hasText: "Email notifications" }).first();
    await settings.getByText("Set (default: on)").waitFor();
    expect(await settings.getByText("Default", { exact: true }).count()).toBe(3);
    await photographAndCheck(page, "05-institution-details", "institution details");
  });

  it("edits the institution, sending only what changed", async () => {
    const { owner } = await newAccount("edit");
    const institution = await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    await heading(page, institution.name);
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await heading(page, `Edit ${institution.name}`);
    expect(await page.getByLabel(/^Name/).inputValue()).toBe(institution.name);
    await page.getByLabel(/^Address/).fill("1 Main Street\nSpringfield");
    await screenshot(page, "06-edit");
    await page.getByRole("button", { name: "Save changes" }).click();
    await heading(page, institution.name);
    await flash(page, "Institution updated successfully").waitFor();
    await page.getByText("Springfield").waitFor();

    const events = await call("GET", paths.securityEvents, { token: owner.token, query: { event_type: "institution_updated" } });
    expect(events.body.events[0]?.details).toMatchObject({ institution_id: institution.id, changes: ["address"] });
  });

  it("sends If-Match: an edit or a delete after someone else's change is refused, says so, and offers to reload", async () => {
    const { owner } = await newAccount("ifmatch");
    const institution = await seedInstitution(owner.token);
    const changeElsewhere = async (address: string) => {
      const res = await call("PATCH", `${paths.institutions}/${institution.id}`, {
        token: owner.token,
        body: { institution: { address } },
      });
      expect(res.status).toBe(200);
    };
    const page = await browse(owner);
    await page.goto(consoleUrl(`/institutions/${institution.id}/edit`));
    await heading(page, `Edit ${institution.name}`);
    await changeElsewhere("2 Elsewhere Road");
    await page.getByLabel(/^Name/).fill(`${institution.name} renamed`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Someone else changed this institution").waitFor();
    await photographAndCheck(page, "06b-edit-changed-elsewhere", "edit refused with 412");
    // Nothing was saved: the other change stands, the name is the old one.
    const stored = await call("GET", `${paths.institutions}/${institution.id}`, { token: owner.token });
    expect(stored.body.institution).toMatchObject({ name: institution.name, address: "2 Elsewhere Road" });

    await page.getByRole("button", { name: "Reload" }).click();
    await expect.poll(() => page.getByLabel(/^Address/).inputValue()).toBe("2 Elsewhere Road");
    expect(await page.getByLabel(/^Name/).inputValue()).toBe(institution.name);
    expect(await page.getByText("Someone else changed this institution").count()).toBe(0);
    await page.getByLabel(/^Name/).fill(`${institution.name} renamed`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await heading(page, `${institution.name} renamed`);
    await flash(page, "Institution updated successfully").waitFor();

    // The delete dialog, with the version the page shows.
    await changeElsewhere("3 Elsewhere Road");
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByText("Someone else changed this institution").waitFor();
    expect((await call("GET", `${paths.institutions}/${institution.id}`, { token: owner.token })).status).toBe(200);
    await page.getByRole("dialog").getByRole("button", { name: "Reload" }).click();
    await page.getByText("3 Elsewhere Road").waitFor();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await heading(page, "Institutions");
    expect((await call("GET", `${paths.institutions}/${institution.id}`, { token: owner.token })).status).toBe(404);
  });

  it("adds a cohort, and then deleting is refused with the contract's message in the dialog", async () => {
    const { owner } = await newAccount("cohort");
    const institution = await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    await heading(page, institution.name);
    await page.getByRole("tab", { name: "Cohorts" }).click();
    await page.getByRole("button", { name: "Create cohort" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create cohort" }).click();
    await dialog.getByText("Name can't be blank").waitFor();
    await dialog.getByLabel("Name").fill("Class of 2026");
    await dialog.getByRole("button", { name: "Create cohort" }).click();
    await page.getByRole("row").filter({ hasText: "Class of 2026" }).waitFor();
    await photographAndCheck(page, "07-cohorts", "cohorts");

    // The institution's Delete (in its header, before the cohorts' own).
    await page.getByRole("button", { name: "Delete", exact: true }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByText("Cannot delete institution with existing cohorts").waitFor();
    await photographAndCheck(page, "08-delete-refused", "delete refused");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect((await call("GET", `${paths.institutions}/${institution.id}`, { token: owner.token })).status).toBe(200);

    // The cohort deleted (after a confirmation), the institution can be deleted (issue 30).
    const cohorts = page.getByTestId("cohorts-table");
    await cohorts.getByRole("radio", { name: "Select Class of 2026" }).check();
    await cohorts.getByRole("button", { name: "Delete", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Delete cohort" });
    await confirm.getByText("Class of 2026").waitFor();
    await photographAndCheck(page, "08b-delete-cohort", "delete cohort");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await cohorts.getByText("No cohorts").waitFor();
    const listed = await call("GET", `${paths.institutions}/${institution.id}/cohorts`, { token: owner.token });
    expect(listed.body.cohorts).toEqual([]);
    await page.getByRole("button", { name: "Delete", exact: true }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await heading(page, "Institutions");
    expect((await call("GET", `${paths.institutions}/${institution.id}`, { token: owner.token })).status).toBe(404);
  });

  it("invites an administrator: the e-mail's 422 shows at its field, the mail arrives, the invitation is listed", async () => {
    const { domain, owner } = await newAccount("invite");
    const institution = await seedInstitution(owner.token);
    const inviteeEmail = uniqEmail("ada", domain);
    const page = await browse(owner);
    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    await heading(page, institution.name);
    await page.getByRole("tab", { name: "Administrators and invitations" }).click();
    await page.getByText("No active invitations", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Invite administrator" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("E-mail address").fill("ada@");
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await dialog.getByText("Email is invalid").waitFor();
    expect(await dialog.getByLabel("E-mail address").getAttribute("aria-invalid")).toBe("true");
    await photographAndCheck(page, "09-invite-error", "invite dialog");

    await dialog.getByLabel("E-mail address").fill(inviteeEmail);
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await flash(page, `Invitation sent to ${inviteeEmail}`).waitFor();
    const row = page.getByRole("row").filter({ hasText: inviteeEmail });
    await row.getByText("Active").waitFor();
    await row.getByText("Cohort admin").waitFor();
    await photographAndCheck(page, "10-invitations", "invitations");

    const mail = (await sentMail(inviteeEmail)).at(-1);
    expect(mail).toBeDefined();
    const token = invitationTokenIn(mail as NonNullable<typeof mail>);
    const acceptLink = /(https?:\/\/\S+\/invitations\/accept\?token=[A-Za-z0-9_-]+)/.exec(mail?.body.text ?? "")?.[1] ?? "";
    // The link opens the console, on the stack's own origin.
    expect(acceptLink).toBe(consoleUrl(`/invitations/accept?token=${token}`));
    // Only the preview is ever on screen.
    expect(await page.locator("body").innerText()).not.toContain(token);
  });

  it("shows a 429's Retry-After as a time", async () => {
    const { owner } = await newAccount("crowded");
    const institution = await seedInstitution(owner.token);
    const crowded = uniqEmail("bob");
    // The pending limit is 3 per address: three invitations, then the console asks for a fourth.
    for (let i = 0; i < 3; i++) {
      const res = await call("POST", paths.invitations, {
        token: owner.token,
        body: { institution_id: institution.id, email: crowded, role: "cohort_admin" },
      });
      expect(res.status).toBe(201);
    }
    const page = await browse(owner);
    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    await heading(page, institution.name);
    await page.getByRole("tab", { name: "Administrators and invitations" }).click();
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
    const again = await call("POST", paths.invitations, {
      token: owner.token,
      body: { institution_id: institution.id, email: crowded, role: "cohort_admin" },
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("lets the invitee accept from the mail link in a browser of their own, signing in first", async () => {
    const { domain, owner } = await newAccount("accept");
    const institution = await seedInstitution(owner.token);
    const invitee = await newPerson("ada", domain);
    const acceptLink = await seedInvitation(owner.token, institution.id, invitee.email);
    const page = await browse();
    await page.goto(acceptLink);
    // Without a sign-in the invitation shows first (open); the invitee has an account, so it offers sign-in.
    await page.getByTestId("invitation-preview").getByText(institution.name, { exact: false }).waitFor();
    await photographAndCheck(page, "12a-accept-has-account", "accept: has an account");
    await page.getByRole("button", { name: "Sign in to accept" }).click();
    await page.getByText("Sign in to accept your invitation").waitFor();
    // The token left the address bar (and the history) at once.
    expect(page.url()).toBe(consoleUrl("/invitations/accept"));
    await photographAndCheck(page, "12-accept-sign-in", "accept: sign in");

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
    await photographAndCheck(page, "14-accept", "accept");

    await page.getByRole("button", { name: "Accept invitation" }).focus();
    await page.keyboard.press("Enter");
    await heading(page, institution.name);
    await flash(page, `You are now Cohort admin of ${institution.name}.`).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/institutions/${institution.id}`);
    await page.getByText("Your role: Cohort admin").waitFor();
    // A cohort admin may look but not change: the actions are not offered.
    expect(await page.getByRole("button", { name: "Edit", exact: true }).count()).toBe(0);
    await screenshot(page, "15-accepted");

    await page.getByRole("link", { name: "Institutions" }).first().click();
    const row = page.getByRole("row").filter({ hasText: institution.name });
    await row.getByText("Cohort admin").waitFor();
    // Not a cohort super admin: no audit trail in the navigation, and a clear notice at its address.
    expect(await page.getByRole("link", { name: "Security events" }).count()).toBe(0);
    await page.goto(consoleUrl("/security-events"));
    await page.getByText("Super admin access required").waitFor();
    await page.getByText("Access denied").first().waitFor();
    await photographAndCheck(page, "16-events-403", "security events 403");

    // The same link a second time, by the one who accepted it: it says so (issue 30; nothing is recorded).
    await page.goto(acceptLink);
    await page.getByText("You have already accepted this invitation").first().waitFor();
    await page.getByRole("link", { name: "your institutions" }).waitFor();
    await photographAndCheck(page, "17-accept-already-accepted", "accept: already accepted");

    // A link cut short never reaches the API.
    await page.goto(consoleUrl(`/invitations/accept?token=${token.slice(0, 20)}`));
    await page.getByText("This invitation link is incomplete").waitFor();
    // The session lives in this tab only (sessionStorage, docs/security.md): a new tab asks to sign in.
    const fresh = await page.context().newPage();
    await fresh.goto(consoleUrl("/institutions"));
    await heading(fresh, "Sign in");
    // A tab that never held a link (signed in, but no token in its storage) says what is missing.
    const session = await page.evaluate(
      (key) => (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(key),
      SESSION_KEY,
    );
    expect(session).toBeTruthy();
    await fresh.addInitScript(
      ({ key, value }) =>
        (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem(key, value),
      { key: SESSION_KEY, value: session as string },
    );
    await fresh.goto(consoleUrl("/invitations/accept"));
    await fresh.getByText("This page needs the link from your invitation e-mail").waitFor();
    await fresh.close();
  });

  it("shows an outsider nothing: no institution in the list, a not-found notice at its address", async () => {
    const { owner } = await newAccount("private");
    const institution = await seedInstitution(owner.token);
    const outsider = await newPerson("eve", `${uniq("outside")}.test`, { superAdmin: true });
    const page = await browse();
    await page.goto(consoleUrl("/institutions"));
    await submitSignIn(page, outsider.email, outsider.password);
    await heading(page, "Institutions");
    await page.getByText("No institutions", { exact: true }).waitFor();
    expect(await page.locator("body").innerText()).not.toContain(institution.name);

    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    await page.getByText("Institution not found or access denied").waitFor();
    await page.getByText("Not found", { exact: true }).waitFor();
    expect(await page.locator("body").innerText()).not.toContain(institution.name);
    await photographAndCheck(page, "18-outsider-not-found", "outsider not found");

    // Their own audit trail holds their attempt, and nothing of the owner's account.
    await page.goto(consoleUrl("/security-events"));
    await heading(page, "Security events");
    const rows = await settled(page.getByTestId("events-table"));
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
    const { domain, owner } = await newAccount("trail");
    const institution = await seedInstitution(owner.token);
    expect(
      (
        await call("PATCH", `${paths.institutions}/${institution.id}`, {
          token: owner.token,
          body: { institution: { address: "1 Main Street" } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call("POST", `${paths.institutions}/${institution.id}/cohorts`, {
          token: owner.token,
          body: { cohort: { name: "Class of 2026" } },
        })
      ).status,
    ).toBe(201);
    const invitee = await newPerson("ada", domain);
    const link = await seedInvitation(owner.token, institution.id, invitee.email);
    const accepted = await call("POST", paths.invitationsAccept, {
      token: invitee.token,
      body: { token: new URL(link).searchParams.get("token") },
    });
    expect(accepted.status).toBe(200);

    const page = await browse(owner);
    // The owner follows a stale link: a clear notice, and an event in the trail.
    await page.goto(consoleUrl("/institutions/01KZZZZZZZZZZZZZZZZZZZZZZZ"));
    await page.getByText("Institution not found or access denied").waitFor();
    await page.getByRole("link", { name: "Security events" }).click();
    await heading(page, "Security events");
    const table = page.getByTestId("events-table");
    await settled(table);
    for (const type of ["Institution created", "Institution updated", "Cohort created", "Invitation created", "Invitation accepted"]) {
      await table.getByRole("row").filter({ hasText: type }).first().waitFor();
    }
    await table.getByRole("row").filter({ hasText: "Unauthorized institution access" }).first().waitFor();
    await photographAndCheck(page, "19-security-events", "security events");

    // Filter by type: only that type is left, once the table has loaded the filtered page. The type is chosen
    // with the keyboard, in one keydown (see chooseOption), and the Select shows it before the address is read.
    await chooseOption(page, /Event type/, "Institution created");
    await page.waitForURL(/event_type=institution_created/);
    const types = () => settled(table).then(() => table.locator("tbody tr > :nth-child(2)").allInnerTexts());
    await expect.poll(async () => [...new Set(await types())], { timeout: 20_000 }).toEqual(["Institution created"]);
    await screenshot(page, "20-security-events-filtered");

    // Filter by user: the owner's id, from an event's detail.
    await table.getByRole("link").first().click();
    await page.getByText("User ID").waitFor();
    await page.getByText(institution.name).first().waitFor();
    await photographAndCheck(page, "21-security-event", "security event");
    await page.getByRole("link", { name: "Events of this user" }).click();
    await page.waitForURL(/user_id=/);
    const users = () => settled(table).then(() => table.locator("tbody tr > :nth-child(3)").allInnerTexts());
    await expect.poll(async () => [...new Set(await users())], { timeout: 20_000 }).toEqual([owner.email]);

    // Filter by what the table shows: the user's e-mail, typed in another case (issue 30).
    await page.goto(consoleUrl("/security-events"));
    await settled(table);
    await page.getByLabel("User e-mail").fill(owner.email.toUpperCase());
    await page.getByLabel("User e-mail").press("Enter");
    await page.waitForURL(/user_email=/);
    await expect.poll(async () => [...new Set(await users())], { timeout: 20_000 }).toEqual([owner.email]);
    // An address with no events in this account: none listed.
    await page.getByLabel("User e-mail").fill(`nobody-${owner.email}`);
    await page.getByLabel("User e-mail").press("Enter");
    await table.getByText("No events match these filters").waitFor();

    // Pages of two, through the cursor: the second page continues where the first ended.
    await page.goto(consoleUrl("/security-events?limit=2"));
    await table.locator("tbody tr").nth(1).waitFor();
    const first = await table.locator("tbody tr").allInnerTexts();
    expect(first).toHaveLength(2);
    await page.getByRole("button", { name: /next page/i }).click();
    await page.locator('button[aria-current="true"]', { hasText: /^2$/ }).waitFor();
    await expect
      .poll(async () => (await (await settled(table)).allInnerTexts()).filter((r) => !first.includes(r)).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const second = await table.locator("tbody tr").allInnerTexts();
    expect(second.filter((r) => first.includes(r))).toEqual([]);
    await screenshot(page, "22-security-events-page-2");
  });

  it("downloads the CSV export of the security events", async () => {
    const { domain, owner } = await newAccount("csv");
    const institution = await seedInstitution(owner.token);
    const invitee = await newPerson("ada", domain);
    const link = await seedInvitation(owner.token, institution.id, invitee.email);
    const accepted = await call("POST", paths.invitationsAccept, {
      token: invitee.token,
      body: { token: new URL(link).searchParams.get("token") },
    });
    expect(accepted.status).toBe(200);

    const page = await browse(owner);
    await page.goto(consoleUrl("/security-events"));
    await heading(page, "Security events");
    await settled(page.getByTestId("events-table"));
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^security_events_\d{8}_\d{6}\.csv$/);
    const csv = await readFile((await download.path()) as string, "utf8");
    const lines = csv.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("id,event_type,created_at,user_id,user_email,ip_address,description,details");
    const created = lines.find((l) => l.includes(",institution_created,"));
    expect(created).toContain(owner.email);
    expect(created).toContain(institution.name);
    expect(lines.some((l) => l.includes(",invitation_accepted,") && l.includes(invitee.email))).toBe(true);
  });

  it("exports all matching events with Export all: progress, then the download link to the file", async () => {
    const { owner } = await newAccount("full-export");
    const institution = await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.goto(consoleUrl("/security-events?event_type=institution_created"));
    await heading(page, "Security events");
    await settled(page.getByTestId("events-table"));
    await page.getByRole("button", { name: "Export all" }).click();
    await page.getByRole("menuitem", { name: "All matching events as CSV" }).click();
    const link = page.getByTestId("export-download");
    await link.waitFor({ timeout: 60_000 });
    expect(await link.innerText()).toMatch(/Download CSV \(\d+ rows\)/);
    const file = await fetch((await link.getAttribute("href")) as string);
    expect(file.status).toBe(200);
    const lines = (await file.text()).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("id,event_type,created_at,user_id,user_email,ip_address,description,details");
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(["institution_created"]);
    expect(lines[1]).toContain(institution.id);
  });

  it("shows the alerts: the summary, the alerts by severity and the chart of the hour", async () => {
    const { owner } = await newAccount("alerts");
    // Six lookups of institutions that do not exist reach the unauthorized-access alert.
    for (let i = 0; i < 6; i++)
      expect((await call("GET", `${paths.institutions}/01KYYYYYYYYYYYYYYYYYYYYY${i}Y`, { token: owner.token })).status).toBe(404);
    const api = await call("GET", `${paths.securityEvents}/alerts`, { token: owner.token });
    expect(api.status).toBe(200);

    const page = await browse(owner);
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Institutions");
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
    await photographAndCheck(page, "23-alerts", "alerts");

    // Refreshed on demand: the time of the last update moves (the time shows seconds: a refresh within the
    // same second shows the same time, so the person refreshes again, as the test does).
    const updated = page.getByTestId("alerts-updated");
    const before = await updated.innerText();
    const refresh = page.getByRole("button", { name: "Refresh" });
    await expect
      .poll(
        async () => {
          await refresh.click();
          return updated.innerText();
        },
        { timeout: 20_000, interval: 500 },
      )
      .not.toBe(before);
  });

  it("renews an expired ID token with the refresh token, and asks for a new sign-in once that fails too", async () => {
    const { owner } = await newAccount("renew");
    const institution = await seedInstitution(owner.token);
    // Signed in with a password, as the sign-in page does: the session holds a refresh token.
    const page = await browse(owner);
    await page.goto(consoleUrl("/institutions"));
    await page.getByRole("row").filter({ hasText: institution.name }).waitFor();
    type Stored = { idToken: string };
    const KEY = "institution-admin.session";
    // (Each function below runs in the page, so each names the page's sessionStorage itself.)
    // An ID token the API refuses (its signature broken), as an expired one is.
    const broken = await page.evaluate((key) => {
      const ls = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void } })
        .sessionStorage;
      const session = JSON.parse(ls.getItem(key) ?? "{}") as { idToken: string };
      const [header, payload, signature = ""] = session.idToken.split(".");
      session.idToken = [header, payload, `${signature.slice(0, -6)}AAAAAA`].join(".");
      ls.setItem(key, JSON.stringify(session));
      return session.idToken;
    }, KEY);
    await page.goto(consoleUrl("/institutions"));
    await page.getByRole("row").filter({ hasText: institution.name }).waitFor();
    const renewed = await page.evaluate((key) => {
      const ls = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage;
      return JSON.parse(ls.getItem(key) ?? "{}") as Stored;
    }, KEY);
    expect(renewed.idToken).not.toBe(broken);

    // Both refused (the refresh token Amplify keeps broken too): the console says why it asks for a sign-in.
    await page.evaluate(
      ({ key, refreshKey }) => {
        const ls = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void } })
          .sessionStorage;
        const session = JSON.parse(ls.getItem(key) ?? "{}") as { idToken: string };
        const [header, payload, signature = ""] = session.idToken.split(".");
        session.idToken = [header, payload, `${signature.slice(0, -6)}AAAAAA`].join(".");
        ls.setItem(key, JSON.stringify(session));
        ls.setItem(refreshKey, "not-a-refresh-token");
      },
      { key: KEY, refreshKey: amplifyKey("refreshToken") },
    );
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Sign in");
    await page.getByText("Your session has expired. Sign in again.").waitFor();
    await screenshot(page, "24-session-expired");
  });

  it("hands the frame's Cloudscape components the same props on every render (new ones made React loop, #185)", async () => {
    const { owner } = await newAccount("frame");
    const institution = await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.addInitScript({ content: FRAME_PROPS_WATCH });
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Institutions");
    // Navigations re-render the frame (its path, breadcrumbs and messages change); its top bar, navigation
    // and labels stay what they were, so Cloudscape has nothing to measure again inside React's commit.
    for (const [link, title] of [
      ["Security events", "Security events"],
      ["Alerts", "Alerts"],
      ["Institutions", "Institutions"],
      [institution.name, institution.name],
      ["Institutions", "Institutions"],
    ] as const) {
      await page.getByRole("link", { name: link, exact: true }).first().click();
      await heading(page, title);
    }
    const report = (await page.evaluate("window.__frameProps")) as { changes: Record<string, number>; layoutRenders: number };
    expect(report.layoutRenders).toBeGreaterThan(5);
    expect(report.changes).toEqual({});
  });

  it("shows an error page, not a blank one, when a page fails to render, and logs the error with its component stack", async () => {
    const { owner } = await newAccount("broken");
    const institution = await seedInstitution(owner.token);
    // Its own watch: this test expects the error the others must not meet.
    const { page, watch } = await browseWithWatch(owner);
    const logged: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") logged.push(msg.text());
    });
    // An answer of a shape the page does not expect (a proxy, an API of another version): the list throws while rendering.
    await page.route(`**${paths.institutions}`, (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ institutions: { unexpected: true } }) }),
    );
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "This page could not be shown");
    await page.getByText("Something went wrong in the console").waitFor();
    // The frame stays: the person can go elsewhere, or reload.
    await page.getByRole("link", { name: "Security events" }).waitFor();
    const reload = page.getByRole("button", { name: "Reload the page" });
    await reload.waitFor();
    await photographAndCheck(page, "25-render-error", "render error");
    const report = logged.find((l) => l.includes("failed to render"));
    expect(report, logged.join("\n")).toBeDefined();
    expect(report).toMatch(/Component stack:[\s\S]*Institutions/);
    expect(watch.problems.filter((p) => !p.includes("failed to render"))).toEqual([]);

    // The reload the page offers brings the list back once the API answers as it should.
    await page.unroute(`**${paths.institutions}`);
    await reload.click();
    await page.getByRole("row").filter({ hasText: institution.name }).waitFor();
  });
});
