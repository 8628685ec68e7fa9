/**
 * Security-event use cases, in the contract's check order: cohort-super-admin status (403) → query
 * validation (400) → the read, always of the caller's own account only.
 */
import { COUNTED_TYPES, commitEvent, draftAudit, type EventType } from "../audit.js";
import type { Caller } from "../caller.js";
import { Forbidden, messages, NotFound } from "../errors.js";
import type { ApiResponse } from "../http.js";
import { isId } from "../ids.js";
import { whileInFlight } from "../overlap.js";
import { eventKeys } from "../tables.js";
import { alertsFor, emptySummary, planWindow } from "./alerts.js";
import { CSV_HEADER, eventLine, exportFilename } from "./csv.js";
import { signCursor, verifyCursor } from "./cursor.js";
import type { EventFilter, ExportedEvent, ListedEvent } from "./repository.js";
import * as repo from "./repository.js";
import { exportQuery, listQuery, parseQuery } from "./schema.js";

type Query = Readonly<Record<string, string | undefined>>;

/** The export's row cap (contract). */
export const MAX_EXPORT_ROWS = 10_000;
/**
 * The export's size cap. A Lambda response may be 6 MB (6,291,456 bytes) *as JSON*, in which every quote
 * of the CSV becomes `\"` and every CRLF `\r\n` (4 bytes): the body is measured that way, and stops (with
 * `X-Export-Truncated`) before it could pass this, leaving room for the status and headers.
 */
export const MAX_EXPORT_BYTES = 6_000_000;
/** Events per Query while exporting: enough to make few requests, small enough to keep memory flat. */
const EXPORT_PAGE = 1_000;

/**
 * Every event type `audit.ts` can write. Typed as a record of `EventType` so that a new type there fails
 * the build here until it is added. A filter naming any other value matches nothing, so it is answered
 * without a read (and never becomes part of an index key).
 */
const EVENT_TYPES: Record<EventType, true> = {
  institution_created: true,
  institution_updated: true,
  institution_deleted: true,
  insufficient_privileges: true,
  unauthorized_institution_access: true,
  rate_limit_exceeded: true,
  token_validation_failure: true,
  security_events_exported: true,
  invitation_created: true,
  invitation_revoked: true,
  invitation_resent: true,
  invitation_accepted: true,
  cohort_created: true,
};
const isEventType = (t: string): boolean => Object.hasOwn(EVENT_TYPES, t);

/**
 * Whether a `user_id` filter can be part of an index key. Index keys join account, user and type with
 * `#`, so a user id with `#` could name another account's partition; no stored user id (a Cognito `sub`)
 * has one, nor is longer than this, so such a filter matches nothing and is answered without a read.
 */
const isUserKey = (u: string): boolean => !u.includes("#") && Buffer.byteLength(u) <= 512;

function requireSuperAdmin(caller: Caller): void {
  if (!caller.isCohortSuperAdmin) throw new Forbidden(messages.superAdminRequired);
}

/**
 * One page of the caller's account's events, newest first (ties by id), filtered by `user_id`,
 * `event_type` (equality) and `from`/`to` (inclusive). One Query on the GSI the filters select, with the
 * bounds as its key condition; the next page continues from `meta.next_cursor`.
 */
export async function listSecurityEvents(caller: Caller, query: Query) {
  requireSuperAdmin(caller);
  const q = parseQuery(listQuery, query);
  const filter: EventFilter = { account: caller.accountId, userId: q.user_id, type: q.event_type, from: q.from, to: q.to };
  const after = q.cursor === undefined ? undefined : verifyCursor(filter, q.cursor);
  const matchesNothing = (q.event_type !== undefined && !isEventType(q.event_type)) || (q.user_id !== undefined && !isUserKey(q.user_id));
  let rows: ListedEvent[] = [];
  let more = false;
  // One more than the page, in the same request, tells whether a next page exists: no empty last page.
  if (!matchesNothing) ({ rows, more } = await repo.queryEvents(filter, q.limit + 1, after));
  const events = rows.length > q.limit ? rows.slice(0, q.limit) : rows;
  const last = events[events.length - 1];
  const next = last && (rows.length > q.limit || more) ? signCursor(filter, eventKeys.createdKey(last.created_at, last.id)) : null;
  return { events, meta: { count: events.length, limit: q.limit, next_cursor: next } };
}

/** One event of the caller's account. Unknown, malformed or another account's id: 404. One GetItem. */
export async function showSecurityEvent(caller: Caller, id: string | undefined) {
  requireSuperAdmin(caller);
  const e = isId(id) ? await repo.getEvent(id) : undefined;
  if (!e || e.account_id !== caller.accountId) throw new NotFound(messages.securityEventNotFound);
  return {
    id: e.id,
    event_type: e.event_type,
    user: { id: e.user_id, email: e.user_email, name: e.user_name },
    ip_address: e.ip_address,
    details: e.details,
    created_at: e.created_at,
    description: e.description,
  };
}

/**
 * Merges newest-first streams of pages into newest-first batches, pulling a page only when a stream's
 * current one runs out. Batches, not single rows: an async step per row would cost more than the row.
 */
async function* newestFirst(streams: AsyncGenerator<ExportedEvent[]>[]): AsyncGenerator<ExportedEvent[]> {
  if (streams.length === 1) {
    yield* streams[0] as AsyncGenerator<ExportedEvent[]>;
    return;
  }
  const heads = (await Promise.all(streams.map(async (s) => ({ s, page: (await s.next()).value ?? [], i: 0 })))).filter(
    (h) => h.page.length > 0,
  );
  while (heads.length > 0) {
    const batch: ExportedEvent[] = [];
    let head: (typeof heads)[number];
    let best: number;
    do {
      // At most one head per event type (a dozen): a linear pick beats a heap here.
      best = 0;
      for (let h = 1; h < heads.length; h++) {
        if ((heads[h]?.page[heads[h]?.i ?? 0]?.created_key ?? "") > (heads[best]?.page[heads[best]?.i ?? 0]?.created_key ?? "")) best = h;
      }
      head = heads[best] as (typeof heads)[number];
      batch.push(head.page[head.i++] as ExportedEvent);
    } while (head.i < head.page.length);
    yield batch;
    const next = await head.s.next();
    if (next.done || next.value.length === 0) heads.splice(best, 1);
    else Object.assign(head, { page: next.value, i: 0 });
  }
}

/** Bytes a string takes inside the Lambda response JSON. */
const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2;
/**
 * The most bytes one UTF-16 unit can take there: 6, for a control character or a lone surrogate written
 * `\uXXXX` (a UTF-8 character takes at most 3 bytes per unit, an escaped quote or CRLF 2 per unit).
 */
const MAX_JSON_BYTES_PER_UNIT = 6;

/**
 * The caller's account's events as CSV, newest first, filtered by `event_type` (comma-separated: one
 * Query per type, merged) and `from`/`to`. Pages are turned into CSV lines as they arrive, so only one page
 * per type is held as objects. At most `MAX_EXPORT_ROWS` rows and `MAX_EXPORT_BYTES`; when more match,
 * `X-Export-Truncated: true`. Logs `security_events_exported` with the row count and the submitted filters.
 */
export async function exportSecurityEvents(caller: Caller, query: Query, now = new Date()): Promise<ApiResponse> {
  requireSuperAdmin(caller);
  const q = parseQuery(exportQuery, query);
  const base = { account: caller.accountId, from: q.from, to: q.to };
  const filters: EventFilter[] =
    q.event_types === undefined ? [base] : q.event_types.filter(isEventType).map((type) => ({ ...base, type }));
  const pageSize = Math.min(EXPORT_PAGE, MAX_EXPORT_ROWS + 1);
  const pages = newestFirst(filters.map((f) => repo.eventPages(f, pageSize)));
  // Its event and headers depend on no event read: drafted while the first Query is in flight.
  const prepared = whileInFlight(() => ({
    complete: draftAudit(caller, "security_events_exported", now),
    headers: { "content-type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${exportFilename(now)}"` },
  }));

  const chunks = [CSV_HEADER];
  // The body's size as the response JSON measures it, counted exactly only once it could reach the cap:
  // until then `bound` (an upper bound of the lines since `bytes`) is enough, and most exports stay there.
  let bytes = jsonBytes(CSV_HEADER);
  let bound = 0;
  let counted = chunks.length;
  let rows = 0;
  let truncated = false;
  stream: for await (const batch of pages) {
    for (const e of batch) {
      if (rows >= MAX_EXPORT_ROWS) {
        truncated = true;
        break stream;
      }
      const line = eventLine(e);
      bound += line.length * MAX_JSON_BYTES_PER_UNIT;
      if (bytes + bound > MAX_EXPORT_BYTES) {
        for (; counted < chunks.length; counted++) bytes += jsonBytes(chunks[counted] as string);
        bound = 0;
        const size = jsonBytes(line);
        if (bytes + size > MAX_EXPORT_BYTES) {
          truncated = true;
          break stream;
        }
        bytes += size;
        counted++;
      }
      chunks.push(line);
      rows++;
    }
  }

  const { complete, headers } = await prepared;
  const details = { event_count: rows, filters: { event_type: query.event_type ?? null, from: query.from ?? null, to: query.to ?? null } };
  await commitEvent(complete(details));
  return { status: 200, body: chunks.join(""), headers: truncated ? { ...headers, "X-Export-Truncated": "true" } : headers };
}

/**
 * Counts of the counted types over [now − 1 h, now], and the alerts they reach. One counter Query, plus
 * for each counted type that has events in the window's first minute one COUNT Query over at most 30 s of
 * its events: the cost does not grow with the events in the hour.
 */
export async function securityAlerts(caller: Caller, now = new Date()) {
  requireSuperAdmin(caller);
  const plan = planWindow(now);
  const counters = await repo.minuteCounters(caller.accountId, plan.firstMinute, plan.lastMinute);
  const summary = emptySummary();
  const edgeCounter = counters.find((c) => c.sk === plan.firstMinute);
  for (const c of counters) {
    // The first minute's counter spans time before `from`; with sign +1 it is replaced by the raw count.
    if (c === edgeCounter && plan.edge?.sign === 1) continue;
    for (const t of COUNTED_TYPES) summary[t] += Number(c[t] ?? 0);
  }
  const { edge } = plan;
  if (edge && edgeCounter) {
    const types = COUNTED_TYPES.filter((t) => Number(edgeCounter[t] ?? 0) > 0);
    const counts = await Promise.all(types.map((t) => repo.countEvents(caller.accountId, t, edge.from, edge.to)));
    types.forEach((t, i) => {
      summary[t] += edge.sign * (counts[i] ?? 0);
    });
  }
  return { summary, alerts: alertsFor(summary), time_range: { from: plan.from, to: plan.to } };
}
