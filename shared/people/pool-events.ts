/**
 * A person's own events (docs/contract/people.md) from what the user pool reports: its triggers (a sign-in, a password
 * reset) and its user-activity export (activity.ts). Each is recorded in the person's account, through the
 * audit door, with the person as the actor, named as the pool names them now.
 */
import { auditEvent, type EventDetails, recordEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { recordedText } from "../text.js";

/** A pool user's attributes, as a trigger's event or AdminGetUser gives them. */
export type PoolAttributes = Readonly<Record<string, string | undefined>>;

/** What a trigger's event does not say: where the person was. */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * The person the pool's attributes describe, as the actor of their own event: their account is the one the API
 * puts them in (`callerFrom` in caller.ts: `custom:account_id`, else a personal account named after them).
 * Undefined without a `sub`.
 */
export function poolActor(attributes: PoolAttributes, ip = UNKNOWN_ADDRESS): Caller | undefined {
  const sub = attributes.sub;
  if (!sub) return undefined;
  const account = attributes["custom:account_id"];
  const name = attributes.name;
  return {
    id: sub,
    email: (attributes.email ?? "").toLowerCase(),
    name: name ? recordedText(name) : null,
    accountId: account ? account : `user:${sub}`,
    isCohortSuperAdmin: false,
    emailVerified: attributes.email_verified === "true",
    ip,
  };
}

type PersonEvent = "sign_in" | "password_reset";

/** Records `type` for the person of `attributes`; false when the pool named no one (no `sub`). */
async function recordFor<T extends PersonEvent>(attributes: PoolAttributes, type: T, details: EventDetails[T]): Promise<boolean> {
  const actor = poolActor(attributes);
  if (!actor) return false;
  await recordEvent(auditEvent(actor, type, details));
  return true;
}

/** PostAuthentication: the person signed in with their password (and the second step, where the pool asked). */
export const recordSignIn = (attributes: PoolAttributes) => recordFor(attributes, "sign_in", { method: "password" });

/** PostConfirmation_ConfirmForgotPassword: a forgotten password replaced with the mailed code. */
export const recordPasswordReset = (attributes: PoolAttributes) => recordFor(attributes, "password_reset", { method: "email_code" });
