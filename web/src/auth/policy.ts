/** The user pool's password policy (infra/identity.ts), in words, wherever a person chooses a password. */
export const PASSWORD_POLICY = "At least 12 characters, with upper- and lower-case letters, a digit and a symbol.";
