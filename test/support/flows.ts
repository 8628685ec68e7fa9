/**
 * Steps several integration files share, all through the API (institutions, invitations, the audit trail),
 * plus the few direct reads and writes a test needs to set a scene the API cannot (an invitation whose last
 * mail is older than the resend cooldown, a name stored before today's validation).
 */
import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import type { operations } from "../../shared/openapi/api-types.js";
import { paths } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { invitationTokenIn, moveClockForTest, sentMail, testNow, uniq } from "./api.js";
import { apiClient, ok } from "./client.js";

// The API's paths, for every test file.
export const INST = paths.institutions;
export const INV = paths.invitations;
export const ACCEPT = paths.invitationsAccept;
export const EVENTS = paths.securityEvents;
export const EXPORT = `${EVENTS}/export`;
export const ALERTS = `${EVENTS}/alerts`;
export const OPENAPI = paths.openapi;
export const DOCS = paths.docs;

type NewInstitution = operations["createInstitution"]["requestBody"]["content"]["application/json"]["institution"];
/** An administrator's role, as an invitation names it. */
export type Role = operations["createInvitation"]["requestBody"]["content"]["application/json"]["role"];
/** The body of an operation's 201. */
type Created<Op extends keyof operations> = operations[Op]["responses"] extends { 201: { content: { "application/json": infer B } } }
  ? B
  : never;

/** Creates an institution (201 expected) and returns its record. */
export async function createInstitution(tok: string, fields: Partial<NewInstitution> = {}) {
  const { institution } = ok(
    await apiClient(tok).POST(paths.institutions, { body: { institution: { name: uniq("Inst"), ...fields } } }),
    201,
  );
  return institution;
}

/** Invites `email` (201 expected); returns the invitation id. */
export async function invite(tok: string, institutionId: string, email: string, role: Role = "cohort_admin"): Promise<string> {
  const { invitation } = ok(await apiClient(tok).POST(paths.invitations, { body: { institution_id: institutionId, email, role } }), 201);
  return invitation.id;
}

/** An invitation as created, with the token its mail carries. */
export interface MailedInvitation {
  readonly id: string;
  readonly email: string;
  /** The full token, from the mail. */
  readonly token: string;
  /** The invitation as the 201 answered it. */
  readonly invitation: Created<"createInvitation">["invitation"];
}

/**
 * Invites `email` (201 expected) and reads the token from its mail. `clockOffsetMs` sends the request at
 * another time (shared/clock.ts): -8 days makes an invitation that has expired by now.
 */
export async function inviteMailed(
  tok: string,
  institutionId: string,
  email: string,
  { role = "cohort_admin", clockOffsetMs }: { role?: Role; clockOffsetMs?: number } = {},
): Promise<MailedInvitation> {
  const api = apiClient(tok, { clockOffsetMs });
  const { invitation } = ok(await api.POST(paths.invitations, { body: { institution_id: institutionId, email, role } }), 201);
  return { id: invitation.id, email, token: await lastMailedToken(email), invitation };
}

export async function revoke(tok: string, institutionId: string, invitationId: string): Promise<void> {
  const params = { path: { id: invitationId }, query: { institution_id: institutionId } };
  ok(await apiClient(tok).DELETE(`${paths.invitations}/{id}`, { params }));
}

/** The token of the newest invitation mail to `email`. */
export async function lastMailedToken(email: string): Promise<string> {
  const mail = (await sentMail(email)).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return invitationTokenIn(mail);
}

/** Accepts the newest invitation mailed to `email` as `tok` (200 expected). */
export async function acceptLatest(tok: string, email: string): Promise<void> {
  ok(await apiClient(tok).POST(paths.invitationsAccept, { body: { token: await lastMailedToken(email) } }));
}

/** A listed security event. */
export interface ListedEvent {
  id: string;
  event_type: string;
  user_email: string | null;
  ip_address: string;
  details: Record<string, unknown>;
  created_at: string;
  description: string;
}

/** Every event the caller's trail lists for `query`, following `meta.next_cursor`, newest first. */
export async function allEvents(tok: string, query: Record<string, string> = {}): Promise<ListedEvent[]> {
  const out: ListedEvent[] = [];
  let cursor: string | undefined;
  const api = apiClient(tok);
  for (let page = 0; page < 100; page++) {
    const { events, meta } = ok(await api.GET(paths.securityEvents, { params: { query: { ...query, limit: 200, cursor } } }));
    out.push(...events);
    cursor = meta.next_cursor ?? undefined;
    if (!cursor) return out;
  }
  throw new Error("more than 100 pages of events");
}

/** The stored invitations of an institution (records only, straight from the table), optionally of one e-mail. */
export async function storedInvitations(institutionId: string, email?: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: config.tables.main,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
        ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk, ":p": keys.invitationPrefix },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return email === undefined ? items : items.filter((i) => i.email === email);
}

export async function storedInvitation(institutionId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const out = await db.send(
    new GetCommand({ TableName: config.tables.main, Key: keys.invitation(institutionId, id), ConsistentRead: true }),
  );
  return out.Item;
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/**
 * Moves an invitation's last mail `seconds` into the past, as if it had been sent then: every time on the
 * invitation record that lies within the last quarter hour (its `sent_at`, which a resend restarts, and
 * any other record of when it was mailed) goes back by `seconds`; `expires_at` is left alone. The
 * resend cooldown can then be tested without waiting it out.
 */
export async function ageLastMail(institutionId: string, id: string, seconds: number): Promise<void> {
  const item = await storedInvitation(institutionId, id);
  if (!item) throw new Error(`no invitation ${id}`);
  const now = testNow().getTime(); // as the test's requests wrote them, when the test moved its clock
  const recent = (ms: number) => ms <= now + 60_000 && ms >= now - 15 * 60_000;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (name === "expires_at" || name === "pk" || name === "sk") continue;
    let aged: unknown;
    if (typeof value === "string" && ISO_TIME.test(value) && recent(Date.parse(value)))
      aged = new Date(Date.parse(value) - seconds * 1000).toISOString();
    else if (typeof value === "number" && recent(value * 1000))
      aged = value - seconds; // epoch seconds
    else if (typeof value === "number" && recent(value)) aged = value - seconds * 1000; // epoch milliseconds
    if (aged === undefined) continue;
    const n = sets.length;
    names[`#a${n}`] = name;
    values[`:a${n}`] = aged;
    sets.push(`#a${n} = :a${n}`);
  }
  if (sets.length === 0) throw new Error(`invitation ${id} holds no recent time to age`);
  await db.send(
    new UpdateCommand({
      TableName: config.tables.main,
      Key: keys.invitation(institutionId, id),
      UpdateExpression: `SET ${sets.join(", ")}`,
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Sets an institution's stored name directly, as a name stored before a validation rule existed would be
 * (the API refuses to write it now). Only the record: what reads it (mail, events) is under test.
 */
export async function storeLegacyName(institutionId: string, name: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: config.tables.main,
      Key: keys.institution(institutionId),
      UpdateExpression: "SET #n = :n",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#n": "name" },
      ExpressionAttributeValues: { ":n": name },
    }),
  );
}

/**
 * Makes the rest of the running test happen within one UTC minute, hour or day, so that a test counting
 * against such a bound never straddles two windows: when fewer than `marginMs` remain of the current one,
 * every later request of the test is sent with the clock moved to a second into the next one
 * (`moveClockForTest`), instead of waiting for it. Otherwise (the usual case) nothing changes. Times the
 * test computes itself (a counter's key) come from `testNow()`.
 */
export async function withinOneWindow(unit: "minute" | "hour" | "day", marginMs: number): Promise<void> {
  const size = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[unit];
  const left = size - (testNow().getTime() % size);
  if (left < marginMs) moveClockForTest(testNow().getTime() - Date.now() + left + 1_000);
}

/** The characters of `s` counted as code points. */
export const codePoints = (s: string): number => [...s].length;

/** Unicode Cc (controls) and Cf (invisible format characters). */
export const CC_OR_CF = /[\p{Cc}\p{Cf}]/u;
