/**
 * The user pool's user-activity export (Plus plan, `userAuthEvents` at INFO), as its log group's subscription
 * hands it to a function: CloudWatch Logs' subscription event, `{awslogs: {data}}`, base64 of the gzipped
 * `{messageType, logGroup, logStream, logEvents: [{id, timestamp, message}]}`, each `message` one activity record
 * as JSON. The pool writes sign-in, sign-up, forgot-password, password-change and resend-code events:
 *
 * ```json
 * { "eventSource": "USER_AUTH_EVENTS", "logLevel": "INFO", "userPoolId": "eu-west-1_Ab12Cd34",
 *   "message": { "eventId": "9f5c…", "eventType": "SignIn", "eventResponse": "Fail", "eventTimestamp": "1717228800000",
 *                "userSub": "5b1b…", "userName": "5b1b…", "clientId": "1example23456789",
 *                "challenges": [{ "challengeName": "Password", "challengeResponse": "Failure" }],
 *                "riskLevel": "LOW", "riskDecision": "PASS", "ipAddress": "192.0.2.1" } }
 * ```
 *
 * The reader takes what it needs where the record has it and tolerates the spellings of the same facts the
 * pool's other reports use (AdminListUserAuthEvents: `EventType`, `ChallengeResponses`, `EventContextData`;
 * challenges as `"Password:Failure, Mfa:Success"`): a field it cannot find makes the record one it skips, never
 * a wrong event. The local stack's Cognito stand-in writes records in the shape above (infra/local/cognito-local.mjs)
 * and hands them over through `subscriptionEvent`, as the log group's subscription would.
 */
import { gunzipSync, gzipSync } from "node:zlib";

/** One record of the export, as far as the service reads it. */
export interface ActivityRecord {
  readonly eventId: string;
  /** `SignIn`, `SignUp`, `ForgotPassword`, `PasswordChange`, `ResendCode`. */
  readonly eventType: string;
  /** `Pass`, `Fail`, `InProgress`. */
  readonly eventResponse: string;
  /** Epoch milliseconds. */
  readonly timestamp: number;
  /** The person's `sub`; absent for a name the pool does not know. */
  readonly userSub: string | undefined;
  /** `Password`, `Mfa`, … → `Success` / `Failure`. */
  readonly challenges: Readonly<Record<string, string>>;
  readonly riskLevel: string | undefined;
  readonly riskDecision: string | undefined;
  readonly ipAddress: string | undefined;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined);

/** The first of `keys` that `o` holds as text, case of the first letter aside (`eventType` or `EventType`). */
function field(o: Json, ...keys: string[]): string | undefined {
  for (const key of keys) {
    for (const k of [key, key.charAt(0).toUpperCase() + key.slice(1)]) {
      const v = str(o[k]);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

function challengesOf(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof raw === "string") {
    for (const part of raw.split(",")) {
      const [name, result] = part.split(":").map((s) => s.trim());
      if (name && result) out[name] = result;
    }
  } else if (Array.isArray(raw)) {
    for (const c of raw) {
      if (!isObject(c)) continue;
      const name = field(c, "challengeName", "challengeType");
      const result = field(c, "challengeResponse", "challengeResult");
      if (name && result) out[name] = result;
    }
  }
  return out;
}

/** The activity record in one log event's message; undefined for anything else (a line of another source). */
export function readActivity(message: string, logTimestamp: number): ActivityRecord | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  let body: unknown = parsed.message ?? parsed;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  if (!isObject(body)) return undefined;
  const eventId = field(body, "eventId");
  const eventType = field(body, "eventType");
  const eventResponse = field(body, "eventResponse");
  if (!eventId || !eventType || !eventResponse) return undefined;
  const context = [body.contextData, body.eventContextData, body.EventContextData].find(isObject) ?? {};
  const risk = [body.eventRisk, body.EventRisk].find(isObject) ?? {};
  const at = Number(field(body, "eventTimestamp", "creationDate") ?? field(parsed, "eventTimestamp", "timestamp") ?? logTimestamp);
  return {
    eventId,
    eventType,
    eventResponse,
    timestamp: Number.isFinite(at) && at > 0 ? (at < 1e12 ? at * 1000 : at) : logTimestamp,
    userSub: field(body, "userSub", "sub"),
    challenges: challengesOf(body.challenges ?? body.ChallengeResponses ?? body.challengeResponses),
    riskLevel: field(body, "riskLevel") ?? field(risk, "riskLevel"),
    riskDecision: field(body, "riskDecision") ?? field(risk, "riskDecision"),
    ipAddress: field(body, "ipAddress") ?? field(context, "ipAddress"),
  };
}

/** CloudWatch Logs' subscription payload, decoded: `logEvents` of a DATA_MESSAGE (a CONTROL_MESSAGE has none for us). */
export function decodeSubscription(data: string): { id: string; timestamp: number; message: string }[] {
  const payload = JSON.parse(gunzipSync(Buffer.from(data, "base64")).toString("utf8")) as {
    messageType?: string;
    logEvents?: { id: string; timestamp: number; message: string }[];
  };
  return payload.messageType === "DATA_MESSAGE" ? (payload.logEvents ?? []) : [];
}

/** A subscription event carrying `messages` (one activity record each, as JSON), as CloudWatch Logs sends one. */
export function subscriptionEvent(
  messages: readonly { readonly id: string; readonly timestamp: number; readonly message: string }[],
  logGroup: string,
): { awslogs: { data: string } } {
  const payload = {
    messageType: "DATA_MESSAGE",
    owner: "123456789012",
    logGroup,
    logStream: "userAuthEvents",
    subscriptionFilters: ["UserActivity"],
    logEvents: messages,
  };
  return { awslogs: { data: gzipSync(Buffer.from(JSON.stringify(payload))).toString("base64") } };
}
