/**
 * Signing in with an institution, end to end over HTTP as a browser does it (docs/sso.md#locally): home-realm
 * discovery, the pool's managed login on the local Cognito (`/oauth2/authorize`, the IdP, `/saml2/idpresponse` or
 * `/oauth2/idpresponse`, the code, `/oauth2/token` with PKCE), against real IdPs on loopback (samlify's SAML IdP,
 * oidc-provider), with the pool's triggers (functions/sso/) invoked by the local Cognito as Cognito invokes them.
 * Then the API takes the ID token. JIT with a mapped role and the default role, linking (the one failed first
 * sign-in, then the same `sub`), trust (another institution's domain refused, recorded, nothing granted),
 * require-SSO refusing the password, the seat limit, the owner's trail, PKCE and redirect URI refusals, refresh
 * and sign-out. The handler-level cases stay in sso-sign-in.test.ts.
 */
import { AdminGetUserCommand, InitiateAuthCommand } from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { MAX_MEMBERS } from "../../shared/institutions/model.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { paths } from "../../shared/routes.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { Browser, type Page, pkce } from "../support/browser-flow.js";
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
async function connected(kind: Kind, sso: Record<string, unknown> = {}) {
  const inst = await createInstitution(owner, { name: uniq("Login College") });
  const domain = `${uniq("login")}.test`;
  const added = await call("POST", `${INST}/${inst.id}/domains`, { token: owner, body: { domain } });
  await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
  const verified = await call("POST", `${INST}/${inst.id}/domains/${added.body.domain.id}/verify`, { token: owner });
  expect(verified.body.domain.state).toBe("verified");
  const source =
    kind === "saml"
      ? { type: "saml", metadata_url: saml.metadataUrl }
      : { type: "oidc", issuer: oidcIdp.issuer, client_id: oidcIdp.clientId, client_secret: oidcIdp.clientSecret };
  const res = await call("POST", `${INST}/${inst.id}/sso`, { token: owner, body: { ...source, ...sso } });
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

async function exchange(code: string, verifier: string, redirectUri = CALLBACK) {
  const res = await fetch(`${stack.cognitoDomain}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", client_id: stack.userPoolClientId, code, redirect_uri: redirectUri, code_verifier: verifier }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** Signs in and redeems the code: the tokens. */
async function tokensFor(provider: string, login: string) {
  const landed = await signIn(provider, login);
  const code = landed.back.searchParams.get("code");
  expect(code, landed.back.href).toBeTruthy();
  const out = await exchange(String(code), landed.verifier);
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return { ...out.body, browser: landed.browser };
}

async function ownerTrail(type: string) {
  const res = await call("GET", paths.securityEvents, { token: owner, query: { event_type: type, limit: 200 } });
  expect(res.status, res.text).toBe(200);
  return res.body.events as { user_id: string | null; user_email: string | null; details: Record<string, unknown> }[];
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
  it.each(["saml", "oidc"] as const)("%s: discover, the IdP, the code and PKCE; the ID token's claims; JIT with a mapped role; the API takes the token", async (kind) => {
    const { inst, domain, provider, connection } = await connected(kind, {
      role_mappings: JSON.parse('{"IT":"cohort_super_admin","Staff":"cohort_admin"}'),
      jit: { enabled: true, default_role: "cohort_admin" },
    });
    const email = `ada.${uniq("p")}@${domain}`;
    const person = account({ id: uniq("ada"), email, name: "Ada Federated", groups: ["Staff", "IT"] });

    const found = await call("POST", paths.ssoDiscover, { body: { email } });
    expect(found.body.sso).toEqual({ provider_name: provider, institution: { name: inst.name } });

    const tokens = await tokensFor(found.body.sso.provider_name, person.id);
    const claims = claimsOf(tokens.id_token ?? "");
    expect(claims).toMatchObject({
      "cognito:username": `${provider}_${person.id}`,
      email,
      email_verified: "true",
      "custom:account_id": String(inst.account_id),
      aud: stack.userPoolClientId,
      iss: `${stack.cognitoEndpoint}/${stack.userPoolId}`,
      token_use: "id",
    });
    expect(JSON.parse(String(claims.identities))).toEqual([expect.objectContaining({ providerName: provider, userId: person.id })]);
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
      { institution_id: inst.id, user_id: sub, email, role: "cohort_super_admin", source: "sso", sso_connection: connection },
    ]);
    const signIns = (await ownerTrail("sso_sign_in")).filter((e) => e.details.institution_id === inst.id);
    expect(signIns.map((e) => [e.user_id, e.details])).toEqual([[sub, { provider_name: provider, institution_id: inst.id, jit: "provisioned" }]]);
  });
});
