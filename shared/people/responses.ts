/**
 * The response bodies of a person's own routes (docs/contract/people.md), in valibot: schemas of the API document under
 * these names (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";

export const MfaSetting = v.strictObject({
  mfa: v.pipe(
    v.strictObject({ totp: v.pipe(v.boolean(), v.description("Whether the authenticator app (TOTP) is the second sign-in step.")) }),
    v.description("The caller's second sign-in step as the user pool now holds it."),
  ),
  message: v.string(),
});
