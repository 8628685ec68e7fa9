/**
 * The institution and cohort use cases' response bodies, in valibot: schemas of the API document under these
 * names (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { SETTINGS_KEYS, type SettingsKey } from "../constants.js";
import { Id, Role, Timestamp } from "../responses.js";

const flags = <T extends v.GenericSchema>(flag: T) => Object.fromEntries(SETTINGS_KEYS.map((k) => [k, flag])) as Record<SettingsKey, T>;

export const Settings = v.pipe(
  v.strictObject(flags(v.optional(v.boolean()))),
  v.description("The settings stored for the institution: only the keys ever set."),
);

export const EffectiveSettings = v.pipe(
  v.strictObject(flags(v.boolean())),
  v.description(
    "Stored settings merged over the defaults (allow_student_enrollment true, require_verification true, auto_finalize false, email_notifications true).",
  ),
);

export const Institution = v.strictObject({
  id: Id,
  name: v.string(),
  registration_number: v.nullable(v.string()),
  address: v.nullable(v.string()),
  contact_email: v.nullable(v.string()),
  contact_phone: v.nullable(v.string()),
  settings: Settings,
  account_id: v.string(),
  super_admin_id: v.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InstitutionListItem = v.strictObject({
  id: Id,
  name: v.string(),
  registration_number: v.nullable(v.string()),
  contact_email: v.nullable(v.string()),
  role: v.pipe(Role, v.description("The caller's role in the institution.")),
  is_super_admin: v.pipe(v.boolean(), v.description("True when the caller is the institution's super admin.")),
  created_at: Timestamp,
});

export const Cohort = v.strictObject({ id: Id, name: v.string(), created_at: Timestamp });

export const InstitutionList = v.strictObject({ institutions: v.array(InstitutionListItem) });

export const InstitutionShown = v.strictObject({
  institution: Institution,
  role: v.pipe(Role, v.description("The caller's role in the institution.")),
  is_super_admin: v.boolean(),
  settings: EffectiveSettings,
});

export const InstitutionWritten = v.strictObject({ institution: Institution, message: v.string() });

export const CohortList = v.strictObject({ cohorts: v.array(Cohort) });

export const CohortCreated = v.strictObject({ cohort: Cohort });
