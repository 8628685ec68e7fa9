/**
 * The one definition of both tables (keys, indexes, TTL) and of every item key. CDK, the local stack and
 * the tests all build their tables from here; the repositories build their keys from here.
 *
 * Every key attribute is a string.
 */
import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";

export interface IndexDef {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export interface TableDef {
  /** Construct id in CDK and name stem locally. */
  readonly id: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  readonly indexes: readonly IndexDef[];
  readonly ttlAttribute?: string;
}

/**
 * Main table, single-table design:
 * - institution `INST#<id>` / `META`; its cohorts `INST#<id>` / `COHORT#<id>`; its invitations `INST#<id>` / `INV#<id>`
 * - access record `USER#<user>` / `INST#<institution>` (carries the institution summary, so listing is one Query)
 * - registration-number guard `REGNO#<account>#<lower-cased number>` / `REGNO`
 * - invitation token `TOKEN#<sha256>` / `TOKEN`
 */
export const mainTable: TableDef = {
  id: "Main",
  partitionKey: "pk",
  sortKey: "sk",
  indexes: [],
};

/**
 * Events table: event `EVT#<id>` / `EVT`; per-minute alert counters `CNT#<account>` / `<YYYY-MM-DDTHH:MM>`.
 * The GSIs are partitioned by account (and user / type), sorted by `created_key` = `<created_at>#<id>`,
 * so every filter combination of the list is one Query on exactly the matching events.
 */
export const eventsTable: TableDef = {
  id: "Events",
  partitionKey: "pk",
  sortKey: "sk",
  indexes: [
    { name: "by_account", partitionKey: "g_account", sortKey: "created_key" },
    { name: "by_account_user", partitionKey: "g_account_user", sortKey: "created_key" },
    { name: "by_account_type", partitionKey: "g_account_type", sortKey: "created_key" },
    { name: "by_account_user_type", partitionKey: "g_account_user_type", sortKey: "created_key" },
  ],
  ttlAttribute: "ttl",
};

export const tableDefs = [mainTable, eventsTable] as const;

/** CreateTable input for DynamoDB Local and the tests (CDK maps the same definition in infra/). */
export function createTableInput(def: TableDef, tableName: string): CreateTableCommandInput {
  const attrs = new Set<string>([def.partitionKey, def.sortKey]);
  for (const i of def.indexes) attrs.add(i.partitionKey).add(i.sortKey);
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: "S" })),
    KeySchema: [
      { AttributeName: def.partitionKey, KeyType: "HASH" },
      { AttributeName: def.sortKey, KeyType: "RANGE" },
    ],
    ...(def.indexes.length > 0 && {
      GlobalSecondaryIndexes: def.indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: "HASH" },
          { AttributeName: i.sortKey, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      })),
    }),
  };
}

export interface Key {
  pk: string;
  sk: string;
}

/** Item keys of the main table. */
export const keys = {
  institution: (id: string): Key => ({ pk: `INST#${id}`, sk: "META" }),
  cohort: (institutionId: string, cohortId: string): Key => ({ pk: `INST#${institutionId}`, sk: `COHORT#${cohortId}` }),
  cohortPrefix: "COHORT#",
  access: (userId: string, institutionId: string): Key => ({ pk: `USER#${userId}`, sk: `INST#${institutionId}` }),
  accessPartition: (userId: string): string => `USER#${userId}`,
  accessPrefix: "INST#",
  registrationNumber: (accountId: string, number: string): Key => ({
    pk: `REGNO#${accountId}#${number.toLowerCase()}`,
    sk: "REGNO",
  }),
  invitation: (institutionId: string, invitationId: string): Key => ({ pk: `INST#${institutionId}`, sk: `INV#${invitationId}` }),
  invitationPrefix: "INV#",
  token: (tokenHash: string): Key => ({ pk: `TOKEN#${tokenHash}`, sk: "TOKEN" }),
  /** Pending-limit slot `n` (< the limit) of one (institution, e-mail); held by at most one active invitation. */
  invitationSlot: (institutionId: string, email: string, n: number): Key => ({
    pk: `INST#${institutionId}`,
    sk: `EMAIL#${email}#SLOT#${n}`,
  }),
  /** Marks an e-mail that has access to the institution (its member's user id), for the invitation checks. */
  memberEmail: (institutionId: string, email: string): Key => ({ pk: `INST#${institutionId}`, sk: `EMAIL#${email}#MEMBER` }),
  /** Sort-key prefix of every item of one e-mail in an institution: its slots and its member marker, one Query. */
  emailPrefix: (email: string): string => `EMAIL#${email}#`,
} as const;

/** Item keys and index keys of the events table. */
export const eventKeys = {
  event: (id: string): Key => ({ pk: `EVT#${id}`, sk: "EVT" }),
  counter: (accountId: string, minute: string): Key => ({ pk: `CNT#${accountId}`, sk: minute }),
  counterPartition: (accountId: string): string => `CNT#${accountId}`,
  account: (accountId: string) => accountId,
  accountUser: (accountId: string, userId: string) => `${accountId}#${userId}`,
  accountType: (accountId: string, type: string) => `${accountId}#${type}`,
  accountUserType: (accountId: string, userId: string, type: string) => `${accountId}#${userId}#${type}`,
  createdKey: (createdAt: string, id: string) => `${createdAt}#${id}`,
} as const;
