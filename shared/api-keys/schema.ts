/**
 * The body of `POST /institutions/:id/api_keys` (docs/api-keys.md): `{name, scopes, expires_at?}`. The schema says
 * the shapes; that `expires_at` lies in the future and at most a year ahead needs the clock, so the use case
 * checks it (service.ts). `v.object` keeps only these keys, in a fresh object: nothing else of the body goes on.
 */
import * as v from "valibot";
import { maxCodePoints, plainText } from "../text.js";
import { NAME_MAX } from "./model.js";
import { SCOPES } from "./scopes.js";

export const API_KEY_ERRORS = {
  name: "Name can't be blank",
  nameLength: `Name is too long (maximum is ${NAME_MAX} characters)`,
  nameLine: "Name must be one line of visible text",
  scopes: `Scopes must list one or more of ${SCOPES.join(", ")}`,
  expiresAt: "Expires at must be an ISO 8601 time",
  expiresPast: "Expires at must be in the future",
  expiresFar: "Expires at must be at most a year ahead",
} as const;

export const apiKeyCreate = v.object({
  // A missing name is blank too (not valibot's "Invalid key" message).
  name: v.optional(
    v.pipe(
      v.string(API_KEY_ERRORS.name),
      v.trim(),
      v.nonEmpty(API_KEY_ERRORS.name),
      maxCodePoints(NAME_MAX, API_KEY_ERRORS.nameLength),
      plainText(API_KEY_ERRORS.nameLine),
      v.description("What the key is for, as the list and the trail name it: 1 to 64 characters, one line."),
    ),
    "",
  ),
  // Missing scopes are none (refused with the scopes' message, not valibot's "Invalid key").
  scopes: v.optional(
    v.pipe(
      v.array(v.picklist(SCOPES, API_KEY_ERRORS.scopes), API_KEY_ERRORS.scopes),
      v.minLength(1, API_KEY_ERRORS.scopes),
      v.maxLength(SCOPES.length * 4, API_KEY_ERRORS.scopes),
      v.description("The key's whole grant; a scope given twice counts once."),
    ),
    [],
  ),
  expires_at: v.optional(
    v.nullable(
      v.pipe(
        v.string(API_KEY_ERRORS.expiresAt),
        v.maxLength(64, API_KEY_ERRORS.expiresAt),
        v.isoTimestamp(API_KEY_ERRORS.expiresAt),
        v.description("When the key stops working: in the future, at most a year ahead. Left out or null: it never expires."),
      ),
    ),
  ),
});
export type ApiKeyInput = v.InferOutput<typeof apiKeyCreate>;
