/**
 * The browser tests' harness: Debian's Chromium driven by playwright-core against the run's local stack,
 * axe-core checks, screenshots for review (`.local/screenshots/`, not committed) and a watch on what the
 * page itself reports (uncaught errors, Content-Security-Policy violations).
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import axe from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { LOCAL_DIR } from "../../infra/local/stack.js";
import { stack } from "../support/api.js";
import { launchChromium } from "../support/chromium.js";

export const SCREENSHOTS = join(LOCAL_DIR, "screenshots");

/** The console's origin, as invitation links name it. */
export const consoleUrl = (path = "/"): string => new URL(path, stack.consoleUrl ?? `${stack.apiUrl}/`).href;

/** Debian's Chromium, as every browser test launches it. */
export const launch = launchChromium;

/** What a page reported on its own: uncaught exceptions and CSP violations. A test ends by expecting none. */
export interface PageWatch {
  readonly problems: string[];
}

/** A fresh context (its own storage: a different person) and one page in it, watched. */
export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; watch: PageWatch }> {
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    locale: "en-GB",
    timezoneId: "UTC",
    acceptDownloads: true,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const watch: PageWatch = { problems: [] };
  page.on("pageerror", (err) => watch.problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect)/i.test(msg.text())) watch.problems.push(`CSP: ${msg.text()}`);
  });
  return { context, page, watch };
}

/**
 * A screenshot of the whole page for review, named after the page and its state. The window is made as
 * tall as the page instead of Playwright's `fullPage`, whose capture passes through a size that Cloudscape's
 * AppLayout takes for a phone (it then closes the navigation, and the picture shows a state nobody sees).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Spinners and transitions settle first.
  await page.waitForLoadState("networkidle").catch(() => {});
  const viewport = page.viewportSize() ?? { width: 1366, height: 900 };
  const height = await page.evaluate(
    () => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight,
  );
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height: Math.min(height, 4000) });
  try {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: "disabled" });
  } finally {
    if (height > viewport.height) await page.setViewportSize(viewport);
  }
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null | undefined;
  readonly help: string;
  readonly targets: string[];
}

/** axe-core on the page as it stands: the serious and critical violations (WCAG 2.1 A/AA and best practice). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (no inline script) does not govern.
  await page.evaluate(axe.source);
  const results = await page.evaluate(async () => {
    // The whole document (axe's default context); this file has no DOM types, the page has.
    const page = globalThis as unknown as { axe: typeof axe };
    return page.axe.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
  });
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => String(n.target)) }));
}

/** Fills the sign-in form and submits it. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The h1 of the page once it shows `name`. */
export async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

/** A password the deployed pool's policy accepts too (12+, upper, lower, digit, symbol). */
export const strongPassword = (label: string): string => `${label}-Pa55word!${Math.random().toString(36).slice(2, 8)}`;
