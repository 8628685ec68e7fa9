/**
 * The console's single sign-on walk through the pool's SSO triggers (functions/sso/), which the local Cognito's
 * managed login invokes as Cognito would (docs/sso.md, "The managed login, locally"):
 *
 * - JIT: a person known only to the IdP continues with the institution, signs in there, and lands on the
 *   institution's page with the default role.
 * - Linking: an invited administrator's first federated sign-in is linked to their account; Cognito fails that
 *   one sign-in ("Already found an entry for username …"), the console starts it again by itself (the IdP asks
 *   again), and the person lands with the same `sub`.
 */
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { call, stack, uniq } from "../support/api.js";
import { acceptLatest, invite } from "../support/flows.js";
import { type SamlIdp, startSamlIdp } from "../support/saml-idp.js";
import { challengeOf, publishTxt } from "../support/sso.js";
import { consoleUrl, heading, newAccount, newPerson, seedInstitution, useBrowser } from "./support.js";

const { browse } = useBrowser();
let saml: SamlIdp;
beforeAll(async () => {
  saml = await startSamlIdp({ name: "Campus IdP" });
});
afterAll(async () => {
  await saml?.close();
});

/** An institution with a verified domain and a SAML connection to the IdP, JIT on (default role Cohort admin). */
async function connectedInstitution(label: string) {
  const { owner } = await newAccount(label);
  const institution = await seedInstitution(owner.token);
  const domain = `${uniq("campus")}.edu`;
  const added = await call("POST", `${paths.institutions}/${institution.id}/domains`, { token: owner.token, body: { domain } });
  await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
  await call("POST", `${paths.institutions}/${institution.id}/domains/${added.body.domain.id}/verify`, { token: owner.token });
  const res = await call("POST", `${paths.institutions}/${institution.id}/sso`, {
    token: owner.token,
    body: { type: "saml", metadata_url: saml.metadataUrl, jit: { enabled: true, default_role: "cohort_admin" } },
  });
  expect(res.status, res.text).toBe(201);
  return { owner, institution, domain };
}

async function continueAndSignIn(page: Page, email: string, institution: string, account: string): Promise<void> {
  await heading(page, "Sign in");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await page.getByRole("button", { name: `Continue with ${institution}` }).click();
  await atIdp(page, account);
}

async function atIdp(page: Page, account: string): Promise<void> {
  await page.getByRole("heading", { name: "Campus IdP" }).waitFor();
  await page.getByLabel("Account").fill(account);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const idTokenSub = async (page: Page): Promise<string> => {
  const raw = await page.evaluate(() =>
    (globalThis as unknown as { sessionStorage: Storage }).sessionStorage.getItem("institution-admin.session"),
  );
  const jwt = (JSON.parse(raw ?? "{}") as { idToken?: string }).idToken ?? "";
  return (JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as { sub: string }).sub;
};

describe("the full walk, with the pool's SSO triggers", () => {
  it("a person known only to the IdP lands on the institution with the default role (JIT)", async () => {
    const { institution, domain } = await connectedInstitution("walkjit");
    const email = `ada.${uniq("p")}@${domain}`;
    saml.account({ id: "ada", email, name: "Ada Lovelace" });
    const page = await browse();
    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    await continueAndSignIn(page, email, institution.name, "ada");
    await heading(page, institution.name);
    expect(page.url()).toBe(consoleUrl(`/institutions/${institution.id}`));
    await page.getByText("Your role: Cohort admin").waitFor();
  });

  it("an invited administrator's first sign-in is linked: the console retries once, the same sub", async () => {
    const { owner, institution, domain } = await connectedInstitution("walklink");
    const person = await newPerson("lin", domain, { superAdmin: true });
    await invite(owner.token, institution.id, person.email, "cohort_admin");
    await acceptLatest(person.token, person.email);
    saml.account({ id: "lin", email: person.email, name: "Lin Linked" });
    const page = await browse();
    const authorizations: string[] = [];
    page.on("request", (r: Request) => {
      if (r.url().startsWith(`${stack.cognitoDomain}/oauth2/authorize`)) authorizations.push(r.url());
    });
    await page.goto(consoleUrl(`/institutions/${institution.id}`));
    await continueAndSignIn(page, person.email, institution.name, "lin");
    // The console started the sign-in again by itself: the IdP asks again.
    await atIdp(page, "lin");
    await heading(page, institution.name);
    expect(authorizations).toHaveLength(2);
    expect(await idTokenSub(page)).toBe(JSON.parse(Buffer.from(person.token.split(".")[1] ?? "", "base64url").toString()).sub);
  });
});
