/**
 * Data access for directory provisioning (docs/scim.md). The connection sits beside its institution
 * (`INST#<id>` / `SCIM`), its token's lookup item is keyed by the token's hash (the authorizer's one GetItem, token-target.ts),
 * and the directory's users, groups and grants share one partition per connection, so that a SCIM request
 * reads everything it needs in two round trips: the institution and the connection (two GetItems), then
 * one Query of that partition. Every write bumps the connection's `version` under the condition that it is
 * the version read, so the directory's writes (and the role-mapping changes) serialise: the loser reads again.
 * The access a write grants or takes goes through the membership door (shared/membership/), in the write's one
 * transaction with its events; each write here returns its result (`Written`), and no use case commits one itself.
 *
 * What a request names is never a DynamoDB map's key here (docs/code-structure.md): a map comes back through plain
 * assignment, where a key `__proto__` sets the object's prototype instead of a property, and a key `constructor`
 * holding `{"name": "Set"}` makes the marshaller take the map for a Set. So role mappings are stored as a list of
 * `{group, role}`, and a resource's attributes as JSON text (which also holds nesting past DynamoDB's 32 levels).
 * Items written before are read too.
 */
import { GetCommand, QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvents } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import type { Institution } from "../institutions/model.js";
import { getInstitution } from "../institutions/repository.js";
import { commitMembership, type MembershipChange } from "../membership/membership.js";
import { isRole, type Role } from "../roles.js";
import { keys, scimKeys, withoutKey } from "../tables.js";
import type { TooLarge, TxItem, TxItems, Written } from "../tx.js";
import type { Connection, Grant, Resource, TokenTarget } from "./model.js";

const T = () => config.tables.main;

/** Role mappings as stored: a list, so that a group may be called anything (`__proto__` included). */
export const storedMappings = (mappings: Record<string, Role>): { group: string; role: Role }[] =>
  Object.entries(mappings).map(([group, role]) => ({ group, role }));

/** Role mappings as read: null-prototype, a group name a key like any other; from the list, or from a map stored before. */
function mappingsOf(stored: unknown): Record<string, Role> {
  const out: Record<string, Role> = Object.create(null);
  const pairs = Array.isArray(stored)
    ? stored.map((p: { group?: unknown; role?: unknown }) => [p?.group, p?.role] as const)
    : Object.entries(typeof stored === "object" && stored !== null ? stored : {});
  for (const [group, role] of pairs) if (typeof group === "string" && isRole(role)) out[group] = role;
  return out;
}

/** The connection of an institution (strongly consistent). One GetItem. */
export async function getConnection(institutionId: string): Promise<Connection | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: scimKeys.connection(institutionId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const c = withoutKey<Connection>(out.Item);
  return { ...c, role_mappings: mappingsOf(c.role_mappings) };
}

/** A resource as read: its attributes from their JSON text (or the map stored before). */
function resourceOf(item: Record<string, unknown>): Resource {
  const r = withoutKey<Resource>(item);
  const attributes: unknown = r.attributes;
  return { ...r, attributes: typeof attributes === "string" ? (JSON.parse(attributes) as Resource["attributes"]) : r.attributes };
}

/** Everything of one connection a SCIM request works on. */
export interface DirectoryState {
  institution: Institution;
  connection: Connection;
  users: Resource[];
  groups: Resource[];
  /** By e-mail. */
  grants: Map<string, Grant>;
}

/**
 * The institution and its connection (two GetItems side by side), then the connection's partition (one
 * Query): two round trips. The Query continues past 1 MB, which 95 administrators' resources do not reach.
 * Undefined when the connection is gone or is another one now (its token was valid a moment ago).
 */
export async function readState(institutionId: string, connectionId: string): Promise<DirectoryState | undefined> {
  // The connection before its partition: every directory write bumps the connection's version, so a write that
  // commits after this read fails our condition (and we read again), and one that committed before it is in the
  // partition we read next. Read side by side, a partition from before a write could be paired with the version
  // after it, and a stale user written back (a DELETE undone by a racing PATCH).
  const [institution, connection] = await Promise.all([getInstitution(institutionId), getConnection(institutionId)]);
  if (!institution || !connection || connection.id !== connectionId) return undefined;
  const items = await queryPartition(connectionId);
  const users: Resource[] = [];
  const groups: Resource[] = [];
  const grants = new Map<string, Grant>();
  for (const item of items) {
    const sk = String(item.sk);
    if (sk.startsWith("USER#")) users.push(resourceOf(item));
    else if (sk.startsWith("GROUP#")) groups.push(resourceOf(item));
    else if (sk.startsWith("GRANT#")) {
      const g = withoutKey<Grant>(item);
      grants.set(g.email, g);
    }
  }
  return { institution, connection, users, groups, grants };
}

async function queryPartition(connectionId: string): Promise<Record<string, unknown>[]> {
  const input = {
    TableName: T(),
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": scimKeys.partition(connectionId) },
    ConsistentRead: true,
  };
  const items: Record<string, unknown>[] = [];
  let start: QueryCommandOutput["LastEvaluatedKey"];
  do {
    const page: QueryCommandOutput = await db.send(new QueryCommand({ ...input, ...(start && { ExclusiveStartKey: start }) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The connection at the version read, bumped (and `last_used_at`, when a directory request uses it). */
function connectionStep(c: Connection, set: Record<string, unknown> = {}): TxItem {
  const names: Record<string, string> = { "#version": "version" };
  const values: Record<string, unknown> = { ":version": c.version, ":next": c.version + 1 };
  const sets = ["#version = :next"];
  for (const [k, v] of Object.entries(set)) {
    names[`#${k}`] = k;
    values[`:${k}`] = v;
    sets.push(`#${k} = :${k}`);
  }
  return {
    Update: {
      TableName: T(),
      Key: scimKeys.connection(c.institution_id),
      UpdateExpression: `SET ${sets.join(", ")}`,
      ConditionExpression: "#version = :version",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

const putConnection = (c: Connection): TxItem => ({
  Put: {
    TableName: T(),
    Item: { ...scimKeys.connection(c.institution_id), ...c, role_mappings: storedMappings(c.role_mappings) },
    ConditionExpression: "attribute_not_exists(pk)",
  },
});

const deleteConnection = (c: Connection): TxItem => ({
  Delete: {
    TableName: T(),
    Key: scimKeys.connection(c.institution_id),
    ConditionExpression: "#version = :version",
    ExpressionAttributeNames: { "#version": "version" },
    ExpressionAttributeValues: { ":version": c.version },
  },
});

const putToken = (hash: string, target: TokenTarget): TxItem => ({
  Put: { TableName: T(), Item: { ...scimKeys.token(hash), ...target }, ConditionExpression: "attribute_not_exists(pk)" },
});

const deleteToken = (hash: string): TxItem => ({ Delete: { TableName: T(), Key: scimKeys.token(hash) } });

/** Marks (or unmarks, with undefined) the institution as connected: the manual-change refusal reads it with the institution. */
function markInstitution(institutionId: string, connectionId: string | undefined): TxItem {
  return {
    Update: {
      TableName: T(),
      Key: keys.institution(institutionId),
      UpdateExpression: connectionId ? "SET #scim = :scim" : "REMOVE #scim",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#scim": "scim_connection_id" },
      ...(connectionId && { ExpressionAttributeValues: { ":scim": connectionId } }),
    },
  };
}

const putResource = (connectionId: string, r: Resource): TxItem => ({
  Put: {
    TableName: T(),
    Item: {
      ...(r.type === "User" ? scimKeys.user(connectionId, r.id) : scimKeys.group(connectionId, r.id)),
      ...r,
      attributes: JSON.stringify(r.attributes),
    },
  },
});

const deleteResource = (connectionId: string, r: Resource): TxItem => ({
  Delete: { TableName: T(), Key: r.type === "User" ? scimKeys.user(connectionId, r.id) : scimKeys.group(connectionId, r.id) },
});

export const putGrant = (connectionId: string, g: Grant): TxItem => ({
  Put: { TableName: T(), Item: { ...scimKeys.grant(connectionId, g.email), ...g } },
});

export const deleteGrant = (connectionId: string, email: string): TxItem => ({
  Delete: { TableName: T(), Key: scimKeys.grant(connectionId, email) },
});

/** The access changes of a directory write (`planAccess`): the membership change and the directory's grants with it. */
export interface AccessPlan {
  readonly change: MembershipChange;
  readonly grants: TxItems;
}

/**
 * One directory write: the resource `put` or `removed`, the connection's version bumped (and `last_used_at`
 * `now`), and the access it grants or takes, with its events, in one transaction.
 */
export function writeDirectory(
  state: DirectoryState,
  now: Date,
  resource: { put?: Resource | undefined; removed?: Resource | undefined },
  access: AccessPlan,
): Promise<Written<TooLarge>> {
  const id = state.connection.id;
  return commitMembership(access.change, {
    items: {
      connection: connectionStep(state.connection, { last_used_at: now.toISOString() }),
      ...(resource.put && { resource: putResource(id, resource.put) }),
      ...(resource.removed && { resource: deleteResource(id, resource.removed) }),
      ...access.grants,
    },
  });
}

/** New role mappings, with the access they change at once (`planAccess`) and `event`: one transaction. */
export function storeMappings(
  state: DirectoryState,
  mappings: Record<string, Role>,
  access: AccessPlan,
  event: AuditEvent,
): Promise<Written<TooLarge>> {
  return commitMembership(access.change, {
    items: { connection: connectionStep(state.connection, { role_mappings: storedMappings(mappings) }), ...access.grants },
    events: [event],
  });
}

const written = (result: { kind: string }): Written => (result.kind === "ok" ? { kind: "ok" } : { kind: "retry" });

/** A new connection `c`, its token's lookup item (`hash`) and the institution marked connected, with `event`. */
export async function insertConnection(c: Connection, hash: string, event: AuditEvent): Promise<Written> {
  const target = { institution_id: c.institution_id, connection_id: c.id, account_id: c.account_id };
  return written(
    await commitWithEvents([event], {
      connection: putConnection(c),
      token: putToken(hash, target),
      institution: markInstitution(c.institution_id, c.id),
    }),
  );
}

/** A new token for `c` (`hash`, `preview`, at `at`): the old token's lookup item goes in the same transaction, with `event`. */
export async function rotateToken(c: Connection, next: { hash: string; preview: string; at: string }, event: AuditEvent): Promise<Written> {
  const target = { institution_id: c.institution_id, connection_id: c.id, account_id: c.account_id };
  return written(
    await commitWithEvents([event], {
      connection: connectionStep(c, { token_hash: next.hash, token_preview: next.preview, rotated_at: next.at }),
      oldToken: deleteToken(c.token_hash),
      token: putToken(next.hash, target),
    }),
  );
}

/** Ends `c`: the connection, its token's lookup item, and the institution's mark go, with `event`. */
export async function removeConnection(c: Connection, event: AuditEvent): Promise<Written> {
  return written(
    await commitWithEvents([event], {
      connection: deleteConnection(c),
      token: deleteToken(c.token_hash),
      institution: markInstitution(c.institution_id, undefined),
    }),
  );
}
