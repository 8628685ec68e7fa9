/**
 * Response shapes several features share, in valibot (docs/api.md): each export is a schema of the API
 * document, named as it is there (`#/components/schemas/<name>`). The document converts them
 * (shared/openapi/responses.ts); the use cases take their result types from them (`v.InferOutput`, type-only
 * imports). Objects are strict, so the document says `additionalProperties: false`: a field a service starts to
 * send without the document saying so fails the tests that validate every response. Kept out of the request
 * schema modules: a top-level `v.object(…)` is not tree-shaken, and no handler should carry these.
 */
import * as v from "valibot";
import { EVENT_TYPES } from "./constants.js";
import { ACTOR_DETAIL_KEYS, DETAIL_KEYS } from "./event-details.js";
import { ROLES } from "./roles.js";

export const Id = v.pipe(
  v.string(),
  v.description("An opaque id assigned by the service (time-ordered, 26 characters)."),
  v.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/),
  v.examples(["01M84M2ES7DTY37NE05PPBJBQG"]),
);

/** An ISO 8601 instant, UTC, with milliseconds. */
export const Timestamp = v.pipe(
  v.string(),
  v.isoTimestamp(),
  v.description("ISO 8601, UTC, with milliseconds."),
  v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
  v.examples(["2026-11-23T16:33:19.655Z"]),
);

export const Role = v.picklist(ROLES);

/** `Error` in the document (a name this module cannot take from the global `Error`). */
export const ErrorBody = v.pipe(v.strictObject({ error: v.string() }), v.description("A single message."));

export const ValidationErrors = v.pipe(
  v.strictObject({ errors: v.pipe(v.array(v.string()), v.minLength(1)) }),
  v.description(
    "Every validation failure of the record, each a full message (`Name can't be blank`, `<Field> contains invalid characters`).",
  ),
);

export const GatewayMessage = v.pipe(
  v.strictObject({ message: v.string() }),
  v.description(
    "Written by API Gateway itself, before or instead of the function: 401 `Unauthorized`, 413 `Request Entity Too Large` (over 10 MB), 500 `Internal Server Error` (the function failed), 503 `Service Unavailable` (it timed out).",
  ),
);

export const Message = v.strictObject({ message: v.string() });

export const PageMeta = v.strictObject({
  count: v.pipe(v.number(), v.integer(), v.minValue(0), v.description("Items on this page.")),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)),
  next_cursor: v.pipe(v.nullable(v.string()), v.description("Pass as `cursor` for the next page; null on the last page.")),
});

export const EventType = v.picklist(EVENT_TYPES);

/** The keys about an event's actor (shared/event-details.ts `ACTOR_DETAIL_KEYS`). */
const ACTOR_KEYS_TEXT = `${ACTOR_DETAIL_KEYS.join(", ")} (\`{id, name}\` of the institution API key that acted; then \`user\` is null)`;

export const EventDetails = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description(
    `Event-specific data; values taken from a request are cut to 64 characters. Keys by event type: ${Object.entries(DETAIL_KEYS)
      .map(([type, keys]) => `${type}: ${keys.join(", ")}`)
      .join("; ")}. Any type: ${ACTOR_KEYS_TEXT}.`,
  ),
);

export const AlreadyAccepted = v.pipe(
  v.strictObject({ error: v.literal("Invitation already accepted"), institution: v.strictObject({ name: v.string() }) }),
  v.description("The invitation was used already, by the one asking: reopening an accepted link. Nothing is recorded."),
);
