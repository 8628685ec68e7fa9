/**
 * What a verifiable domain is (docs/sso.md): lower-cased, in its ASCII (IDNA) form, at least two labels of
 * letters, digits and hyphens, not a public suffix (`co.uk`, `github.io`: the Public Suffix List, its private
 * section included, through `tldts`), not a consumer mail provider's. Every message once, as 422 `{errors}`.
 */
import { domainToASCII } from "node:url";
import { getPublicSuffix } from "tldts";
import { isConsumerDomain } from "./consumer.js";

export const DOMAIN_ERRORS = {
  blank: "Domain can't be blank",
  invalid: "Domain is not a valid domain name",
  tooLong: "Domain is too long (maximum is 253 characters)",
  oneLabel: "Domain must have at least two labels (like example.edu)",
  publicSuffix: "Domain is a public suffix, which no institution can own",
  consumer: "Domain belongs to a consumer mail provider",
} as const;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The domain's ASCII form, or the messages that refuse it. */
export function checkDomain(input: string): { domain: string } | { errors: string[] } {
  const trimmed = input.trim().replace(/\.$/, "");
  if (trimmed === "") return { errors: [DOMAIN_ERRORS.blank] };
  // The URL parser behind domainToASCII decodes percent escapes and takes IP literals: neither is a domain.
  if (/[%/\\:@[\]\s]/u.test(trimmed) || [...trimmed].length > 253) {
    return { errors: [[...trimmed].length > 253 ? DOMAIN_ERRORS.tooLong : DOMAIN_ERRORS.invalid] };
  }
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === "") return { errors: [DOMAIN_ERRORS.invalid] };
  if (ascii.length > 253) return { errors: [DOMAIN_ERRORS.tooLong] };
  const labels = ascii.split(".");
  if (!labels.every((l) => LABEL.test(l))) return { errors: [DOMAIN_ERRORS.invalid] };
  if (labels.length < 2) return { errors: [DOMAIN_ERRORS.oneLabel] };
  // An all-digit top-level label is an IPv4 address, not a name.
  if (/^\d+$/.test(labels.at(-1) as string)) return { errors: [DOMAIN_ERRORS.invalid] };
  const errors: string[] = [];
  if (getPublicSuffix(ascii, { allowPrivateDomains: true }) === ascii) errors.push(DOMAIN_ERRORS.publicSuffix);
  if (isConsumerDomain(ascii)) errors.push(DOMAIN_ERRORS.consumer);
  return errors.length > 0 ? { errors } : { domain: ascii };
}

/** The e-mail's domain in the form domains are kept in, or undefined when it has none that could be one. */
export function domainOfEmail(email: string): string | undefined {
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return undefined;
  const checked = checkDomain(email.slice(at + 1));
  return "domain" in checked ? checked.domain : undefined;
}
