/**
 * The contract's fixed lists, in one module with no imports, so the console's bundle can take them without
 * pulling in the AWS SDK, Powertools or the service's configuration. The domain (audit.ts,
 * institutions/schema.ts) and the response schemas the API document is generated from (responses.ts) import them
 * from here.
 */

/** An institution's settings, in the order the console and the document list them. */
export const SETTINGS_KEYS = ["allow_student_enrollment", "require_verification", "auto_finalize", "email_notifications"] as const;
export type SettingsKey = (typeof SETTINGS_KEYS)[number];
export type Settings = Partial<Record<SettingsKey, boolean>>;

/** What a setting is when the institution has not set it. */
export const SETTINGS_DEFAULTS: Readonly<Required<Settings>> = {
  allow_student_enrollment: true,
  require_verification: true,
  auto_finalize: false,
  email_notifications: true,
};

/** Every security event type. */
export const EVENT_TYPES = [
  "institution_created",
  "institution_updated",
  "institution_deleted",
  "insufficient_privileges",
  "unauthorized_institution_access",
  "rate_limit_exceeded",
  "token_validation_failure",
  "security_events_exported",
  "invitation_created",
  "invitation_revoked",
  "invitation_resent",
  "invitation_accepted",
  "cohort_created",
  "webhook_created",
  "webhook_deleted",
  "webhook_disabled",
  "administrator_removed",
  "administrator_role_changed",
  "institution_transferred",
  "account_created",
  "cohort_deleted",
  "scim_connected",
  "scim_token_rotated",
  "scim_role_mappings_changed",
  "scim_disconnected",
  "administrator_provisioned",
  "administrator_deprovisioned",
  "domain_added",
  "domain_verified",
  "domain_verification_failed",
  "domain_removed",
  "sso_connected",
  "sso_updated",
  "sso_disconnected",
  "sso_sign_in",
  "sso_sign_in_refused",
  "api_key_created",
  "api_key_revoked",
  "sign_in",
  "sign_in_failed",
  "password_reset",
  "password_changed",
  "mfa_enabled",
  "mfa_disabled",
  "signed_out_everywhere",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Event types counted per minute for the alerts summary. */
export const COUNTED_TYPES = [
  "unauthorized_institution_access",
  "rate_limit_exceeded",
  "token_validation_failure",
] as const satisfies readonly EventType[];
export type CountedType = (typeof COUNTED_TYPES)[number];

/** The request header of docs/contract/README.md#retries-and-concurrent-edits, lower-cased as API Gateway passes header names. */
export const IDEMPOTENCY_HEADER = "idempotency-key";
