import { getConfig } from "../config";
import { clearSession, getSession } from "./session";

/** Ends the session here at once, and revokes its refresh token at Cognito in the background. */
export async function signOut(): Promise<void> {
  const refreshToken = getSession()?.refreshToken;
  clearSession();
  if (!refreshToken) return;
  try {
    const { revoke } = await import("./cognito");
    await revoke(getConfig(), refreshToken);
  } catch {
    // Revocation is a courtesy: the tokens are gone from this browser either way.
  }
}
