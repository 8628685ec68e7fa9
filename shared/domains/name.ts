/**
 * What a verifiable domain is (docs/sso.md): of a domain's form (form.ts), and not a public suffix (`co.uk`,
 * `github.io`: the Public Suffix List, its private section included, through `tldts`), not a consumer mail
 * provider's. Every message once, as 422 `{errors}`.
 */
import { getPublicSuffix } from "tldts";
import { isConsumerDomain } from "./consumer.js";
import { domainForm, FORM_ERRORS } from "./form.js";

export const DOMAIN_ERRORS = {
  ...FORM_ERRORS,
  publicSuffix: "Domain is a public suffix, which no institution can own",
  consumer: "Domain belongs to a consumer mail provider",
} as const;

/** The domain's ASCII form, or the messages that refuse it. */
export function checkDomain(input: string): { domain: string } | { errors: string[] } {
  const formed = domainForm(input);
  if ("error" in formed) return { errors: [formed.error] };
  const ascii = formed.domain;
  const errors: string[] = [];
  if (getPublicSuffix(ascii, { allowPrivateDomains: true }) === ascii) errors.push(DOMAIN_ERRORS.publicSuffix);
  if (isConsumerDomain(ascii)) errors.push(DOMAIN_ERRORS.consumer);
  return errors.length > 0 ? { errors } : { domain: ascii };
}
