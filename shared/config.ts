/**
 * Configuration shared by every function, read and checked once at module load: a misconfigured
 * deployment fails at its first cold start, loudly, instead of on some later request.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

export const config = {
  region: process.env.AWS_REGION ?? "us-east-1",
  tables: {
    main: required("MAIN_TABLE"),
    events: required("EVENTS_TABLE"),
    /** Set only for functions with a POST route (Idempotency-Key, DESIGN.md §12). */
    idempotency: process.env.IDEMPOTENCY_TABLE || undefined,
  },
  /** Overrides for local services; unset in AWS. */
  endpoints: {
    dynamodb: process.env.DYNAMODB_ENDPOINT || undefined,
    ses: process.env.SES_ENDPOINT || undefined,
  },
  invitationValidityDays: positiveInt("INVITATION_VALIDITY_DAYS", 7),
  pendingInvitationLimit: positiveInt("PENDING_INVITATION_LIMIT", 3),
  /** Mail bounds (DESIGN.md §3): a resend waits this long after the invitation's last mail, */
  resendCooldownSeconds: positiveInt("RESEND_COOLDOWN_SECONDS", 600),
  /** at most this many invitation mails per institution per UTC hour, */
  institutionHourlyMailLimit: positiveInt("INSTITUTION_HOURLY_MAIL_LIMIT", 100),
  /** and at most this many per (institution, e-mail) per UTC day. */
  recipientDailyMailLimit: positiveInt("RECIPIENT_DAILY_MAIL_LIMIT", 10),
} as const;
