/** Dates, roles and event types as people read them. Times are shown in the browser's time zone. */
import type { EventType } from "../../shared/constants";
import type { Role } from "./api";

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });
const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

/** "30 Nov 2026": a day, written the same for every reader. */
const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

export function formatDay(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : day.format(d);
}

const dateTimeShort = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** To the minute, for tables where seconds do not matter. */
export function formatShort(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTimeShort.format(d);
}

export function formatTime(d: Date): string {
  return timeOnly.format(d);
}

export function formatClock(d: Date): string {
  return clock.format(d);
}

/** "in 10 minutes", "in 45 seconds", "in 3 hours". */
export function fromNow(d: Date, now = Date.now()): string {
  const seconds = Math.round((d.getTime() - now) / 1000);
  if (Math.abs(seconds) < 90) return relative.format(seconds, "second");
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 90) return relative.format(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 36) return relative.format(hours, "hour");
  return relative.format(Math.round(hours / 24), "day");
}

/**
 * A 429's `Retry-After` as a time: "You can try again at 17:05:12 (in 10 minutes)."; with the date when it
 * is not today: "… at 30 Nov 2026, 17:05:12 (in 7 days)."
 */
export function retryText(retryAt: Date | undefined): string {
  if (!retryAt) return "Try again later.";
  const today = new Date().toDateString() === retryAt.toDateString();
  return `You can try again at ${today ? formatTime(retryAt) : dateTime.format(retryAt)} (${fromNow(retryAt)}).`;
}

export const ROLE_LABELS: Record<Role, string> = {
  cohort_super_admin: "Cohort super admin",
  cohort_admin: "Cohort admin",
};

export function roleLabel(role: string): string {
  return ROLE_LABELS[role as Role] ?? role;
}

/** Words that are spelled as initials (or a brand) wherever a key names them. */
const SPELLED: Record<string, string> = {
  api: "API",
  csv: "CSV",
  id: "ID",
  ids: "IDs",
  ip: "IP",
  mfa: "MFA",
  oidc: "OIDC",
  saml: "SAML",
  scim: "SCIM",
  sso: "SSO",
  totp: "TOTP",
  url: "URL",
};

/**
 * A snake_case key as words: `institution_id` → "Institution ID", `scim_connection_id` → "SCIM connection ID".
 * For keys the console does not know one by one (an event's details, a setting); event types have labels.
 */
export function humanize(key: string): string {
  const words = key.split("_").filter(Boolean);
  const text = words.map((w) => SPELLED[w.toLowerCase()] ?? w.toLowerCase()).join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Every event type's label, as the trail, its filter, the alerts and the webhooks' deliveries show it.
 * Written out rather than derived from the key, so that each reads as a person would say it; a type added to
 * the catalogue (shared/constants.ts) fails `npm run typecheck` here until it has one.
 */
export const EVENT_LABELS: Record<EventType, string> = {
  institution_created: "Institution created",
  institution_updated: "Institution updated",
  institution_deleted: "Institution deleted",
  insufficient_privileges: "Insufficient privileges",
  unauthorized_institution_access: "Unauthorized institution access",
  rate_limit_exceeded: "Rate limit exceeded",
  token_validation_failure: "Token validation failure",
  security_events_exported: "Security events exported",
  invitation_created: "Invitation created",
  invitation_revoked: "Invitation revoked",
  invitation_resent: "Invitation resent",
  invitation_accepted: "Invitation accepted",
  cohort_created: "Cohort created",
  cohort_deleted: "Cohort deleted",
  webhook_created: "Webhook created",
  webhook_deleted: "Webhook deleted",
  webhook_disabled: "Webhook disabled",
  administrator_removed: "Administrator removed",
  administrator_role_changed: "Administrator role changed",
  institution_transferred: "Institution transferred",
  account_created: "Account created",
  scim_connected: "SCIM connected",
  scim_token_rotated: "SCIM token rotated",
  scim_role_mappings_changed: "SCIM role mappings changed",
  scim_disconnected: "SCIM disconnected",
  administrator_provisioned: "Administrator provisioned",
  administrator_deprovisioned: "Administrator deprovisioned by SCIM",
  domain_added: "Domain added",
  domain_verified: "Domain verified",
  domain_verification_failed: "Domain verification failed",
  domain_removed: "Domain removed",
  sso_connected: "Single sign-on connected",
  sso_updated: "Single sign-on changed",
  sso_disconnected: "Single sign-on disconnected",
  sso_sign_in: "Signed in with SSO",
  sso_sign_in_refused: "SSO sign-in refused",
  api_key_created: "API key created",
  api_key_revoked: "API key revoked",
  // A person's own events (docs/contract/people.md).
  sign_in: "Signed in",
  sign_in_failed: "Sign-in failed",
  password_reset: "Password reset",
  password_changed: "Password changed",
  mfa_enabled: "MFA turned on",
  mfa_disabled: "MFA turned off",
  signed_out_everywhere: "Signed out everywhere",
};

/** An event type's label; a type this console does not know yet (a newer API) reads as its words. */
export function eventLabel(type: string): string {
  return (EVENT_LABELS as Record<string, string>)[type] ?? humanize(type);
}
