/**
 * The user pool's managed login for the local Cognito (docs/sso.md#the-managed-login-locally): the endpoints of the pool's domain that
 * federate a sign-in to an institution's IdP, played as Cognito documents them, on cognito-local's own server, users
 * and token generator. Loaded by infra/local/cognito-local.mjs. The protocols are kept libraries': node-saml for the
 * SAML service provider, openid-client for the OIDC relying party.
 *
 * - `GET /oauth2/authorize` with `identity_provider`: the app client, a `redirect_uri` among its CallbackURLs, the
 *   code flow with PKCE (S256, required here); then the person goes to the IdP: a SAML AuthnRequest (HTTP-Redirect,
 *   SP entity ID `urn:amazon:cognito:sp:<pool id>`, ACS `<domain>/saml2/idpresponse`) or an OIDC authorization request
 *   (redirect `<domain>/oauth2/idpresponse`, with state, nonce and PKCE), from the provider's stored details. Without
 *   `identity_provider`, or with `COGNITO`: cognito-local's own password form when the client lists `COGNITO`;
 *   otherwise Cognito's login page with the client's providers alone, and no password form (nor a password taken at
 *   `POST /oauth2/authorize`).
 * - `POST /saml2/idpresponse`, `GET /oauth2/idpresponse`: the IdP's answer, checked (node-saml: the signature against the
 *   metadata's signing certificates, audience, InResponseTo, time, RelayState; openid-client: the code exchange, the
 *   ID token, state, nonce), then the federated sign-in as Cognito does it (`completeSignIn`), and the code to the
 *   app's `redirect_uri`. Errors go to the `redirect_uri` as `error` and `error_description`.
 * - `POST /oauth2/token`: `authorization_code` (one use, 5 minutes, the same client and `redirect_uri`, the PKCE
 *   verifier); other codes and `refresh_token` go on to cognito-local's own token endpoint.
 * - `GET /logout`: `client_id` and a `logout_uri` among the client's LogoutURLs; clears the session cookie.
 *
 * The pool's triggers are invoked through cognito-local's trigger service (its Lambda client, LOCAL_LAMBDA_ENDPOINT),
 * with Cognito's event shapes: PreSignUp (`PreSignUp_ExternalProvider`) on an identity's first sign-in, and
 * PreTokenGeneration (`TokenGeneration_HostedAuth`) through cognito-local's token generator.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { SAML } from "@node-saml/node-saml";
// node-saml's own cache of the AuthnRequests' IDs (InResponseTo), shared by the SAML instances made per request.
import { InMemoryCacheProvider } from "@node-saml/node-saml/lib/in-memory-cache-provider.js";
import { DOMParser } from "@xmldom/xmldom";
import * as oidc from "openid-client";

const SESSION_COOKIE = "cognito";
const FLOW_COOKIE = "cognito-flow";
/** The pool's own sign-in among an app client's supported providers: the password form. */
const COGNITO = "COGNITO";
/** How long a sign-in may take at the IdP, and a code may wait to be redeemed (Cognito: 5 minutes). */
const FLOW_TTL_MS = 10 * 60_000;
const CODE_TTL_MS = 5 * 60_000;
/** The managed login's session (Cognito's lasts an hour). */
const SESSION_TTL_MS = 60 * 60_000;
const METADATA_LIMIT = 1024 * 1024;
const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

/** One string from a query or form value (a repeated parameter is no value). */
const one = (v) => (typeof v === "string" ? v : undefined);
const b64url = (buf) => Buffer.from(buf).toString("base64url");
const sha256 = (s) => createHash("sha256").update(s).digest();

function cookies(req) {
  const out = new Map();
  for (const part of String(req.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) out.set(part.slice(0, at).trim(), decodeURIComponent(part.slice(at + 1).trim()));
  }
  return out;
}

const setCookie = (res, name, value, maxAgeSeconds) =>
  res.append("Set-Cookie", `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`);

/** A map whose entries go after `ttl`, swept as it is used (no timers to keep the process up). */
class Expiring {
  #m = new Map();
  constructor(ttl) {
    this.ttl = ttl;
  }
  put(key, value) {
    const now = Date.now();
    for (const [k, v] of this.#m) if (v.expiresAt <= now) this.#m.delete(k);
    this.#m.set(key, { value, expiresAt: now + this.ttl });
  }
  take(key) {
    const e = typeof key === "string" ? this.#m.get(key) : undefined;
    if (!e) return undefined;
    this.#m.delete(key);
    return e.expiresAt > Date.now() ? e.value : undefined;
  }
  peek(key) {
    const e = typeof key === "string" ? this.#m.get(key) : undefined;
    return e && e.expiresAt > Date.now() ? e.value : undefined;
  }
  delete(key) {
    this.#m.delete(key);
  }
}

/** An error shown to the app at its redirect_uri (`error`, `error_description`), as Cognito reports them. */
class SignInError extends Error {
  constructor(code, description) {
    super(description);
    this.code = code;
  }
}

const loopback = (url) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname);

// ---- SAML metadata ------------------------------------------------------------------------------------------

/** The IdP's entity ID, signing certificates and HTTP-Redirect single sign-on URL, from its metadata. */
function parseMetadata(xml) {
  // No DOCTYPE, as the service's own check (shared/sso/metadata.ts): no entity is ever expanded.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SignInError("invalid_request", "The IdP's metadata holds a DOCTYPE");
  const doc = new DOMParser({ onError: () => undefined }).parseFromString(xml, "text/xml");
  const entity = doc.getElementsByTagNameNS(MD, "EntityDescriptor")[0];
  const idp = entity?.getElementsByTagNameNS(MD, "IDPSSODescriptor")[0];
  if (!entity || !idp) throw new SignInError("invalid_request", "The IdP's metadata has no IDPSSODescriptor");
  const certs = [];
  for (const kd of Array.from(idp.getElementsByTagNameNS(MD, "KeyDescriptor"))) {
    const use = kd.getAttribute("use");
    if (use && use !== "signing") continue;
    for (const c of Array.from(kd.getElementsByTagNameNS(DS, "X509Certificate"))) certs.push(String(c.textContent).replace(/\s+/g, ""));
  }
  const sso = Array.from(idp.getElementsByTagNameNS(MD, "SingleSignOnService")).find((s) => s.getAttribute("Binding") === REDIRECT);
  if (certs.length === 0) throw new SignInError("invalid_request", "The IdP's metadata has no signing certificate");
  if (!sso) throw new SignInError("invalid_request", "The IdP's metadata has no HTTP-Redirect single sign-on service");
  return { entityId: entity.getAttribute("entityID"), certs, ssoUrl: sso.getAttribute("Location") };
}

async function samlMetadata(details) {
  if (details.MetadataFile) return parseMetadata(details.MetadataFile);
  const res = await fetch(details.MetadataURL, { redirect: "error", signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  if (!res?.ok) throw new SignInError("invalid_request", "Error retrieving the IdP's metadata");
  const text = await res.text();
  if (text.length > METADATA_LIMIT) throw new SignInError("invalid_request", "The IdP's metadata is too large");
  return parseMetadata(text);
}

// ---- the module ---------------------------------------------------------------------------------------------

/**
 * Adds the managed login's routes to cognito-local's express `app`, in front of cognito-local's own OAuth routes
 * (`attachOAuth2Routes`, which it calls after). `services` are cognito-local's; `storedProvider` reads a pool's
 * identity provider (cognito-local.mjs); `linksKey` is where cognito-federation.mjs keeps the linked identities.
 */
export function installManagedLogin(app, services, { domain, storedProvider, linksKey, attachOAuth2Routes, AuthorizationCodeStore }) {
  const origin = domain.replace(/\/+$/, "");
  const acsUrl = `${origin}/saml2/idpresponse`;
  const oidcRedirect = `${origin}/oauth2/idpresponse`;
  const flows = new Expiring(FLOW_TTL_MS);
  const codes = new Expiring(CODE_TTL_MS);
  const sessions = new Expiring(SESSION_TTL_MS);
  const samlCache = new InMemoryCacheProvider({ keyExpirationPeriodMs: FLOW_TTL_MS });
  const ctxOf = (req) => ({ logger: req.log });

  const samlOf = (poolId, meta) =>
    new SAML({
      issuer: `urn:amazon:cognito:sp:${poolId}`,
      callbackUrl: acsUrl,
      entryPoint: meta.ssoUrl,
      idpIssuer: meta.entityId ?? undefined,
      idpCert: meta.certs,
      audience: `urn:amazon:cognito:sp:${poolId}`,
      // A signed assertion, as Cognito requires; the whole response may be signed too.
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: "always",
      requestIdExpirationPeriodMs: FLOW_TTL_MS,
      cacheProvider: samlCache,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      acceptedClockSkewMs: 0,
    });

  async function oidcConfig(details) {
    const issuer = new URL(details.oidc_issuer);
    // The local stack's one allowance: an IdP on this machine over http (Cognito requires https).
    const execute = loopback(issuer.href) ? [oidc.allowInsecureRequests] : [];
    return oidc.discovery(issuer, details.client_id, undefined, oidc.ClientSecretPost(details.client_secret ?? ""), {
      execute,
      timeout: 5,
    });
  }

  /** The error at the app's redirect_uri. */
  function toApp(res, flow, code, description) {
    const url = new URL(flow.redirectUri);
    url.searchParams.set("error_description", description);
    url.searchParams.set("error", code);
    if (flow.state !== undefined) url.searchParams.set("state", flow.state);
    res.redirect(302, url.href);
  }

  const page = (res, status, message) =>
    res
      .status(status)
      .type("text/html")
      .send(`<!DOCTYPE html><html><body><h1>An error was encountered</h1><p>${String(message).replace(/[<>&"]/g, "")}</p></body></html>`);

  /**
   * Cognito's login page (`/login`) for a client that does not list `COGNITO`: the client's providers, each a link to
   * this sign-in through it, and no password form; `error` is Cognito's words for a sign-in option the client lacks.
   */
  function loginPage(req, res, providers, error) {
    const esc = (v) => String(v).replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const links = providers.map((name) => {
      const url = new URL(req.originalUrl, origin);
      url.searchParams.set("identity_provider", name);
      return `<p><a href="${esc(url.pathname + url.search)}">Continue with ${esc(name)}</a></p>`;
    });
    const notice = error ? `<p role="alert">${esc(error)}</p>` : "";
    const none = links.length === 0 ? "<p>No sign-in option is available for this app.</p>" : "";
    return res
      .status(200)
      .type("text/html")
      .send(`<!DOCTYPE html><html><head><title>Sign in</title></head><body>${notice}${links.join("")}${none}</body></html>`);
  }

  // -- GET /oauth2/authorize ------------------------------------------------------------------------------------
  app.get("/oauth2/authorize", async (req, res, next) => {
    const q = req.query;
    const providerName = one(q.identity_provider);
    const ctx = ctxOf(req);
    const clientId = one(q.client_id);
    const redirectUri = one(q.redirect_uri);
    const appClient = clientId ? await services.cognito.getAppClient(ctx, clientId).catch(() => null) : null;
    // No redirect to an unknown client or an unregistered redirect_uri: Cognito shows its error page.
    if (!appClient) return page(res, 400, "invalid_request: client_id is not a client of this user pool");
    if (!redirectUri || !(appClient.CallbackURLs ?? []).includes(redirectUri)) return page(res, 400, "redirect_mismatch");
    const supported = appClient.SupportedIdentityProviders ?? [];
    if (providerName === undefined || providerName === COGNITO) {
      // The pool's own sign-in only when the client lists it (SupportedIdentityProviders "sets the IdPs that managed
      // login will display"); otherwise the login page offers the client's providers, and a `COGNITO` asked for by
      // name is answered as Cognito answers a sign-in option the client lacks.
      if (supported.includes(COGNITO)) return next(); // cognito-local's password form
      return loginPage(
        req,
        res,
        supported,
        providerName === COGNITO ? "Login option is not available. Please try another one." : undefined,
      );
    }
    const flow = { clientId, redirectUri, state: one(q.state), poolId: appClient.UserPoolId };
    if (one(q.response_type) !== "code") return toApp(res, flow, "unsupported_response_type", "response_type must be code");
    if (appClient.AllowedOAuthFlows && !appClient.AllowedOAuthFlows.includes("code"))
      return toApp(res, flow, "unauthorized_client", "The client is not allowed the code flow");
    const challenge = one(q.code_challenge);
    if (!challenge || one(q.code_challenge_method) !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge))
      return toApp(res, flow, "invalid_request", "code_challenge with code_challenge_method S256 is required");
    const scopes = (one(q.scope) ?? "openid").split(/\s+/).filter(Boolean);
    const allowed = appClient.AllowedOAuthScopes;
    if (allowed && scopes.some((s) => !allowed.includes(s)))
      return toApp(res, flow, "invalid_scope", "A scope is not allowed for this client");
    if (!(appClient.SupportedIdentityProviders ?? []).includes(providerName))
      return toApp(res, flow, "invalid_request", `The identity provider ${providerName} is not enabled for this client`);
    const userPool = await services.cognito.getUserPool(ctx, appClient.UserPoolId);
    const provider = await storedProvider(ctx, userPool, providerName);
    if (!provider) return toApp(res, flow, "invalid_request", `The identity provider ${providerName} does not exist`);

    const id = b64url(randomBytes(24));
    const browser = cookies(req).get(FLOW_COOKIE) ?? b64url(randomBytes(24));
    const pending = { ...flow, id, browser, provider: providerName, challenge, scope: scopes.join(" ") };
    try {
      if (provider.ProviderType === "SAML") {
        const meta = await samlMetadata(provider.ProviderDetails ?? {});
        const location = await samlOf(appClient.UserPoolId, meta).getAuthorizeUrlAsync(id, undefined, {});
        flows.put(id, { ...pending, meta });
        setCookie(res, FLOW_COOKIE, browser, FLOW_TTL_MS / 1000);
        return res.redirect(302, location);
      }
      const details = provider.ProviderDetails ?? {};
      const config = await oidcConfig(details);
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      const location = oidc.buildAuthorizationUrl(config, {
        redirect_uri: oidcRedirect,
        scope: details.authorize_scopes ?? "openid",
        state: id,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      });
      flows.put(id, { ...pending, verifier, nonce });
      setCookie(res, FLOW_COOKIE, browser, FLOW_TTL_MS / 1000);
      return res.redirect(302, location.href);
    } catch (err) {
      req.log.warn({ err: String(err) }, "managed login: the IdP could not be reached");
      return toApp(res, flow, "invalid_request", err instanceof SignInError ? err.message : `${providerName} could not be reached`);
    }
  });

  /** The pending sign-in `id` names, for this browser only (its flow cookie), taken once. */
  function takeFlow(req, id) {
    const flow = flows.peek(id);
    if (!flow) return undefined;
    const browser = cookies(req).get(FLOW_COOKIE);
    if (!browser || browser.length !== flow.browser.length || !timingSafeEqual(Buffer.from(browser), Buffer.from(flow.browser)))
      return undefined;
    flows.delete(id);
    return flow;
  }

  // -- POST /oauth2/authorize: cognito-local's password form's answer, taken only for a client that lists `COGNITO` --
  app.post("/oauth2/authorize", async (req, res, next) => {
    const clientId = one(req.body?.client_id);
    const appClient = clientId ? await services.cognito.getAppClient(ctxOf(req), clientId).catch(() => null) : null;
    if (appClient && !(appClient.SupportedIdentityProviders ?? []).includes(COGNITO))
      return page(res, 400, "Login option is not available. Please try another one.");
    return next();
  });

  // -- POST /saml2/idpresponse ----------------------------------------------------------------------------------
  app.post("/saml2/idpresponse", async (req, res) => {
    const body = req.body ?? {};
    const flow = takeFlow(req, one(body.RelayState));
    if (!flow) return page(res, 400, "Invalid RelayState from the identity provider, or this sign-in has expired");
    try {
      const samlResponse = one(body.SAMLResponse);
      if (!samlResponse) throw new SignInError("invalid_request", "Invalid SAML response received: no SAMLResponse");
      const { profile } = await samlOf(flow.poolId, flow.meta)
        .validatePostResponseAsync({ SAMLResponse: samlResponse })
        .catch((err) => {
          throw new SignInError("invalid_request", `Invalid SAML response received: ${String(err.message).slice(0, 200)}`);
        });
      if (!profile?.nameID) throw new SignInError("invalid_request", "Invalid SAML response received: no NameID");
      // SAML's attributes as the pool maps them: a multi-valued one arrives as `[a, b]`.
      const value = (name) => {
        const v = profile.attributes?.[name] ?? profile[name];
        if (v === undefined || v === null) return undefined;
        return Array.isArray(v) ? `[${v.map(String).join(", ")}]` : String(v);
      };
      await finish(req, res, flow, profile.nameID, value);
    } catch (err) {
      failed(req, res, flow, err);
    }
  });

  // -- GET /oauth2/idpresponse ----------------------------------------------------------------------------------
  app.get("/oauth2/idpresponse", async (req, res) => {
    const flow = takeFlow(req, one(req.query.state));
    if (!flow) return page(res, 400, "Invalid state from the identity provider, or this sign-in has expired");
    try {
      const idpError = one(req.query.error);
      if (idpError)
        throw new SignInError("invalid_request", `${flow.provider} Error - ${idpError} ${one(req.query.error_description) ?? ""}`.trim());
      const ctx = ctxOf(req);
      const userPool = await services.cognito.getUserPool(ctx, flow.poolId);
      const provider = await storedProvider(ctx, userPool, flow.provider);
      if (!provider) throw new SignInError("invalid_request", `The identity provider ${flow.provider} does not exist`);
      const config = await oidcConfig(provider.ProviderDetails ?? {});
      const current = new URL(oidcRedirect);
      for (const [k, v] of Object.entries(req.query)) if (typeof v === "string") current.searchParams.set(k, v);
      const tokens = await oidc
        .authorizationCodeGrant(config, current, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.id,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        })
        .catch((err) => {
          throw new SignInError("invalid_request", `${flow.provider} Error - ${String(err.message).slice(0, 200)}`);
        });
      const claims = { ...tokens.claims() };
      // Cognito reads the userinfo endpoint too (attributes_request_method) when the IdP has one.
      if (config.serverMetadata().userinfo_endpoint)
        Object.assign(claims, await oidc.fetchUserInfo(config, tokens.access_token, claims.sub));
      const value = (name) => {
        const v = claims[name];
        if (v === undefined || v === null) return undefined;
        return typeof v === "string" ? v : JSON.stringify(v);
      };
      await finish(req, res, flow, String(claims.sub), value);
    } catch (err) {
      failed(req, res, flow, err);
    }
  });

  function failed(req, res, flow, err) {
    if (err instanceof SignInError) return toApp(res, flow, err.code, err.message);
    req.log.error({ err: String(err?.stack ?? err) }, "managed login failed");
    return toApp(res, flow, "server_error", "An error was encountered with the requested page");
  }

  /** The sign-in done, as Cognito does it: the user, the tokens (PreTokenGeneration), a code to the app. */
  async function finish(req, res, flow, subject, attributeOf) {
    const ctx = ctxOf(req);
    const user = await completeSignIn(ctx, flow, subject, attributeOf);
    const appClient = await services.cognito.getAppClient(ctx, flow.clientId);
    const userPool = await services.cognito.getUserPool(ctx, flow.poolId);
    const groups = await userPool.listUserGroupMembership(ctx, user);
    const tokens = await services.tokenGenerator.generate(ctx, user, groups, appClient, undefined, "HostedAuth").catch((err) => {
      throw triggerError("PreTokenGeneration", err);
    });
    // The trigger may have written the user (its account): the refresh token goes on the user as it is now.
    await userPool.storeRefreshToken(ctx, tokens.RefreshToken, (await userPool.getUserByUsername(ctx, user.Username)) ?? user);
    const code = randomUUID();
    codes.put(code, { clientId: flow.clientId, redirectUri: flow.redirectUri, challenge: flow.challenge, tokens, validity: appClient });
    const session = b64url(randomBytes(24));
    sessions.put(session, { poolId: flow.poolId, username: user.Username });
    setCookie(res, SESSION_COOKIE, session, SESSION_TTL_MS / 1000);
    const url = new URL(flow.redirectUri);
    url.searchParams.set("code", code);
    if (flow.state !== undefined) url.searchParams.set("state", flow.state);
    res.redirect(302, url.href);
  }

  /** A trigger's failure as Cognito words it: "<trigger> failed with error <message>." */
  function triggerError(trigger, err) {
    const raw = String(err?.message ?? err);
    // cognito-local's LambdaService words it "<function> failed with error <message>."; Cognito names the trigger.
    const message = raw.replace(/^\S+ failed with error /, "").replace(/\.$/, "");
    return new SignInError("invalid_request", `${trigger} failed with error ${message}.`);
  }

  /**
   * The pool's user for the IdP's `subject` (Cognito's behaviour, docs/sso.md): an identity linked with
   * AdminLinkProviderForUser signs in as the linked user; a known federated user (`<provider>_<subject>`) has its
   * mapped attributes written again; a new identity runs PreSignUp (`PreSignUp_ExternalProvider`) and, unless the
   * trigger linked it (then this one sign-in fails, as in Cognito), becomes a new federated user.
   */
  async function completeSignIn(ctx, flow, subject, attributeOf) {
    const userPool = await services.cognito.getUserPool(ctx, flow.poolId);
    const provider = await storedProvider(ctx, userPool, flow.provider);
    if (!provider) throw new SignInError("invalid_request", `The identity provider ${flow.provider} does not exist`);
    const mapped = [];
    for (const [poolAttribute, idpAttribute] of Object.entries(provider.AttributeMapping ?? {})) {
      const v = attributeOf(idpAttribute);
      if (v !== undefined) mapped.push({ Name: poolAttribute, Value: v });
    }
    const username = `${provider.ProviderName}_${subject}`;
    const now = services.clock.get();
    const rewrite = (user) => ({
      ...user,
      Attributes: [...user.Attributes.filter((a) => !mapped.some((m) => m.Name === a.Name)), ...mapped],
      UserLastModifiedDate: now,
    });

    const links = (await userPool.dataStore.get(ctx, linksKey)) ?? {};
    const linkedTo = Object.hasOwn(links, username) ? links[username] : undefined;
    let user = linkedTo ? await userPool.getUserByUsername(ctx, String(linkedTo)) : await userPool.getUserByUsername(ctx, username);
    if (user && !linkedTo && user.Username !== username) user = null; // an e-mail alias is not this identity
    if (user) {
      if (!user.Enabled) throw new SignInError("invalid_request", "User is disabled.");
      user = rewrite(user);
      await userPool.saveUser(ctx, user);
      return user;
    }

    const attributes = Object.fromEntries(mapped.map((a) => [a.Name, a.Value]));
    let verified = false;
    if (services.triggers.enabled("PreSignUp")) {
      const out = await services.triggers
        .preSignUp(ctx, {
          clientId: flow.clientId,
          clientMetadata: undefined,
          source: "PreSignUp_ExternalProvider",
          userAttributes: mapped,
          username,
          userPoolId: flow.poolId,
          validationData: undefined,
        })
        .catch((err) => {
          throw triggerError("PreSignUp", err);
        });
      verified = out?.autoVerifyEmail === true;
    }
    // PreSignUp linked this identity to an existing user: Cognito fails this sign-in; the next one is the linked user's.
    const after = (await userPool.dataStore.get(ctx, linksKey)) ?? {};
    if (Object.hasOwn(after, username)) throw new SignInError("invalid_request", `Already found an entry for username ${username}`);

    user = {
      Username: username,
      Attributes: [
        { Name: "sub", Value: randomUUID() },
        ...mapped,
        ...(verified && attributes.email !== undefined ? [{ Name: "email_verified", Value: "true" }] : []),
        {
          Name: "identities",
          Value: JSON.stringify([
            {
              userId: subject,
              providerName: provider.ProviderName,
              providerType: provider.ProviderType,
              issuer: null,
              primary: "true",
              dateCreated: String(now.getTime()),
            },
          ]),
        },
      ],
      Enabled: true,
      UserStatus: "EXTERNAL_PROVIDER",
      UserCreateDate: now,
      UserLastModifiedDate: now,
      RefreshTokens: [],
    };
    // Saved directly: cognito-local's API takes e-mail user names only, Cognito makes `<provider>_<subject>` users.
    await userPool.saveUser(ctx, user);
    return user;
  }

  // -- POST /oauth2/token ---------------------------------------------------------------------------------------
  app.post("/oauth2/token", (req, res, next) => {
    const body = req.body ?? {};
    if (one(body.grant_type) !== "authorization_code") return next();
    const issued = codes.peek(one(body.code));
    if (!issued) return next(); // a code of cognito-local's own password form, or none
    codes.delete(body.code);
    const bad = (error, error_description) => res.status(400).json({ error, error_description });
    if (one(body.client_id) !== issued.clientId) return bad("invalid_client", "client_id mismatch");
    if (one(body.redirect_uri) !== issued.redirectUri) return bad("invalid_grant", "redirect_uri mismatch");
    const verifier = one(body.code_verifier);
    if (!verifier) return bad("invalid_request", "Missing code_verifier");
    const expected = Buffer.from(issued.challenge);
    const actual = Buffer.from(b64url(sha256(verifier)));
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
      return bad("invalid_grant", "code_verifier does not match code_challenge");
    const { tokens } = issued;
    res.set("Cache-Control", "no-store");
    return res.status(200).json({
      access_token: tokens.AccessToken,
      id_token: tokens.IdToken,
      refresh_token: tokens.RefreshToken,
      token_type: "Bearer",
      expires_in: 3600,
    });
  });

  // -- GET /logout ----------------------------------------------------------------------------------------------
  app.get("/logout", async (req, res) => {
    const clientId = one(req.query.client_id);
    const logoutUri = one(req.query.logout_uri);
    const appClient = clientId ? await services.cognito.getAppClient(ctxOf(req), clientId).catch(() => null) : null;
    if (!appClient) return page(res, 400, "invalid_request: client_id is not a client of this user pool");
    if (!logoutUri || !(appClient.LogoutURLs ?? []).includes(logoutUri))
      return page(res, 400, "logout_uri is not one of the client's sign-out URLs");
    const session = cookies(req).get(SESSION_COOKIE);
    if (session) sessions.delete(session);
    res.append("Set-Cookie", `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    return res.redirect(302, logoutUri);
  });

  // cognito-local's own OAuth routes after ours: its password form, its codes, and refresh.
  attachOAuth2Routes(app, services, new AuthorizationCodeStore());
}
