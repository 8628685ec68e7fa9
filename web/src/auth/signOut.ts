import { loadConfig } from "../config";
import { clearSession, getSession } from "./session";

/**
 * Ends the session here at once, and at Cognito in the background: this session's refresh token is revoked,
 * or with `everywhere` every refresh token of the user (each browser signed in must sign in again). A single
 * sign-on's session also ends at the pool's managed login, which otherwise would sign the next "Continue
 * with …" in from its own cookie without asking the identity provider.
 */
export async function signOut(everywhere = false): Promise<void> {
  const federated = getSession()?.via === "sso";
  if (everywhere) {
    // The service revokes every refresh token and records it (POST /me/sign_out_everywhere), before the tokens it
    // needs are gone: a failure is the caller's to show. This browser's are then dropped too.
    const { apiPaths, client, ok } = await import("../api");
    ok(await client.POST(`${apiPaths.me}/sign_out_everywhere`, {}));
  }
  clearSession();
  try {
    const cognito = await import("./cognito");
    await cognito.signOut(false);
  } catch {
    // Revocation is a courtesy (everywhere, the service revoked it already): the tokens are gone from this browser.
  }
  if (federated) location.assign(await managedLoginLogout());
}

/** The managed login's `/logout`, which clears its session and comes back to the console's first page. */
async function managedLoginLogout(): Promise<string> {
  const config = await loadConfig();
  const url = new URL(`${config.cognitoDomain}/logout`);
  url.searchParams.set("client_id", config.userPoolClientId);
  url.searchParams.set("logout_uri", `${location.origin}/`);
  return url.href;
}
