import { clearSession } from "./session";

/**
 * Ends the session here at once, and at Cognito in the background: this session's refresh token is revoked,
 * or with `everywhere` every refresh token of the user (each browser signed in must sign in again).
 */
export async function signOut(everywhere = false): Promise<void> {
  if (everywhere) {
    // The service revokes every refresh token and records it (POST /me/sign_out_everywhere), before the tokens it
    // needs are gone: a failure is the caller's to show. This browser's are then dropped too.
    const { apiPaths, client, ok } = await import("../api");
    ok(await client.POST(`${apiPaths.me}/sign_out_everywhere`, {}));
    clearSession();
    try {
      const cognito = await import("./cognito");
      await cognito.signOut(false);
    } catch {
      // Its refresh token is revoked already.
    }
    return;
  }
  clearSession();
  try {
    const cognito = await import("./cognito");
    await cognito.signOut(false);
  } catch {
    // Revocation is a courtesy: the tokens are gone from this browser either way.
  }
}
