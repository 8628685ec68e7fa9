import { clearSession } from "./session";

/**
 * Ends the session here at once, and at Cognito in the background: this session's refresh token is revoked,
 * or with `everywhere` every refresh token of the user (each browser signed in must sign in again).
 */
export async function signOut(everywhere = false): Promise<void> {
  if (everywhere) {
    // Everywhere must reach Cognito before the tokens it needs are gone: a failure is the caller's to show.
    const cognito = await import("./cognito");
    await cognito.signOut(true);
    clearSession();
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
