/**
 * The pool's mail is the service's mail (docs/console-sign-in.md#the-pools-mail, issue 41 item 3), in a real browser against the run's local
 * stack: the directory (SCIM) adds a person; the pool's mail to them, on the local mail page, says what the code
 * is (a temporary password), for which institution, and where to sign in; the person opens that link, signs in with
 * the mail's temporary password, chooses their own, and lands on the institution the directory gave them. Their
 * sign-in is in their trail. Waits for states, never for a time.
 */
import { describe, expect, it } from "vitest";
import { type SentMail, sentMail, uniqEmail } from "../support/api.js";
import { connect, entraUser, scim } from "../support/scim.js";
import {
  consoleUrl,
  heading,
  newAccount,
  photographAndCheck,
  screenshot,
  seedInstitution,
  strongPassword,
  submitSignIn,
  useBrowser,
} from "./support.js";

const { browse } = useBrowser();

describe("a person the directory created, from the pool's mail", () => {
  it("signs in with the mail's temporary password, chooses their own, and sees the institution", async () => {
    const { owner, domain } = await newAccount("poolmail");
    const institution = await seedInstitution(owner.token);
    const { token: directory } = await connect(owner.token, institution.id);
    const email = uniqEmail("dora", domain);
    expect((await scim(directory, "POST", "/Users", entraUser(email))).status).toBe(201);

    // The mail, as the local mail page holds it.
    let mail: SentMail | undefined;
    await expect
      .poll(
        async () => {
          mail = (await sentMail(email)).find((m) => m.subject === `Your Institution Admin account for ${institution.name}`);
          return mail;
        },
        { timeout: 20_000 },
      )
      .toBeDefined();
    const text = mail?.body.text ?? "";
    const link = /Sign in at (\S+) with your e-mail address/.exec(text)?.[1] ?? "";
    const temporary = /Your temporary password: (\S+)/.exec(text)?.[1] ?? "";
    expect(link).toBe(consoleUrl("/"));
    expect(temporary).not.toBe("");
    expect(text).toContain(`The directory of ${institution.name} gave you access to it`);

    // The mail as the person's mail reader shows its HTML (photographed; a mail is no page of the console for axe).
    const page = await browse();
    await page.setContent(`<!doctype html><html lang="en"><title>${mail?.subject}</title><body>${mail?.body.html ?? ""}</body></html>`);
    await page.getByText("Your temporary password:").waitFor();
    await screenshot(page, "p01-pool-mail-temporary-password");

    // The link from the mail, the e-mail address and the temporary password.
    await page.goto(link);
    await heading(page, "Sign in");
    await submitSignIn(page, email, temporary);
    await heading(page, "Choose a new password");
    const chosen = strongPassword("Dora");
    await page.getByLabel("New password", { exact: true }).fill(chosen);
    await page.getByLabel("Repeat the new password").fill(chosen);
    await photographAndCheck(page, "p02-pool-mail-new-password", "choosing a password after the pool's mail");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await heading(page, "Institutions");
    await page.getByRole("link", { name: institution.name }).waitFor();
    await photographAndCheck(page, "p03-pool-mail-signed-in", "signed in with the directory's access");
  });
});
