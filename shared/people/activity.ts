/**
 * What the user pool's user-activity export adds to people's trails (docs/contract/people.md): the events no trigger sees.
 * A failed sign-in runs no trigger (PreAuthentication runs before the password is checked, PostAuthentication
 * only after a success), and neither does a password change; the export reports both. Of its records:
 * - `SignIn` / `Fail` → `sign_in_failed` (the wrong password, the wrong code of the second step, or blocked by
 *   threat protection);
 * - `PasswordChange` / `Pass` → `password_changed`;
 * - everything else is left out: a successful sign-in is the PostAuthentication trigger's `sign_in`, a completed
 *   reset the PostConfirmation trigger's `password_reset`; a code requested or resent is no change.
 * The person is the pool's user of the record's `sub`, as the pool holds them now; a record naming no user the
 * pool has (an address nobody signs in with) records nothing: there is no trail it belongs to.
 */
import { isIP } from "node:net";
import { auditEvent } from "../audit.js";
import { RETRY, withRetries } from "../retry.js";
import { logger } from "../telemetry.js";
import { poolAttributesOf } from "../users.js";
import { type ActivityRecord, decodeSubscription, readActivity } from "./activity-log.js";
import { poolActor, UNKNOWN_ADDRESS } from "./pool-events.js";
import { recordActivityOnce } from "./repository.js";

/** What one record becomes: an event, or nothing (and why, for the log). */
type Outcome = "recorded" | "already" | "ignored" | "unknown_user";

/** `sign_in_failed`'s reason, from the record's challenges and risk. */
function failure(r: ActivityRecord): "wrong_password" | "wrong_code" | "blocked" {
  const failed = (name: string) => Object.entries(r.challenges).some(([k, v]) => k.toLowerCase() === name && /^fail/i.test(v));
  if (failed("mfa")) return "wrong_code";
  if (failed("password")) return "wrong_password";
  return "blocked";
}

async function recordOne(r: ActivityRecord): Promise<Outcome> {
  const failedSignIn = r.eventType === "SignIn" && r.eventResponse === "Fail";
  const passwordChanged = r.eventType === "PasswordChange" && r.eventResponse === "Pass";
  if (!failedSignIn && !passwordChanged) return "ignored";
  if (!r.userSub) return "unknown_user";
  const attributes = await poolAttributesOf(r.userSub);
  const actor = attributes && poolActor(attributes, r.ipAddress && isIP(r.ipAddress) ? r.ipAddress : UNKNOWN_ADDRESS);
  if (!actor) return "unknown_user";
  const event = failedSignIn
    ? auditEvent(actor, "sign_in_failed", {
        method: "password",
        reason: failure(r),
        ...(r.riskLevel && { risk_level: r.riskLevel.toLowerCase() }),
        cognito_event_id: r.eventId,
      })
    : auditEvent(actor, "password_changed", { cognito_event_id: r.eventId });
  return withRetries("Pool activity could not be recorded, please retry", async () => {
    const result = await recordActivityOnce(event, r.eventId);
    return result.kind === "retry" ? RETRY : result.kind === "ok" ? "recorded" : "already";
  });
}

/**
 * Records the events of one subscription delivery (`awslogs.data`), in order. A record that cannot be recorded
 * fails the whole delivery after the others were tried, so that Lambda delivers it again; the ones recorded
 * then find their marker and are not recorded twice.
 */
export async function recordActivity(data: string): Promise<Record<Outcome, number>> {
  const counts: Record<Outcome, number> = { recorded: 0, already: 0, ignored: 0, unknown_user: 0 };
  let firstError: unknown;
  for (const logEvent of decodeSubscription(data)) {
    const record = readActivity(logEvent.message, logEvent.timestamp);
    if (!record) {
      counts.ignored++;
      continue;
    }
    try {
      counts[await recordOne(record)]++;
    } catch (err) {
      logger.error("a pool activity record could not be recorded", { eventId: record.eventId, error: err as Error });
      firstError ??= err;
    }
  }
  if (firstError !== undefined) throw firstError;
  return counts;
}
