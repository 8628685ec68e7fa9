/**
 * What integration tests use to talk to the local stack of the run (started once by global-setup.ts):
 * tokens, HTTP calls through the gateway, sent mail, and the fault switches for DynamoDB and SES.
 *
 * Test files run in parallel on the one stack, so every test makes its own users and accounts with
 * `uniq()` / `uniqEmail()` and never relies on a global count.
 */
import { randomBytes } from "node:crypto";
import { AdminAddUserToGroupCommand, CreateGroupCommand } from "@aws-sdk/client-cognito-identity-provider";
import { inject, onTestFinished } from "vitest";
import { cognitoClient, issueIdToken, type TokenOptions } from "../../infra/local/cognito.js";
import { CLOCK_OFFSET_HEADER } from "../../shared/clock.js";
import { assertConforms } from "./contract.js";
import type { TestStackInfo } from "./stack-info.js";

export type { TokenOptions } from "../../infra/local/cognito.js";

/** Endpoints, pool, tables, control URL and log directory of this run's stack. */
export const stack: TestStackInfo = inject("stack");

// --- identities --------------------------------------------------------------------------------------

let counter = 0;

/** A string unique in this run: `<label>-<random>`, lower-case after the label, e.g. `owner-k3x9f2a1b7`. */
export function uniq(label = "t"): string {
  counter++;
  return `${label}-${randomBytes(5).toString("hex")}${counter.toString(36)}`;
}

/**
 * A unique e-mail address. Without `domain` it gets a domain of its own, and with it (see `defaultAccount`)
 * an account of its own; pass one domain to put several users in one default account.
 */
export function uniqEmail(label = "user", domain = `${uniq("d")}.test`): string {
  return `${uniq(label)}@${domain}`;
}

const tokens = new Map<string, Promise<string>>();

/**
 * An ID token for `email` (created or updated in the local Cognito to match `opts`), cached per identity in
 * this worker. `account` defaults to `acct-<e-mail domain>`; `superAdmin` to false.
 */
export function token(email: string, opts: TokenOptions = {}): Promise<string> {
  const key = JSON.stringify([email.trim().toLowerCase(), opts.superAdmin ?? false, opts.account ?? null, opts.name ?? null]);
  let t = tokens.get(key);
  if (!t) {
    t = issueIdToken(stack, email, opts);
    t.catch(() => tokens.delete(key));
    tokens.set(key, t);
  }
  return t;
}

/**
 * A fresh ID token for `email` as a member of `groups` besides what `opts` says (groups are created in the
 * pool when missing; the local Cognito, like the real one, takes any printable name, commas included).
 * Not cached: membership only shows in a token issued after it changes.
 */
export async function tokenInGroups(email: string, groups: readonly string[], opts: TokenOptions = {}): Promise<string> {
  await issueIdToken(stack, email, opts); // creates the user (and sets `opts`) before it can join a group
  const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  try {
    for (const GroupName of groups) {
      try {
        await cognito.send(new CreateGroupCommand({ UserPoolId: stack.userPoolId, GroupName }));
      } catch (err) {
        if ((err as Error).name !== "GroupExistsException") throw err;
      }
      await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: stack.userPoolId, Username: email.trim().toLowerCase(), GroupName }));
    }
  } finally {
    cognito.destroy();
  }
  return issueIdToken(stack, email, opts);
}

// --- HTTP --------------------------------------------------------------------------------------------

type QueryValue = string | number | boolean | undefined;

export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Sent as JSON with `content-type: application/json`. */
  readonly body?: unknown;
  /** Sent exactly as given (no content type unless in `headers`): malformed JSON, oversized bodies. */
  readonly rawBody?: string | Uint8Array;
  /** Repeated keys for arrays; undefined values are left out. */
  readonly query?: Readonly<Record<string, QueryValue | readonly QueryValue[]>>;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Runs the request with the domain's clock this many milliseconds ahead (the local gateway's
   * `x-local-clock-offset`, shared/clock.ts): an invitation expires, a cooldown passes, for this request only.
   */
  readonly clockOffsetMs?: number;
  /**
   * `false` only for a request the API document cannot describe (an unknown route, answered by the
   * gateway). Otherwise the response is checked against the document (contract.ts) and a mismatch throws.
   */
  readonly contract?: false;
  /** Another server to send the request to instead of the stack's gateway: a proxy in front of it (Prism). */
  readonly baseUrl?: string;
}

export interface CallResult {
  readonly status: number;
  /** Lower-cased names. */
  readonly headers: Record<string, string>;
  /** Parsed JSON when the response says JSON (and parses), else the text. */
  // biome-ignore lint/suspicious/noExplicitAny: tests navigate response bodies without declaring each shape.
  readonly body: any;
  readonly text: string;
}

/** The clock offset of every request of the running test that names none (`moveClockForTest`). */
let testClockOffsetMs: number | undefined;

/** The domain's time as the running test's requests see it. */
export const testNow = (): Date => new Date(Date.now() + (testClockOffsetMs ?? 0));

/**
 * Sends every request of the running test (that names no `clockOffsetMs` of its own) with the domain's
 * clock `ms` ahead, until the test ends: the test's whole story moves in time together.
 */
export function moveClockForTest(ms: number): void {
  testClockOffsetMs = ms;
  onTestFinished(() => {
    testClockOffsetMs = undefined;
  });
}

const observers: ((result: CallResult, opts: CallOptions) => void)[] = [];

/** Calls `observer` with every response `call` gets in this file from now on (e.g. to check them all for leaks). */
export function observeResponses(observer: (result: CallResult, opts: CallOptions) => void): void {
  observers.push(observer);
}

/** One request through the gateway, e.g. `call("GET", paths.institutions, { token })`. */
export async function call(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const url = new URL(path, opts.baseUrl ?? stack.apiUrl);
  for (const [key, value] of Object.entries(opts.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) url.searchParams.append(key, String(v));
  }
  const headers = requestHeaders(opts.token, opts.clockOffsetMs);
  let body: string | Uint8Array | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  Object.assign(headers, opts.headers);
  return received(method, url, await fetch(url, { method, headers, ...(body !== undefined && { body }) }), opts);
}

/**
 * The headers every request of a test carries: the token as Bearer, and the clock offset, the request's own or
 * else the running test's (`moveClockForTest`), read when the request is sent. `call` and `apiClient` use it.
 */
export function requestHeaders(token: string | undefined, clockOffsetMs: number | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const offset = clockOffsetMs ?? testClockOffsetMs;
  if (offset !== undefined) headers[CLOCK_OFFSET_HEADER] = String(offset);
  return headers;
}

/**
 * A response read as `call` returns it, checked against the API document (unless `contract: false`) and shown to
 * the file's observers (`observeResponses`). `call` and `apiClient` use it, so both check every response alike.
 */
export async function received(method: string, url: URL, res: Response, opts: CallOptions): Promise<CallResult> {
  const text = await res.text();
  const responseHeaders = Object.fromEntries(res.headers);
  let parsed: unknown = text;
  if (/\bjson\b/i.test(res.headers.get("content-type") ?? "")) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // leave the text: a test may well be checking that the body is not JSON
    }
  }
  const result = { status: res.status, headers: responseHeaders, body: parsed, text };
  if (opts.contract !== false) assertConforms(method, url.pathname, result);
  for (const observe of observers) observe(result, opts);
  return result;
}

// --- mail --------------------------------------------------------------------------------------------

/** A mail as aws-ses-v2-local's store (`GET /store`) keeps it. */
export interface SentMail {
  readonly messageId: string;
  readonly from: string;
  readonly destination: { readonly to: string[]; readonly cc: string[]; readonly bcc: string[] };
  readonly subject: string;
  readonly body: { readonly text?: string; readonly html?: string };
  /** Unix seconds. */
  readonly at: number;
}

/**
 * Mail the local SES accepted, oldest first; with `to`, only mail addressed to it (case-insensitive,
 * also as `Name <address>`). SES keeps mail in memory: a restart of it (fault tests) empties the store.
 */
export async function sentMail(to?: string): Promise<SentMail[]> {
  const res = await fetch(`${stack.sesEndpoint}/store`);
  if (!res.ok) throw new Error(`GET ${stack.sesEndpoint}/store: ${res.status}`);
  const { emails } = (await res.json()) as { emails: SentMail[] };
  if (to === undefined) return emails;
  const want = to.trim().toLowerCase();
  const address = (a: string) => (/<([^>]+)>/.exec(a)?.[1] ?? a).trim().toLowerCase();
  return emails.filter((m) => [...m.destination.to, ...m.destination.cc, ...m.destination.bcc].some((a) => address(a) === want));
}

/** The invitation token of an accept link (`…/invitations/accept?token=<token>`) in a mail's text. */
export function invitationTokenIn(mail: SentMail): string {
  const m = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.body.text ?? mail.body.html ?? "");
  if (!m?.[1]) throw new Error(`no accept link in mail "${mail.subject}"`);
  return m[1];
}

// --- faults ------------------------------------------------------------------------------------------

/**
 * A local service the global-setup process can take away. Use only from files under `test/fault/`: they run
 * with the stack to themselves (setup-env.ts), since every other file would fail meanwhile.
 */
export interface ServiceSwitch {
  /** Stops the process: connections are refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port (DynamoDB: with empty tables, as it runs in memory). */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections hang, data is kept. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

function serviceSwitch(name: "dynamodb" | "ses"): ServiceSwitch {
  const send = async (action: string) => {
    const res = await fetch(`${stack.controlUrl}/control/${name}/${action}`, { method: "POST" });
    if (res.status !== 204) throw new Error(`${name} ${action} failed: ${res.status} ${await res.text()}`);
  };
  return { stop: () => send("stop"), start: () => send("start"), pause: () => send("pause"), resume: () => send("resume") };
}

export const dynamodb = serviceSwitch("dynamodb");
export const ses = serviceSwitch("ses");
