/**
 * What a newcomer's walk through the console met (issue 41), each shown fixed in a real browser:
 * - one word per meaning of "super admin", and a disabled Invite that names the missing cohort-super-admin status;
 * - a message stays on its page ("Invitation sent" does not follow the person to the next one);
 * - every dialog opens with the focus in its first field (a confirmation's on Cancel), not on its ×;
 * - the Alerts page says nothing was loaded when nothing was (no green "No alert"), and its chart counts in
 *   whole numbers;
 * - "Sign in to accept" has the invitee's e-mail filled in, and the mail fits someone without an account;
 * - a wrong password-reset code is not said to change every 30 seconds (an authenticator app's does);
 * - event types read as labels ("SCIM connected"), and the API reference shows no internal note;
 * - at 390 px no word breaks inside itself and the role stays in view; screenshots at 390 and 1280 px, axe-core
 *   on each.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../shared/constants.js";
import { paths } from "../../shared/routes.js";
import { call, invitationTokenIn, sentMail, stack, uniqEmail } from "../support/api.js";
import {
  consoleUrl,
  expectAccessible,
  expectAccessibleOnPhone,
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

/** The page's focused element, in words: its tag, and its label or text. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    type El = { tagName: string; textContent: string | null; getAttribute(n: string): string | null; id: string };
    const doc = (globalThis as unknown as { document: { activeElement: El | null; querySelector(s: string): El | null } }).document;
    const el = doc.activeElement;
    if (!el) return "nothing";
    const labelledBy = el.getAttribute("aria-labelledby");
    const label =
      el.getAttribute("aria-label") ??
      (labelledBy
        ? labelledBy
            .split(/\s+/)
            .map((id) => doc.querySelector(`[id="${id}"]`)?.textContent ?? "")
            .join(" ")
        : (el.textContent ?? ""));
    return `${el.tagName.toLowerCase()}: ${label.trim()}`;
  });
}

/** Whether `loc` holds the focus. */
const hasFocus = (loc: Locator): Promise<boolean> =>
  loc.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);

/** Words (whitespace-separated runs of a text node) that the layout split over two lines, under `root`. */
async function brokenWords(root: Locator): Promise<string[]> {
  return root.evaluate((node) => {
    type Doc = {
      createTreeWalker(root: unknown, what: number): { nextNode(): { textContent: string | null } | null };
      createRange(): { setStart(n: unknown, o: number): void; setEnd(n: unknown, o: number): void; getClientRects(): ArrayLike<unknown> };
    };
    const doc = (globalThis as unknown as { document: Doc }).document;
    const out: string[] = [];
    const walker = doc.createTreeWalker(node, 4);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const m of (text.textContent ?? "").matchAll(/\S+/g)) {
        const range = doc.createRange();
        range.setStart(text, m.index ?? 0);
        range.setEnd(text, (m.index ?? 0) + m[0].length);
        if (range.getClientRects().length > 1) out.push(m[0]);
      }
    }
    return out;
  });
}

/** An institution with a second administrator (`sam`, invited as Cohort super admin, accepted) and a pending invitation. */
async function institutionWithTeam(label: string): Promise<{
  owner: Person & { token: string };
  sam: Person & { token: string };
  id: string;
  name: string;
  pending: string;
}> {
  const { domain, owner } = await newAccount(label);
  const name = `Acme College ${label}`;
  const created = await call("POST", paths.institutions, {
    token: owner.token,
    body: { institution: { name, contact_email: "office@acme.test", registration_number: `REG-${Date.now()}` } },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.institution.id as string;
  const sam = await newPerson("sam", domain);
  const invited = await call("POST", paths.invitations, {
    token: owner.token,
    body: { institution_id: id, email: sam.email, role: "cohort_super_admin" },
  });
  expect(invited.status, invited.text).toBe(201);
  const mail = (await sentMail(sam.email)).at(-1);
  if (!mail) throw new Error(`no mail to ${sam.email}`);
  const accepted = await call("POST", paths.invitationsAccept, { token: sam.token, body: { token: invitationTokenIn(mail) } });
  expect(accepted.status, accepted.text).toBe(200);
  const pending = uniqEmail("pending", domain);
  const second = await call("POST", paths.invitations, {
    token: owner.token,
    body: { institution_id: id, email: pending, role: "cohort_admin" },
  });
  expect(second.status, second.text).toBe(201);
  return { owner, sam, id, name, pending };
}

describe("console details (issue 41)", () => {
  it("a disabled Invite names the missing cohort-super-admin status, for a Cohort super admin without it", async () => {
    const { sam, id, name } = await institutionWithTeam("nostatus");
    const page = await browse(sam);
    await page.goto(consoleUrl(`/institutions/${id}?tab=invitations`));
    await heading(page, name);
    // Their role is Cohort super admin; the status is what they lack, and the tooltip says so.
    await page.getByText("Your role: Cohort super admin", { exact: true }).waitFor();
    const invite = page.getByRole("button", { name: "Invite administrator" });
    await invite.hover();
    await page
      .getByText("Inviting needs the cohort-super-admin status, which an operator grants.", { exact: false })
      .filter({ visible: true })
      .first()
      .waitFor();
    expect(await page.locator("body").innerText()).not.toContain("Only a cohort super admin who manages this institution");
    await photographAndCheck(page, "50-invite-needs-status", "invite disabled: the status is missing");
    // The same words on Resend and Revoke, once an invitation is selected.
    await settled(page.getByTestId("invitations-table"));
    // The administrators' table marks the owner with the one term for it.
    const admins = page.getByTestId("administrators-table");
    await settled(admins);
    await admins.getByText("Institution's super admin").first().waitFor();
    expect(await admins.innerText()).not.toMatch(/\bSuper admin\b/);
  });

  it('keeps a message on its page: "Invitation sent" is gone once another page opens, and the invite dialog starts in its e-mail field', async () => {
    const { owner, id, name } = await institutionWithTeam("flash");
    const page = await browse(owner);
    await page.goto(consoleUrl(`/institutions/${id}?tab=invitations`));
    await heading(page, name);
    await page.getByRole("button", { name: "Invite administrator" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite an administrator" });
    await dialog.waitFor();
    // Typing goes into the e-mail field at once: the focus starts there, not on the ×.
    await expect.poll(() => focused(page)).toMatch(/^input: E-mail address/);
    const invitee = uniqEmail("newbie", "acme.test");
    await page.keyboard.type(invitee);
    expect(await dialog.getByLabel("E-mail address").inputValue()).toBe(invitee);
    await page.keyboard.press("Enter");
    // Exact: Cloudscape's live announcer repeats the message with its type ("Success Invitation sent …").
    const sent = page.getByText(`Invitation sent to ${invitee}`, { exact: true });
    await sent.waitFor();
    await screenshot(page, "51-invitation-sent");
    // A tab of the same page keeps it.
    await page.getByRole("tab", { name: "Details" }).click();
    await sent.waitFor();
    // Another page does not show it, nor does coming back.
    await page.getByRole("link", { name: "Security events" }).click();
    await heading(page, "Security events");
    await settled(page.getByTestId("events-table"));
    expect(await sent.count()).toBe(0);
    await page.goBack();
    await heading(page, name);
    expect(await sent.count()).toBe(0);
  });

  it("opens every dialog with the focus in its first field, or on Cancel in a confirmation", async () => {
    const { owner, id, name, sam } = await institutionWithTeam("focus");
    const page = await browse(owner);
    await page.goto(consoleUrl(`/institutions/${id}?tab=cohorts`));
    await heading(page, name);

    // Create cohort: what the person types is the cohort's name (it was lost on the × before).
    await page.getByRole("button", { name: "Create cohort" }).click();
    const create = page.getByRole("dialog", { name: "Create cohort" });
    await create.waitFor();
    await expect.poll(() => hasFocus(create.getByLabel("Name"))).toBe(true);
    await page.keyboard.type("Class of 2027");
    expect(await create.getByLabel("Name").inputValue()).toBe("Class of 2027");
    await photographAndCheck(page, "52-create-cohort-focus", "create cohort dialog");
    await page.keyboard.press("Enter");
    await page.getByText("Cohort Class of 2027 created").waitFor();

    const cancelFocused = async (dialogName: string) => {
      const dialog = page.getByRole("dialog", { name: dialogName });
      await dialog.waitFor();
      await expect.poll(() => hasFocus(dialog.getByRole("button", { name: "Cancel", exact: true }))).toBe(true);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
    };
    const cohorts = page.getByTestId("cohorts-table");
    await (await settled(cohorts)).filter({ hasText: "Class of 2027" }).getByRole("radio").check();
    await cohorts.getByRole("button", { name: "Delete", exact: true }).click();
    await cancelFocused("Delete cohort");

    await page.getByRole("tab", { name: "Administrators and invitations" }).click();
    const admins = page.getByTestId("administrators-table");
    await (await settled(admins)).filter({ hasText: sam.email }).getByRole("radio").check();
    await page.getByRole("button", { name: "Change role" }).click();
    const role = page.getByRole("dialog", { name: "Change role" });
    await role.waitFor();
    await expect.poll(() => focused(page)).toMatch(/^button: .*Role of /);
    await page.keyboard.press("Escape");
    await role.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Remove", exact: true }).click();
    await cancelFocused("Remove administrator");
    await page.getByRole("button", { name: "Transfer", exact: true }).click();
    await cancelFocused("Transfer institution");

    const invitations = page.getByTestId("invitations-table");
    await (await settled(invitations)).first().getByRole("radio").check();
    await page.getByRole("button", { name: "Revoke", exact: true }).click();
    await cancelFocused("Revoke invitation");

    await page.getByRole("button", { name: "Delete", exact: true }).first().click();
    await cancelFocused("Delete institution");

    // The webhooks' add dialog starts in its URL field.
    await page.goto(consoleUrl("/webhooks"));
    await heading(page, "Webhooks");
    await page.getByRole("button", { name: "Add webhook" }).first().click();
    const add = page.getByRole("dialog", { name: "Add webhook" });
    await add.waitFor();
    await expect.poll(() => hasFocus(add.getByLabel("Endpoint URL"))).toBe(true);
  });

  it('Alerts: a failed load shows no "No alert"; the chart\'s y axis counts in whole numbers', async () => {
    const { owner } = await newAccount("alertsdetail");
    // One probe: the busiest minute holds 1 event, over which the axis went 0, 0.2, … 1.
    expect((await call("GET", `${paths.institutions}/01KYYYYYYYYYYYYYYYYYYYYYYY`, { token: owner.token })).status).toBe(404);
    const page = await browse(owner);
    await page.goto(consoleUrl("/alerts"));
    await heading(page, "Alerts");
    const chart = page.getByTestId("alerts-chart");
    await chart.locator("svg").first().waitFor();
    await chart.getByText("Unauthorized institution access").first().waitFor();
    const numbers = (await chart.locator("svg text").allTextContents()).map((t) => t.trim()).filter((t) => /^[\d.,]+$/.test(t));
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    expect(numbers.filter((n) => !/^\d+$/.test(n))).toEqual([]);
    await page.getByText("No alert: no count reached its threshold in the last hour.").waitFor();
    await photographAndCheck(page, "53-alerts-whole-ticks", "alerts with whole-number ticks");

    // The API unreachable from the start: the notice, and nothing that claims a quiet hour.
    const failing = await browse(owner);
    await failing.route(
      (url) => url.pathname.endsWith(`${paths.securityEvents}/alerts`),
      (route) => route.abort("connectionrefused"),
    );
    await failing.goto(consoleUrl("/alerts"));
    await heading(failing, "Alerts");
    await failing.getByText("The API cannot be reached", { exact: true }).waitFor();
    await failing.getByTestId("alerts-not-loaded").waitFor();
    expect(await failing.getByText(/No alert/).count()).toBe(0);
    await photographAndCheck(failing, "54-alerts-unreachable", "alerts: the API cannot be reached");
  });

  it('the invitation mail fits someone without an account; "Sign in to accept" has the invitee\'s e-mail filled in', async () => {
    const { domain, owner } = await newAccount("prefill");
    const institution = await seedInstitution(owner.token);
    const invitee = await newPerson("ada", domain);
    const res = await call("POST", paths.invitations, {
      token: owner.token,
      body: { institution_id: institution.id, email: invitee.email, role: "cohort_admin" },
    });
    expect(res.status, res.text).toBe(201);
    const mail = (await sentMail(invitee.email)).at(-1);
    if (!mail) throw new Error("no invitation mail");
    for (const part of [mail.body.text ?? "", mail.body.html ?? ""]) {
      expect(part).not.toMatch(/while signed in/i);
      expect(part).toContain("No account yet?");
    }

    const page = await browse();
    await page.goto(consoleUrl(`/invitations/accept?token=${invitationTokenIn(mail)}`));
    await page.getByRole("button", { name: "Sign in to accept" }).click();
    await page.getByText("Sign in to accept your invitation").waitFor();
    expect(await page.getByLabel("E-mail address").inputValue()).toBe(invitee.email);
    await expect.poll(() => hasFocus(page.getByLabel("Password", { exact: true }))).toBe(true);
    await photographAndCheck(page, "55-accept-sign-in-prefilled", "sign in to accept, prefilled");
    // Only the password is left to type.
    await page.keyboard.type(invitee.password);
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Accept invitation" }).waitFor();
  });

  it("a wrong password-reset code is refused in the reset's own words, not an authenticator app's", async () => {
    const { domain } = await newAccount("resetcode");
    const person = await newPerson("fay", domain);
    const page = await browse();
    await page.goto(consoleUrl("/"));
    await heading(page, "Sign in");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await page.getByLabel("E-mail address").fill(person.email);
    await page.getByRole("button", { name: "Send code" }).click();
    await heading(page, "Choose a new password");
    await expect
      .poll(async () => (await sentMail(person.email)).some((m) => /password reset code/i.test(m.subject)), { timeout: 20_000 })
      .toBe(true);
    const code = /\b(\d{6})\b/.exec(
      (await sentMail(person.email)).filter((m) => /password reset code/i.test(m.subject)).at(-1)?.body.text ?? "",
    )?.[1];
    const fresh = `Fay-Pa55word!${Date.now()}`;
    await page.getByLabel("Code from the e-mail").fill(code === "000000" ? "111111" : "000000");
    await page.getByLabel("New password", { exact: true }).fill(fresh);
    await page.getByLabel("Repeat the new password").fill(fresh);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    const refusal = page.getByText(/That code is not right/).first();
    await refusal.waitFor();
    const words = await refusal.innerText();
    expect(words).not.toMatch(/30 seconds/);
    expect(words).toContain("newest password-reset e-mail");
    await photographAndCheck(page, "56-reset-code-refused", "reset code refused");
  });

  it('event types read as labels ("SCIM connected"), and the API reference shows no internal note', async () => {
    const { owner } = await newAccount("labels");
    await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.goto(consoleUrl("/security-events"));
    await heading(page, "Security events");
    await settled(page.getByTestId("events-table"));
    await page.getByRole("button", { name: /Event type/ }).press("Enter");
    const options = page.getByRole("option");
    await options.first().waitFor();
    const labels = (await options.allInnerTexts()).map((t) => t.split("\n")[0]?.trim() ?? "");
    expect(labels).toHaveLength(EVENT_TYPES.length + 1);
    for (const label of [
      "SCIM connected",
      "SCIM token rotated",
      "SCIM role mappings changed",
      "SCIM disconnected",
      "Institution created",
    ]) {
      expect(labels).toContain(label);
    }
    // No acronym spelled as a word, no key left as it is stored.
    expect(labels.filter((l) => /\b(Scim|Id|Ip|Url|Csv|Mfa|Totp|Sso)\b|_/.test(l))).toEqual([]);
    await page.keyboard.press("Escape");

    // The reference page and the document it is built from: no internal note, no citation of a file the reader lacks.
    const doc = await call("GET", paths.openapi);
    expect(doc.status).toBe(200);
    expect(doc.text).not.toContain("Minimal, so that the delete rule is reachable");
    expect(doc.text).not.toContain("docs/contract/README.md");
    expect((doc.body.tags as { name: string; description?: string }[]).find((t) => t.name === "Cohorts")?.description).toContain(
      "cannot be deleted",
    );
    const reference = await browse();
    await reference.goto(new URL(paths.docs, stack.apiUrl).href);
    await reference.getByText("Cohorts", { exact: true }).first().waitFor();
    expect(await reference.locator("body").innerText()).not.toContain("Minimal, so that");
  });

  // One test per width: each is a run of pages, screenshots and axe checks, a minute's work on a busy machine.
  for (const width of [390, 1280]) {
    it(`at ${width} px: no word broken inside itself, the role in view; screenshots and axe`, async () => {
      const { owner, id, name } = await institutionWithTeam(`widths-${width}`);
      const page = await browse(owner);
      await page.setViewportSize({ width, height: 844 });
      const phone = width < 688;
      const check = (what: string) => (phone ? expectAccessibleOnPhone(page, what) : expectAccessible(page, what));

      await page.goto(consoleUrl("/institutions"));
      const list = page.getByTestId("institutions-table");
      const rows = await settled(list);
      const row = rows.filter({ hasText: name });
      await row.waitFor();
      // The role is in view without scrolling, and says which meaning of "super admin" it is.
      const role = phone ? row.getByTestId("institution-role") : row.getByText("Cohort super admin");
      const box = await role.boundingBox();
      expect(box && box.x + box.width <= width).toBe(true);
      await row.getByText("Institution's super admin").waitFor();
      expect(await row.innerText()).not.toContain("(owner)");
      expect(await brokenWords(list.locator("tbody"))).toEqual([]);
      await screenshot(page, `57-institutions-${width}`);
      await check(`institutions at ${width} px`);

      await page.goto(consoleUrl(`/institutions/${id}`));
      await heading(page, name);
      await page.getByText("office@acme.test").waitFor();
      expect(await brokenWords(page.locator("main"))).toEqual([]);
      await screenshot(page, `58-institution-${width}`);
      await check(`institution at ${width} px`);

      await page.goto(consoleUrl(`/institutions/${id}?tab=invitations`));
      const admins = page.getByTestId("administrators-table");
      await settled(admins);
      await expect.poll(async () => await admins.locator("tbody tr").count()).toBe(2);
      const invitations = page.getByTestId("invitations-table");
      await settled(invitations);
      for (const table of [admins, invitations]) {
        expect(await brokenWords(table.locator("tbody"))).toEqual([]);
        const firstRole = phone ? table.getByTestId(/-role$/).first() : table.getByText(/^Cohort (super )?admin$/).first();
        const b = await firstRole.boundingBox();
        expect(b && b.x >= 0 && b.x + b.width <= width, `role in view at ${width} px`).toBe(true);
      }
      await screenshot(page, `59-administrators-${width}`);
      await check(`administrators and invitations at ${width} px`);
    });
  }
});
