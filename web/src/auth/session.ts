/**
 * The signed-in user: Cognito's tokens and what the console reads from the ID token's claims (for display and
 * to hide what the API would refuse; the API checks everything itself). Kept in sessionStorage (docs/security.md):
 * this tab only, gone when it closes, never shared with other tabs or left on the machine; the app client's
 * refresh tokens last at most 12 hours. A new tab signs in again.
 */
import { useSyncExternalStore } from "react";

export interface Tokens {
  readonly idToken: string;
  readonly accessToken?: string | undefined;
  readonly refreshToken?: string | undefined;
  /**
   * `"sso"` when the person signed in through the pool's managed login (single sign-on, auth/sso.ts): signing
   * out then also ends the managed login's own session, or its next sign-in would skip the identity provider.
   */
  readonly via?: "sso" | undefined;
}

export interface Session extends Tokens {
  /** The user id (`sub`): the administrators list names people by it. */
  readonly userId: string;
  readonly email: string;
  readonly name?: string | undefined;
  readonly superAdmin: boolean;
  /** Expiry of the ID token, ms since the epoch. */
  readonly expiresAt: number;
}

const KEY = "institution-admin.session";
const listeners = new Set<() => void>();
let current: Session | undefined = read();
/** Why the last session ended, shown once on the sign-in page. */
let endedBecause: string | undefined;

function read(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return undefined;
    const tokens = JSON.parse(raw) as Tokens;
    return typeof tokens.idToken === "string" ? fromTokens(tokens) : undefined;
  } catch {
    return undefined;
  }
}

/** A JWT's claims, unverified: the API verifies the token; the console only reads what to show. */
export function claims(jwt: string): Record<string, unknown> {
  const part = jwt.split(".")[1] ?? "";
  const json = atob(
    part
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(part.length / 4) * 4, "="),
  );
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Record<string, unknown>;
}

/** Group membership as the API reads it: the `cognito:groups` array holds exactly `cohort_super_admin`. */
function inGroup(value: unknown, group: string): boolean {
  return Array.isArray(value) ? value.includes(group) : typeof value === "string" && value.split(/\s+/).includes(group);
}

export function fromTokens(tokens: Tokens): Session {
  const c = claims(tokens.idToken);
  return {
    ...tokens,
    userId: typeof c.sub === "string" ? c.sub : "",
    email: typeof c.email === "string" ? c.email : "",
    name: typeof c.name === "string" && c.name !== "" ? c.name : undefined,
    superAdmin: inGroup(c["cognito:groups"], "cohort_super_admin"),
    expiresAt: typeof c.exp === "number" ? c.exp * 1000 : 0,
  };
}

function emit(): void {
  for (const l of listeners) l();
}

export function setSession(tokens: Tokens): Session {
  // A refresh answers without a refresh token (nor says how the session began): keep what we have.
  const merged: Tokens = { ...tokens, refreshToken: tokens.refreshToken ?? current?.refreshToken, via: tokens.via ?? current?.via };
  current = fromTokens(merged);
  sessionStorage.setItem(KEY, JSON.stringify(merged));
  endedBecause = undefined;
  emit();
  return current;
}

export function clearSession(reason?: string): void {
  current = undefined;
  endedBecause = reason;
  sessionStorage.removeItem(KEY);
  emit();
}

export function getSession(): Session | undefined {
  return current;
}

/** Why the previous session ended ("expired"), if it did not end by signing out. */
export function sessionEndReason(): string | undefined {
  return endedBecause;
}

// Another tab signed in or out.
window.addEventListener("storage", (e) => {
  if (e.key !== KEY) return;
  current = read();
  emit();
});

/** One subscribe for every component (a new function on each render would make React subscribe again each time). */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The signed-in user; the same object until the session changes, as useSyncExternalStore requires. */
const snapshot = (): Session | undefined => current;

export function useSession(): Session | undefined {
  return useSyncExternalStore(subscribe, snapshot);
}
