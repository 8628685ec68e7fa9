/** The user pool's password policy (shared/password-policy.ts), in words, wherever a person chooses a password. */
import { PASSWORD_POLICY as P } from "../../../shared/password-policy";

export { passwordProblems } from "../../../shared/password-policy";

export const PASSWORD_POLICY = `At least ${P.minLength} characters, with upper- and lower-case letters, a digit and a symbol.`;
