/**
 * Every environment variable a function reads, declared once: its name, its valibot schema (type, bounds,
 * default) and, in a comment, why it exists. `shared/config.ts` and the few modules that read a setting of their
 * own parse `process.env` through `readSettings`; the CDK stack (infra/) and the local stack (infra/local/) build
 * each function's environment with `environment()`, whose keys the compiler checks against these names.
 *
 * Imported by every function, so kept small: the reasons are comments (the minifier drops them), and the names
 * come in groups by who reads them, each group a function, so that a bundle holds only the groups its modules
 * read (esbuild drops an unused one). Every name is in exactly one group; test/unit/settings.test.ts checks that,
 * and fails on a `process.env.X` read of an undeclared name.
 */
import * as v from "valibot";

type Group = Record<string, v.GenericSchema<string | undefined, unknown>>;

/** Set, and not empty. */
const text = v.pipe(v.string(), v.nonEmpty());
/** Unset or empty: undefined. */
const optionalText = v.optional(text);
/** `true` or `false`; unset or empty is false. */
const flag = v.pipe(
  v.optional(v.picklist(["true", "false"]), "false"),
  v.transform((s) => s === "true"),
);
/** A whole number from `min` to `max`, `fallback` when unset or empty. */
const int = (fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      // One check rather than integer(), minValue() and maxValue(): fewer valibot actions in every bundle.
      v.check(
        (n) => Number.isInteger(n) && n >= min && n <= max,
        `must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : " up"}`,
      ),
    ),
    String(fallback),
  );

/** What every function reads at load (shared/config.ts). */
export const CORE = () => ({
  /** The region of the AWS clients; Lambda sets it, the local stack too. */
  AWS_REGION: v.optional(text, "us-east-1"),
  /** The single table of institutions, administrators, invitations and counters (shared/tables.ts). */
  MAIN_TABLE: text,
  /** The audit trail's table (docs/trail.md). */
  EVENTS_TABLE: text,
  /** The Idempotency-Key records (docs/contract/README.md#retries-and-concurrent-edits): set only for a function with a POST route. */
  IDEMPOTENCY_TABLE: optionalText,
  /** DynamoDB Local's endpoint; unset in AWS. */
  DYNAMODB_ENDPOINT: optionalText,
  /** The local SES's endpoint; unset in AWS. */
  SES_ENDPOINT: optionalText,
  /** Days an invitation stays valid. */
  INVITATION_VALIDITY_DAYS: int(7),
  /** Invitations pending at once per e-mail and institution. */
  PENDING_INVITATION_LIMIT: int(3),
  /** Mail bounds (docs/contract/README.md): a resend waits this long after the invitation's last mail. */
  RESEND_COOLDOWN_SECONDS: int(600),
  /** Invitation mails per institution per UTC hour. */
  INSTITUTION_HOURLY_MAIL_LIMIT: int(100),
  /** Invitation mails per (institution, e-mail) per UTC day. */
  RECIPIENT_DAILY_MAIL_LIMIT: int(10),
  /** Mails from one account's institutions per mailbox per UTC day (docs/security.md). */
  MAILBOX_DAILY_MAIL_LIMIT: int(10),
  /** Mails per mailbox per UTC day across the service: the ceiling of every account's share. */
  MAILBOX_DAILY_CEILING: int(50),
  /** Mails from the institutions of one account per UTC hour. */
  ACCOUNT_HOURLY_MAIL_LIMIT: int(200),
  /** Institutions created per account per UTC day. */
  ACCOUNT_DAILY_INSTITUTION_LIMIT: int(100),
  /** Refusals (404, 403, a failed token) per caller per UTC minute before 429s until it ends. */
  REFUSED_REQUEST_LIMIT: int(30),
  /** Days an event is kept and readable (docs/trail.md). */
  EVENT_RETENTION_DAYS: int(90),
  /** A digest period: the hour deployed, shorter locally; it divides the hour, so periods align to every UTC hour. */
  DIGEST_PERIOD_SECONDS: v.pipe(
    int(3600, 60, 3600),
    v.check((s) => 3600 % s === 0, "must divide 3600"),
  ),
  /** The digest signing key's id, served with the digests: its KMS ARN deployed, `local:<fingerprint>` locally. */
  DIGEST_KEY_ID: optionalText,
  /** The digest public key: PEM, or the base64 DER that KMS GetPublicKey returns (the deployed stack). */
  DIGEST_PUBLIC_KEY: optionalText,
  /** The local stack's public key file, when DIGEST_PUBLIC_KEY is unset. */
  DIGEST_PUBLIC_KEY_FILE: optionalText,
});

/** The digest function (functions/trail/digest.ts) and the local signer. */
export const DIGESTER = () => ({
  /** The KMS key that signs the digests. */
  DIGEST_KEY_ARN: optionalText,
  /** The bucket of the digests' copies (Object Lock in prod). */
  DIGEST_BUCKET: optionalText,
  /** The local stack's private key file: the local digester signs with it instead of KMS. */
  DIGEST_PRIVATE_KEY_FILE: optionalText,
});

/** Mail, and the console's origin (mail.ts, the SCIM service). */
export const MAIL = () => ({
  /** The sender of invitation mail (an SES identity). */
  MAIL_FROM: optionalText,
  /** The console's origin: the links in mail, and the SCIM base URL. */
  APP_BASE_URL: optionalText,
  /** The SES configuration set whose events reach the stack (bounces, complaints). */
  SES_CONFIGURATION_SET: optionalText,
});

/** The user pool (shared/users.ts). */
export const USERS = () => ({
  /** The pool of the functions that create or move users (joining, transfer, SCIM). */
  USER_POOL_ID: optionalText,
  /** The local Cognito's endpoint; unset in AWS. */
  COGNITO_ENDPOINT: optionalText,
  /** The console's app client: SSO connections list their identity providers among its supported ones (docs/sso.md). */
  USER_POOL_CLIENT_ID: optionalText,
  /** The pool's managed-login domain (`https://…`): the ACS URL and redirect URI an IdP's administrator pastes (docs/sso.md). */
  COGNITO_DOMAIN: optionalText,
  /** The pool's MFA (infra/settings.ts `mfa`), for `PUT /me/mfa`: where `required`, TOTP cannot be turned off. */
  USER_POOL_MFA: v.optional(v.picklist(["optional", "required"]), "optional"),
});

/** `host`, `host:port`, `[v6]:port`: what `Resolver.setServers` takes. */
const RESOLVER = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|\[[0-9A-Fa-f:.]+\](?::\d{1,5})?|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]+)$/;

/** DNS for verified domains (shared/domains/dns.ts). */
export const DNS = () => ({
  /** Resolvers for the TXT lookups (`host:port`, comma-separated); the system's when unset. Tests serve them on loopback. */
  DNS_RESOLVERS: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (s) => s.split(",").every((part) => RESOLVER.test(part.trim())),
        "must be comma-separated IP addresses, each with an optional :port",
      ),
    ),
  ),
});

/** CloudFront in front (shared/origin.ts, which reads them per request: the local CloudFront mode sets them late). */
export const EDGE = () => ({
  /** Requests must carry this secret in the origin header (shared/origin.ts): only CloudFront knows it. */
  ORIGIN_VERIFY_SECRET: optionalText,
  /** The caller's address is CloudFront-Viewer-Address, not the connection's, on a request with the secret (shared/origin.ts). */
  TRUST_CLOUDFRONT_VIEWER_ADDRESS: flag,
});

/** Full exports (docs/events-out.md, shared/exports/config.ts). */
export const EXPORTS = () => ({
  /** The bucket of the export files. */
  EXPORTS_BUCKET: v.optional(text, "institution-admin-exports"),
  /** s3rver's endpoint; unset in AWS. */
  S3_ENDPOINT: optionalText,
  /** The worker the start route invokes asynchronously; unset locally, where the worker runs in-process. */
  EXPORT_WORKER_FUNCTION: optionalText,
  /** Exports of one account running at once (429 beyond). */
  EXPORT_SLOTS: int(2),
  /** A worker not finished after this long has failed. */
  EXPORT_LEASE_SECONDS: int(900),
  /** Days an export file is kept. */
  EXPORT_FILE_DAYS: int(7),
});

/** The stream and webhooks (shared/streaming/bus.ts, shared/webhooks/config.ts). */
export const STREAM = () => ({
  /** The bus the stream consumer puts events on. */
  EVENT_BUS_NAME: optionalText,
  /** A local EventBridge's endpoint; unset in AWS. */
  EVENTBRIDGE_ENDPOINT: optionalText,
  /** Webhooks per account. */
  WEBHOOKS_PER_ACCOUNT: int(5),
  /** The first retry of a delivery waits this long, each next twice as long. */
  WEBHOOK_RETRY_BASE_SECONDS: int(30),
  /** Deliveries are retried this long after their first attempt. */
  WEBHOOK_RETRY_WINDOW_SECONDS: int(24 * 3600),
  /** Loopback http receivers: the local stack only. */
  WEBHOOK_ALLOW_LOOPBACK_HTTP: flag,
});

/** Powertools' names (shared/telemetry.ts). */
export const TELEMETRY = () => ({
  /** Powertools' service name (shared/telemetry.ts falls back to SERVICE_NAME). */
  POWERTOOLS_SERVICE_NAME: optionalText,
  /** Powertools' metrics namespace (falls back to METRICS_NAMESPACE). */
  POWERTOOLS_METRICS_NAMESPACE: optionalText,
});

/** Read by the runtime and its libraries only, never by our code: set by the stacks. */
export const RUNTIME = () => ({
  /** Source-mapped stack traces. */
  NODE_OPTIONS: optionalText,
  /** Powertools' log level, per environment (infra/settings.ts). */
  POWERTOOLS_LOG_LEVEL: v.optional(v.picklist(["DEBUG", "INFO", "WARN", "ERROR"])),
  /** Responses carry institutions and the trail: never trace them. */
  POWERTOOLS_TRACER_CAPTURE_RESPONSE: flag,
  /** API functions call out only through traced AWS clients: no http/https/fetch patching. */
  POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: flag,
  /** Locally: EMF metrics have no CloudWatch to go to. */
  POWERTOOLS_METRICS_DISABLED: flag,
  /** Locally: the X-Ray SDK without its async hook. */
  AWS_XRAY_MANUAL_MODE: flag,
});

/** Credentials of the local endpoints (shared/clients.ts). */
export const LOCAL_KEYS = () => ({
  /** Credentials of the local endpoints (never set in AWS, where the role provides them). */
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
});

/** Every group: what the stacks may set (`environment()`), and what the test checks the code's reads against. */
export const GROUPS = { CORE, DIGESTER, MAIL, USERS, DNS, EDGE, EXPORTS, STREAM, TELEMETRY, RUNTIME, LOCAL_KEYS } as const;
type Groups = typeof GROUPS;
export type SettingName = { [G in keyof Groups]: keyof ReturnType<Groups[G]> }[keyof Groups];

/**
 * Names esbuild replaces in a bundle (`define`, infra/api-function.ts), so the code reads them as
 * `process.env.<name>` literally and a deployed bundle drops what they guard.
 */
export const BUNDLE_CONSTANTS = [
  /** "false" in a function without a POST route: shared/http.ts leaves the idempotency middleware out. */
  "TAKES_IDEMPOTENCY_KEY",
  /** The test run's AWS request log (docs/iam.md); empty in every deployed bundle. */
  "AWS_REQUEST_LOG",
] as const;
export type BundleConstant = (typeof BUNDLE_CONSTANTS)[number];

/** esbuild's `define` key of a bundle constant. */
export const defineKey = (name: BundleConstant) => `process.env.${name}`;

/**
 * The settings `names` of `group` (default: all of them) from `env` (default: this process's), parsed: an empty
 * value counts as unset, so its default applies. Throws once, naming every bad setting and its problem.
 */
export function readSettings<G extends Group, const K extends keyof G & string = keyof G & string>(
  group: G,
  names: readonly K[] = Object.keys(group) as K[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): { readonly [P in K]: v.InferOutput<G[P]> } {
  const entries: Group = {};
  const input: Record<string, string | undefined> = {};
  for (const name of names) {
    if (!group[name]) throw new Error(`${name} is not a declared setting (shared/settings.ts)`);
    entries[name] = group[name];
    input[name] = env[name] || undefined;
  }
  const parsed = v.safeParse(v.object(entries), input);
  if (parsed.success) return parsed.output as { readonly [P in K]: v.InferOutput<G[P]> };
  const problems = parsed.issues.map((issue) => {
    const name = String(issue.path?.[0]?.key);
    return `${name} ${input[name] === undefined ? "is missing" : `is "${input[name]}": ${issue.message}`}`;
  });
  throw new Error(`Bad environment: ${problems.join("; ")}`);
}

/**
 * One setting of `group`, read when called rather than at import: for the few a process may set after its
 * modules load (the local gateway's CloudFront mode sets the origin secret then). Parsed again only when the
 * value changed, so reading it on every request costs a string comparison.
 */
export function settingReader<G extends Group, const K extends keyof G & string>(group: G, name: K): () => v.InferOutput<G[K]> {
  let last: { raw: string | undefined; value: v.InferOutput<G[K]> } | undefined;
  return () => {
    const raw = process.env[name];
    if (last === undefined || last.raw !== raw) last = { raw, value: readSettings(group, [name])[name] };
    return last.value;
  };
}

/** Fails, naming it, when a setting this code needs is unset (the schema leaves it optional for the functions that do not). */
export function need<T>(value: T | undefined, name: SettingName): T {
  if (value === undefined) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

/** A function's environment, by declared names only (a misspelt name fails typecheck); unset values left out. */
export type Environment = { readonly [K in SettingName]?: string | undefined };

/**
 * `vars` without the unset ones, each value checked against its schema as the function will parse it, so that
 * a bad value (`DIGEST_PERIOD_SECONDS: "7"`) fails `cdk synth` or the local stack's start rather than a cold start.
 * A CDK token (`${Token[…]}`, resolved at deployment) is left to the function's own check.
 */
export function environment(vars: Environment): Record<string, string> {
  const all: Group = Object.assign({}, ...Object.values(GROUPS).map((group) => group()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) continue;
    if (!value.includes("${Token[")) readSettings(all, [name], { [name]: value });
    out[name] = value;
  }
  return out;
}
