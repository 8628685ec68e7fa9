/**
 * Security events written straight into the events table, for tests and the benchmark: thousands of
 * events at chosen instants, which the API could only make one request at a time and only at "now".
 */
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { auditEvent, type EventType, eventItems } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { inParallel, putItems } from "./seed.js";

/** One event to seed: who, what, when. */
export interface Seed {
  readonly caller: Caller;
  readonly event: { readonly type: EventType; readonly details: Record<string, unknown> };
  readonly at: Date;
}

/**
 * Writes events exactly as `eventItems` shapes them (event item, activity marker and per-minute counters), but fast:
 * events by BatchWriteItem, counters summed per minute and added with one UpdateItem each. Returns the
 * stored ids in the order given. With `legacy`, each event keeps its details exactly as given, as an
 * event recorded before values were cut and cleaned (docs/security.md) would have them: what reads the trail
 * (the export's size cap, say) must still cope with those.
 */
export async function seedEvents(seeds: readonly Seed[], { legacy = false } = {}): Promise<string[]> {
  const puts: Record<string, unknown>[] = [];
  const counters = new Map<string, { key: Record<string, unknown>; counts: Map<string, number>; ttl: unknown }>();
  const ids: string[] = [];
  const markers = new Map<string, Record<string, unknown>>();
  for (const s of seeds) {
    for (const item of Object.values(eventItems(auditEvent(s.caller, s.event.type, s.event.details as never, { now: s.at })))) {
      if (!item) continue;
      if (item.Put) {
        const put = item.Put.Item as Record<string, unknown>;
        // An activity marker (audit.ts): one per account and period, however many events it has.
        if (put.event_type === undefined) markers.set(`${put.pk}|${put.sk}`, put);
        else {
          puts.push(legacy ? { ...put, details: s.event.details } : put);
          ids.push(String(put.id));
        }
      } else if (item.Update) {
        const key = item.Update.Key as Record<string, unknown>;
        const type = String(item.Update.ExpressionAttributeNames?.["#t"]);
        const id = `${key.pk}|${key.sk}`;
        const c = counters.get(id) ?? { key, counts: new Map(), ttl: item.Update.ExpressionAttributeValues?.[":ttl"] };
        c.counts.set(type, (c.counts.get(type) ?? 0) + 1);
        counters.set(id, c);
      }
    }
  }
  await putItems(config.tables.events, [...puts, ...markers.values()]);
  await inParallel([...counters.values()], 8, async (c) => {
    const types = [...c.counts];
    await db.send(
      new UpdateCommand({
        TableName: config.tables.events,
        Key: c.key,
        UpdateExpression: `ADD ${types.map((_, i) => `#t${i} :n${i}`).join(", ")} SET #ttl = if_not_exists(#ttl, :ttl)`,
        ExpressionAttributeNames: { "#ttl": "ttl", ...Object.fromEntries(types.map(([t], i) => [`#t${i}`, t])) },
        ExpressionAttributeValues: { ":ttl": c.ttl, ...Object.fromEntries(types.map(([, n], i) => [`:n${i}`, n])) },
      }),
    );
  });
  return ids;
}

const TYPES: EventType[] = [
  "institution_created",
  "unauthorized_institution_access",
  "institution_updated",
  "rate_limit_exceeded",
  "insufficient_privileges",
  "token_validation_failure",
  "invitation_created",
];

/**
 * `count` events of `account`, evenly spread over the `spanMs` before `end`, cycling through five users and
 * seven types (three of them counted by the alerts), each with details of the same shape and size.
 */
export function spreadSeeds(account: string, count: number, end: number, spanMs: number): Seed[] {
  return Array.from({ length: count }, (_, i) => {
    const u = i % 5;
    const caller: Caller = {
      id: `seed-user-${u}`,
      email: `seed-user-${u}@example.com`,
      name: `Seed User ${u}`,
      accountId: account,
      isCohortSuperAdmin: true,
      emailVerified: true,
      ip: "192.0.2.10",
    };
    const type = TYPES[i % TYPES.length] as EventType;
    const at = new Date(end - Math.floor(((i + 0.5) * spanMs) / count));
    return { caller, event: { type, details: { institution_id: "01SEED00000000000000000000", name: "Seed Institute", n: i % 10 } }, at };
  });
}
