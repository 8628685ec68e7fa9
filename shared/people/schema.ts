/** The body of `PUT /me/mfa` (docs/contract/people.md): `{mfa: {totp}}`, the authenticator app as the second step, on or off. */
import * as v from "valibot";

export const MFA_ERRORS = { totp: "Totp must be true or false" } as const;

/** A missing `totp` is refused as a wrong one is: the object's message is its missing key's. */
export const mfaInput = v.object({ totp: v.boolean(MFA_ERRORS.totp) }, MFA_ERRORS.totp);
