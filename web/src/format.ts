/** Dates, roles and event types as people read them. Times are shown in the browser's time zone. */
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

/**
 * Labels of the event types whose name alone reads wrong ("Mfa enabled"): a person's own events (DESIGN.md §20).
 * Every other type reads as its name.
 */
export const EVENT_TYPE_LABELS: Readonly<Record<string, string>> = {
  sign_in: "Sign-in",
  sign_in_failed: "Sign-in failed",
  password_reset: "Password reset",
  password_changed: "Password changed",
  mfa_enabled: "MFA turned on",
  mfa_disabled: "MFA turned off",
  signed_out_everywhere: "Signed out everywhere",
};

/** `institution_created` → "Institution created"; a labelled event type → its label. */
export function humanize(key: string): string {
  const label = EVENT_TYPE_LABELS[key];
  if (label !== undefined) return label;
  const words = key.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
