/**
 * The invitation token from the mail link (`/invitations/accept?token=…`). It is taken out of the address
 * bar at once, so it stays out of the history, screenshots of the URL and anything copied from it, and is
 * kept in sessionStorage (this tab only) until it is accepted, even across the sign-in.
 */
const KEY = "institution-admin.invitation-token";
export const ACCEPT_PATH = "/invitations/accept";

export function keepInvitationToken(): void {
  if (location.pathname.replace(/\/+$/, "") !== ACCEPT_PATH) return;
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  if (token === null) return;
  sessionStorage.setItem(KEY, token);
  params.delete("token");
  const rest = params.toString();
  history.replaceState(null, "", `${ACCEPT_PATH}${rest ? `?${rest}` : ""}`);
}

export function invitationToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function forgetInvitationToken(): void {
  sessionStorage.removeItem(KEY);
}

/** Tokens are 32 random bytes in base64url: exactly 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What may be shown of a token: its first 8 characters, as the API's `token_preview` does. */
export const tokenPreview = (token: string): string => `${token.slice(0, 8)}…`;

const LANDING_KEY = "institution-admin.joined";

export interface JoinLanding {
  readonly id: string;
  readonly name: string;
  readonly role: string;
}

/** The institution a new account just joined: after its first sign-in the console opens it. */
export function keepJoinLanding(landing: JoinLanding): void {
  sessionStorage.setItem(LANDING_KEY, JSON.stringify(landing));
  forgetInvitationToken();
}

/** The institution just joined, if any; read in a render (which React may repeat), so it stays until forgotten. */
export function joinLanding(): JoinLanding | undefined {
  const raw = sessionStorage.getItem(LANDING_KEY);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as JoinLanding;
  } catch {
    return undefined;
  }
}

export function forgetJoinLanding(): void {
  sessionStorage.removeItem(LANDING_KEY);
}
