/**
 * The SSO triggers' one wrapper (functions/sso/pre-*.ts): it tells an intended refusal of a sign-in from an
 * unexpected failure. Both are thrown, since a throw is how a trigger fails a sign-in (Cognito shows the message);
 * only the unexpected one (DynamoDB unreachable, a bug) is logged at ERROR, once, naming the trigger (shared/failures.ts).
 * That line is what each trigger's log group counts and alarms on (infra/sso-triggers.ts, docs/operations.md), so a
 * refusal, logged at INFO where it is made, never wakes an operator.
 */

import { loggingFailures } from "../failures.js";
import { POOL_TRIGGERS, type TriggersOf } from "../pool-triggers.js";

/** A sign-in refused on purpose (trust, require SSO): its message is what the person reads from Cognito. */
export class SignInRefused extends Error {
  override readonly name = "SignInRefused";
}

/**
 * What a person reads from Cognito when a trigger fails unexpectedly: not the error's own message, which may name
 * hosts, tables or code (the log line keeps it).
 */
export const TRIGGER_FAILED = "Sign-in is unavailable right now. Try again in a few minutes.";

/**
 * `handler` as the pool's `trigger`: a thrown `SignInRefused` passes as it is; anything else is logged at ERROR,
 * then thrown as `TRIGGER_FAILED` (the original as its `cause`).
 */
export function ssoTrigger<E>(trigger: TriggersOf<"sso">, handler: (event: E) => Promise<E>): (event: E) => Promise<E> {
  return loggingFailures(
    { message: "SSO trigger failed", trigger, handler: POOL_TRIGGERS[trigger] },
    (error) => error instanceof SignInRefused,
    handler,
    (error) => new Error(TRIGGER_FAILED, { cause: error }),
  );
}
