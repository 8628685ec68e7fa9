/**
 * The security-event use cases' response bodies, in valibot: schemas of the API document under these names
 * (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { COUNTED_TYPES, type CountedType } from "../constants.js";
import { EventDetails, EventType, Id, PageMeta, Timestamp } from "../responses.js";
import type { AlertRule } from "./alerts.js";

export const ListedEvent = v.strictObject({
  id: Id,
  event_type: EventType,
  user_email: v.nullable(v.string()),
  ip_address: v.string(),
  details: EventDetails,
  created_at: Timestamp,
  description: v.pipe(v.string(), v.description("One line of human-readable text.")),
});

export const SecurityEvent = v.strictObject({
  id: Id,
  event_type: EventType,
  user: v.pipe(
    v.strictObject({ id: v.nullable(v.string()), email: v.nullable(v.string()), name: v.nullable(v.string()) }),
    v.description("The actor as it was when the event happened."),
  ),
  ip_address: v.string(),
  details: EventDetails,
  created_at: Timestamp,
  description: v.string(),
});

export const SecurityEventList = v.strictObject({ events: v.array(ListedEvent), meta: PageMeta });

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const counts = Object.fromEntries(COUNTED_TYPES.map((t) => [t, count])) as Record<CountedType, typeof count>;

export const AlertCounts = v.pipe(v.strictObject(counts), v.description("Events of each counted type in the last hour (0 when none)."));

export const Alert = v.strictObject({
  type: v.picklist(["unauthorized_access", "rate_limit", "token_failures"] as const satisfies readonly AlertRule["type"][]),
  severity: v.picklist(["high", "medium"] as const satisfies readonly AlertRule["severity"][]),
  count: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

/** The counted types' events in one minute (`YYYY-MM-DDTHH:MM`) of the hour. */
export const AlertMinute = v.pipe(
  v.strictObject({ minute: v.pipe(v.string(), v.description("The minute, UTC (ISO 8601).")), ...counts }),
  v.description("The counted types' events in one minute of the hour."),
);

export const Alerts = v.strictObject({
  summary: AlertCounts,
  alerts: v.pipe(
    v.array(Alert),
    v.description(
      "Present only when a count reaches its threshold: unauthorized_access ≥ 5 (high), rate_limit ≥ 10 (medium), token_failures ≥ 20 (high).",
    ),
  ),
  time_range: v.strictObject({ from: Timestamp, to: Timestamp }),
  series: v.pipe(v.array(AlertMinute), v.length(60), v.description("Per-minute counts over the same hour, oldest first, for a chart.")),
});

const sha256 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

export const Digest = v.pipe(
  v.strictObject({
    account_id: v.string(),
    sequence: v.pipe(v.number(), v.integer(), v.minValue(1), v.description("1 for the account's first digest, then +1 each.")),
    period_start: Timestamp,
    period_end: Timestamp,
    event_count: v.pipe(v.number(), v.integer(), v.minValue(1)),
    events_hash: sha256,
    previous_digest_hash: v.nullable(sha256),
    created_at: Timestamp,
    key_id: v.string(),
    signature: v.pipe(v.string(), v.description("Base64 of the DER ECDSA P-256 / SHA-256 signature.")),
  }),
  v.description("A signed digest of one account's events in one period."),
);

export const DigestList = v.strictObject({
  digests: v.array(Digest),
  public_key: v.pipe(v.string(), v.description("The signing key's public key, PEM (SPKI).")),
});
