/**
 * The institution page's Directory (SCIM) section (issue 33, docs/scim.md) in a real browser against the
 * run's local stack: the super admin connects the directory and sees the base URL and token once (copied,
 * gone after a reload), saves a role mapping, sees the directory's member marked in the administrators table,
 * rotates the token, and disconnects after confirming. Waits for states, never for a time.
 */
import { describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call, uniqEmail } from "../support/api.js";
import { entraUser, scim } from "../support/scim.js";
import { consoleUrl, newAccount, photographAndCheck, seedInstitution, settled, useBrowser } from "./support.js";

const { browse } = useBrowser();

describe("the Directory (SCIM) section", () => {
  it("connects, shows the token once, saves a mapping, marks a directory member, rotates and disconnects", async () => {
    const { owner, domain } = await newAccount("scim");
    const institution = await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(consoleUrl()).origin });
    await page.goto(consoleUrl(`/institutions/${institution.id}?tab=invitations`));
    const section = page.getByTestId("scim-section");
    await section.getByText("No directory is connected").waitFor();
    await photographAndCheck(page, "s01-scim-not-connected", "directory section, not connected");

    await section.getByRole("button", { name: "Connect directory" }).click();
    const shown = page.getByTestId("scim-token");
    await shown.getByText("You will not see the token again").waitFor();
    const token = /scim_[A-Za-z0-9_-]{43}/.exec(await shown.innerText())?.[0];
    if (!token) throw new Error(`no token shown: ${await shown.innerText()}`);
    expect(await shown.innerText()).toContain("/api/scim/v2");
    await shown.getByRole("button", { name: "Copy the token" }).click();
    await page.getByText("Token copied").waitFor();
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
      ),
    ).toBe(token);
    await section.getByText("Last used").waitFor();
    await photographAndCheck(page, "s02-scim-token-once", "directory token shown once");

    // The directory adds a person; the administrators table marks them.
    const email = uniqEmail("dir", domain);
    expect((await scim(token, "POST", "/Users", entraUser(email))).status).toBe(201);

    // A role mapping, saved.
    await section.getByRole("button", { name: "Add mapping" }).click();
    await section.getByLabel("Group name 1").fill("Campus Admins");
    await section.getByRole("button", { name: "Save mappings" }).click();
    await page.getByText("Role mappings saved").waitFor();
    const saved = await call("GET", `${paths.institutions}/${institution.id}/scim`, { token: owner.token });
    expect(saved.body.scim.role_mappings).toEqual({ "Campus Admins": "cohort_admin" });

    // After a reload the token is gone for good; the directory's member is marked.
    await page.reload();
    const table = page.getByTestId("administrators-table");
    await settled(table);
    const row = table.locator("tbody tr", { hasText: email });
    await row.getByText("Directory").waitFor();
    expect(await page.getByTestId("scim-token").count()).toBe(0);
    expect(await page.locator("body").innerText()).not.toContain(token);
    await section.getByText("Never").or(section.getByText(/\d{4}/).first()).first().waitFor();
    await photographAndCheck(page, "s03-scim-connected-member-marked", "directory connected, member marked");

    // Rotating shows a new token; the old one no longer works.
    await section.getByRole("button", { name: "Rotate token" }).click();
    await page.getByTestId("scim-token").getByText("You will not see the token again").waitFor();
    expect((await scim(token, "GET", "/Users")).status).toBe(401);

    // Disconnect, confirmed.
    await section.getByRole("button", { name: "Disconnect" }).click();
    const dialog = page.getByRole("dialog", { name: "Disconnect the directory?" });
    await dialog.getByRole("button", { name: "Disconnect" }).click();
    await section.getByText("No directory is connected").waitFor();
    expect((await call("GET", `${paths.institutions}/${institution.id}/scim`, { token: owner.token })).status).toBe(404);
  });
});
