/**
 * Security-event use cases, in the contract's check order: cohort-super-admin status (403) → query
 * validation (400) → the read, always of the caller's own account only.
 */
import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { auditEvent, COUNTED_TYPES, isEventType, recordEvent, type StoredEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { retainedSince } from "../config.js";
import { BadRequest, messages, NotFound } from "../errors.js";
import { isId } from "../ids.js";
import { METRIC } from "../observability.js";
import { decodeCursor, encodeCursor, PAGING_ERRORS, parseQuery } from "../paging.js";
import { metrics } from "../telemetry.js";
import { alertsFor, emptySummary, minuteOf, planWindow } from "./alerts.js";
import { CSV_HEADER, eventLine, exportFilename } from "./csv.js";
import type { EventFilter, ExportRow, ListedEvent } from "./repository.js";
import * as repo from "./repository.js";
import type { Alerts, SecurityEventList, SecurityEventView } from "./results.js";
import { exportQuery, type Iso, listQuery } from "./schema.js";

/** The API document's schemas: what each use case answers is typed by the contract. */

type Query = Readonly<Record<string, string | undefined>>;

/** The export as a file: the CSV text, its name, and whether rows were left out by a cap. */
export interface CsvExport {
  readonly csv: string;
  readonly filename: string;
  readonly truncated: boolean;
}

/** The export's row cap (contract). */
export const MAX_EXPORT_ROWS = 10_000;
/**
 * The export's size cap. A Lambda response may be 6 MB (6,291,456 bytes) *as JSON*, in which every quote
 * of the CSV becomes `\"` and every CRLF `\r\n`: the body is measured that way, and stops (with
 * `X-Export-Truncated`) before it could pass this, leaving room for the status and headers.
 */
export const MAX_EXPORT_BYTES = 6_000_000;
/** Events per Query while exporting: enough to make few requests, small enough to keep memory flat. */
const EXPORT_PAGE = 1_000;

/**
 * Whether a `user_id` filter can name a stored user: no Cognito `sub` is longer than this. A longer one
 * matches nothing and is answered without a read.
 */
const isUserKey = (u: string): boolean => Buffer.byteLength(u) <= 512;

/**
 * `from` raised to the retention: an event past it is never read, even before DynamoDB's TTL (which can
 * be days late) deletes it. A key bound, so paging stays exact.
 */
export function retainedFrom(from: Iso | undefined, now: Date): Iso {
  const since = new Date(retainedSince(now)).toISOString();
  return from === undefined || from < since ? since : from;
}

/**
 * One page of the caller's account's events, newest first (ties by id), filtered by `user_id`,
 * `event_type` (equality) and `from`/`to` (inclusive). One Query on the GSI the filters select, with the
 * bounds as its key condition; the next page continues from `meta.next_cursor`.
 */
export async function listSecurityEvents(caller: Caller, query: Query, now = clock()): Promise<SecurityEventList> {
  const q = parseQuery(listQuery, query);
  const from = retainedFrom(q.from, now);
  const filter: EventFilter = { account: caller.accountId, userId: q.user_id, userEmail: q.user_email, type: q.event_type, from, to: q.to };
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  if (after && ((q.from !== undefined && after.at < q.from) || (q.to !== undefined && after.at > q.to))) {
    throw new BadRequest(PAGING_ERRORS.cursor);
  }
  const matchesNothing = (q.event_type !== undefined && !isEventType(q.event_type)) || (q.user_id !== undefined && !isUserKey(q.user_id));
  if (matchesNothing || (q.to !== undefined && q.to < from)) return { events: [], meta: { count: 0, limit: q.limit, next_cursor: null } };
  // One more than the page, in the same request, tells whether a next page exists: no empty last page.
  const { rows, more, last: lastRead } = await repo.queryEvents(filter, q.limit + 1, after?.position);
  const events: ListedEvent[] = rows.slice(0, q.limit);
  const last = events.at(-1);
  let next: string | null = null;
  if (last && rows.length > q.limit) next = encodeCursor(repo.positionOf(last.id));
  // The user-and-type filter reads the user's events and keeps the type's (repository.ts): DynamoDB may stop
  // after events it did not return, and the next page continues after the last event it read.
  else if (more && lastRead !== undefined) next = encodeCursor(lastRead);
  return { events, meta: { count: events.length, limit: q.limit, next_cursor: next } };
}

/**
 * One event of the caller's account. Unknown, malformed or another account's id, or an event past its
 * retention: 404. One GetItem.
 */
export async function showSecurityEvent(caller: Caller, id: string | undefined, now = clock()): Promise<SecurityEventView> {
  const e = isId(id) ? await repo.getEvent(id, caller.accountId) : undefined;
  if (!e || Date.parse(e.created_at) < retainedSince(now)) throw new NotFound(messages.securityEventNotFound);
  return showBody(e);
}

/** The body `GET /security_events/:id` returns for `e`: also what a digest hashes (docs/trail.md). */
export function showBody(e: StoredEvent): SecurityEventView {
  return {
    id: e.id,
    event_type: e.event_type,
    user: { id: e.user_id ?? null, email: e.user_email ?? null, name: e.user_name ?? null },
    ip_address: e.ip_address,
    details: e.details ?? {},
    created_at: e.created_at,
    description: e.description,
  };
}

/** A stream of pages read one row at a time, with its next row in view. */
interface Peekable {
  peek(): ExportRow | undefined;
  take(): Promise<ExportRow>;
}

async function peekable(pages: AsyncGenerator<ExportRow[]>): Promise<Peekable> {
  let page: ExportRow[] = [];
  let i = 0;
  const fill = async () => {
    if (i < page.length) return;
    const next = await pages.next();
    page = next.done ? [] : next.value;
    i = 0;
  };
  await fill();
  return {
    peek: () => page[i],
    take: async () => {
      const row = page[i++] as ExportRow;
      await fill();
      return row;
    },
  };
}

/** Merges newest-first streams into one newest-first stream: each step takes the newest of the streams' next rows. */
async function* newestFirst(streams: AsyncGenerator<ExportRow[]>[]): AsyncGenerator<ExportRow> {
  const heads = await Promise.all(streams.map(peekable));
  for (;;) {
    let newest: Peekable | undefined;
    for (const head of heads) {
      const row = head.peek();
      if (row && (!newest || row.id > (newest.peek() as ExportRow).id)) newest = head;
    }
    if (!newest) return;
    yield await newest.take();
  }
}

/** Bytes a string takes inside the Lambda response's JSON. */
const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2;

/**
 * The caller's account's events as CSV, newest first, filtered by `event_type` (comma-separated: one
 * Query per type, merged) and `from`/`to`. Pages become CSV lines as they arrive, so only one page per type
 * is held as objects. At most `MAX_EXPORT_ROWS` rows and `MAX_EXPORT_BYTES`; when more match,
 * `truncated`. Records `security_events_exported` with the row count and the submitted filters.
 */
export async function exportSecurityEvents(caller: Caller, query: Query, now = clock()): Promise<CsvExport> {
  const q = parseQuery(exportQuery, query);
  const base = { account: caller.accountId, userEmail: q.user_email, from: retainedFrom(q.from, now), to: q.to };
  const nothingRetained = base.to !== undefined && base.to < base.from;
  const filters: EventFilter[] = nothingRetained
    ? []
    : q.event_types === undefined
      ? [base]
      : q.event_types.filter(isEventType).map((type) => ({ ...base, type }));
  const rows = newestFirst(filters.map((f) => repo.eventPages(f, Math.min(EXPORT_PAGE, MAX_EXPORT_ROWS + 1))));

  const lines = [CSV_HEADER];
  let bytes = jsonBytes(CSV_HEADER);
  let truncated = false;
  for await (const row of rows) {
    const line = eventLine(row);
    bytes += jsonBytes(line);
    if (lines.length > MAX_EXPORT_ROWS || bytes > MAX_EXPORT_BYTES) {
      truncated = true;
      break;
    }
    lines.push(line);
  }

  const count = lines.length - 1;
  metrics.addMetric(METRIC.exportedRows, MetricUnit.Count, count);
  // As submitted, and recorded as any request value is (shared/audit.ts): cut, one line.
  const filtersSent = {
    event_type: query.event_type ?? null,
    ...(q.user_email !== undefined && { user_email: q.user_email }),
    from: query.from ?? null,
    to: query.to ?? null,
  };
  await recordEvent(auditEvent(caller, "security_events_exported", { event_count: count, filters: filtersSent }, { now }));
  return { csv: lines.join(""), filename: exportFilename(now), truncated };
}

/**
 * Counts of the counted types over [now − 1 h, now], the alerts they reach, and the per-minute `series`
 * of the hour for a chart. One counter Query, plus for each counted type that has events in the window's
 * first minute one COUNT Query over at most 30 s of its events: the cost does not grow with the events in
 * the hour.
 */
export async function securityAlerts(caller: Caller, now = clock()): Promise<Alerts> {
  const plan = planWindow(now);
  const counters = await repo.minuteCounters(caller.accountId, plan.firstMinute, plan.lastMinute);
  const count = (counter: Record<string, unknown> | undefined, type: string) => Number(counter?.[type] ?? 0);
  const summary = emptySummary();
  const edgeCounter = counters.find((c) => c.sk === plan.firstMinute);
  for (const c of counters) {
    // The first minute's counter spans time before `from`; with sign +1 it is replaced by the raw count.
    if (c === edgeCounter && plan.edge?.sign === 1) continue;
    for (const t of COUNTED_TYPES) summary[t] += count(c, t);
  }
  const { edge } = plan;
  if (edge && edgeCounter) {
    const types = COUNTED_TYPES.filter((t) => count(edgeCounter, t) > 0);
    const counts = await Promise.all(types.map((t) => repo.countEvents(caller.accountId, t, edge.from, edge.to)));
    types.forEach((t, i) => {
      summary[t] += edge.sign * (counts[i] ?? 0);
    });
  }
  const byMinute = new Map(counters.map((c) => [String(c.sk), c]));
  const series = Array.from({ length: 60 }, (_, i) => {
    const minute = minuteOf(now.getTime() - (59 - i) * 60_000);
    const counter = byMinute.get(minute);
    const counts = emptySummary();
    for (const t of COUNTED_TYPES) counts[t] = count(counter, t);
    return { minute: `${minute}:00.000Z`, ...counts };
  });
  return { summary, alerts: alertsFor(summary), time_range: { from: plan.from, to: plan.to }, series };
}
