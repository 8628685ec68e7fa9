import { readFileSync } from "node:fs";

/**
 * Configuration shared by every function, read and checked once at module load (shared/settings.ts declares
 * the names, types, bounds and defaults): a misconfigured deployment fails at its first cold start, loudly,
 * instead of on some later request.
 */
import { CORE, readSettings } from "./settings.js";

const env = readSettings(CORE());

/**
 * The digest public key as PEM: `DIGEST_PUBLIC_KEY` (PEM, or the base64 DER that KMS GetPublicKey returns, as
 * the deployed stack sets it), else the file `DIGEST_PUBLIC_KEY_FILE` (the local stack's key pair).
 */
function publicKeyPem(): string | undefined {
  const value = env.DIGEST_PUBLIC_KEY;
  if (value) {
    if (value.startsWith("-----BEGIN")) return value;
    return `-----BEGIN PUBLIC KEY-----\n${value.match(/.{1,64}/g)?.join("\n")}\n-----END PUBLIC KEY-----\n`;
  }
  const file = env.DIGEST_PUBLIC_KEY_FILE;
  return file ? readFileSync(file, "utf8") : undefined;
}

export const config = {
  region: env.AWS_REGION,
  tables: {
    main: env.MAIN_TABLE,
    events: env.EVENTS_TABLE,
    /** Set only for functions with a POST route (Idempotency-Key, docs/contract/README.md#retries-and-concurrent-edits). */
    idempotency: env.IDEMPOTENCY_TABLE,
  },
  /** Overrides for local services; unset in AWS. */
  endpoints: {
    dynamodb: env.DYNAMODB_ENDPOINT,
    ses: env.SES_ENDPOINT,
  },
  invitationValidityDays: env.INVITATION_VALIDITY_DAYS,
  pendingInvitationLimit: env.PENDING_INVITATION_LIMIT,
  /** Mail bounds (docs/contract/README.md): a resend waits this long after the invitation's last mail, */
  resendCooldownSeconds: env.RESEND_COOLDOWN_SECONDS,
  /** at most this many invitation mails per institution per UTC hour, */
  institutionHourlyMailLimit: env.INSTITUTION_HOURLY_MAIL_LIMIT,
  /** at most this many per (institution, e-mail) per UTC day, */
  recipientDailyMailLimit: env.RECIPIENT_DAILY_MAIL_LIMIT,
  /** and, across its institutions (docs/security.md), at most this many from one account per mailbox per UTC day, */
  mailboxDailyMailLimit: env.MAILBOX_DAILY_MAIL_LIMIT,
  /** and, across the whole service, at most this many per mailbox per UTC day (the ceiling of every account's share), */
  mailboxDailyCeiling: env.MAILBOX_DAILY_CEILING,
  /** and at most this many from the institutions of one account per UTC hour. */
  accountHourlyMailLimit: env.ACCOUNT_HOURLY_MAIL_LIMIT,
  /** At most this many institutions created per account per UTC day. */
  accountDailyInstitutionLimit: env.ACCOUNT_DAILY_INSTITUTION_LIMIT,
  /** A caller refused (404, 403, a failed token) more than this many times in a UTC minute gets 429 until it ends. */
  refusedRequestLimit: env.REFUSED_REQUEST_LIMIT,
  /** Events expire this many days after they happen (docs/trail.md); no read returns one past it. */
  eventRetentionDays: env.EVENT_RETENTION_DAYS,
  /** Length of a digest period: the hour when deployed, shorter locally for tests and demos. */
  digestPeriodSeconds: env.DIGEST_PERIOD_SECONDS,
  /**
   * The digest signing key: its id and public key (PEM, SPKI), served with the digests. Deployed, the stack
   * sets both from its KMS key; locally they name the key pair the local stack generated (a file).
   */
  digestKey: {
    id: env.DIGEST_KEY_ID,
    publicKey: publicKeyPem(),
  },
} as const;

/** The oldest instant still within the retention at `now`: reads return only events created at it or later. */
export function retainedSince(now: Date): number {
  return now.getTime() - config.eventRetentionDays * 86_400_000;
}
