/**
 * The verified domains' response bodies (docs/sso.md), in valibot: schemas of the API document under these
 * names (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { Id, Timestamp } from "../responses.js";

export const Domain = v.pipe(
  v.strictObject({
    id: Id,
    domain: v.pipe(v.string(), v.description("Lower case, in its ASCII (IDNA) form: `xn--bcher-kva.de` for bücher.de.")),
    state: v.pipe(
      v.picklist(["pending", "verified", "failed"]),
      v.description("`pending` until verified; `failed` when not verified within 7 days of being added (remove it and add it again)."),
    ),
    verification: v.pipe(
      v.strictObject({
        record_type: v.literal("TXT"),
        record_name: v.pipe(v.string(), v.description("`_institution-admin-challenge.<domain>`")),
        record_value: v.pipe(v.string(), v.description("The value to publish there: a random token of this domain.")),
      }),
      v.description("The DNS record that proves the institution controls the domain."),
    ),
    created_at: Timestamp,
    verified_at: v.nullable(Timestamp),
    last_checked_at: v.pipe(v.nullable(Timestamp), v.description("When a verification last looked the record up.")),
    last_error: v.pipe(v.nullable(v.string()), v.description("Why the last verification did not verify; null once verified.")),
  }),
  v.description("A mail domain of the institution, and whether it proved it controls it."),
);

export const DomainShown = v.strictObject({ domain: Domain });
export const DomainList = v.strictObject({ domains: v.pipe(v.array(Domain), v.maxLength(20)) });
