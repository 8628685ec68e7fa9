/**
 * The institution page's API keys section (docs/api-keys.md) in a real browser against the run's local stack: the
 * super admin makes a key with scopes ticked, sees it once and copies it (gone after a reload), the key works
 * and its last use shows in the list, and a confirmed revoke ends it. Waits for states, never for a time.
 */
import { describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call } from "../support/api.js";
import { consoleUrl, newAccount, photographAndCheck, seedInstitution, settled, useBrowser } from "./support.js";

const { browse } = useBrowser();

describe("the API keys section", () => {
  it("creates a key with scopes, shows and copies it once, lists its last use, and revokes it", async () => {
    const { owner } = await newAccount("keys");
    const institution = await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(consoleUrl()).origin });
    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    const table = page.getByTestId("api-keys-table");
    await settled(table);
    await table.getByText("No API keys").waitFor();

    await table.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name").fill("SIS sync");
    await dialog.getByText("cohorts:read", { exact: true }).click();
    await dialog.getByText("cohorts:write", { exact: true }).click();
    await photographAndCheck(page, "k01-api-key-create", "create API key dialog, scopes ticked");
    await dialog.getByRole("button", { name: "Create API key" }).click();

    const shown = page.getByTestId("api-key-issued");
    await shown.getByText("You will not see the key again").waitFor();
    const key = /iak_[A-Za-z0-9_-]{43}/.exec(await shown.innerText())?.[0];
    if (!key) throw new Error(`no key shown: ${await shown.innerText()}`);
    await shown.getByRole("button", { name: "Copy the key" }).click();
    await page.getByText("Key copied").waitFor();
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
      ),
    ).toBe(key);
    const row = table.locator("tbody tr", { hasText: "SIS sync" });
    await row.getByText("cohorts:read, cohorts:write").waitFor();
    await photographAndCheck(page, "k02-api-key-shown-once", "API key shown once");

    // The key works; after a reload it is gone from the page for good, and the list shows its last use.
    const cohorts = `${paths.institutions}/${institution.id}/cohorts`;
    expect((await call("GET", cohorts, { token: key })).status).toBe(200);
    await page.reload();
    await settled(table);
    await row.waitFor();
    expect(await page.getByTestId("api-key-issued").count()).toBe(0);
    expect(await page.locator("body").innerText()).not.toContain(key);
    expect(await row.getByText("Never").count()).toBe(0);
    expect(await row.innerText()).toContain(key.slice(0, 8));

    // Revoke, confirmed: the key stops (past the authorizer's one-minute cache) and the list is empty.
    await row.getByRole("radio").check();
    await table.getByRole("button", { name: "Revoke" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke API key" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await table.getByText("No API keys").waitFor();
    expect((await call("GET", cohorts, { token: key, clockOffsetMs: 61_000 })).status).toBe(401);
    await photographAndCheck(page, "k03-api-key-revoked", "API key revoked");
  });
});
