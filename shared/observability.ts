/**
 * Names the functions emit and the CDK stack alarms and graphs on: one place, so a renamed metric cannot
 * leave an alarm watching nothing.
 */
export const METRICS_NAMESPACE = "InstitutionAdmin";
export const SERVICE_NAME = "institution-admin-api";

/** EMF metric names. Dimensions: `route` on request metrics, `event_type` on `SecurityEventRecorded`. */
export const METRIC = {
  /** An invitation mail accepted by SES (create and resend). */
  mailSent: "InvitationMailSent",
  /** SES refused or could not be reached; the invitation is withdrawn. */
  mailFailed: "InvitationMailFailed",
  /** An invitation withdrawn after its mail failed. */
  invitationWithdrawn: "InvitationWithdrawn",
  /** A conditional write lost a race (before any retry). */
  writeConflict: "WriteConflict",
  /** A write attempt made again after a conflict. */
  writeRetry: "WriteRetry",
  /** A security event written, dimension `event_type`. */
  securityEventRecorded: "SecurityEventRecorded",
  /** Rows in one CSV export. */
  exportedRows: "ExportedRows",
  /** The full-export worker's peak resident set size in one run, in bytes (what its memory size must hold). */
  exportWorkerPeakRss: "ExportWorkerPeakRss",
  /** Responses by class, dimension `route`. */
  clientError: "ClientError",
  serverError: "ServerError",
} as const;

/**
 * The count of an SSO trigger's ERROR lines (shared/sso/trigger.ts logs an unexpected failure so), by the metric
 * filter on its log group (infra/sso-triggers.ts): one metric per trigger, e.g. `PreSignUpTriggerFailures`, since
 * a metric filter's dimensions can only be fields of the log line.
 */
export const ssoTriggerFailuresMetric = (trigger: string): string => `${trigger}TriggerFailures`;

/**
 * The count of a Lambda authorizer's ERROR lines (shared/failures.ts logs an unexpected failure so), by the metric
 * filter on its log group (infra/api.ts, infra/machine-api.ts): one metric per authorizer.
 */
export const AUTHORIZER_FAILURES = {
  "scim/authorizer": "ScimAuthorizerFailures",
  "api-keys/authorizer": "KeyAuthorizerFailures",
} as const;
