/**
 * The user pool's password policy, in one place: the CDK pool (infra/identity.ts), the local pool
 * (infra/local/cognito.ts) and the join route's check before it creates anything (invitations/join.ts) read it,
 * so a password the pool would refuse is refused with what it lacks, and nothing is left half made.
 * No imports: the console may show the same rules.
 */
export const PASSWORD_POLICY = {
  minLength: 12,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

/** Cognito's longest password. */
export const PASSWORD_MAX_LENGTH = 256;

/** The characters Cognito counts as symbols (its documented set; a space counts when not at either end). */
const SYMBOL = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/;

/** What `password` lacks under the pool's policy, as Rails-style full messages; empty when the pool takes it. */
export function passwordProblems(password: string): string[] {
  const p = PASSWORD_POLICY;
  const problems: string[] = [];
  const length = [...password].length;
  if (length < p.minLength) problems.push(`Password is too short (minimum is ${p.minLength} characters)`);
  if (length > PASSWORD_MAX_LENGTH) problems.push(`Password is too long (maximum is ${PASSWORD_MAX_LENGTH} characters)`);
  if (p.requireLowercase && !/[a-z]/.test(password)) problems.push("Password must contain a lowercase letter");
  if (p.requireUppercase && !/[A-Z]/.test(password)) problems.push("Password must contain an uppercase letter");
  if (p.requireDigits && !/[0-9]/.test(password)) problems.push("Password must contain a digit");
  if (p.requireSymbols && !SYMBOL.test(password.trim())) problems.push("Password must contain a symbol");
  if (password !== password.trim()) problems.push("Password must not begin or end with a space");
  return problems;
}
