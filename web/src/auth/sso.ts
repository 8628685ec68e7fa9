/**
 * Single sign-on through the user pool's managed login (docs/sso.md, docs/console-sign-in.md): the authorization
 * code flow with PKCE (S256) and `state`, by oauth4webapi. Loaded only when someone continues with their
 * institution or comes back from it.
 *
 * Amplify's signInWithRedirect is not used: it builds `https://<domain>` URLs, and the local managed login is
 * plain http on loopback. The tokens go to Amplify's store afterwards (cognito.ts `adoptTokens`), so the refresh
 * and sign-out are the password sign-in's.
 */
import * as oauth from "oauth4webapi";
import { type ConsoleConfig, loadConfig } from "../config";
import { SSO_CALLBACK_PATH } from "./callback";

/** The flow under way in this tab: what the callback checks and needs (sessionStorage: this tab, gone when it closes). */
const FLOW_KEY = "institution-admin.sso-flow";

interface Flow {
  readonly provider: string;
  readonly institution: string;
  readonly state: string;
  readonly verifier: string;
  /** The console's page to land on. */
  readonly returnTo: string;
  /** The flow is the automatic second attempt (a linked identity's first sign-in fails once). */
  readonly retried: boolean;
}

/** What `discover` named: the pool's provider and the institution's name. */
export interface Discovered {
  readonly provider_name: string;
  readonly institution: { readonly name: string };
}

export type Outcome =
  | { readonly kind: "signed-in"; readonly returnTo: string }
  | { readonly kind: "retrying" }
  | { readonly kind: "failed"; readonly message: string; readonly institution?: string };

/**
 * Cognito fails the first sign-in of an identity its pre sign-up trigger has just linked to an existing user
 * ("Already found an entry for username <provider>_<subject>"); the next one signs in as that user.
 */
const LINKED_FIRST_SIGN_IN = /already found an entry for username/i;

function server(config: ConsoleConfig): { as: oauth.AuthorizationServer; client: oauth.Client; insecure: boolean } {
  const domain = new URL(config.cognitoDomain);
  return {
    as: {
      // The pool's issuer, as its ID tokens name it (and the API's authorizer checks).
      issuer: `${config.cognitoEndpoint.replace(/\/+$/, "")}/${config.userPoolId}`,
      authorization_endpoint: `${config.cognitoDomain}/oauth2/authorize`,
      token_endpoint: `${config.cognitoDomain}/oauth2/token`,
    },
    client: { client_id: config.userPoolClientId },
    // Plain http only for a managed login on this machine (the local stack's); anywhere else https.
    insecure: domain.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(domain.hostname),
  };
}

const redirectUri = (): string => `${location.origin}${SSO_CALLBACK_PATH}`;

/** A path of this console to come back to: never another origin, never the callback itself. */
function localPath(path: string | undefined): string {
  if (!path?.startsWith("/") || path.startsWith("//") || path.startsWith(SSO_CALLBACK_PATH)) return "/";
  return path;
}

/** Sends the browser to the managed login, which sends it on to the institution's identity provider. */
export async function startSignIn(sso: Discovered, opts: { returnTo?: string; retried?: boolean } = {}): Promise<void> {
  const config = await loadConfig();
  const { as } = server(config);
  const verifier = oauth.generateRandomCodeVerifier();
  const flow: Flow = {
    provider: sso.provider_name,
    institution: sso.institution.name,
    state: oauth.generateRandomState(),
    verifier,
    returnTo: localPath(opts.returnTo ?? `${location.pathname}${location.search}`),
    retried: opts.retried ?? false,
  };
  sessionStorage.setItem(FLOW_KEY, JSON.stringify(flow));
  const url = new URL(as.authorization_endpoint as string);
  for (const [key, value] of Object.entries({
    response_type: "code",
    client_id: config.userPoolClientId,
    redirect_uri: redirectUri(),
    identity_provider: sso.provider_name,
    scope: "openid email profile",
    state: flow.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }))
    url.searchParams.set(key, value);
  location.assign(url.href);
}

function takeFlow(): Flow | undefined {
  const raw = sessionStorage.getItem(FLOW_KEY);
  // One use: a reload of the callback, or a second tab, does not replay it.
  sessionStorage.removeItem(FLOW_KEY);
  if (!raw) return undefined;
  try {
    const flow = JSON.parse(raw) as Partial<Flow>;
    return typeof flow.state === "string" && typeof flow.verifier === "string" && typeof flow.provider === "string"
      ? (flow as Flow)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Cognito's wording of a trigger's refusal ("PreSignUp failed with error <message>.") is the message alone. */
function plain(description: string): string {
  return description.replace(/^\s*\w+ failed with error\s*/i, "").trim();
}

/**
 * Completes the flow the managed login sent back to `current` (the callback's URL): the code exchanged with
 * the verifier, the tokens checked (issuer, audience, expiry) and taken as the console's session; or the
 * error said plainly; or, once, a fresh attempt for a linked identity's first sign-in.
 */
export async function completeSignIn(current: URL): Promise<Outcome> {
  const flow = takeFlow();
  if (!flow) {
    return {
      kind: "failed",
      message: "This sign-in has already been used or was started in another tab. Start again from the sign-in page.",
    };
  }
  const error = current.searchParams.get("error");
  if (error !== null) {
    const description = current.searchParams.get("error_description") ?? "";
    const sameFlow = current.searchParams.get("state") === flow.state;
    if (sameFlow && !flow.retried && LINKED_FIRST_SIGN_IN.test(description)) {
      await startSignIn(
        { provider_name: flow.provider, institution: { name: flow.institution } },
        { returnTo: flow.returnTo, retried: true },
      );
      return { kind: "retrying" };
    }
    return {
      kind: "failed",
      institution: flow.institution,
      message: error === "access_denied" && description === "" ? "The sign-in was cancelled." : plain(description) || error,
    };
  }
  const config = await loadConfig();
  const { as, client, insecure } = server(config);
  try {
    const params = oauth.validateAuthResponse(as, client, current, flow.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri(), flow.verifier, {
      [oauth.allowInsecureRequests]: insecure,
    });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    if (!tokens.id_token) throw new Error("the managed login answered without an ID token");
    const { adoptTokens } = await import("./cognito");
    await adoptTokens({ idToken: tokens.id_token, accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    return { kind: "signed-in", returnTo: flow.returnTo };
  } catch (err) {
    const e = err as { error?: unknown; error_description?: unknown; message?: string };
    const described = typeof e.error_description === "string" ? plain(e.error_description) : "";
    return {
      kind: "failed",
      institution: flow.institution,
      message:
        described || (typeof e.error === "string" ? e.error : `The sign-in could not be completed (${e.message ?? "unknown error"}).`),
    };
  }
}
