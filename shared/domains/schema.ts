/**
 * The body of `POST /institutions/:id/domains`: `{domain}`. The value rules (IDNA, labels, public suffixes,
 * consumer mail providers) are name.ts's; every failure is 422 with its message.
 */
import * as v from "valibot";
import { checkDomain, DOMAIN_ERRORS } from "./name.js";

export const domainInput = v.object({
  domain: v.pipe(
    v.string(DOMAIN_ERRORS.blank),
    v.maxLength(1024, DOMAIN_ERRORS.tooLong),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const checked = checkDomain(dataset.value);
      if ("domain" in checked) return checked.domain;
      for (const message of checked.errors) addIssue({ message });
      return NEVER;
    }),
  ),
});
