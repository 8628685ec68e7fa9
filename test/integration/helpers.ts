/** Direct reads and writes for test setup and assertions (the API under test is always called over HTTP). */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { StoredEvent } from "../../shared/audit.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { MembershipChange } from "../../shared/membership/membership.js";
import type { Role } from "../../shared/roles.js";
import { eventKeys } from "../../shared/tables.js";
import { transact } from "../../shared/tx.js";

/** Claims of a token, unverified (the gateway verifies; tests only read). */
export function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split(".")[1] ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}

export async function userIdOf(token: string): Promise<string> {
  return String(claimsOf(token).sub);
}

function accountOf(token: string): string {
  const claims = claimsOf(token);
  return String(claims["custom:account_id"] ?? `user:${claims.sub}`);
}

/** Events the token's user caused, newest first. */
export async function eventsOf(token: string): Promise<StoredEvent[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.events,
      IndexName: "by_user",
      KeyConditionExpression: "g_user = :k",
      ExpressionAttributeValues: { ":k": eventKeys.accountUser(accountOf(token), await userIdOf(token)) },
      ScanIndexForward: false,
    }),
  );
  return (out.Items ?? []) as StoredEvent[];
}

export async function lastEvent(token: string): Promise<StoredEvent | undefined> {
  return (await eventsOf(token))[0];
}

/**
 * Gives a user access to an institution through the membership door, as a grant by hand (as `who`, by default a
 * made-up e-mail), without an event: test setup.
 */
export async function grantAccess(
  institutionId: string,
  userId: string,
  role: Role,
  who: { email?: string; name?: string | null } = {},
): Promise<void> {
  const institution = await getInstitution(institutionId);
  if (!institution) throw new Error(`no institution ${institutionId}`);
  const setup = {
    id: "test-setup",
    email: "",
    name: null,
    accountId: institution.account_id,
    isCohortSuperAdmin: false,
    emailVerified: false,
    ip: "127.0.0.1",
  };
  const change = new MembershipChange(institution, { actor: setup, now: new Date() });
  const person = { user_id: userId, email: `${userId}@granted.test`, name: null, account_id: institution.account_id, ...who };
  const step = change.grant(person, role, { via: "hand" });
  if (step.kind !== "ok") throw new Error(`grantAccess refused: ${step.kind}`);
  const result = await transact(change.items());
  if (result.kind !== "ok") throw new Error("grantAccess failed");
}
