import { readFileSync } from "node:fs";

/**
 * Configuration shared by every function, read and checked once at module load: a misconfigured
 * deployment fails at its first cold start, loudly, instead of on some later request.
 */
import { envInt } from "./numbers.js";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

/** Digest period: 60–3600 s, dividing the hour, so that periods align to the epoch and to every UTC hour. */
function digestPeriod(): number {
  const seconds = envInt("DIGEST_PERIOD_SECONDS", 3600);
  if (seconds < 60 || seconds > 3600 || 3600 % seconds !== 0) {
    throw new Error(`DIGEST_PERIOD_SECONDS must be between 60 and 3600 and divide 3600, got ${seconds}`);
  }
  return seconds;
}

/**
 * The digest public key as PEM: `DIGEST_PUBLIC_KEY` (PEM, or the base64 DER that KMS GetPublicKey returns, as
 * the deployed stack sets it), else the file `DIGEST_PUBLIC_KEY_FILE` (the local stack's key pair).
 */
function publicKeyPem(): string | undefined {
  const value = process.env.DIGEST_PUBLIC_KEY;
  if (value) {
    if (value.startsWith("-----BEGIN")) return value;
    return `-----BEGIN PUBLIC KEY-----\n${value.match(/.{1,64}/g)?.join("\n")}\n-----END PUBLIC KEY-----\n`;
  }
  const file = process.env.DIGEST_PUBLIC_KEY_FILE;
  return file ? readFileSync(file, "utf8") : undefined;
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
  invitationValidityDays: envInt("INVITATION_VALIDITY_DAYS", 7),
  pendingInvitationLimit: envInt("PENDING_INVITATION_LIMIT", 3),
  /** Mail bounds (DESIGN.md §3): a resend waits this long after the invitation's last mail, */
  resendCooldownSeconds: envInt("RESEND_COOLDOWN_SECONDS", 600),
  /** at most this many invitation mails per institution per UTC hour, */
  institutionHourlyMailLimit: envInt("INSTITUTION_HOURLY_MAIL_LIMIT", 100),
  /** at most this many per (institution, e-mail) per UTC day, */
  recipientDailyMailLimit: envInt("RECIPIENT_DAILY_MAIL_LIMIT", 10),
  /** and, across its institutions (DESIGN.md §13), at most this many from one account per mailbox per UTC day, */
  mailboxDailyMailLimit: envInt("MAILBOX_DAILY_MAIL_LIMIT", 10),
  /** and, across the whole service, at most this many per mailbox per UTC day (the ceiling of every account's share), */
  mailboxDailyCeiling: envInt("MAILBOX_DAILY_CEILING", 50),
  /** and at most this many from the institutions of one account per UTC hour. */
  accountHourlyMailLimit: envInt("ACCOUNT_HOURLY_MAIL_LIMIT", 200),
  /** At most this many institutions created per account per UTC day. */
  accountDailyInstitutionLimit: envInt("ACCOUNT_DAILY_INSTITUTION_LIMIT", 100),
  /** A caller refused (404, 403, a failed token) more than this many times in a UTC minute gets 429 until it ends. */
  refusedRequestLimit: envInt("REFUSED_REQUEST_LIMIT", 30),
  /** Events expire this many days after they happen (DESIGN.md §10); no read returns one past it. */
  eventRetentionDays: envInt("EVENT_RETENTION_DAYS", 90),
  /** Length of a digest period: the hour when deployed, shorter locally for tests and demos. */
  digestPeriodSeconds: digestPeriod(),
  /**
   * The digest signing key: its id and public key (PEM, SPKI), served with the digests. Deployed, the stack
   * sets both from its KMS key; locally they name the key pair the local stack generated (a file).
   */
  digestKey: {
    id: process.env.DIGEST_KEY_ID || undefined,
    publicKey: publicKeyPem(),
  },
} as const;

/** The oldest instant still within the retention at `now`: reads return only events created at it or later. */
export function retainedSince(now: Date): number {
  return now.getTime() - config.eventRetentionDays * 86_400_000;
}
