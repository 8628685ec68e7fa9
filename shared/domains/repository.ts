/**
 * Data access for verified domains (docs/sso.md). An institution's domains and their head share its
 * partition under the `DOMAIN` prefix, so one Query reads them all (at most 20 and the head). Every write is
 * one transaction with its event (shared/audit.ts): an add or a removal is conditioned on the head's
 * version (the limit and "added once" hold under races), a domain's own change on the domain's version,
 * and a verification also puts the service-wide guard, under the condition that it is free or already this
 * institution's: so a domain is verified by at most one institution, also when two verify at once.
 */
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { type AuditEvent, commitWithEvents } from "../audit.js";
import { db } from "../clients.js";
import { config } from "../config.js";
import { domainKeys, withoutKey } from "../tables.js";
import type { TxItem, TxItems, Written } from "../tx.js";
import type { DomainGuard, DomainHead, DomainRecord } from "./model.js";

const T = () => config.tables.main;

/** The institution's domains (oldest first: ids are ULIDs) and its head. One Query, strongly consistent. */
export async function readDomains(institutionId: string): Promise<{ head: DomainHead | undefined; domains: DomainRecord[] }> {
  const out = await db.send(
    new QueryCommand({
      TableName: T(),
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": domainKeys.head(institutionId).pk, ":prefix": domainKeys.prefix },
      ConsistentRead: true,
    }),
  );
  let head: DomainHead | undefined;
  const domains: DomainRecord[] = [];
  for (const item of out.Items ?? []) {
    if (item.sk === domainKeys.head(institutionId).sk) head = withoutKey<DomainHead>(item);
    else if (String(item.sk).startsWith(domainKeys.itemPrefix)) domains.push(withoutKey<DomainRecord>(item));
  }
  return { head, domains };
}

/** One domain of the institution (strongly consistent). One GetItem. */
export async function getDomain(institutionId: string, id: string): Promise<DomainRecord | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: domainKeys.domain(institutionId, id), ConsistentRead: true }));
  return out.Item && withoutKey<DomainRecord>(out.Item);
}

/** Who verified `domain`, if anyone (strongly consistent). One GetItem. */
export async function getGuard(domain: string, consistent = true): Promise<DomainGuard | undefined> {
  const out = await db.send(new GetCommand({ TableName: T(), Key: domainKeys.guard(domain), ConsistentRead: consistent }));
  return out.Item && withoutKey<DomainGuard>(out.Item);
}

/** The head at the version read (none yet: it must still be absent), with its count and version moved on. */
function headStep(institutionId: string, head: DomainHead | undefined, delta: 1 | -1): TxItem {
  const next: DomainHead = { count: (head?.count ?? 0) + delta, version: (head?.version ?? 0) + 1 };
  return {
    Put: {
      TableName: T(),
      Item: { ...domainKeys.head(institutionId), ...next },
      ...(head
        ? {
            ConditionExpression: "#version = :version",
            ExpressionAttributeNames: { "#version": "version" },
            ExpressionAttributeValues: { ":version": head.version },
          }
        : { ConditionExpression: "attribute_not_exists(pk)" }),
    },
  };
}

/** The domain written over the version read. */
function domainStep(before: DomainRecord, after: DomainRecord): TxItem {
  return {
    Put: {
      TableName: T(),
      Item: { ...domainKeys.domain(after.institution_id, after.id), ...after, version: before.version + 1 },
      ConditionExpression: "#version = :version",
      ExpressionAttributeNames: { "#version": "version" },
      ExpressionAttributeValues: { ":version": before.version },
    },
  };
}

const written = (kind: "ok" | "retry"): Written => ({ kind });

/** Adds `d` (version 1) to its institution, whose head was read as `head`. */
export async function insertDomain(d: DomainRecord, head: DomainHead | undefined, event: AuditEvent): Promise<Written> {
  const result = await commitWithEvents([event], {
    domain: {
      Put: {
        TableName: T(),
        Item: { ...domainKeys.domain(d.institution_id, d.id), ...d },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    head: headStep(d.institution_id, head, 1),
  });
  return written(result.kind === "ok" ? "ok" : "retry");
}

/** Records a verification that did not verify, or the failure after the deadline: the domain's new state. */
export async function storeCheck(before: DomainRecord, after: DomainRecord, event: AuditEvent): Promise<Written> {
  const result = await commitWithEvents([event], { domain: domainStep(before, after) });
  return written(result.kind === "ok" ? "ok" : "retry");
}

export type Taken = { readonly kind: "taken" };

/**
 * Verifies: the domain's new state and the guard, put only while it is free, or held by this institution, or by
 * `stale` (an institution that no longer exists). `taken` when another institution holds it now.
 */
export async function storeVerified(
  before: DomainRecord,
  after: DomainRecord,
  event: AuditEvent,
  stale: string | undefined,
): Promise<Written<Taken>> {
  const guard: DomainGuard = {
    domain: after.domain,
    institution_id: after.institution_id,
    domain_id: after.id,
    account_id: after.account_id,
    verified_at: after.verified_at as string,
  };
  const result = await commitWithEvents([event], {
    domain: domainStep(before, after),
    guard: {
      Put: {
        TableName: T(),
        Item: { ...domainKeys.guard(after.domain), ...guard },
        ConditionExpression: `attribute_not_exists(pk) OR #inst = :me${stale ? " OR #inst = :stale" : ""}`,
        ExpressionAttributeNames: { "#inst": "institution_id" },
        ExpressionAttributeValues: { ":me": after.institution_id, ...(stale && { ":stale": stale }) },
      },
    },
  });
  if (result.kind === "ok") return result;
  if (result.kind === "failed" && result.item === "guard") return { kind: "taken" };
  return { kind: "retry" };
}

/**
 * Removes `d` (at the version read) and counts it off the head; takes the guard with it when `d` holds it (the
 * guard names `d`), so the domain is free for another institution.
 */
export async function removeDomain(d: DomainRecord, head: DomainHead, holdsGuard: boolean, event: AuditEvent): Promise<Written> {
  const result = await commitWithEvents([event], {
    domain: {
      Delete: {
        TableName: T(),
        Key: domainKeys.domain(d.institution_id, d.id),
        ConditionExpression: "#version = :version",
        ExpressionAttributeNames: { "#version": "version" },
        ExpressionAttributeValues: { ":version": d.version },
      },
    },
    head: headStep(d.institution_id, head, -1),
    guard: holdsGuard
      ? {
          Delete: {
            TableName: T(),
            Key: domainKeys.guard(d.domain),
            ConditionExpression: "#domainId = :id",
            ExpressionAttributeNames: { "#domainId": "domain_id" },
            ExpressionAttributeValues: { ":id": d.id },
          },
        }
      : undefined,
  });
  return written(result.kind === "ok" ? "ok" : "retry");
}

/**
 * The items that take every domain of an institution away with the institution (its deletion,
 * institutions/repository.ts): each domain at the version read, the head at its version (a domain added meanwhile
 * fails the change, which reads again), and the guard each verified domain holds, named by that domain's id, so
 * another institution's guard is never touched. A guard this misses (none should) stays taken over by the next
 * verifier, as for any guard of a deleted institution.
 */
export function dissolveDomainItems(institutionId: string, head: DomainHead | undefined, domains: readonly DomainRecord[]): TxItems {
  const items: TxItems = {
    "domains head": head
      ? {
          Delete: {
            TableName: T(),
            Key: domainKeys.head(institutionId),
            ConditionExpression: "#version = :version",
            ExpressionAttributeNames: { "#version": "version" },
            ExpressionAttributeValues: { ":version": head.version },
          },
        }
      : // No domain was ever added: still none.
        { ConditionCheck: { TableName: T(), Key: domainKeys.head(institutionId), ConditionExpression: "attribute_not_exists(pk)" } },
  };
  for (const d of domains) {
    items[`domain ${d.id}`] = {
      Delete: {
        TableName: T(),
        Key: domainKeys.domain(institutionId, d.id),
        ConditionExpression: "#version = :version",
        ExpressionAttributeNames: { "#version": "version" },
        ExpressionAttributeValues: { ":version": d.version },
      },
    };
    if (d.state === "verified") {
      items[`domain guard ${d.id}`] = {
        Delete: {
          TableName: T(),
          Key: domainKeys.guard(d.domain),
          ConditionExpression: "#domainId = :id",
          ExpressionAttributeNames: { "#domainId": "domain_id" },
          ExpressionAttributeValues: { ":id": d.id },
        },
      };
    }
  }
  return items;
}
