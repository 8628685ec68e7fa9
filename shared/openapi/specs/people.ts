/**
 * The API document's operations on the caller's own account (docs/contract/people.md), by route key (see shared/openapi/spec.ts).
 */
import { MFA_ERRORS, mfaInput } from "../../people/schema.js";
import { paths } from "../../routes.js";
import { schemaRef as ref } from "../components.js";
import { convertObject } from "../requests.js";
import type { Spec } from "../spec.js";

export function peopleSpecs(errorMode: "throw" | "ignore"): Record<string, Spec> {
  const me = paths.me;
  return {
    [`PUT ${me}/mfa`]: {
      operationId: "setMfa",
      summary: "Turn your authenticator app on or off",
      description:
        "The caller's own second sign-in step: `totp: true` makes the authenticator app (TOTP) the preferred second step, so that " +
        "later sign-ins ask for its code; `false` turns it off. Turning it on needs an app the caller has associated and verified " +
        "a code of first, with their own access token (Cognito's `AssociateSoftwareToken`, then `VerifySoftwareToken`; the " +
        "console does both). Where the deployment requires a second step (`mfa: required`) it cannot be turned off. Logs " +
        "`mfa_enabled` or `mfa_disabled` in the caller's account.",
      tag: "Your account",
      body: {
        schema: { type: "object", properties: { mfa: convertObject(mfaInput, errorMode) }, required: ["mfa"] },
        example: { mfa: { totp: true } },
      },
      success: {
        status: "200",
        description: "The second step as the user pool now holds it.",
        schema: ref("MfaSetting"),
        example: { mfa: { totp: true }, message: "Authenticator app turned on: sign-ins ask for its code" },
      },
      errors: {
        422: {
          shape: "either",
          examples: {
            validation: { errors: [MFA_ERRORS.totp] },
            unverified: {
              error:
                "Set up the authenticator app first: scan its code, then verify one code from it (AssociateSoftwareToken, VerifySoftwareToken)",
            },
            required: { error: "A second sign-in step is required here: the authenticator app cannot be turned off" },
          },
        },
      },
    },
    [`POST ${me}/sign_out_everywhere`]: {
      operationId: "signOutEverywhere",
      summary: "Sign out everywhere",
      description:
        "Revokes every refresh token of the caller: each browser or app signed in as them must sign in again once its ID token " +
        "(valid for an hour at most) expires. Logs `signed_out_everywhere` in the caller's account.",
      tag: "Your account",
      success: {
        status: "200",
        description: "Every session of the caller is signed out.",
        schema: ref("Message"),
        example: { message: "Signed out everywhere: every session must sign in again" },
      },
    },
  };
}
