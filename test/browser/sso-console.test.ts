/**
 * Signing in with an institution, in the console (docs/sso.md, docs/console-sign-in.md), in Chromium against the
 * run's local stack, at 1280 and 390 px wide, with axe:
 * - the institution's Single sign-on section: the super admin adds a domain and sees its TXT record, verifies it
 *   against the run's DNS server (infra/local/dns-server.ts), connects SAML from a metadata URL on loopback
 *   (test/support/sso.ts) and sees the values to paste, sets the mappings, JIT and require-SSO, and disconnects;
 *   another administrator reads the domains only;
 * - the e-mail-first sign-in: "Continue with <institution>" for an address on a connected institution's verified
 *   domain, the password for any other; the authorization request it sends (code, PKCE S256, state) and the
 *   callback's errors, said plainly, with the one automatic retry of a linked identity's first sign-in;
 * - the walk through the local managed login and a SAML IdP on loopback (test/support/saml-idp.ts): the super admin
 *   verifies a domain and connects the IdP in the console, a person continues with the institution, signs in at the
 *   IdP and lands signed in, signs out (the managed login's session too) and in again. Landing on the institution
 *   by JIT and the linked first sign-in are in sso-walk-triggers.test.ts.
 *
 * Waits for states, never for a time.
 */
import { createHash } from "node:crypto";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call, stack, uniq, uniqEmail } from "../support/api.js";
import { acceptLatest, invite } from "../support/flows.js";
import { type SamlIdp, startSamlIdp } from "../support/saml-idp.js";
import { challengeOf, type IdpServer, idpServer, publishTxt, samlMetadata } from "../support/sso.js";
import {
  consoleUrl,
  expectAccessible,
  expectAccessibleOnPhone,
  heading,
  newAccount,
  newPerson,
  photographAndCheck,
  screenshot,
  seedInstitution,
  settled,
  signInTokens,
  submitSignIn,
  useBrowser,
} from "./support.js";

const { browse } = useBrowser();

const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const domainsOf = (id: string) => `${paths.institutions}/${id}/domains`;
const ssoOf = (id: string) => `${paths.institutions}/${id}/sso`;

let idp: IdpServer;
beforeAll(async () => {
  idp = await idpServer();
});
afterAll(async () => {
  await idp?.close();
});

/** A SAML IdP's metadata served on loopback; its URL and entity ID. */
function servedMetadata(): { url: string; entityId: string } {
  const path = `/${uniq("saml")}/metadata.xml`;
  const entityId = `${idp.url}/${uniq("entity")}`;
  idp.serve(path, samlMetadata({ entityId, ssoUrl: `${idp.url}/sso` }));
  return { url: `${idp.url}${path}`, entityId };
}

/** A mail domain of its own for a test (under `.edu`: a real suffix, not a public one itself). */
const freshDomain = () => `${uniq("campus")}.edu`;

/** Through the API: a domain added, its record published on the run's DNS server, and verified. */
async function verifiedDomain(token: string, institutionId: string, domain = freshDomain()): Promise<string> {
  const added = await call("POST", domainsOf(institutionId), { token, body: { domain } });
  expect(added.status, added.text).toBe(201);
  await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
  const verified = await call("POST", `${domainsOf(institutionId)}/${added.body.domain.id}/verify`, { token });
  expect(verified.body.domain?.state, verified.text).toBe("verified");
  return domain;
}

/** Through the API: a SAML connection from served metadata; the connection. */
async function connectedSaml(token: string, institutionId: string): Promise<Record<string, unknown> & { provider_name: string }> {
  const res = await call("POST", ssoOf(institutionId), { token, body: { type: "saml", metadata_url: servedMetadata().url } });
  expect(res.status, res.text).toBe(201);
  return res.body.sso;
}

async function openSso(page: Page, institutionId: string) {
  await page.goto(consoleUrl(`/institutions/${institutionId}?tab=sso`));
  const section = page.getByTestId("sso-section");
  await section.getByRole("heading", { name: "Single sign-on" }).waitFor();
  return section;
}

/** What the clipboard holds, as the page reads it. */
const clipboard = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );

describe("the Single sign-on section", () => {
  it("the super admin adds a domain, sees the TXT record to publish (copied), and verifies it against the DNS server", async () => {
    const { owner } = await newAccount("ssodom");
    const institution = await seedInstitution(owner.token);
    const page = await browse(owner);
    await page.setViewportSize(WIDE);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(consoleUrl()).origin });
    const section = await openSso(page, institution.id);
    await section.getByText("No domains").waitFor();
    await section.getByText("No identity provider is connected").waitFor();
    await photographAndCheck(page, "sso01-section-empty", "SSO section, nothing yet");

    // A consumer mail domain is refused at the field, in the API's words.
    await section.getByRole("button", { name: "Add domain" }).click();
    const dialog = page.getByRole("dialog", { name: "Add domain" });
    await dialog.getByLabel("Domain").fill("gmail.com");
    await dialog.getByRole("button", { name: "Add domain" }).click();
    await dialog.getByText("Domain belongs to a consumer mail provider").waitFor();
    expect(await dialog.getByLabel("Domain").getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page, "add domain, refused");

    const domain = freshDomain();
    await dialog.getByLabel("Domain").fill(domain.toUpperCase());
    await dialog.getByRole("button", { name: "Add domain" }).click();
    await page.getByText(`${domain} added: publish its TXT record, then verify it`).waitFor();
    const table = page.getByTestId("sso-domains");
    const row = table.locator("tbody tr", { hasText: domain });
    await row.getByText("Pending").waitFor();
    const listed = (await call("GET", domainsOf(institution.id), { token: owner.token })).body.domains as {
      id: string;
      domain: string;
      verification: { record_name: string; record_value: string };
    }[];
    const record = listed.find((d) => d.domain === domain)?.verification;
    expect(record?.record_name).toBe(challengeOf(domain));
    // The record as the page shows it, each part copied exactly.
    await row.getByText(record?.record_name ?? "?", { exact: true }).waitFor();
    await row.getByText(record?.record_value ?? "?", { exact: true }).waitFor();
    await row.getByRole("button", { name: `Copy the record value for ${domain}` }).click();
    await page.getByText("Record value copied").waitFor();
    expect(await clipboard(page)).toBe(record?.record_value);
    await photographAndCheck(page, "sso02-domain-pending", "domain added, record to publish");

    // Verify before the record is published: still pending, with why.
    await row.getByRole("button", { name: `Verify ${domain}` }).click();
    await page.getByText(`${domain} is not verified yet`).waitFor();
    await row.getByText("Pending").waitFor();

    // Published on the run's DNS server: verified.
    await publishTxt(challengeOf(domain), ["v=spf1 -all", record?.record_value ?? ""]);
    await row.getByRole("button", { name: `Verify ${domain}` }).click();
    await page.getByText(`${domain} is verified`).waitFor();
    await row.getByText("Verified").waitFor();
    expect(await row.getByRole("button", { name: `Verify ${domain}` }).count()).toBe(0);
    const after = (await call("GET", domainsOf(institution.id), { token: owner.token })).body.domains as {
      domain: string;
      state: string;
    }[];
    expect(after.find((d) => d.domain === domain)?.state).toBe("verified");
    await photographAndCheck(page, "sso03-domain-verified", "domain verified");

    // On a phone: the same, readable and accessible.
    await page.setViewportSize(PHONE);
    await row.getByText("Verified").waitFor();
    await screenshot(page, "sso04-domain-verified-phone");
    await expectAccessibleOnPhone(page, "domain verified, 390 px");
  });

  it("the super admin connects SAML from a metadata URL, the API's refusal at the field first, and sees the values to paste", async () => {
    const { owner } = await newAccount("ssosaml");
    const institution = await seedInstitution(owner.token);
    await verifiedDomain(owner.token, institution.id);
    const page = await browse(owner);
    await page.setViewportSize(WIDE);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(consoleUrl()).origin });
    const section = await openSso(page, institution.id);
    await section.getByRole("button", { name: "Connect identity provider" }).click();
    const dialog = page.getByRole("dialog", { name: "Connect identity provider" });
    // Before connecting, the values the IdP's administrator registers first.
    await dialog.getByText(`urn:amazon:cognito:sp:${stack.userPoolId}`).waitFor();
    await photographAndCheck(page, "sso05-connect-dialog", "connect identity provider");

    // A URL that answers 404: the API's 422 at the Metadata URL field; nothing connected.
    await dialog.getByLabel("Metadata URL").fill(`${idp.url}/${uniq("missing")}/metadata.xml`);
    await dialog.getByRole("button", { name: "Connect" }).click();
    await dialog.getByText(/^Metadata url answered HTTP 404/).waitFor();
    expect(await dialog.getByLabel("Metadata URL").getAttribute("aria-invalid")).toBe("true");
    expect((await call("GET", ssoOf(institution.id), { token: owner.token })).status).toBe(404);

    const { url, entityId } = servedMetadata();
    await dialog.getByLabel("Metadata URL").fill(url);
    await dialog.getByRole("button", { name: "Connect" }).click();
    await page.getByText("SAML 2.0 identity provider connected: give its administrator the values below").waitFor();
    const shown = (await call("GET", ssoOf(institution.id), { token: owner.token })).body.sso;
    expect(shown).toMatchObject({ type: "saml", idp: { entity_id: entityId, metadata_url: url } });
    const values = section.getByTestId("sso-values");
    await values.getByText(shown.sp.entity_id, { exact: true }).waitFor();
    await values.getByText(shown.sp.acs_url, { exact: true }).waitFor();
    expect(shown.sp).toEqual({
      entity_id: `urn:amazon:cognito:sp:${stack.userPoolId}`,
      acs_url: expect.stringMatching(/\/saml2\/idpresponse$/),
    });
    await values.getByRole("button", { name: "Copy the ACS URL" }).click();
    await expect.poll(() => clipboard(page)).toBe(shown.sp.acs_url);
    await section.getByText(entityId, { exact: true }).waitFor();
    await section.getByText(shown.provider_name, { exact: true }).waitFor();
    await photographAndCheck(page, "sso06-connected", "SAML connected, values to paste");

    await page.setViewportSize(PHONE);
    await values.getByText(shown.sp.acs_url, { exact: true }).waitFor();
    await screenshot(page, "sso07-connected-phone");
    await expectAccessibleOnPhone(page, "SAML connected, 390 px");
  });

  it("the super admin sets role mappings, JIT and require-SSO (told they keep their password), then disconnects", async () => {
    const { owner } = await newAccount("ssoset");
    const institution = await seedInstitution(owner.token);
    await verifiedDomain(owner.token, institution.id);
    await connectedSaml(owner.token, institution.id);
    const page = await browse(owner);
    await page.setViewportSize(WIDE);
    const section = await openSso(page, institution.id);
    const settings = section.getByTestId("sso-settings");
    await settings.getByText("Give access on first sign-in").waitFor();
    await settings.getByTestId("owner-keeps-password").getByText("keeps their password as a way back in").waitFor();

    await settings.getByRole("button", { name: "Add mapping" }).click();
    await settings.getByRole("textbox", { name: "Group 1" }).fill("Registry Staff");
    await settings.getByRole("button", { name: /Role for group 1/ }).click();
    await page.getByRole("option", { name: "Cohort super admin" }).click();
    await settings.getByLabel("E-mail attribute").fill("mail");
    await settings.getByLabel("Give access on first sign-in").check();
    await settings.getByLabel("Require single sign-on", { exact: true }).check();
    await photographAndCheck(page, "sso08-settings", "SSO settings, edited");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Single sign-on settings saved").waitFor();
    const saved = (await call("GET", ssoOf(institution.id), { token: owner.token })).body.sso;
    expect(saved).toMatchObject({
      role_mappings: { "Registry Staff": "cohort_super_admin" },
      jit: { enabled: true, default_role: "cohort_admin" },
      require_sso: true,
      attribute_mapping: { email: "mail" },
    });

    // A blank attribute is refused at its field.
    await settings.getByLabel("Name attribute").fill("   ");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await settings.getByText(/^Attribute mapping name must be/).waitFor();
    expect(await settings.getByLabel("Name attribute").getAttribute("aria-invalid")).toBe("true");
    await settings.getByRole("button", { name: "Discard changes" }).click();

    await page.setViewportSize(PHONE);
    await screenshot(page, "sso09-settings-phone");
    await expectAccessibleOnPhone(page, "SSO settings, 390 px");
    await page.setViewportSize(WIDE);

    await section.getByRole("button", { name: "Disconnect" }).click();
    const confirm = page.getByRole("dialog", { name: "Disconnect single sign-on?" });
    await confirm.getByText("nobody can sign in through it any more").waitFor();
    await expectAccessible(page, "disconnect, confirm");
    await confirm.getByRole("button", { name: "Disconnect" }).click();
    await section.getByText("No identity provider is connected").waitFor();
    expect((await call("GET", ssoOf(institution.id), { token: owner.token })).status).toBe(404);
  });

  it("another administrator reads the domains, manages nothing, and never asks for the connection", async () => {
    const { owner, domain: account } = await newAccount("ssoread");
    const institution = await seedInstitution(owner.token);
    const domain = await verifiedDomain(owner.token, institution.id);
    await connectedSaml(owner.token, institution.id);
    // A Cohort super admin of the institution, by invitation: not its super admin (its owner).
    const colleague = await newPerson("cora", account, { superAdmin: true });
    await invite(owner.token, institution.id, colleague.email, "cohort_super_admin");
    await acceptLatest(colleague.token, colleague.email);
    const page = await browse(colleague);
    const asked: string[] = [];
    page.on("request", (r: Request) => asked.push(`${r.method()} ${new URL(r.url()).pathname}`));
    const section = await openSso(page, institution.id);
    const rows = await settled(page.getByTestId("sso-domains"));
    await rows.filter({ hasText: domain }).getByText("Verified").waitFor();
    await section.getByText("Only the institution's super admin manages single sign-on").waitFor();
    expect(await section.getByRole("button", { name: /Add domain|Verify|Remove|Connect|Disconnect/ }).count()).toBe(0);
    expect(asked).not.toContain(`GET ${ssoOf(institution.id)}`);
    await expectAccessible(page, "SSO section, read-only");
  });
});

describe("e-mail-first sign-in", () => {
  it("offers Continue with the institution for an address on a connected, verified domain, and the password for others", async () => {
    const { owner } = await newAccount("ssohrd");
    const institution = await seedInstitution(owner.token);
    const domain = await verifiedDomain(owner.token, institution.id);
    const sso = await connectedSaml(owner.token, institution.id);

    for (const size of [WIDE, PHONE]) {
      const page = await browse();
      await page.setViewportSize(size);
      const narrow = size === PHONE;
      await page.goto(consoleUrl("/"));
      await heading(page, "Sign in");
      await page.getByLabel("E-mail address").fill(`Ada.Lovelace@${domain.toUpperCase()}`);
      await page.getByRole("button", { name: "Continue", exact: true }).click();
      const onward = page.getByRole("button", { name: `Continue with ${institution.name}` });
      await onward.waitFor();
      await page.getByText(`Signing in as ada.lovelace@${domain}`).waitFor();
      expect(await page.getByLabel("Password", { exact: true }).count()).toBe(0);
      await screenshot(page, narrow ? "sso11-continue-with-phone" : "sso10-continue-with");
      await (narrow ? expectAccessibleOnPhone : expectAccessible)(page, "sign-in: continue with");
      // The password stays offered.
      await page.getByRole("button", { name: "Sign in with a password instead" }).click();
      await page.getByLabel("Password", { exact: true }).waitFor();
      await page.getByRole("button", { name: `Continue with ${institution.name}` }).waitFor();
      await (narrow ? expectAccessibleOnPhone : expectAccessible)(page, "sign-in: password beside continue with");

      // An address on no connected domain: the password, as before.
      await page.getByRole("button", { name: "Forgot password?" }).waitFor();
      const other = await browse();
      await other.setViewportSize(size);
      await other.goto(consoleUrl("/"));
      await other.getByLabel("E-mail address").fill(uniqEmail("bob", `${uniq("elsewhere")}.edu`));
      await other.getByRole("button", { name: "Continue", exact: true }).click();
      await other.getByLabel("Password", { exact: true }).waitFor();
      expect(await other.getByRole("button", { name: /^Continue with/ }).count()).toBe(0);
      await expect
        .poll(() =>
          other.evaluate(() => (globalThis as unknown as { document: { activeElement: { type?: string } } }).document.activeElement?.type),
        )
        .toBe("password");
    }
    // Discovery named the connection's provider: the one "Continue with" would ask the managed login for.
    const found = await call("POST", paths.ssoDiscover, { body: { email: `ada@${domain}` } });
    expect(found.body).toEqual({ sso: { provider_name: sso.provider_name, institution: { name: institution.name } } });
  });

  it("Continue with sends the managed login's authorization request (code, PKCE S256, state); the callback says errors plainly and retries a linked first sign-in once", async () => {
    const { owner } = await newAccount("ssoauthz");
    const institution = await seedInstitution(owner.token);
    const domain = await verifiedDomain(owner.token, institution.id);
    const sso = await connectedSaml(owner.token, institution.id);
    const config = (await (await fetch(consoleUrl("/config.json"))).json()) as { cognitoDomain: string; userPoolClientId: string };
    const page = await browse();
    // The managed login's authorize endpoint is stood in here (the test reads the request the console sends, and
    // answers as the managed login does once the IdP refused): the full walk through the local managed login
    // and IdP is the last test of this file.
    const authorizations: URL[] = [];
    await page.route(`${config.cognitoDomain}/oauth2/authorize?**`, async (route) => {
      const url = new URL(route.request().url());
      authorizations.push(url);
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      const answer =
        authorizations.length === 1 ? "Already found an entry for username x_y " : "Access was denied by the identity provider";
      back.search = new URLSearchParams({
        error: "invalid_request",
        error_description: answer,
        state: url.searchParams.get("state") ?? "",
      }).toString();
      await route.fulfill({ status: 302, headers: { location: back.href } });
    });
    await page.goto(consoleUrl("/institutions"));
    await page.getByLabel("E-mail address").fill(`grace@${domain}`);
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: `Continue with ${institution.name}` }).click();

    // The first answer is Cognito's for a linked identity's first sign-in: the console asks again at once, with a
    // fresh state and verifier; the second answer is an error, said plainly.
    await heading(page, "Sign-in did not complete");
    await page.getByTestId("sso-error").getByText("Access was denied by the identity provider", { exact: true }).waitFor();
    expect(authorizations).toHaveLength(2);
    const [first, second] = authorizations as [URL, URL];
    for (const url of authorizations) {
      expect(Object.fromEntries([...url.searchParams].filter(([k]) => !["state", "code_challenge"].includes(k)))).toEqual({
        response_type: "code",
        client_id: config.userPoolClientId,
        redirect_uri: consoleUrl("/sso/callback"),
        identity_provider: sso.provider_name,
        scope: "openid email profile",
        code_challenge_method: "S256",
      });
      expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    }
    expect(second.searchParams.get("state")).not.toBe(first.searchParams.get("state"));
    expect(second.searchParams.get("code_challenge")).not.toBe(first.searchParams.get("code_challenge"));
    // The callback's address keeps no code nor error; the flow's verifier is gone (one use).
    expect(new URL(page.url()).search).toBe("");
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: Storage }).sessionStorage.getItem("institution-admin.sso-flow"),
      ),
    ).toBeNull();
    await photographAndCheck(page, "sso12-callback-error", "callback: error said plainly");

    // The verifier the console keeps matches the challenge it sent (S256): start once more and read both.
    await page.unroute(`${config.cognitoDomain}/oauth2/authorize?**`);
    await page.route(`${config.cognitoDomain}/oauth2/authorize?**`, (route) => {
      authorizations.push(new URL(route.request().url()));
      return route.fulfill({ status: 200, contentType: "text/html", body: "<title>managed login</title>" });
    });
    await page.getByRole("button", { name: "Back to sign in" }).click();
    await heading(page, "Sign in");
    await page.getByLabel("E-mail address").fill(`grace@${domain}`);
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: `Continue with ${institution.name}` }).click();
    await expect.poll(() => authorizations.length).toBe(3);
    await page.waitForURL((u) => u.href.startsWith(config.cognitoDomain));
    // Back on the console's origin (sessionStorage is the tab's, per origin), the flow waits for its callback.
    await page.goto(consoleUrl("/"));
    await heading(page, "Sign in");
    const flow = JSON.parse(
      (await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: Storage }).sessionStorage.getItem("institution-admin.sso-flow"),
      )) ?? "{}",
    ) as { verifier: string; state: string; returnTo: string };
    const third = authorizations[2] as URL;
    expect(createHash("sha256").update(flow.verifier).digest("base64url")).toBe(third.searchParams.get("code_challenge"));
    expect(flow.state).toBe(third.searchParams.get("state"));
    // Where the person started this time: the sign-in page's own address.
    expect(flow.returnTo).toBe("/");

    // A callback whose state is not the flow's is refused, whatever it carries.
    await page.goto(consoleUrl(`/sso/callback?code=stolen&state=${"x".repeat(43)}`));
    await heading(page, "Sign-in did not complete");
    await page.getByTestId("sso-error").waitFor();
    expect(await page.getByTestId("sso-error").innerText()).not.toBe("");
  });

  it("a person with a password on a connected domain still signs in with it", async () => {
    const { owner } = await newAccount("ssopw");
    const institution = await seedInstitution(owner.token);
    const domain = await verifiedDomain(owner.token, institution.id);
    await connectedSaml(owner.token, institution.id);
    const person = await newPerson("pat", domain, { superAdmin: true });
    const page = await browse();
    await page.goto(consoleUrl("/"));
    // The e-mail, Continue, "Sign in with a password instead", the password.
    await submitSignIn(page, person.email, person.password);
    await heading(page, "Institutions");
    expect((await signInTokens(person.email, person.password)).idToken).toBeTruthy();
  });
});

describe("the full walk through the local managed login and a SAML IdP", () => {
  let saml: SamlIdp;
  beforeAll(async () => {
    saml = await startSamlIdp({ name: "Campus IdP" });
  });
  afterAll(async () => {
    await saml?.close();
  });

  /** At the IdP's page (the managed login sent the browser there): signs in as `id`. */
  async function atIdp(page: Page, id: string): Promise<void> {
    await page.getByRole("heading", { name: "Campus IdP" }).waitFor();
    expect(new URL(page.url()).origin).toBe(saml.url);
    await page.getByLabel("Account").fill(id);
    await page.getByRole("button", { name: "Sign in" }).click();
  }

  /** Types the e-mail on the console's sign-in page and continues with the institution. */
  async function continueWith(page: Page, email: string, institution: string): Promise<void> {
    await heading(page, "Sign in");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: `Continue with ${institution}` }).click();
  }

  /** The sign-in's tokens as the console keeps them, and Amplify's refresh token beside them. */
  const stored = (page: Page) =>
    page.evaluate(() => {
      const ss = (globalThis as unknown as { sessionStorage: Storage }).sessionStorage;
      const keys = Array.from({ length: ss.length }, (_, i) => ss.key(i) ?? "");
      const session = JSON.parse(ss.getItem("institution-admin.session") ?? "{}") as { idToken?: string; via?: string };
      const refresh = keys.find((k) => k.startsWith("CognitoIdentityServiceProvider.") && k.endsWith(".refreshToken"));
      return { session, refreshToken: refresh ? ss.getItem(refresh) : null };
    });
  const subOf = (jwt: string | undefined) => JSON.parse(Buffer.from((jwt ?? "").split(".")[1] ?? "", "base64url").toString()).sub as string;

  it("the super admin verifies a domain and connects the IdP; a person continues with the institution, signs in at the IdP, lands signed in, signs out and in again", async () => {
    const { owner } = await newAccount("ssowalk");
    const institution = await seedInstitution(owner.token);
    const admin = await browse(owner);
    await admin.setViewportSize(WIDE);
    const section = await openSso(admin, institution.id);

    // The domain, in the console: added, its record published on the run's DNS server, verified.
    const domain = freshDomain();
    await section.getByRole("button", { name: "Add domain" }).click();
    await admin.getByRole("dialog", { name: "Add domain" }).getByLabel("Domain").fill(domain);
    await admin.getByRole("dialog", { name: "Add domain" }).getByRole("button", { name: "Add domain" }).click();
    const row = admin.getByTestId("sso-domains").locator("tbody tr", { hasText: domain });
    const record = await row.getByText(/^[A-Za-z0-9_-]{20,}$/).innerText();
    await publishTxt(challengeOf(domain), [record]);
    await row.getByRole("button", { name: `Verify ${domain}` }).click();
    await row.getByText("Verified").waitFor();

    // The IdP, in the console: its metadata URL; then access on first sign-in, as Cohort admin.
    await section.getByRole("button", { name: "Connect identity provider" }).click();
    const dialog = admin.getByRole("dialog", { name: "Connect identity provider" });
    await dialog.getByLabel("Metadata URL").fill(saml.metadataUrl);
    await dialog.getByRole("button", { name: "Connect" }).click();
    await section.getByTestId("sso-values").getByText(`urn:amazon:cognito:sp:${stack.userPoolId}`).waitFor();
    await section.getByTestId("sso-settings").getByLabel("Give access on first sign-in").check();
    await section.getByTestId("sso-settings").getByRole("button", { name: "Save settings" }).click();
    await admin.getByText("Single sign-on settings saved").waitFor();

    // A person of the institution, known to its IdP only.
    const email = `ada.${uniq("p")}@${domain}`;
    saml.account({ id: "ada", email, name: "Ada Lovelace", groups: ["Staff"] });
    const page = await browse();
    await page.setViewportSize(WIDE);
    await page.goto(consoleUrl("/institutions"));
    await continueWith(page, email, institution.name);
    await atIdp(page, "ada");
    // Back through the managed login and the console's callback: signed in, on the page the person started from,
    // the API taking the token (the list answered).
    await heading(page, "Institutions");
    expect(page.url()).toBe(consoleUrl("/institutions"));
    await page
      .getByText(/No institutions|Acme College/)
      .first()
      .waitFor();
    const first = await stored(page);
    expect(first.session.via).toBe("sso");
    expect(first.refreshToken).toBeTruthy();
    await photographAndCheck(page, "sso13-landed", "signed in through the institution");

    // Amplify holds the refresh token the managed login issued: the pool refreshes the session with it.
    const refreshed = await fetch(stack.cognitoEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth" },
      body: JSON.stringify({
        ClientId: stack.userPoolClientId,
        AuthFlow: "REFRESH_TOKEN_AUTH",
        AuthParameters: { REFRESH_TOKEN: first.refreshToken },
      }),
    });
    expect(refreshed.status).toBe(200);

    // Sign out: the console's session ends and so does the managed login's (its /logout, back to the console).
    await page.getByRole("button", { name: /Ada Lovelace|ada\./ }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await heading(page, "Sign in");
    await expect.poll(() => page.url()).toBe(consoleUrl("/"));
    const cookies = await page.context().cookies(stack.cognitoDomain);
    expect(cookies.filter((c) => c.name === "cognito")).toEqual([]);

    // And in again: the IdP asks again (the managed login's session is gone); the same person, the same sub.
    await continueWith(page, email, institution.name);
    await atIdp(page, "ada");
    await heading(page, "Institutions");
    expect(subOf((await stored(page)).session.idToken)).toBe(subOf(first.session.idToken));
  });
});
