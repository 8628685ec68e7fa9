/**
 * Input shapes for institutions and cohorts: the single source of what a client may send. `v.object`
 * keeps only the listed keys, which is the whitelist: anything else (mass assignment, `__proto__`) is dropped.
 * Messages are Rails-style full messages, as the contract's `{errors:[...]}` bodies show them.
 */
import * as v from "valibot";
import { SETTINGS_KEYS, type SettingsKey } from "../constants.js";
import { isPlainText, lineFeeds, maxCodePoints, plainText } from "../text.js";

export { SETTINGS_DEFAULTS, type Settings, type SettingsKey } from "../constants.js";

const label = (key: string) => {
  const words = key.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const tooLong = (key: string, max: number) => `${label(key)} is too long (maximum is ${max} characters)`;
const invalidCharacters = (key: string) => `${label(key)} contains invalid characters`;

/**
 * An optional text field: trimmed, empty means "clear it" (null), longer than `max` code points is
 * refused. Text is single-line unless `lines` (then CRLF is stored as LF), except where the contract
 * judges a value by its `format` alone (`plain: false`: an e-mail address is valid or invalid).
 */
const optionalText = (
  key: string,
  max: number,
  { format, lines = false, plain = true }: { format?: RegExp; lines?: boolean; plain?: boolean } = {},
) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string(`${label(key)} is invalid`),
        v.trim(),
        lineFeeds,
        v.check((s: string) => !plain || isPlainText(s, { lines }), invalidCharacters(key)),
        maxCodePoints(max, tooLong(key, max)),
        v.check((s: string) => s === "" || !format || format.test(s), `${label(key)} is invalid`),
      ),
    ),
  );

const CONTACT_EMAIL = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@\p{Cc}\p{Cf}]+\.[^\s@\p{Cc}\p{Cf}]+$/u;
const PHONE = /^[0-9 +\-()]{5,32}$/;

/** An object of booleans; valibot's `object` alone would also take an array (typeof "object") and ignore it. */
const settingsSchema = v.pipe(
  v.custom<Record<string, unknown>>((s) => typeof s === "object" && s !== null && !Array.isArray(s), "Settings is invalid"),
  v.object(
    Object.fromEntries(SETTINGS_KEYS.map((k) => [k, v.optional(v.boolean(`Settings ${k.replace(/_/g, " ")} must be true or false`))])) as {
      [K in SettingsKey]: v.OptionalSchema<v.BooleanSchema<string>, undefined>;
    },
    "Settings is invalid",
  ),
);

/** A required name (institution or cohort): one line, 1–255 code points after trim. */
const nameText = (typeMessage: string) =>
  v.pipe(
    v.string(typeMessage),
    v.trim(),
    v.nonEmpty("Name can't be blank"),
    plainText(invalidCharacters("name")),
    maxCodePoints(255, tooLong("name", 255)),
  );

/** Name: null counts as blank (the default goes through the checks), so its message joins the others in one 422. */
const name = v.nullable(nameText("Name is invalid"), "");

const fields = {
  registration_number: optionalText("registration_number", 64),
  address: optionalText("address", 1000, { lines: true }),
  contact_email: optionalText("contact_email", 254, { format: CONTACT_EMAIL, plain: false }),
  contact_phone: optionalText("contact_phone", 32, { format: PHONE }),
  settings: v.optional(settingsSchema),
};

/** Body of `institution` on create: `name` is required. */
export const institutionCreate = v.object({ name: v.optional(name, ""), ...fields });

/** Body of `institution` on update (PATCH and PUT): only submitted keys change; `name` may not be blanked. */
export const institutionInput = v.object({ name: v.optional(name), ...fields });

export type InstitutionInput = v.InferOutput<typeof institutionInput>;

/** A missing name is blank too (not valibot's "Invalid key" message). */
export const cohortInput = v.object({ name: v.optional(nameText("Name can't be blank"), "") });

export type CohortInput = v.InferOutput<typeof cohortInput>;
