/** The invitation e-mail. Names come from users, so the HTML part escapes everything it interpolates. */
import type { Mail } from "../mail.js";
import type { Role } from "../roles.js";

const ROLE_LABELS: Record<Role, string> = { cohort_admin: "Cohort admin", cohort_super_admin: "Cohort super admin" };

export interface InvitationMailInput {
  to: string;
  institutionName: string;
  inviterName: string | null;
  inviterEmail: string;
  role: Role;
  /** The full token: the one place it is ever written. */
  token: string;
  expiresAt: string;
  appBaseUrl: string;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const HTML_SPECIAL = /[&<>"']/g;
const escapeHtml = (s: string) => s.replace(HTML_SPECIAL, (c) => HTML_ESCAPES[c] as string);

/** User text on one line: no line break or control character from user data reaches the mail (or its headers). */
const oneLine = (s: string) => s.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ").trim();

/** The longest inviter name a mail shows, in code points (the `name` claim is any length the user likes). */
export const INVITER_NAME_MAX = 64;

const cut = (s: string, max: number) => {
  const points = [...s];
  return points.length > max ? `${points.slice(0, max).join("").trimEnd()}…` : s;
};

/** A dot as a mail client or a browser reads one in a host name: the full stop, and the ideographic and full-width ones (IDNA). */
const DOT = "[.\\u3002\\uFF0E\\uFF61]";

/**
 * A scheme (`https://`, `javascript:`); a host name: labels, dots (any of `DOT`), and a last label of two
 * letters or more; or an IPv4 address (dotted quad, with a path or without).
 */
const LINK_LIKE = new RegExp(
  [
    "\\b[a-z][a-z0-9+.-]*:\\/\\/",
    "\\b(?:javascript|vbscript|data|mailto|file|tel):",
    `(?:[\\p{L}\\p{N}-]+${DOT})+\\p{L}{2,}(?![\\p{L}\\p{N}])`,
    `(?<![\\p{N}])\\p{N}{1,3}(?:${DOT}\\p{N}{1,3}){3}(?![\\p{N}])`,
  ].join("|"),
  "giu",
);
const ANY_DOT = new RegExp(DOT, "gu");

/**
 * User text with nothing a mail client would turn into a link: schemes lose their colon (`https[:]//`),
 * host names and IPv4 addresses their dots, however written (`evil[.]test`, `203[.]0[.]113[.]5/login`), the
 * usual way of quoting an address without linking it. The only link in the mail is the service's own accept link.
 */
export const unlinked = (s: string) => s.replace(LINK_LIKE, (m) => m.replace(":", "[:]").replace(ANY_DOT, "[.]"));

/** The inviter's `name` claim as the mail and the preview show it: one line, at most 64 code points. */
export const inviterName = (name: string) => cut(oneLine(name), INVITER_NAME_MAX);

/** The accept link of the contract: `<APP_BASE_URL>/invitations/accept?token=<token>`. */
export function acceptLink(appBaseUrl: string, token: string): string {
  return `${appBaseUrl}/invitations/accept?token=${encodeURIComponent(token)}`;
}

/** Builds the mail; the subject never holds the token (subjects end up in logs and mail previews). */
export function invitationMail(input: InvitationMailInput): Mail {
  const name = input.inviterName ? unlinked(inviterName(input.inviterName)) : "";
  // An API key (docs/api-keys.md) has a name and no e-mail.
  const inviter = name && input.inviterEmail ? `${name} (${input.inviterEmail})` : name || input.inviterEmail;
  const institutionName = unlinked(oneLine(input.institutionName));
  const role = ROLE_LABELS[input.role];
  const link = acceptLink(input.appBaseUrl, input.token);
  // `2024-05-01T10:00:00.000Z` → `2024-05-01 10:00:00 UTC`
  const expires = `${input.expiresAt.slice(0, 10)} ${input.expiresAt.slice(11, 19)} UTC`;
  const subject = `You are invited to administer ${institutionName}`.slice(0, 200);
  const text = `Hello,

${inviter} has invited you to join ${institutionName} as ${role}.

To accept the invitation, open this link:
${link}

No account yet? The link lets you create one with this e-mail address (${input.to}).
Already have one? Sign in with this e-mail address when the page asks.

The invitation expires on ${expires}.
If you did not expect this invitation, you can ignore this e-mail.
`;
  // The link, the role label and the expiry hold no HTML-special character (base64url token, fixed texts).
  const html = `<!DOCTYPE html>
<html><body style="font-family: sans-serif">
<p>Hello,</p>
<p>${escapeHtml(inviter)} has invited you to join <strong>${escapeHtml(institutionName)}</strong> as ${role}.</p>
<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>
<p>Or open this address: ${escapeHtml(link)}</p>
<p>No account yet? The link lets you create one with this e-mail address (${escapeHtml(input.to)}). Already have one? Sign in with this e-mail address when the page asks.</p>
<p>The invitation expires on ${expires}.</p>
<p>If you did not expect this invitation, you can ignore this e-mail.</p>
</body></html>`;
  return { to: input.to, subject, text, html };
}
