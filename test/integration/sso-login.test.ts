/**
 * Signing in with an institution, end to end over HTTP as a browser does it (docs/sso.md#the-managed-login-locally): home-realm
 * discovery, the pool's managed login on the local Cognito (`/oauth2/authorize`, the IdP, `/saml2/idpresponse` or
 * `/oauth2/idpresponse`, the code, `/oauth2/token` with PKCE), against real IdPs on loopback (samlify's SAML IdP,
 * oidc-provider), with the pool's triggers (functions/sso/) invoked by the local Cognito as Cognito invokes them.
 * Then the API takes the ID token. JIT with a mapped role and the default role, linking (the one failed first
 * sign-in, then the same `sub`), trust (another institution's domain refused, recorded, nothing granted),
 * require-SSO refusing the password, no password form at the managed login, the seat limit, the owner's trail, PKCE and redirect URI refusals, refresh
 * and sign-out. The handler-level cases stay in sso-sign-in.test.ts.
 */
import { AdminGetUserCommand } from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient, issueIdToken } from "../../infra/local/cognito.js";
import { MAX_MEMBERS } from "../../shared/institutions/model.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { paths } from "../../shared/routes.js";
import { describeClient } from "../../shared/sso/app-client.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { Browser, formOf, type Page, pkce } from "../support/browser-flow.js";
import { createInstitution } from "../support/flows.js";
import type { IdpAccount } from "../support/idp-accounts.js";
import { type OidcIdp, startOidcIdp } from "../support/oidc-idp.js";
import { type SamlIdp, startSamlIdp } from "../support/saml-idp.js";
import { challengeOf, publishTxt } from "../support/sso.js";
import { claimsOf, grantAccess, userIdOf } from "./helpers.js";

const INST = paths.institutions;
const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
/** The console's callback, one of the local app client's CallbackURLs (infra/local/cognito.ts). */
const CALLBACK = `${stack.apiUrl}/sso/callback`;
let owner: string;
let saml: SamlIdp;
let oidcIdp: OidcIdp;

beforeAll(async () => {
  [owner, saml, oidcIdp] = await Promise.all([
    token(uniqEmail("ssl-owner"), { superAdmin: true, account: uniq("acct") }),
    startSamlIdp(),
    startOidcIdp({ redirectUris: [`${stack.cognitoDomain}/oauth2/idpresponse`] }),
  ]);
});
afterAll(async () => {
  await Promise.all([saml?.close(), oidcIdp?.close()]);
  cognito.destroy();
});

type Kind = "saml" | "oidc";

/** An institution with a verified domain and a connection to the SAML or the OIDC IdP. */
async function connected(kind: Kind, sso: Record<string, unknown> = {}, opts: { domain?: string; by?: string } = {}) {
  const by = opts.by ?? owner;
  const inst = await createInstitution(by, { name: uniq("Login College") });
  const domain = opts.domain ?? `${uniq("login")}.test`;
  const added = await call("POST", `${INST}/${inst.id}/domains`, { token: by, body: { domain } });
  await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
  const verified = await call("POST", `${INST}/${inst.id}/domains/${added.body.domain.id}/verify`, { token: by });
  expect(verified.body.domain.state).toBe("verified");
  const source =
    kind === "saml"
      ? { type: "saml", metadata_url: saml.metadataUrl }
      : { type: "oidc", issuer: oidcIdp.issuer, client_id: oidcIdp.clientId, client_secret: oidcIdp.clientSecret };
  const res = await call("POST", `${INST}/${inst.id}/sso`, { token: by, body: { ...source, ...sso } });
  expect(res.status, res.text).toBe(201);
  return { inst, domain, provider: res.body.sso.provider_name as string, connection: res.body.sso.id as string };
}

/** An account on the IdP of `kind` (both IdPs get it: tests choose the protocol). */
function account(a: IdpAccount): IdpAccount {
  saml.account(a);
  oidcIdp.account(a);
  return a;
}

function authorizeUrl(params: Record<string, string | undefined>): string {
  const url = new URL(`${stack.cognitoDomain}/oauth2/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

interface Landed {
  /** The app's redirect URI as the managed login sent the browser back. */
  readonly back: URL;
  readonly verifier: string;
  readonly browser: Browser;
}

/** A person signing in as `login` at the IdP behind `provider`, from the authorize request to the app's callback. */
async function signIn(provider: string, login: string, browser = new Browser(CALLBACK)): Promise<Landed> {
  const { verifier, challenge } = pkce();
  const state = uniq("state");
  let page: Page = await browser.go(
    authorizeUrl({
      response_type: "code",
      client_id: stack.userPoolClientId,
      redirect_uri: CALLBACK,
      identity_provider: provider,
      scope: "openid email profile",
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }),
  );
  expect(page.status, page.body.slice(0, 500)).toBe(200); // the IdP's sign-in form
  page = await browser.submit(page, { login });
  // A SAML IdP answers with a page that posts the response to the ACS URL, as a browser's script would.
  for (let n = 0; page.status !== 302 && n < 3; n++) page = await browser.submit(page);
  const back = new URL(page.url);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(back.searchParams.get("state")).toBe(state);
  return { back, verifier, browser };
}

interface Tokens {
  readonly id_token: string;
  readonly access_token: string;
  readonly refresh_token: string;
  readonly error?: string;
  readonly error_description?: string;
}

async function exchange(code: string, verifier: string, redirectUri = CALLBACK): Promise<{ status: number; body: Tokens }> {
  const res = await fetch(`${stack.cognitoDomain}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: stack.userPoolClientId,
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  return { status: res.status, body: (await res.json()) as Tokens };
}

/** Signs in and redeems the code: the tokens. */
async function tokensFor(provider: string, login: string): Promise<Tokens & { browser: Browser }> {
  const landed = await signIn(provider, login);
  const code = landed.back.searchParams.get("code");
  expect(code, landed.back.href).toBeTruthy();
  const out = await exchange(String(code), landed.verifier);
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return { ...out.body, browser: landed.browser };
}

async function ownerTrail(type: string, by = owner) {
  const res = await call("GET", paths.securityEvents, { token: by, query: { event_type: type, limit: 200 } });
  expect(res.status, res.text).toBe(200);
  return res.body.events as { user_email: string | null; details: Record<string, unknown> }[];
}

async function administrators(institutionId: string) {
  const res = await call("GET", `${INST}/${institutionId}/administrators`, { token: owner, query: { limit: 100 } });
  expect(res.status, res.text).toBe(200);
  return (res.body.administrators ?? res.body.data) as { user_id: string; role: string }[];
}

async function poolUser(username: string) {
  try {
    const out = await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: username }));
    return { status: out.UserStatus, attrs: Object.fromEntries((out.UserAttributes ?? []).map((a) => [a.Name, a.Value])) };
  } catch (err) {
    if ((err as Error).name === "UserNotFoundException") return undefined;
    throw err;
  }
}

describe("signing in with an institution through the managed login", () => {
  it.each(["saml", "oidc"] as const)(
    "%s: discover, the IdP, the code and PKCE; the ID token's claims; JIT with a mapped role; the API takes the token",
    async (kind) => {
      const { inst, domain, provider, connection } = await connected(kind, {
        role_mappings: JSON.parse('{"IT":"cohort_super_admin","Staff":"cohort_admin"}'),
        jit: { enabled: true, default_role: "cohort_admin" },
      });
      const email = `ada.${uniq("p")}@${domain}`;
      const person = account({ id: uniq("ada"), email, name: "Ada Federated", groups: ["Staff", "IT"] });

      const found = await call("POST", paths.ssoDiscover, { body: { email } });
      expect(found.body.sso).toEqual({ provider_name: provider, institution: { name: inst.name } });

      const tokens = await tokensFor(found.body.sso.provider_name, person.id);
      const claims = claimsOf(tokens.id_token);
      expect(claims).toMatchObject({
        "cognito:username": `${provider}_${person.id}`,
        email,
        email_verified: "true",
        name: "Ada Federated",
        "custom:account_id": String(inst.account_id),
        aud: stack.userPoolClientId,
        iss: `${stack.cognitoEndpoint}/${stack.userPoolId}`,
        token_use: "id",
      });
      // The pool's user, as Cognito makes a federated one.
      const user = await poolUser(`${provider}_${person.id}`);
      expect(user?.status).toBe("EXTERNAL_PROVIDER");
      expect(JSON.parse(String(user?.attrs.identities))).toEqual([expect.objectContaining({ providerName: provider, userId: person.id })]);
      // SAML's multi-valued attribute as Cognito keeps it; OIDC's array claim as JSON.
      expect(String(claims["custom:sso_groups"])).toBe(kind === "saml" ? "[Staff, IT]" : '["Staff","IT"]');
      expect(tokens.refresh_token).toBeTruthy();

      // The API takes it: the institution, as its new super admin.
      const sub = String(claims.sub);
      const seen = await call("GET", `${INST}/${inst.id}`, { token: tokens.id_token });
      expect(seen.status, seen.text).toBe(200);
      expect((await administrators(inst.id)).find((a) => a.user_id === sub)?.role).toBe("cohort_super_admin");
      const provisioned = (await ownerTrail("administrator_provisioned")).filter((e) => e.details.institution_id === inst.id);
      expect(provisioned.map((e) => e.details)).toEqual([
        expect.objectContaining({
          institution_id: inst.id,
          user_id: sub,
          email,
          role: "cohort_super_admin",
          source: "sso",
          sso_connection: connection,
        }),
      ]);
      const signIns = (await ownerTrail("sso_sign_in")).filter((e) => e.details.institution_id === inst.id);
      expect(signIns.map((e) => [e.user_email, e.details])).toEqual([
        [email, expect.objectContaining({ provider_name: provider, institution_id: inst.id, jit: "provisioned" })],
      ]);
    },
  );

  it("JIT with the default role; the IdP's attributes are written again at every sign-in, and a second sign-in grants nothing more", async () => {
    const { inst, domain, provider } = await connected("oidc", {
      role_mappings: JSON.parse('{"IT":"cohort_super_admin"}'),
      jit: { enabled: true, default_role: "cohort_admin" },
    });
    const person = account({ id: uniq("bo"), email: `bo.${uniq("p")}@${domain}`, name: "Bo", groups: ["Visitors"] });
    const first = claimsOf((await tokensFor(provider, person.id)).id_token);
    expect((await administrators(inst.id)).find((a) => a.user_id === first.sub)?.role).toBe("cohort_admin");
    // The IdP now says IT: the pool's attribute follows, the seat held stays as it is.
    account({ ...person, groups: ["IT"] });
    const second = claimsOf((await tokensFor(provider, person.id)).id_token);
    expect(second.sub).toBe(first.sub);
    expect(second["custom:sso_groups"]).toBe('["IT"]');
    expect((await poolUser(`${provider}_${person.id}`))?.attrs["custom:sso_groups"]).toBe('["IT"]');
    expect((await administrators(inst.id)).find((a) => a.user_id === first.sub)?.role).toBe("cohort_admin");
    const signIns = (await ownerTrail("sso_sign_in")).filter((e) => e.details.institution_id === inst.id);
    expect(signIns.map((e) => e.details.jit ?? null).sort()).toEqual([null, "provisioned"]);
  });

  it("linking: an administrator the pool has already signs in through the IdP once in vain (Cognito's own error), then as themselves: the same sub, their seat", async () => {
    const { inst, domain, provider } = await connected("saml", { jit: { enabled: true, default_role: "cohort_super_admin" } });
    const email = `linked.${uniq("p")}@${domain}`;
    const native = await token(email, { account: String(inst.account_id) });
    const sub = await userIdOf(native);
    await grantAccess(inst.id, sub, "cohort_admin", { email });
    const person = account({ id: uniq("linked"), email, groups: [] });

    // PreSignUp linked the identity: Cognito fails this one sign-in.
    const first = await signIn(provider, person.id);
    expect(first.back.searchParams.get("code")).toBeNull();
    expect(first.back.searchParams.get("error")).toBe("invalid_request");
    expect(first.back.searchParams.get("error_description")).toBe(`Already found an entry for username ${provider}_${person.id}`);
    expect(await poolUser(`${provider}_${person.id}`)).toBeUndefined();

    // The retry signs in as the linked user.
    const tokens = await tokensFor(provider, person.id);
    const claims = claimsOf(tokens.id_token);
    expect(claims.sub).toBe(sub);
    expect(claims["cognito:username"]).toBe(claimsOf(native)["cognito:username"]);
    const linked = await poolUser(String(claims["cognito:username"]));
    expect(JSON.parse(String(linked?.attrs.identities))).toEqual([expect.objectContaining({ providerName: provider, userId: person.id })]);
    expect((await call("GET", `${INST}/${inst.id}`, { token: tokens.id_token })).status).toBe(200);
    // JIT never touches a seat held.
    expect((await administrators(inst.id)).find((a) => a.user_id === sub)?.role).toBe("cohort_admin");
    expect(await poolUser(`${provider}_${person.id}`)).toBeUndefined();
  });

  it.each(["saml", "oidc"] as const)(
    "%s: an IdP asserting another institution's e-mail is refused at the redirect URI, recorded, and grants nothing",
    async (kind) => {
      const a = await connected(kind, { jit: { enabled: true, default_role: "cohort_super_admin" } });
      const b = await connected("saml", { jit: { enabled: true, default_role: "cohort_super_admin" } });
      const before = await administrators(b.inst.id);
      const mallory = account({ id: uniq("mallory"), email: `victim@${b.domain}`, groups: ["IT"] });
      const out = await signIn(a.provider, mallory.id);
      expect(out.back.searchParams.get("code")).toBeNull();
      expect(out.back.searchParams.get("error")).toBe("invalid_request");
      expect(out.back.searchParams.get("error_description")).toBe(
        "PreSignUp failed with error Your identity provider cannot sign you in with this e-mail address: it is not on your institution's verified domains.",
      );
      expect(await poolUser(`${a.provider}_${mallory.id}`)).toBeUndefined();

      // Someone a's IdP signed in before, whose e-mail it now says is at b: refused before any token.
      const known = account({ id: uniq("known"), email: `known.${uniq("p")}@${a.domain}` });
      const knownSub = claimsOf((await tokensFor(a.provider, known.id)).id_token).sub;
      account({ ...known, email: `victim2@${b.domain}` });
      const later = await signIn(a.provider, known.id);
      expect(later.back.searchParams.get("code")).toBeNull();
      expect(later.back.searchParams.get("error_description")).toMatch(
        /^PreTokenGeneration failed with error Your identity provider cannot sign you in/,
      );

      const refused = (await ownerTrail("sso_sign_in_refused")).filter((e) => e.details.provider_name === a.provider);
      expect(refused.map((e) => [e.user_email, e.details])).toEqual([
        [null, expect.objectContaining({ provider_name: a.provider, reason: "email_outside_domains" })],
        [null, expect.objectContaining({ provider_name: a.provider, reason: "email_outside_domains" })],
      ]);
      expect(await administrators(b.inst.id)).toEqual(before);
      expect((await administrators(a.inst.id)).map((x) => x.user_id).sort()).toEqual([await userIdOf(owner), knownSub].sort());
    },
  );

  it("require SSO: a password sign-in (InitiateAuth) on the institution's domain is refused naming it; its super admin keeps the password", async () => {
    const domain = `${uniq("login")}.test`;
    const bossEmail = `boss.${uniq("p")}@${domain}`;
    const boss = await token(bossEmail, { superAdmin: true, account: uniq("acct") });
    const { inst } = await connected("oidc", { require_sso: true }, { domain, by: boss });
    const email = `pw.${uniq("p")}@${domain}`;
    await expect(issueIdToken(stack, email, { password: "Correct-Horse-9-battery" })).rejects.toThrow(
      `PreAuthentication failed with error ${inst.name} requires single sign-on: sign in with "Continue with ${inst.name}".`,
    );
    // The institution's super admin (its owner) keeps the password, as a way back in.
    const again = await issueIdToken(stack, bossEmail, { superAdmin: true, password: "Correct-Horse-9-battery" });
    expect(claimsOf(again).email).toBe(bossEmail);
    // Another domain: no SSO required.
    await expect(issueIdToken(stack, uniqEmail("free"), {})).resolves.toBeTruthy();
    // The IdP still signs the person in: as the pool's user the refused attempt left (linked: one failed sign-in first).
    const person = account({ id: uniq("pw"), email });
    const provider = (await call("POST", paths.ssoDiscover, { body: { email } })).body.sso.provider_name as string;
    expect((await signIn(provider, person.id)).back.searchParams.get("error_description")).toMatch(/^Already found an entry for username/);
    expect((await signIn(provider, person.id)).back.searchParams.get("code")).toBeTruthy();
    // Now linked, the person's later sign-ins pass pre authentication whichever way they come (Cognito's event does
    // not tell them apart): the IdP's keep working, and the password is refused at token generation.
    expect((await signIn(provider, person.id)).back.searchParams.get("code")).toBeTruthy();
    await expect(issueIdToken(stack, email, { password: "Correct-Horse-9-battery" })).rejects.toThrow(
      // (Cognito names the trigger, "PreTokenGeneration failed with error …"; cognito-local names its function.)
      `failed with error ${inst.name} requires single sign-on: sign in with "Continue with ${inst.name}".`,
    );
    expect((await signIn(provider, person.id)).back.searchParams.get("code")).toBeTruthy();
  });

  it("the managed login has no password form: the client lists the institutions' providers alone; a linked person's password is refused through the API, the super admin's taken", async () => {
    const domain = `${uniq("login")}.test`;
    const bossEmail = `boss.${uniq("p")}@${domain}`;
    const password = "Correct-Horse-9-battery";
    const bossAccount = uniq("acct");
    const boss = await issueIdToken(stack, bossEmail, { superAdmin: true, account: bossAccount, password });
    const { inst, provider } = await connected("saml", { require_sso: true }, { domain, by: boss });
    const listed = (await describeClient(cognito, stack.userPoolId, stack.userPoolClientId)).SupportedIdentityProviders ?? [];
    expect(listed).toContain(provider);
    expect(listed).not.toContain("COGNITO");

    // A linked person: a password (refused at once), then the IdP's identity linked to that user.
    const email = `linked.${uniq("p")}@${domain}`;
    await expect(issueIdToken(stack, email, { password })).rejects.toThrow(/requires single sign-on/);
    const person = account({ id: uniq("lp"), email });
    expect((await signIn(provider, person.id)).back.searchParams.get("error_description")).toMatch(/^Already found an entry for username/);
    const federated = await tokensFor(provider, person.id);
    expect(claimsOf(federated.id_token).email).toBe(email);

    // The managed login without an identity provider: the client's providers to choose from, no password to type.
    const browser = new Browser(CALLBACK);
    const params = { response_type: "code", client_id: stack.userPoolClientId, redirect_uri: CALLBACK, state: "s3", scope: "openid" };
    const challenge = s256();
    const login = await browser.go(authorizeUrl({ ...params, ...challenge }));
    expect([login.status, login.url.startsWith(stack.cognitoDomain)]).toEqual([200, true]);
    expect(login.body).toContain(`Continue with ${provider}`);
    expect(login.body).not.toMatch(/type="password"|name="password"/);
    // The pool's own sign-in asked for by name: not an option of this client.
    const byName = await browser.go(authorizeUrl({ ...params, ...challenge, identity_provider: "COGNITO" }));
    expect(byName.body).toContain("Login option is not available. Please try another one.");
    expect(byName.body).not.toMatch(/type="password"|name="password"/);
    // The password form's answer posted anyway: no code, the browser stays at the managed login.
    const posted = await browser.go(`${stack.cognitoDomain}/oauth2/authorize`, { ...params, ...challenge, username: email, password });
    expect([posted.status, posted.url.startsWith(stack.cognitoDomain)]).toEqual([400, true]);
    // A provider's link is that provider's sign-in (the pool lists every connected institution's: this one's by name).
    const anchor = login.body.split('<a href="').find((a) => a.includes(`">Continue with ${provider}</a>`));
    const link = anchor?.slice(0, anchor.indexOf('"')).replace(/&#38;/g, "&");
    expect(link).toBeTruthy();
    const viaLink = await browser.go(new URL(String(link), stack.cognitoDomain).href);
    expect(formOf(viaLink)?.action).toBe(`${saml.url}/sso`);

    // Through the API (the console's password sign-in, which the list does not govern): the linked person is still
    // refused by require SSO, at token generation; the institution's super admin signs in.
    await expect(issueIdToken(stack, email, { password })).rejects.toThrow(
      `failed with error ${inst.name} requires single sign-on: sign in with "Continue with ${inst.name}".`,
    );
    expect(claimsOf(await issueIdToken(stack, bossEmail, { superAdmin: true, account: bossAccount, password })).email).toBe(bossEmail);
    // The person's sign-ins were the IdP's alone.
    const signIns = (await ownerTrail("sso_sign_in", boss)).filter((e) => e.details.institution_id === inst.id);
    expect(signIns.map((e) => e.user_email)).toEqual([email]);
  });

  it("the seat limit: at 95 administrators a JIT sign-in gets its tokens without access, and is recorded so", async () => {
    const { inst, domain, provider } = await connected("saml", { jit: { enabled: true, default_role: "cohort_admin" } });
    for (let n = 1; n < MAX_MEMBERS; n++) await grantAccess(inst.id, uniq("seat"), "cohort_admin");
    const late = account({ id: uniq("late"), email: `late.${uniq("p")}@${domain}` });
    const tokens = await tokensFor(provider, late.id);
    const sub = String(claimsOf(tokens.id_token).sub);
    const members = (await getInstitution(inst.id))?.members ?? {};
    expect(Object.keys(members)).toHaveLength(MAX_MEMBERS);
    expect(members[sub]).toBeUndefined();
    expect((await call("GET", `${INST}/${inst.id}`, { token: tokens.id_token })).status).not.toBe(200);
    const signIns = (await ownerTrail("sso_sign_in")).filter((e) => e.details.institution_id === inst.id);
    expect(signIns.map((e) => e.details)).toEqual([
      expect.objectContaining({ provider_name: provider, institution_id: inst.id, jit: "seat_limit" }),
    ]);
  }, 90_000);

  it("refusals: a redirect_uri not the client's, no PKCE challenge or a plain one, a wrong verifier, another redirect_uri at the token endpoint, a code used twice", async () => {
    const { domain, provider } = await connected("oidc");
    const browser = new Browser(CALLBACK);
    const base = { response_type: "code", client_id: stack.userPoolClientId, identity_provider: provider, state: "s1", scope: "openid" };
    // Never sent to a redirect_uri the client does not list: Cognito's error page.
    const foreign = await browser.go(authorizeUrl({ ...base, redirect_uri: "https://evil.example/cb", ...s256() }));
    expect(foreign.status).toBe(400);
    expect(foreign.url.startsWith(stack.cognitoDomain)).toBe(true);
    // PKCE is required, S256 only: the error goes to the app.
    for (const missing of [{}, { code_challenge: pkce().challenge, code_challenge_method: "plain" }]) {
      const page = await browser.go(authorizeUrl({ ...base, redirect_uri: CALLBACK, ...missing }));
      const back = new URL(page.url);
      expect([page.status, back.searchParams.get("error"), back.searchParams.get("state")]).toEqual([302, "invalid_request", "s1"]);
      expect(back.searchParams.get("error_description")).toMatch(/code_challenge/);
    }

    const person = account({ id: uniq("pkce"), email: `pkce.${uniq("p")}@${domain}` });
    const landed = await signIn(provider, person.id);
    const wrong = await exchange(String(landed.back.searchParams.get("code")), pkce().verifier);
    expect([wrong.status, wrong.body.error]).toEqual([400, "invalid_grant"]);
    // A code is spent by any attempt.
    expect((await exchange(String(landed.back.searchParams.get("code")), landed.verifier)).status).toBe(400);

    const other = await signIn(provider, person.id);
    const mismatch = await exchange(String(other.back.searchParams.get("code")), other.verifier, `${stack.apiUrl}/`);
    expect([mismatch.status, mismatch.body.error]).toEqual([400, "invalid_grant"]);

    const good = await signIn(provider, person.id);
    const code = String(good.back.searchParams.get("code"));
    expect((await exchange(code, good.verifier)).status).toBe(200);
    expect((await exchange(code, good.verifier)).status).toBe(400);
  });

  it("SAML: a response signed by a key not in the IdP's metadata, or posted a second time, signs no one in", async () => {
    const { domain, provider } = await connected("saml", { jit: { enabled: true, default_role: "cohort_super_admin" } });
    const email = `forged.${uniq("p")}@${domain}`;
    const rogue = await startSamlIdp({ accounts: [{ id: "forger", email }] });
    try {
      const browser = new Browser(CALLBACK);
      const start = () =>
        browser.go(
          authorizeUrl({
            response_type: "code",
            client_id: stack.userPoolClientId,
            redirect_uri: CALLBACK,
            identity_provider: provider,
            state: "s2",
            ...s256(),
          }),
        );
      // The AuthnRequest meant for the institution's IdP, answered by another one with its own key.
      const request = formOf(await start());
      expect(request?.action).toBe(`${saml.url}/sso`);
      const forged = await browser.submit(await browser.go(`${rogue.url}/sso`, { ...request?.fields, login: "forger" }));
      const back = new URL(forged.url);
      expect(back.searchParams.get("code")).toBeNull();
      expect(back.searchParams.get("error")).toBe("invalid_request");
      expect(back.searchParams.get("error_description")).toMatch(/^Invalid SAML response received/);

      // A good response posted again: this sign-in is over.
      account({ id: "forger", email });
      const answer = await browser.submit(await start(), { login: "forger" });
      const posted = formOf(answer);
      expect(new URL((await browser.submit(answer)).url).searchParams.get("code")).toBeTruthy();
      const again = await browser.go(String(posted?.action), posted?.fields);
      expect(again.status).toBe(400);
      expect(await poolUser(`${provider}_forger`)).toBeDefined();
    } finally {
      await rogue.close();
    }
  });

  it("refresh gives new tokens of the same person; sign-out takes only the client's logout URI and clears the session cookie", async () => {
    const { inst, domain, provider } = await connected("saml", { jit: { enabled: true, default_role: "cohort_admin" } });
    const person = account({ id: uniq("rf"), email: `rf.${uniq("p")}@${domain}` });
    const tokens = await tokensFor(provider, person.id);
    const res = await fetch(`${stack.cognitoDomain}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", client_id: stack.userPoolClientId, refresh_token: tokens.refresh_token }),
    });
    expect(res.status).toBe(200);
    const refreshed = (await res.json()) as Tokens;
    const [before, after] = [claimsOf(tokens.id_token), claimsOf(refreshed.id_token)];
    expect(after.sub).toBe(before.sub);
    expect(after["custom:account_id"]).toBe(String(inst.account_id));
    expect((await call("GET", `${INST}/${inst.id}`, { token: refreshed.id_token })).status).toBe(200);

    const host = new URL(stack.cognitoDomain).hostname;
    const { browser } = tokens;
    expect(browser.cookie(host, "cognito")).toBeTruthy();
    const logout = (uri: string) =>
      `${stack.cognitoDomain}/logout?${new URLSearchParams({ client_id: stack.userPoolClientId, logout_uri: uri })}`;
    expect((await browser.go(logout("https://evil.example/"))).status).toBe(400);
    expect(browser.cookie(host, "cognito")).toBeTruthy();
    const out = await browser.go(logout(`${stack.apiUrl}/`));
    expect(out.url).toBe(`${stack.apiUrl}/`);
    expect(browser.cookie(host, "cognito")).toBeUndefined();
  });
});

/** A PKCE challenge's parameters. */
function s256() {
  return { code_challenge: pkce().challenge, code_challenge_method: "S256" };
}
