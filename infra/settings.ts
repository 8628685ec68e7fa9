/**
 * Settings per environment: the one table of what differs between a development and a production deployment.
 * `-c env=prod` picks a column; a few values can also be set one by one from CDK context (`CONTEXT_KEYS`), which
 * wins over the column. docs/deploy.md lists the same defaults.
 */
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { positiveInt } from "../shared/numbers.js";
import { environment } from "../shared/settings.js";

export const ENV_NAMES = ["dev", "prod"] as const;
export type EnvName = (typeof ENV_NAMES)[number];

export interface Throttle {
  /** Steady requests per second. */
  readonly rateLimit: number;
  /** Requests allowed at once above the steady rate. */
  readonly burstLimit: number;
}

export type LogLevel = "DEBUG" | "INFO" | "WARN" | "ERROR";
const LOG_LEVELS: readonly LogLevel[] = ["DEBUG", "INFO", "WARN", "ERROR"];

export interface Settings {
  readonly env: EnvName;
  /** HTTP API stage throttle, every route. */
  readonly throttle: Throttle;
  /** Throttle of the CSV export route alone: one call reads up to 10,000 events. */
  readonly exportThrottle: Throttle;
  /**
   * Reserved concurrency by handler, where it bounds cost: the export (DynamoDB reads) and the two mail senders
   * (SES sends). None in dev: a new account's concurrency quota is 10, and Lambda refuses any reservation that
   * leaves fewer than 100 unreserved.
   */
  readonly reservedConcurrency: Readonly<Record<string, number>>;
  /** Retention of every log group the stack creates (functions, access log, deployment). */
  readonly logRetention: RetentionDays;
  /** `POWERTOOLS_LOG_LEVEL` of every function. */
  readonly logLevel: LogLevel;
  /** Cognito MFA (TOTP): `required` makes every user enrol an authenticator app at first sign-in. */
  readonly mfa: "optional" | "required";
  /**
   * Hours a console session lasts without signing in again: the app client's refresh-token validity
   * (docs/security.md: at most 12; Cognito's least is 1). The console keeps its tokens in sessionStorage.
   */
  readonly refreshTokenValidityHours: number;
  /** Subscribed by e-mail to the alarm topic when set (SNS mails a confirmation link first). */
  readonly alarmEmail?: string;
  /** A WAF web ACL on the CloudFront distribution: AWS managed rules and a rate-based rule. */
  readonly waf: boolean;
  /** Requests per 5 minutes from one IP address before the rate-based rule blocks it. */
  readonly wafRateLimit: number;
  /** Days an audit event is kept (DynamoDB TTL) and readable; digests and their S3 copies as long. */
  readonly eventRetentionDays: number;
  /** The digest bucket locks each copy (S3 Object Lock, compliance mode) for the retention: nobody can delete it. */
  readonly digestObjectLock: boolean;
  readonly alarms: {
    /** Stage 5xx responses as a percentage of requests, over 5 minutes. */
    readonly serverErrorRatePercent: number;
    /** Stage p99 latency over 5 minutes. */
    readonly p99LatencyMs: number;
    /** Consecutive 5-minute periods over the threshold before the stage alarms fire. */
    readonly evaluationPeriods: number;
  };
  /**
   * Days an invitation stays valid, and invitations pending at once per e-mail and institution. Unset in every
   * environment: the functions' own defaults apply (`shared/config.ts`: 7 days, 3 pending), and only a value set
   * from context reaches them (`INVITATION_VALIDITY_DAYS`, `PENDING_INVITATION_LIMIT`).
   */
  readonly invitationValidityDays?: number;
  readonly pendingInvitationLimit?: number;
  /**
   * The bounds across the service (docs/security.md), unset in every environment like the two above: the
   * functions' defaults apply (10 mails per account and mailbox a day, 50 per mailbox, 200 per account an hour, 100 institutions per
   * account a day, 30 refusals per caller a minute) unless a value comes from context.
   */
  readonly mailboxDailyMailLimit?: number;
  /** The service-wide ceiling per mailbox a day over every account's share (default 50). */
  readonly mailboxDailyCeiling?: number;
  readonly accountHourlyMailLimit?: number;
  readonly accountDailyInstitutionLimit?: number;
  readonly refusedRequestLimit?: number;
}

export const ENVIRONMENTS: Readonly<Record<EnvName, Omit<Settings, "env">>> = {
  dev: {
    throttle: { rateLimit: 50, burstLimit: 100 },
    exportThrottle: { rateLimit: 1, burstLimit: 2 },
    reservedConcurrency: {},
    logRetention: RetentionDays.ONE_MONTH,
    logLevel: "DEBUG",
    mfa: "optional",
    refreshTokenValidityHours: 12,
    waf: false,
    wafRateLimit: 1000,
    eventRetentionDays: 90,
    digestObjectLock: false,
    alarms: { serverErrorRatePercent: 5, p99LatencyMs: 5000, evaluationPeriods: 1 },
  },
  prod: {
    throttle: { rateLimit: 100, burstLimit: 200 },
    exportThrottle: { rateLimit: 2, burstLimit: 5 },
    reservedConcurrency: { "security-events/export": 5, "invitations/create": 10, "invitations/resend": 5 },
    logRetention: RetentionDays.ONE_YEAR,
    logLevel: "INFO",
    mfa: "required",
    refreshTokenValidityHours: 8,
    waf: true,
    wafRateLimit: 2000,
    eventRetentionDays: 400,
    digestObjectLock: true,
    alarms: { serverErrorRatePercent: 1, p99LatencyMs: 3000, evaluationPeriods: 2 },
  },
};

/** Context keys that override one value of the chosen environment, e.g. `-c alarmEmail=ops@example.com`. */
export const CONTEXT_KEYS = [
  "env",
  "alarmEmail",
  "waf",
  "wafRateLimit",
  "logLevel",
  "logRetentionDays",
  "mfa",
  "invitationValidityDays",
  "pendingInvitationLimit",
  "eventRetentionDays",
  "refreshTokenValidityHours",
  "mailboxDailyMailLimit",
  "mailboxDailyCeiling",
  "accountHourlyMailLimit",
  "accountDailyInstitutionLimit",
  "refusedRequestLimit",
] as const;

const RETENTION_DAYS = new Set<number>(Object.values(RetentionDays).filter((v): v is number => typeof v === "number"));

function bool(key: string, raw: string): boolean {
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new Error(`Context ${key} must be true or false, got "${raw}"`);
}

/** A context value that must be a positive integer, or undefined when unset. */
function contextInt(context: (key: string) => string | undefined, key: string): number | undefined {
  const raw = context(key);
  return raw === undefined ? undefined : positiveInt(`Context ${key}`, raw);
}

/**
 * The settings of the environment named by context `env` (default `dev`), with any single-value overrides.
 * `context` returns a context value, or undefined when it is unset or empty.
 */
export function resolveSettings(context: (key: string) => string | undefined): Settings {
  const env = context("env") ?? "dev";
  if (!(ENV_NAMES as readonly string[]).includes(env)) {
    throw new Error(`Context env must be one of ${ENV_NAMES.join(", ")}, got "${env}"`);
  }
  const base = ENVIRONMENTS[env as EnvName];

  const alarmEmail = context("alarmEmail");
  if (alarmEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alarmEmail)) {
    throw new Error(`Context alarmEmail must be an e-mail address, got "${alarmEmail}"`);
  }
  const waf = context("waf");
  const wafRateLimit = contextInt(context, "wafRateLimit");
  const logLevel = context("logLevel")?.toUpperCase();
  if (logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new Error(`Context logLevel must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  }
  const logRetention = contextInt(context, "logRetentionDays");
  if (logRetention !== undefined && !RETENTION_DAYS.has(logRetention)) {
    throw new Error(
      `Context logRetentionDays must be a CloudWatch Logs retention (${[...RETENTION_DAYS].join(", ")}), got ${logRetention}`,
    );
  }
  const refreshHours = contextInt(context, "refreshTokenValidityHours");
  if (refreshHours !== undefined && refreshHours > 12) {
    throw new Error(`Context refreshTokenValidityHours must be 1 to 12 (a console session lasts at most 12 hours), got ${refreshHours}`);
  }
  const mfa = context("mfa");
  if (mfa !== undefined && mfa !== "optional" && mfa !== "required") {
    throw new Error(`Context mfa must be optional or required, got "${mfa}"`);
  }

  return {
    ...base,
    env: env as EnvName,
    ...(alarmEmail !== undefined && { alarmEmail }),
    ...(waf !== undefined && { waf: bool("waf", waf) }),
    ...(wafRateLimit !== undefined && { wafRateLimit }),
    ...(logLevel !== undefined && { logLevel: logLevel as LogLevel }),
    ...(logRetention !== undefined && { logRetention: logRetention as RetentionDays }),
    ...(mfa !== undefined && { mfa }),
    ...optional("invitationValidityDays", contextInt(context, "invitationValidityDays")),
    ...optional("pendingInvitationLimit", contextInt(context, "pendingInvitationLimit")),
    ...optional("eventRetentionDays", contextInt(context, "eventRetentionDays")),
    ...optional("mailboxDailyMailLimit", contextInt(context, "mailboxDailyMailLimit")),
    ...optional("mailboxDailyCeiling", contextInt(context, "mailboxDailyCeiling")),
    ...optional("accountHourlyMailLimit", contextInt(context, "accountHourlyMailLimit")),
    ...optional("accountDailyInstitutionLimit", contextInt(context, "accountDailyInstitutionLimit")),
    ...optional("refusedRequestLimit", contextInt(context, "refusedRequestLimit")),
    ...(refreshHours !== undefined && { refreshTokenValidityHours: refreshHours }),
  };
}

const optional = <K extends string>(key: K, value: number | undefined) =>
  value === undefined ? {} : ({ [key]: value } as Record<K, number>);

/** The bounds' settings a function reads (shared/config.ts), as environment variables: only those a context set. */
export function boundsEnvironment(settings: Settings): Record<string, string> {
  const text = (n: number | undefined) => (n === undefined ? undefined : String(n));
  return environment({
    INVITATION_VALIDITY_DAYS: text(settings.invitationValidityDays),
    PENDING_INVITATION_LIMIT: text(settings.pendingInvitationLimit),
    MAILBOX_DAILY_MAIL_LIMIT: text(settings.mailboxDailyMailLimit),
    MAILBOX_DAILY_CEILING: text(settings.mailboxDailyCeiling),
    ACCOUNT_HOURLY_MAIL_LIMIT: text(settings.accountHourlyMailLimit),
    ACCOUNT_DAILY_INSTITUTION_LIMIT: text(settings.accountDailyInstitutionLimit),
    REFUSED_REQUEST_LIMIT: text(settings.refusedRequestLimit),
  });
}
