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
  /** Absent for a table keyed by its partition key alone. */
  readonly sortKey?: string;
  readonly indexes: readonly IndexDef[];
  readonly ttlAttribute?: string;
  /** A DynamoDB stream of the table's changes, with the new image of each item (docs/events-out.md). */
  readonly stream?: "NEW_IMAGE";
}

/**
 * Main table, single-table design:
 * - institution `INST#<id>` / `META`; its cohorts `INST#<id>` / `COHORT#<id>`; its invitations `INST#<id>` / `INV#<id>`
 * - access record `USER#<user>` / `INST#<institution>` (carries the institution summary, so listing is one Query,
 *   and the member's e-mail, name and account, so the institution's administrators list is one Query of `by_institution_member`)
 * - sent invitation `USER#<user>` / `SENT#<institution>#<invitation>` (expires by TTL): what a removal revokes
 * - registration-number guard `REGNO#<account>#<normalised number>` / `REGNO`
 * - invitation token `TOKEN#<sha256>` / `TOKEN`
 * - mail counters `INST#<id>` / `MAILS#HOUR#<YYYY-MM-DDTHH>` and `EMAIL#<email>#DAY#<YYYY-MM-DD>` (expire by TTL)
 * - service-wide counters (expire by TTL): mails per mailbox `MAILBOX#<mailbox>` / `DAY#<YYYY-MM-DD>` (the
 *   ceiling); mails per account and mailbox `ACCOUNT#<account>` / `MAILBOX#<mailbox>#DAY#<YYYY-MM-DD>`; mails
 *   and institutions created per account `ACCOUNT#<account>` / `MAILS#HOUR#<YYYY-MM-DDTHH>` and
 *   `INSTITUTIONS#DAY#<YYYY-MM-DD>`
 * The `by_invitation_state` GSI holds active and used invitations by institution and state, sorted by
 * `<expires_at>#<id>`, so a page of the invitation list reads only that page.
 * The `by_institution_member` GSI holds the access records by institution, sorted by `<e-mail>#<user>`, so a
 * page of the administrators list reads only that page. The sparse `by_invitation_sender` GSI holds the
 * active invitations by institution and sender (used and revoked ones leave it), sorted like the state
 * index. No request reads it any more: a GSI is eventually consistent, so a removal reads the sender's
 * `SENT#` items instead. The upgrade's backfill of those items Scans it (shared/invitations/backfill.ts), so it
 * stays in this release and goes in the next (docs/operations.md, "Upgrading to the senders' records of invitations").
 */
export const mainTable = {
  id: "Main",
  partitionKey: "pk",
  sortKey: "sk",
  indexes: [
    { name: "by_invitation_state", partitionKey: "g_inv_state", sortKey: "g_inv_order" },
    { name: "by_institution_member", partitionKey: "g_member_inst", sortKey: "g_member_order" },
    { name: "by_invitation_sender", partitionKey: "g_inv_sender", sortKey: "g_inv_order" },
  ],
  ttlAttribute: "ttl",
} as const satisfies TableDef;

/**
 * Events table (docs/trail.md: at most 6 WCU per account copy of an audited change, so one item and two indexes):
 * - event `EVT#<account>` / `<id>`: the id is a ULID, so the sort key orders an account's trail by time and
 *   ties by id, and a time range is a key range; this replaces an index partitioned by account;
 * - per-minute alert counters `CNT#<account>` / `<YYYY-MM-DDTHH:MM>`;
 * - per-minute refused-request counters `REFUSED#<user>` / `<YYYY-MM-DDTHH:MM>` (the probing bound);
 * - "this account had events in this period" markers `ACTIVE#<YYYY-MM-DD>` / `<period start>#<account>`, so
 *   the digester finds the accounts to digest without a Scan;
 * - digests `DIGEST#<account>` / `<period start>`, their sequence claims `DIGESTSEQ#<account>` / `<sequence>`,
 *   and the digester's progress `DIGESTER` / `STATE`.
 * The GSIs are partitioned by account and user, or account and type, and sorted by the id as well. Every
 * item expires by `ttl`; events after the retention (`EVENT_RETENTION_DAYS`).
 */
export const eventsTable = {
  id: "Events",
  partitionKey: "pk",
  sortKey: "sk",
  indexes: [
    { name: "by_user", partitionKey: "g_user", sortKey: "sk" },
    { name: "by_type", partitionKey: "g_type", sortKey: "sk" },
  ],
  ttlAttribute: "ttl",
  // Every recorded event goes out to EventBridge and the webhooks from here (shared/streaming/).
  stream: "NEW_IMAGE",
} as const satisfies TableDef;

/**
 * Idempotency records (docs/contract/README.md#retries-and-concurrent-edits), written by Powertools' DynamoDB persistence layer with its default
 * attribute names: `id` = `<prefix>#<SHA-256 of [caller, route, Idempotency-Key]>`, `status`, `expiration`
 * (epoch seconds, 24 hours on: the TTL attribute), `in_progress_expiration`, `validation` (hash of the
 * request) and `data` (the response). Keyed by `id` alone, so records spread over partitions.
 */
export const idempotencyTable: TableDef = {
  id: "Idempotency",
  partitionKey: "id",
  indexes: [],
  ttlAttribute: "expiration",
};

export const tableDefs = [mainTable, eventsTable, idempotencyTable] as const;

/** The main table's index names: what a route may query (shared/routes.ts, `TableCall`). */
export type MainIndex = (typeof mainTable.indexes)[number]["name"];
/** The events table's index names. */
export type EventsIndex = (typeof eventsTable.indexes)[number]["name"];

/** CreateTable input for DynamoDB Local and the tests (CDK maps the same definition in infra/). */
export function createTableInput(def: TableDef, tableName: string): CreateTableCommandInput {
  const attrs = new Set<string>([def.partitionKey, ...(def.sortKey ? [def.sortKey] : [])]);
  for (const i of def.indexes) attrs.add(i.partitionKey).add(i.sortKey);
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: "S" })),
    KeySchema: [
      { AttributeName: def.partitionKey, KeyType: "HASH" },
      ...(def.sortKey ? [{ AttributeName: def.sortKey, KeyType: "RANGE" as const }] : []),
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
    ...(def.stream && { StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_IMAGE" } }),
  };
}

export interface Key {
  pk: string;
  sk: string;
}

/**
 * A value inside a key, with the separator `#` (and `%`, the escape) percent-encoded: no account id,
 * user id or e-mail can make two keys collide or name another key's prefix.
 */
export const keyPart = (value: string): string => value.replace(/[%#]/g, (c) => (c === "%" ? "%25" : "%23"));

/** Item keys of the main table. */
export const keys = {
  institution: (id: string): Key => ({ pk: `INST#${id}`, sk: "META" }),
  cohort: (institutionId: string, cohortId: string): Key => ({ pk: `INST#${institutionId}`, sk: `COHORT#${cohortId}` }),
  cohortPrefix: "COHORT#",
  access: (userId: string, institutionId: string): Key => ({ pk: `USER#${keyPart(userId)}`, sk: `INST#${institutionId}` }),
  accessPartition: (userId: string): string => `USER#${keyPart(userId)}`,
  accessPrefix: "INST#",
  /**
   * An invitation `userId` sent, in the sender's own partition beside its access records, kept while the invitation
   * may be active (TTL at its expiry, moved by each resend): the removal's strongly consistent read of what the
   * person sent (docs/security.md, "Offboarding is complete"), where an index may lag.
   */
  sentInvitation: (userId: string, institutionId: string, invitationId: string): Key => ({
    pk: `USER#${keyPart(userId)}`,
    sk: `SENT#${institutionId}#${invitationId}`,
  }),
  /** Sort-key prefix of the invitations a person sent to one institution: one Query reads them. */
  sentInvitationPrefix: (institutionId: string): string => `SENT#${institutionId}#`,
  /** `numberKey`: the number folded (shared/institutions/registration-number.ts), so that look-alikes share the key. */
  registrationNumber: (accountId: string, numberKey: string): Key => ({
    pk: `REGNO#${keyPart(accountId)}#${keyPart(numberKey)}`,
    sk: "REGNO",
  }),
  invitation: (institutionId: string, invitationId: string): Key => ({ pk: `INST#${institutionId}`, sk: `INV#${invitationId}` }),
  invitationPrefix: "INV#",
  token: (tokenHash: string): Key => ({ pk: `TOKEN#${tokenHash}`, sk: "TOKEN" }),
  /** Pending-limit slot `n` (< the limit) of one (institution, e-mail); held by at most one active invitation. */
  invitationSlot: (institutionId: string, email: string, n: number): Key => ({
    pk: `INST#${institutionId}`,
    sk: `EMAIL#${keyPart(email)}#SLOT#${n}`,
  }),
  /** Marks an e-mail that has access to the institution (its member's user id), for the invitation checks. */
  memberEmail: (institutionId: string, email: string): Key => ({ pk: `INST#${institutionId}`, sk: `EMAIL#${keyPart(email)}#MEMBER` }),
  /** Sort-key prefix of every item of one e-mail in an institution: its slots and its member marker, one Query. */
  emailPrefix: (email: string): string => `EMAIL#${keyPart(email)}#`,
  /** Invitation mails of one institution in one UTC hour (`YYYY-MM-DDTHH`). */
  hourlyMails: (institutionId: string, hour: string): Key => ({ pk: `INST#${institutionId}`, sk: `MAILS#HOUR#${hour}` }),
  /** Invitation mails to one e-mail of one institution in one UTC day (`YYYY-MM-DD`). */
  dailyMails: (institutionId: string, email: string, day: string): Key => ({
    pk: `INST#${institutionId}`,
    sk: `EMAIL#${keyPart(email)}#DAY#${day}`,
  }),
  /** Invitation mails to one mailbox (see `mailboxOf`), service-wide, in one UTC day. */
  mailboxDailyMails: (mailbox: string, day: string): Key => ({ pk: `MAILBOX#${keyPart(mailbox)}`, sk: `DAY#${day}` }),
  /** Invitation mails from the institutions of one account to one mailbox in one UTC day (the fair share, docs/security.md). */
  accountMailboxDailyMails: (accountId: string, mailbox: string, day: string): Key => ({
    pk: `ACCOUNT#${keyPart(accountId)}`,
    sk: `MAILBOX#${keyPart(mailbox)}#DAY#${day}`,
  }),
  /** Invitation mails of the institutions of one account in one UTC hour. */
  accountHourlyMails: (accountId: string, hour: string): Key => ({ pk: `ACCOUNT#${keyPart(accountId)}`, sk: `MAILS#HOUR#${hour}` }),
  /** Institutions created in one account in one UTC day. */
  accountDailyInstitutions: (accountId: string, day: string): Key => ({
    pk: `ACCOUNT#${keyPart(accountId)}`,
    sk: `INSTITUTIONS#DAY#${day}`,
  }),
  /**
   * A record of the user pool's activity export that has its event in the trail (shared/people/repository.ts),
   * by the export's own event id: a record delivered again finds it and records nothing.
   */
  poolActivity: (cognitoEventId: string): Key => ({ pk: `POOLACTIVITY#${keyPart(cognitoEventId)}`, sk: "RECORDED" }),
} as const;

/**
 * SCIM directory provisioning (docs/scim.md), main table:
 * - the connection `INST#<id>` / `SCIM` (token hash and preview, role mappings, times, `version`);
 * - its token `SCIMTOKEN#<sha256>` / `SCIMTOKEN` → institution and connection: the authorizer's one GetItem;
 * - the directory's resources, all in the connection's partition so that one Query reads them:
 *   users `SCIM#<connection>` / `USER#<id>`, groups `.../GROUP#<id>`, and what the directory has granted, per
 *   e-mail, `.../GRANT#<email>` (the pool user and role). Uniqueness (userName, displayName) is checked on
 *   that read: every directory write is conditioned on the connection's version, so none can slip between.
 */
export const scimKeys = {
  connection: (institutionId: string): Key => ({ pk: `INST#${institutionId}`, sk: "SCIM" }),
  token: (tokenHash: string): Key => ({ pk: `SCIMTOKEN#${tokenHash}`, sk: "SCIMTOKEN" }),
  partition: (connectionId: string): string => `SCIM#${connectionId}`,
  user: (connectionId: string, id: string): Key => ({ pk: `SCIM#${connectionId}`, sk: `USER#${id}` }),
  group: (connectionId: string, id: string): Key => ({ pk: `SCIM#${connectionId}`, sk: `GROUP#${id}` }),
  grant: (connectionId: string, email: string): Key => ({ pk: `SCIM#${connectionId}`, sk: `GRANT#${keyPart(email)}` }),
} as const;

/**
 * Institution API keys (docs/api-keys.md), main table:
 * - the institution's keys `APIKEYS#<institution>` / `KEY#<id>` (name, scopes, hash, preview, times), and its
 *   `APIKEYS#<institution>` / `META` (`version`, bumped by every create, so that two creates racing for the
 *   last of the 20 live keys cannot both pass): one Query reads both;
 * - each key's lookup item `APIKEYHASH#<sha256>` / `APIKEYHASH` → the key, its institution, account, name,
 *   scopes and expiry: the key authorizer's one GetItem.
 * Partitions of their own (not `INST#`), so that the authorizer's grant reaches no institution item.
 */
export const apiKeyKeys = {
  partition: (institutionId: string): string => `APIKEYS#${institutionId}`,
  key: (institutionId: string, keyId: string): Key => ({ pk: `APIKEYS#${institutionId}`, sk: `KEY#${keyId}` }),
  keyPrefix: "KEY#",
  meta: (institutionId: string): Key => ({ pk: `APIKEYS#${institutionId}`, sk: "META" }),
  hash: (keyHash: string): Key => ({ pk: `APIKEYHASH#${keyHash}`, sk: "APIKEYHASH" }),
} as const;

/** Index attributes of an invitation in `by_invitation_state` (a revoked one has none, so it leaves the index). */
export const invitationStateIndex = {
  name: "by_invitation_state",
  partitionKey: "g_inv_state",
  sortKey: "g_inv_order",
  partition: (institutionId: string, state: "active" | "used") => `${institutionId}#${state}`,
  /** Expiry first: newest first is latest expiry first, and the unexpired ones are a key range. */
  order: (expiresAt: string, id: string) => `${expiresAt}#${id}`,
  idOf: (order: string) => order.slice(order.lastIndexOf("#") + 1),
  attributes(institutionId: string, state: "active" | "used", expiresAt: string, id: string) {
    return { g_inv_state: this.partition(institutionId, state), g_inv_order: this.order(expiresAt, id) };
  },
} as const;

/**
 * The partition-key prefixes of the events table, by what the items are: events (and the activity markers
 * written with them) are only ever added, counters only ever counted, digests only ever added by the
 * digester. The CDK stack grants by them (`dynamodb:LeadingKeys`), so that no function may update or delete
 * an event.
 */
export const EVENT_KEY_PREFIXES = {
  appended: ["EVT#", "ACTIVE#"],
  counters: ["CNT#", "REFUSED#"],
  digests: ["DIGEST#", "DIGESTSEQ#"],
  /** The digester's progress, `DIGESTER` / `STATE`: a whole partition key, not a prefix. */
  digesterProgress: ["DIGESTER"],
} as const;

/** The inverse of `keyPart`. */
export const fromKeyPart = (part: string): string => part.replace(/%2[35]/g, (c) => (c === "%25" ? "%" : "#"));

/**
 * Index attributes of an access record in `by_institution_member`: the institution's administrators ordered
 * by e-mail (then user id, so that the order is total); `#` separates the two encoded parts.
 */
export const memberIndex = {
  name: "by_institution_member",
  partitionKey: "g_member_inst",
  sortKey: "g_member_order",
  order: (email: string, userId: string) => `${keyPart(email)}#${keyPart(userId)}`,
  /** The user id of an order value, or undefined when the value is not one `order` makes. */
  userOf(order: string): string | undefined {
    const parts = order.split("#");
    return parts.length === 2 && parts[1] !== "" ? fromKeyPart(parts[1] as string) : undefined;
  },
  attributes(institutionId: string, email: string, userId: string) {
    return { g_member_inst: institutionId, g_member_order: this.order(email, userId) };
  },
} as const;

/** Index attributes of an active invitation in `by_invitation_sender` (its sort key is the state index's). */
export const invitationSenderIndex = {
  name: "by_invitation_sender",
  partitionKey: "g_inv_sender",
  partition: (institutionId: string, userId: string) => `${institutionId}#${keyPart(userId)}`,
} as const;

/** Item keys and index keys of the events table. */
export const eventKeys = {
  /** One event in one account's trail: an event that concerns another account's institution is in both. */
  event: (id: string, accountId: string): Key => ({ pk: eventKeys.partition(accountId), sk: id }),
  /** The partition of one account's trail, sorted by event id. */
  partition: (accountId: string): string => `EVT#${keyPart(accountId)}`,
  counter: (accountId: string, minute: string): Key => ({ pk: `CNT#${keyPart(accountId)}`, sk: minute }),
  counterPartition: (accountId: string): string => `CNT#${keyPart(accountId)}`,
  /** Requests of one user refused in one UTC minute (`YYYY-MM-DDTHH:MM`): the probing bound. */
  refusals: (userId: string, minute: string): Key => ({ pk: `REFUSED#${keyPart(userId)}`, sk: minute }),
  account: (accountId: string) => keyPart(accountId),
  /** `by_user` partition. */
  accountUser: (accountId: string, userId: string) => `${keyPart(accountId)}#${keyPart(userId)}`,
  /** `by_type` partition. */
  accountType: (accountId: string, type: string) => `${keyPart(accountId)}#${type}`,
  /** Marks that `accountId` had an event in the digest period starting at `periodStart` (ISO). */
  activity: (periodStart: string, accountId: string): Key => ({
    pk: eventKeys.activityPartition(periodStart.slice(0, 10)),
    sk: `${periodStart}#${keyPart(accountId)}`,
  }),
  /** The markers of one UTC day (`YYYY-MM-DD`). */
  activityPartition: (day: string): string => `ACTIVE#${day}`,
  digestPartition: (accountId: string): string => `DIGEST#${keyPart(accountId)}`,
  digester: { pk: "DIGESTER", sk: "STATE" } as Key,
} as const;

/** A stored item without its table keys. */
export function withoutKey<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}

/**
 * Item keys of the full exports and the webhooks (main table, docs/events-out.md):
 * - export `EXPORTS#<account>` / `EXPORT#<id>`, and the account's running-export slots `EXPORTS#<account>` /
 *   `SLOT#<n>` (at most `EXPORT_SLOTS`, each held by one running export until it ends or its lease runs out);
 * - webhook `HOOKS#<account>` / `HOOK#<id>` and the account's webhook count `HOOKS#<account>` / `COUNT`;
 * - a delivery `HOOK#<webhook id>` / `DLV#<event id>` (one per event and webhook, its attempts inside);
 * - a due retry `HOOKRETRY` / `<due ISO>#<webhook id>#<event id>`: the retrier reads the due ones by key range.
 */
export const streamKeys = {
  export: (accountId: string, id: string): Key => ({ pk: `EXPORTS#${keyPart(accountId)}`, sk: `EXPORT#${id}` }),
  exportSlot: (accountId: string, n: number): Key => ({ pk: `EXPORTS#${keyPart(accountId)}`, sk: `SLOT#${n}` }),
  exportPartition: (accountId: string): string => `EXPORTS#${keyPart(accountId)}`,
  exportSlotPrefix: "SLOT#",
  webhook: (accountId: string, id: string): Key => ({ pk: `HOOKS#${keyPart(accountId)}`, sk: `HOOK#${id}` }),
  webhookPartition: (accountId: string): string => `HOOKS#${keyPart(accountId)}`,
  webhookPrefix: "HOOK#",
  webhookCount: (accountId: string): Key => ({ pk: `HOOKS#${keyPart(accountId)}`, sk: "COUNT" }),
  delivery: (webhookId: string, eventId: string): Key => ({ pk: `HOOK#${webhookId}`, sk: `DLV#${eventId}` }),
  deliveryPartition: (webhookId: string): string => `HOOK#${webhookId}`,
  deliveryPrefix: "DLV#",
  retry: (due: string, webhookId: string, eventId: string): Key => ({ pk: "HOOKRETRY", sk: `${due}#${webhookId}#${eventId}` }),
  retryPartition: "HOOKRETRY",
} as const;

/**
 * Verified domains and the SSO connection (docs/sso.md), main table:
 * - a domain `INST#<id>` / `DOMAIN#<domain id>`, and the institution's domain head `INST#<id>` / `DOMAINS`
 *   (their count and a version every add and removal bumps under a condition, so the limit and the
 *   one-domain-once rule hold under races): one Query of the `DOMAIN` prefix reads the head and every domain;
 * - the service-wide guard `DOMAINGUARD#<domain>` / `GUARD` → the institution that verified it: put under the
 *   condition that it is free (or already ours), so a domain is verified by at most one institution;
 * - the connection `INST#<id>` / `SSO` (never the client secret: that lives in the pool's identity provider);
 * - the provider `SSOPROVIDER#<provider name>` / `PROVIDER` → the institution whose IdP it is: written and deleted
 *   with the connection, read by the pool's triggers (a sign-in names its provider, not its institution);
 * - the lock on the console app client's provider list `SSOPOOL` / `CLIENT#<client id>`: its read-modify-write
 *   (DescribeUserPoolClient, UpdateUserPoolClient) runs under it, so two connections at once lose nothing.
 */
export const domainKeys = {
  domain: (institutionId: string, id: string): Key => ({ pk: `INST#${institutionId}`, sk: `DOMAIN#${id}` }),
  head: (institutionId: string): Key => ({ pk: `INST#${institutionId}`, sk: "DOMAINS" }),
  /** Begins the head's sort key and every domain's: one Query reads them together. */
  prefix: "DOMAIN",
  itemPrefix: "DOMAIN#",
  guard: (domain: string): Key => ({ pk: `DOMAINGUARD#${keyPart(domain)}`, sk: "GUARD" }),
} as const;

export const ssoKeys = {
  connection: (institutionId: string): Key => ({ pk: `INST#${institutionId}`, sk: "SSO" }),
  clientLock: (clientId: string): Key => ({ pk: "SSOPOOL", sk: `CLIENT#${keyPart(clientId)}` }),
  provider: (providerName: string): Key => ({ pk: `SSOPROVIDER#${keyPart(providerName)}`, sk: "PROVIDER" }),
} as const;
