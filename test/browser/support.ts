/**
 * The browser tests' harness: Debian's Chromium driven by playwright-core against the run's local stack
 * (`useBrowser()`, one per test file), axe-core checks, screenshots for review (`.local/screenshots/`, not
 * committed) and a watch on what the page itself reports (uncaught errors, Content-Security-Policy violations).
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import axe from "axe-core";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { issueIdToken } from "../../infra/local/cognito.js";
import { LOCAL_DIR } from "../../infra/local/stack.js";
import { paths } from "../../shared/routes.js";
import { call, invitationTokenIn, sentMail, stack, uniq, uniqEmail } from "../support/api.js";
import { launchChromium } from "../support/chromium.js";

export const SCREENSHOTS = join(LOCAL_DIR, "screenshots");

/** The console's origin, as invitation links name it. */
export const consoleUrl = (path = "/"): string => new URL(path, stack.consoleUrl ?? `${stack.apiUrl}/`).href;

/** What a page reported on its own: uncaught exceptions and CSP violations. A test ends by expecting none. */
export interface PageWatch {
  readonly problems: string[];
  /** The page watched, for what the end of a test reads from it (`reactCommits`). */
  readonly page?: Page;
}

/** One React commit as the page's hook saw it (`watchReactCommits`). */
export interface ReactCommit {
  /** It left updates pending that React counts as nested (sync, input or default lanes). */
  readonly pending: boolean;
  /** The longest run of such commits so far, ending here. */
  readonly streak: number;
}

/**
 * Runs in the page before its scripts: React DevTools' global hook, which React calls after every commit in
 * production builds too, reduced to a log of the commits. React throws "Maximum update depth exceeded" (#185)
 * at the 51st commit in a row that leaves sync, input or default updates pending; the log shows such runs
 * as they build; with the error's stack (the minified function that set the state), a #185 says where it came from.
 */
function watchReactCommits(): void {
  const page = globalThis as unknown as Record<string, unknown>;
  const log: ReactCommit[] = [];
  let streak = 0;
  // What else a test watches in each commit (console.test.ts's frame props): one hook, its listeners.
  const listeners: ((root: unknown) => void)[] = [];
  page.__reactCommits = log;
  page.__reactCommitListeners = listeners;
  page.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_renderer: number, root: { pendingLanes: number }) => {
      for (const listener of listeners) listener(root);
      // SyncLane | InputContinuousLane | DefaultLane: the lanes React's nested-update count looks for.
      const pending = (root.pendingLanes & 0b101010) !== 0;
      streak = pending ? streak + 1 : 0;
      log.push({ pending, streak });
      if (log.length > 5000) log.splice(0, 1000);
    },
  };
}

/** The React commits the page has logged since `from` (an index from an earlier call's length). */
export async function reactCommits(page: Page, from = 0): Promise<ReactCommit[]> {
  return page.evaluate((from) => ((globalThis as unknown as { __reactCommits?: ReactCommit[] }).__reactCommits ?? []).slice(from), from);
}

/** The console's key in sessionStorage (web/src/auth/session.ts). */
export const SESSION_KEY = "institution-admin.session";

/** Where Amplify keeps a signed-in user's tokens in sessionStorage (web/src/auth/cognito.ts). */
export const amplifyKey = (what: "idToken" | "accessToken" | "refreshToken" | "clockDrift" | "LastAuthUser", username = "user"): string =>
  what === "LastAuthUser"
    ? `CognitoIdentityServiceProvider.${stack.userPoolClientId}.LastAuthUser`
    : `CognitoIdentityServiceProvider.${stack.userPoolClientId}.${username}.${what}`;

/** Amplify's storage entries for these tokens, as its sign-in writes them. */
function amplifyEntries(tokens: SignedIn): [string, string][] {
  return [
    [amplifyKey("LastAuthUser"), "user"],
    [amplifyKey("idToken"), tokens.idToken],
    [amplifyKey("accessToken"), tokens.accessToken ?? ""],
    [amplifyKey("refreshToken"), tokens.refreshToken ?? ""],
    [amplifyKey("clockDrift"), "0"],
  ];
}

/** Cognito's tokens for a user with a known password, as the console's own sign-in gets them. */
export interface SignedIn {
  readonly idToken: string;
  readonly accessToken?: string;
  readonly refreshToken?: string;
}

/**
 * A fresh context (its own storage: a different person) and one page in it, watched. With `session`, the
 * person is signed in already (the tokens in the console's storage), so a test starts at its own page.
 *
 * `BROWSER_CPU_THROTTLE=4` (and `BROWSER_SLOW_NETWORK=1`) slow each page through the DevTools protocol, to
 * run the tests as a slow laptop on a slow network would.
 */
async function openPage(
  browser: Browser,
  opts: { session?: SignedIn } = {},
): Promise<{ context: BrowserContext; page: Page; watch: PageWatch }> {
  const origin = new URL(consoleUrl()).origin;
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    locale: "en-GB",
    timezoneId: "UTC",
    acceptDownloads: true,
  });
  if (opts.session) {
    // The console keeps its session in sessionStorage (per tab), which Playwright's storageState cannot seed:
    // each tab of this context starts signed in, once (a sign-out stays signed out). Amplify's copy (with the
    // refresh token) is seeded too, as the console's sign-in leaves it.
    const { idToken, accessToken, refreshToken } = opts.session;
    const entries: [string, string][] = [[SESSION_KEY, JSON.stringify({ idToken, accessToken })]];
    if (accessToken && refreshToken) entries.push(...amplifyEntries(opts.session));
    await context.addInitScript(
      ({ entries, origin }) => {
        type Page = {
          sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
          location: { origin: string };
        };
        const page = globalThis as unknown as Page;
        const store = page.sessionStorage;
        if (page.location.origin !== origin || store.getItem("test.seeded")) return;
        store.setItem("test.seeded", "1");
        for (const [key, value] of entries) store.setItem(key, value);
      },
      { entries, origin },
    );
  }
  await context.addInitScript(watchReactCommits);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const throttle = Number(process.env.BROWSER_CPU_THROTTLE ?? 0);
  if (throttle > 1 || process.env.BROWSER_SLOW_NETWORK) {
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
    if (process.env.BROWSER_SLOW_NETWORK) {
      await cdp.send("Network.enable");
      // About a fast 3G connection: 150 ms round trips, 1.6 Mbit/s down.
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 150,
        downloadThroughput: 200_000,
        uploadThroughput: 90_000,
      });
    }
  }
  const watch: PageWatch = { problems: [], page };
  // Where it happened and the first frames (names in the minified build map back through Vite's output).
  page.on("pageerror", (err) =>
    watch.problems.push(`page error: ${err.message} (at ${page.url()})\n${(err.stack ?? "").split("\n").slice(1, 9).join("\n")}`),
  );
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect)/i.test(msg.text())) watch.problems.push(`CSP: ${msg.text()}`);
    // What the error boundary (web/src/components/ErrorBoundary.tsx) logs, and React's own warnings.
    else if (msg.type() === "error" && /failed to render|Maximum update depth|React/i.test(msg.text())) {
      watch.problems.push(`console error: ${msg.text().slice(0, 2000)}`);
    }
  });
  return { context, page, watch };
}

/** What a browser test file uses of the browser `useBrowser()` runs for it. */
export interface Browsing {
  /** A window of a person's own (a fresh context: their own storage), watched; signed in already when `as` is given. */
  browse(as?: Person): Promise<Page>;
  /**
   * The same, for a test that reads the page's watch itself (it expects a problem the others must not meet):
   * closed after the test like the others, its watch not checked there.
   */
  browseWithWatch(as?: Person): Promise<{ page: Page; watch: PageWatch }>;
  /** Runs after the test, once its windows have closed: for what the test started besides them (a receiver). */
  afterTest(close: () => Promise<void>): void;
}

/**
 * The browser of a test file: Debian's Chromium launched before its tests and closed after them. After each
 * test, the windows it opened close, and the test fails if any of them reported a problem (an uncaught error,
 * an update loop, a CSP violation).
 */
export function useBrowser(): Browsing {
  let browser: Browser | undefined;
  let contexts: BrowserContext[] = [];
  let watches: PageWatch[] = [];
  let closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    // An update-depth error gets the longest run of commits that led to it.
    for (const w of watches) {
      if (!w.page || !w.problems.some((p) => p.includes("#185") || p.includes("Maximum update depth"))) continue;
      const log = await reactCommits(w.page).catch(() => []);
      const longest = log.reduce((most, c) => Math.max(most, c.streak), 0);
      w.problems.push(`longest run of commits leaving updates pending: ${longest} of ${log.length} logged`);
    }
    const problems = watches.flatMap((w) => w.problems);
    for (const c of contexts) await c.close().catch(() => {});
    for (const close of closers) await close();
    contexts = [];
    watches = [];
    closers = [];
    expect(problems).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (as: Person | undefined, checked: boolean) => {
    if (!browser) throw new Error("useBrowser(): the browser is not launched (call it at the top of the test file)");
    const { context, page, watch } = await openPage(browser, as ? { session: await signInTokens(as.email, as.password) } : {});
    contexts.push(context);
    if (checked) watches.push(watch);
    return { page, watch };
  };
  return {
    browse: async (as) => (await open(as, true)).page,
    browseWithWatch: (as) => open(as, false),
    afterTest: (close) => {
      closers.push(close);
    },
  };
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
  // Colours are judged as they end, not halfway through a transition (a button just clicked fades from its
  // active colours): every running CSS transition or animation jumps to its end first.
  await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { getAnimations(): { finish(): void }[] } }).document;
    for (const animation of doc.getAnimations()) animation.finish();
  });
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

/** No serious or critical axe violation on the page as it stands; the failure lists them. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

/**
 * axe-core on a phone-sized page. One finding is Cloudscape's, not the console's: AppLayout's mobile toolbar
 * (visual-refresh/mobile-toolbar.js) renders `<nav aria-orientation="horizontal">`, an attribute a nav may
 * not carry; it exists only below Cloudscape's mobile breakpoint. Everything else must be clean.
 */
export async function expectAccessibleOnPhone(page: Page, what: string): Promise<void> {
  const violations = (await axeViolations(page)).filter(
    (v) => !(v.id === "aria-allowed-attr" && v.targets.every((t) => t.includes("mobile-toolbar-nav"))),
  );
  expect(violations, `${what}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

/** The page as it stands, for review: photographed (`shot`, see `screenshot`), then checked with axe-core (`what` names it in the failure). */
export async function photographAndCheck(page: Page, shot: string, what: string): Promise<void> {
  await screenshot(page, shot);
  await expectAccessible(page, what);
}

/**
 * Signs in with a password as a person does: the e-mail first and Continue (the page asks which way the
 * address signs in; for an institution's single sign-on, "Sign in with a password instead"), then the password.
 * A page already at the password step (after a refusal) keeps the address.
 */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail address").fill(email);
  const next = page.getByRole("button", { name: "Continue", exact: true });
  const passwordField = page.getByLabel("Password", { exact: true });
  await next.or(passwordField).first().waitFor();
  if (await next.isVisible()) {
    await next.click();
    const instead = page.getByRole("button", { name: "Sign in with a password instead" });
    await instead.or(passwordField).first().waitFor();
    if (await instead.isVisible()) await instead.click();
  }
  await passwordField.fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The h1 of the page once it shows `name`. */
export async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

/** A password the deployed pool's policy accepts too (12+, upper, lower, digit, symbol). */
export const strongPassword = (label: string): string => `${label}-Pa55word!${Math.random().toString(36).slice(2, 8)}`;

/** Signs in at Cognito with a password, as the console does (USER_PASSWORD_AUTH), and returns the tokens. */
export async function signInTokens(email: string, password: string): Promise<SignedIn> {
  const res = await fetch(stack.cognitoEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth" },
    body: JSON.stringify({
      ClientId: stack.userPoolClientId,
      AuthFlow: "USER_PASSWORD_AUTH",
      AuthParameters: { USERNAME: email.toLowerCase(), PASSWORD: password },
    }),
  });
  const out = (await res.json()) as { AuthenticationResult?: { IdToken?: string; AccessToken?: string; RefreshToken?: string } };
  const auth = out.AuthenticationResult;
  if (res.status !== 200 || !auth?.IdToken) throw new Error(`sign-in of ${email}: ${res.status} ${JSON.stringify(out)}`);
  return { idToken: auth.IdToken, accessToken: auth.AccessToken, refreshToken: auth.RefreshToken };
}

export interface Person {
  readonly email: string;
  readonly name: string;
  readonly password: string;
}

/** A user with a known password in the local pool (a super admin of their account with `superAdmin`). */
export async function newPerson(label: string, domain: string, opts: { superAdmin?: boolean } = {}): Promise<Person & { token: string }> {
  const name = `${label[0]?.toUpperCase()}${label.slice(1)} Tester`;
  const person = { email: uniqEmail(label, domain), name, password: strongPassword(label) };
  const token = await issueIdToken(stack, person.email, { superAdmin: opts.superAdmin ?? false, name, password: person.password });
  return { ...person, token };
}

/** An account of its own (an e-mail domain) and its super admin: each test's own data, out of every other's sight. */
export async function newAccount(label: string): Promise<{ domain: string; owner: Person & { token: string } }> {
  const domain = `${uniq(label)}.test`;
  return { domain, owner: await newPerson("olive", domain, { superAdmin: true }) };
}

/** Creates an institution through the API; returns its id and name. */
export async function seedInstitution(token: string, name = `Acme College ${uniq("n")}`): Promise<{ id: string; name: string }> {
  const res = await call("POST", paths.institutions, { token, body: { institution: { name, contact_email: "desk@acme.test" } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.institution.id as string, name };
}

/** Invites `email` through the API; returns the accept link of the mail that went out. */
export async function seedInvitation(token: string, institutionId: string, email: string): Promise<string> {
  const res = await call("POST", paths.invitations, {
    token,
    body: { institution_id: institutionId, email, role: "cohort_admin" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const mail = (await sentMail(email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return consoleUrl(`/invitations/accept?token=${invitationTokenIn(mail)}`);
}

/**
 * A Cloudscape table once it has settled: its loading state gone and its rows (or its empty state) on screen,
 * as a person waits before reading it.
 */
export async function settled(table: Locator): Promise<Locator> {
  await table.getByText(/^Loading /).waitFor({ state: "hidden" });
  await table.locator("tbody tr").first().waitFor();
  return table.locator("tbody tr");
}
