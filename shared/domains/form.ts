/**
 * A domain name's form (docs/sso.md): lower-cased, in its ASCII (IDNA) form, at least two labels of letters,
 * digits and hyphens. Apart from name.ts, which adds what no institution may own (public suffixes, consumer mail),
 * so that the sign-in's paths (discovery, the pool's triggers), which only look a domain up, do not carry the
 * Public Suffix List (`tldts`, 120 KiB of the bundle): a domain that is a public suffix is never verified, so its
 * lookup finds nothing either way.
 */
import { domainToASCII } from "node:url";

export const FORM_ERRORS = {
  blank: "Domain can't be blank",
  invalid: "Domain is not a valid domain name",
  tooLong: "Domain is too long (maximum is 253 characters)",
  oneLabel: "Domain must have at least two labels (like example.edu)",
} as const;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The domain's ASCII form, or the message that refuses its form. */
export function domainForm(input: string): { domain: string } | { error: string } {
  const trimmed = input.trim().replace(/\.$/, "");
  if (trimmed === "") return { error: FORM_ERRORS.blank };
  // The URL parser behind domainToASCII decodes percent escapes and takes IP literals: neither is a domain.
  if (/[%/\\:@[\]\s]/u.test(trimmed) || [...trimmed].length > 253) {
    return { error: [...trimmed].length > 253 ? FORM_ERRORS.tooLong : FORM_ERRORS.invalid };
  }
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === "") return { error: FORM_ERRORS.invalid };
  if (ascii.length > 253) return { error: FORM_ERRORS.tooLong };
  const labels = ascii.split(".");
  if (!labels.every((l) => LABEL.test(l))) return { error: FORM_ERRORS.invalid };
  if (labels.length < 2) return { error: FORM_ERRORS.oneLabel };
  // An all-digit top-level label is an IPv4 address, not a name.
  if (/^\d+$/.test(labels.at(-1) as string)) return { error: FORM_ERRORS.invalid };
  return { domain: ascii };
}

/** The e-mail's domain in the form domains are kept in, or undefined when it has none that could be one. */
export function domainOfEmail(email: string): string | undefined {
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return undefined;
  const formed = domainForm(email.slice(at + 1));
  return "domain" in formed ? formed.domain : undefined;
}
