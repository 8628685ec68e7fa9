/**
 * The console's Webhooks page (issue 22, docs/events-out.md) in a real browser (Debian's Chromium) against the
 * run's local stack: a cohort super admin adds a webhook pointing at a receiver on this machine, sees its
 * secret once (copied, never in the browser's storage, gone after a reload), sees the delivery of the next
 * event (the receiver verifies it with the shown secret), and deletes it; the contract's 422 and 429 show
 * in the form; anyone else meets the refusal the audit trail's pages show.
 *
 * Each test starts from its own account, its people signed in already; it waits for what a person waits
 * for (a heading, a table's rows, a delivery listed after a refresh), never for a fixed time.
 */
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call } from "../support/api.js";
import { receiver as startReceiver } from "../support/webhook-receiver.js";
import { consoleUrl, heading, newAccount, newPerson, photographAndCheck, seedInstitution, settled, useBrowser } from "./support.js";

const HOOKS = paths.webhooks;

const { browse, afterTest } = useBrowser();

/** A receiver on this machine (test/support/webhook-receiver.ts), closed after the test. */
async function receiver(answer?: () => number) {
  const hook = await startReceiver(answer);
  afterTest(hook.close);
  return hook;
}

/** Everything the page's origin keeps in sessionStorage and localStorage, as one string. */
const storage = (page: Page): Promise<string> =>
  page.evaluate(() => {
    type Store = { length: number; key(i: number): string | null; getItem(k: string): string | null };
    const { sessionStorage, localStorage } = globalThis as unknown as { sessionStorage: Store; localStorage: Store };
    const dump = (s: Store) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i) ?? "")}`);
    return JSON.stringify([...dump(sessionStorage), ...dump(localStorage)]);
  });

describe("the Webhooks page", () => {
  it("adds a webhook, shows its secret once, lists the delivery of the next event, and deletes it", async () => {
    const { owner } = await newAccount("hooks");
    const hook = await receiver();
    const page = await browse(owner);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(consoleUrl()).origin });
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Institutions");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await heading(page, "Webhooks");
    const table = page.getByTestId("webhooks-table");
    await settled(table);
    await table.getByText("No webhooks", { exact: true }).waitFor();
    await page.getByText("Select a webhook to see its recent deliveries.").waitFor();
    await photographAndCheck(page, "w01-webhooks-empty", "webhooks (empty)");

    // Not https: the contract's 422 message at the field, nothing created.
    await page.getByRole("button", { name: "Add webhook" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add webhook" });
    const field = dialog.getByLabel(/^Endpoint URL/);
    await field.fill("http://siem.example.test/in");
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    await dialog.getByText("Url must be an https URL", { exact: true }).waitFor();
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    await photographAndCheck(page, "w02-add-webhook-422", "add webhook with an error");
    expect((await call("GET", HOOKS, { token: owner.token })).body.webhooks).toEqual([]);

    await field.fill(hook.url);
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    const shown = page.getByTestId("webhook-secret");
    await shown.getByText("You will not see it again").waitFor();
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(await shown.innerText())?.[0];
    if (!secret) throw new Error(`no secret shown: ${await shown.innerText()}`);
    expect(await dialog.isVisible()).toBe(false);
    const row = table.locator("tbody tr", { hasText: hook.url });
    await row.getByText("Enabled").waitFor();
    await photographAndCheck(page, "w03-webhook-secret", "webhook secret");

    // The copy button puts it on the clipboard.
    await shown.getByRole("button", { name: "Copy the signing secret" }).click();
    await page.getByText("Secret copied").waitFor();
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
      ),
    ).toBe(secret);

    // The secret lives in the page's memory only: not in the browser's storage, not in the API's list.
    expect(await storage(page)).not.toContain(secret);
    expect(await storage(page)).not.toContain("whsec_");
    const listed = await call("GET", HOOKS, { token: owner.token });
    expect(listed.body.webhooks).toHaveLength(1);
    expect(listed.text).not.toContain("whsec_");
    const webhookId = listed.body.webhooks[0].id as string;

    // After a reload it is gone for good; the webhook stays.
    await page.reload();
    await heading(page, "Webhooks");
    await settled(table);
    await row.getByText("Enabled").waitFor();
    expect(await page.getByTestId("webhook-secret").count()).toBe(0);
    const body = await page.locator("body").innerText();
    expect(body).not.toContain(secret);
    expect(body).not.toContain("whsec_");
    expect(await storage(page)).not.toContain(secret);

    // An event in the account reaches the receiver and is listed under the selected webhook.
    const institution = await seedInstitution(owner.token);
    const created = await call("GET", paths.securityEvents, {
      token: owner.token,
      query: { event_type: "institution_created" },
    });
    const eventId = created.body.events[0].id as string;
    await table.getByRole("radio", { name: `Select the webhook to ${hook.url}` }).check();
    expect(new URL(page.url()).searchParams.get("webhook")).toBe(webhookId);
    const deliveries = page.getByTestId("deliveries-table");
    await settled(deliveries);
    const delivered = deliveries.locator("tbody tr", { hasText: eventId });
    await expect
      .poll(
        async () => {
          if ((await delivered.count()) === 0) await deliveries.getByRole("button", { name: "Refresh deliveries" }).click();
          return delivered.count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(1);
    await delivered.getByText("Delivered").waitFor();
    await delivered.getByRole("link", { name: "Institution created: the event" }).waitFor();
    expect(await delivered.innerText()).toContain("HTTP 204");
    await photographAndCheck(page, "w04-webhook-deliveries", "webhook deliveries");

    // What the receiver got verifies with the secret the page showed, and is that event.
    const got = hook.received.find((r) => r.headers["webhook-id"] === eventId);
    if (!got) throw new Error(`the receiver got no delivery of ${eventId}`);
    const payload = new Webhook(secret).verify(got.body, got.headers) as { type: string; data: { details: { institution_id: string } } };
    expect(payload.type).toBe("institution_created");
    expect(payload.data.details.institution_id).toBe(institution.id);

    // Deleting asks first, then the webhook is gone, as the API says too.
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Delete webhook" });
    await confirm.getByText(hook.url).waitFor();
    await photographAndCheck(page, "w05-delete-webhook", "delete webhook");
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("Webhook deleted").first().waitFor();
    await table.getByText("No webhooks", { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get("webhook")).toBeNull();
    expect((await call("GET", HOOKS, { token: owner.token })).body.webhooks).toEqual([]);
  });

  it("shows a delivery being retried while its receiver fails, then delivered once it answers again", async () => {
    const { owner } = await newAccount("hooks-retry");
    let answer = 503;
    const hook = await receiver(() => answer);
    // Its own webhook_created event is its first delivery, which fails.
    const created = await call("POST", HOOKS, { token: owner.token, body: { webhook: { url: hook.url } } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.webhook.id as string;

    const page = await browse(owner);
    // The selection is in the address: a link opens the webhook's deliveries.
    await page.goto(consoleUrl(`/webhooks?webhook=${id}`));
    await heading(page, "Webhooks");
    const table = page.getByTestId("webhooks-table");
    await settled(table);
    expect(await table.getByRole("radio", { name: `Select the webhook to ${hook.url}` }).isChecked()).toBe(true);
    const deliveries = page.getByTestId("deliveries-table");
    await settled(deliveries);
    const row = deliveries.locator("tbody tr", { hasText: "Webhook created" });
    const retrying = row.getByText("Retrying");
    await expect
      .poll(
        async () => {
          if ((await retrying.count()) === 0) await deliveries.getByRole("button", { name: "Refresh deliveries" }).click();
          return retrying.count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(1);
    expect(await row.innerText()).toContain("HTTP 503");
    // A retry is scheduled: its time is shown, not a dash.
    expect(await row.locator("td").last().innerText()).toMatch(/\d{4}/);
    await page.getByRole("button", { name: "Refresh webhooks" }).click();
    await table.locator("tbody tr", { hasText: hook.url }).getByText("Failing").waitFor();
    await photographAndCheck(page, "w06-webhook-retrying", "webhook retrying");

    // The receiver recovers: the page, reading a pending delivery again by itself, shows it delivered.
    answer = 204;
    await row.getByText("Delivered").waitFor({ timeout: 60_000 });
    expect(await row.innerText()).toContain("HTTP 204");
    // Event (with its id), status, attempts: each attempt reached the receiver, the same event each time.
    const attempts = Number(await row.locator("th, td").nth(2).innerText());
    expect(attempts).toBeGreaterThan(1);
    const eventId = /[0-9A-HJKMNP-TV-Z]{26}/.exec(await row.locator("th, td").first().innerText())?.[0];
    expect(eventId).toBeDefined();
    // (The owner's sign-ins in the browser are events of the account too, delivered beside it.)
    const ofEvent = hook.received.filter((r) => r.headers["webhook-id"] === eventId);
    expect(ofEvent).toHaveLength(attempts);
    const others = hook.received.filter((r) => r.headers["webhook-id"] !== eventId);
    expect(others.every((r) => JSON.parse(r.body).type === "sign_in")).toBe(true);
    await page.getByRole("button", { name: "Refresh webhooks" }).click();
    await table.locator("tbody tr", { hasText: hook.url }).getByText("Enabled").waitFor();
  });

  it("says so when the account already has its 5 webhooks (the contract's 429)", async () => {
    const { owner } = await newAccount("hooks-full");
    const hook = await receiver();
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", HOOKS, { token: owner.token, body: { webhook: { url: `${hook.url}/${i}` } } });
      expect(res.status, res.text).toBe(201);
    }
    const page = await browse(owner);
    await page.goto(consoleUrl("/webhooks"));
    await heading(page, "Webhooks");
    const rows = await settled(page.getByTestId("webhooks-table"));
    await expect.poll(() => rows.count()).toBe(5);
    await page.getByRole("heading", { name: /Webhooks\s*\(5\)/ }).waitFor();

    await page.getByRole("button", { name: "Add webhook" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add webhook" });
    await dialog.getByLabel(/^Endpoint URL/).fill(`${hook.url}/6`);
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    await dialog.getByText("Your account has all the webhooks it may have").waitFor();
    await dialog.getByText("At most 5 webhooks per account. Delete one you no longer need first.").waitFor();
    await photographAndCheck(page, "w07-add-webhook-429", "add webhook refused");
    expect(await page.getByTestId("webhook-secret").count()).toBe(0);
    expect((await call("GET", HOOKS, { token: owner.token })).body.webhooks).toHaveLength(5);
  });

  it("refuses an administrator without the cohort-super-admin status, as the audit trail's pages do", async () => {
    const { domain } = await newAccount("hooks-plain");
    const plain = await newPerson("pat", domain);
    const page = await browse(plain);
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Institutions");
    expect(await page.getByRole("link", { name: "Webhooks" }).count()).toBe(0);
    await page.goto(consoleUrl("/webhooks"));
    await heading(page, "Webhooks");
    await page.getByText("Access denied").first().waitFor();
    await page.getByText("Super admin access required").waitFor();
    await page.getByText("Managing webhooks needs the cohort-super-admin status, which an operator grants.").waitFor();
    expect(await page.getByRole("button", { name: "Add webhook" }).count()).toBe(0);
    await photographAndCheck(page, "w08-webhooks-403", "webhooks 403");
  });
});
