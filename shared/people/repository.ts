/**
 * The trail's side of a person's own events that arrive more than once: a record of the user pool's activity
 * export (a log subscription invokes its function at least once, and Lambda retries a failed invocation) is
 * recorded with a marker of its export id, in the event's transaction, so a second delivery records nothing.
 */
import { type AuditEvent, commitWithEvent } from "../audit.js";
import { config } from "../config.js";
import { keys } from "../tables.js";
import type { Written } from "../tx.js";

/** Markers outlive any redelivery (Lambda retries an asynchronous invocation for up to 6 hours) by far. */
const MARKER_DAYS = 7;

/** Records `e` unless the export's record `cognitoEventId` has its event already (`already`). */
export async function recordActivityOnce(e: AuditEvent, cognitoEventId: string): Promise<Written<{ kind: "already" }>> {
  const marker = {
    Put: {
      TableName: config.tables.main,
      Item: {
        ...keys.poolActivity(cognitoEventId),
        event_id: e.id,
        ttl: Math.floor(Date.parse(e.createdAt) / 1000) + MARKER_DAYS * 86_400,
      },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
  const result = await commitWithEvent(e, { "pool activity marker": marker });
  if (result.kind === "ok") return result;
  if (result.kind === "conflict") return { kind: "retry" };
  if (result.item === "pool activity marker") return { kind: "already" };
  throw new Error(`recording pool activity ${cognitoEventId} failed its condition on ${result.item}`);
}
