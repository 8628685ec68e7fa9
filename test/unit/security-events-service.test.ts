/** The security-event use cases over a stubbed repository: check order, paging, export merge and caps, alert arithmetic. */
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.MAIN_TABLE ??= "main";
  process.env.EVENTS_TABLE ??= "events";
});

vi.mock("../../shared/security-events/repository.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../shared/security-events/repository.js")>()),
  queryEvents: vi.fn(),
  eventPages: vi.fn(),
  getEvent: vi.fn(),
  minuteCounters: vi.fn(),
  countEvents: vi.fn(),
}));
vi.mock("../../shared/audit.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../shared/audit.js")>()),
  recordEvent: vi.fn(),
  recordRefusal: vi.fn(),
}));

import { recordEvent, recordRefusal, type StoredEvent } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { newId } from "../../shared/ids.js";
import { encodeCursor } from "../../shared/paging.js";
import { eventLine } from "../../shared/security-events/csv.js";
import * as repo from "../../shared/security-events/repository.js";
import { LISTED_FIELDS, type ListedEvent } from "../../shared/security-events/repository.js";
import {
  exportSecurityEvents,
  listSecurityEvents,
  MAX_EXPORT_BYTES,
  MAX_EXPORT_ROWS,
  securityAlerts,
  showSecurityEvent,
} from "../../shared/security-events/service.js";

const admin: Caller = {
  id: "u1",
  email: "a@example.com",
  name: "A",
  accountId: "acct",
  isCohortSuperAdmin: true,
  emailVerified: true,
  ip: "10.0.0.1",
};
const plain: Caller = { ...admin, isCohortSuperAdmin: false };
const mocked = vi.mocked(repo);

type EventRow = StoredEvent & { created_key: string };

let clock = Date.UTC(2024, 4, 1);
function row(over: Partial<EventRow> = {}): EventRow {
  clock -= 1000;
  const created_at = over.created_at ?? new Date(clock).toISOString();
  const id = over.id ?? newId(Date.parse(created_at));
  return {
    id,
    account_id: "acct",
    event_type: "institution_created",
    user_id: "u1",
    user_email: "a@example.com",
    user_name: "A",
    ip_address: "10.0.0.1",
    details: { name: "X" },
    description: "a created institution 'X'",
    created_at,
    created_key: `${created_at}#${id}`,
    ...over,
  };
}

/** A row as the list's Query returns it: only the listed fields. */
const listed = (r: EventRow): ListedEvent => Object.fromEntries(LISTED_FIELDS.map((f) => [f, r[f]])) as ListedEvent;

/** The event the last export recorded. */
function exportEvent(): { event_type: string; user_id: string; accounts: readonly string[]; details: Record<string, unknown> } {
  const e = vi.mocked(recordEvent).mock.lastCall?.[0];
  if (!e) throw new Error("no event recorded");
  return { event_type: e.type, user_id: e.actor.id, accounts: e.accounts, details: e.details };
}

async function* pagesOf(rows: EventRow[], size = 1000): AsyncGenerator<EventRow[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    return (e as { status: number }).status;
  }
}

beforeEach(() => vi.clearAllMocks());

describe("check order", () => {
  it("403 before query validation, on all four, with no read and no event; each counted as a refusal (the probing bound)", async () => {
    expect(await status(listSecurityEvents(plain, { limit: "0" }))).toBe(403);
    expect(await status(showSecurityEvent(plain, "bad"))).toBe(403);
    expect(await status(exportSecurityEvents(plain, { from: "bad" }))).toBe(403);
    expect(await status(securityAlerts(plain))).toBe(403);
    await expect(listSecurityEvents(plain, {})).rejects.toThrow("Super admin access required");
    for (const fn of [mocked.queryEvents, mocked.eventPages, mocked.getEvent, mocked.minuteCounters, mocked.countEvents])
      expect(fn).not.toHaveBeenCalled();
    expect(recordEvent).not.toHaveBeenCalled();
    expect(vi.mocked(recordRefusal).mock.calls).toEqual(Array(5).fill([plain, undefined]));
  });

  it("400 on a bad query before any read", async () => {
    for (const q of [{ limit: "201" }, { from: "x" }, { to: "x" }, { cursor: "x" }, { from: "2024-02-01", to: "2024-01-01" }]) {
      expect(await status(listSecurityEvents(admin, q))).toBe(400);
    }
    expect(await status(exportSecurityEvents(admin, { to: "x" }))).toBe(400);
    expect(mocked.queryEvents).not.toHaveBeenCalled();
    expect(mocked.eventPages).not.toHaveBeenCalled();
  });
});

describe("list", () => {
  it("asks for limit + 1 in one Query on the caller's account and pages with a cursor", async () => {
    const rows = [row(), row(), row()];
    mocked.queryEvents.mockResolvedValueOnce({ rows: rows.map(listed), more: true });
    const page = await listSecurityEvents(admin, { limit: "2", user_id: "u9", from: "2024-01-01T00:00:00Z" });
    expect(mocked.queryEvents).toHaveBeenCalledTimes(1);
    expect(mocked.queryEvents).toHaveBeenCalledWith(
      { account: "acct", userId: "u9", type: undefined, from: "2024-01-01T00:00:00.000Z", to: undefined },
      3,
      undefined,
    );
    // The rows are the events as they come (the Query projects the contract's fields; see the integration tests).
    expect(page.events).toEqual(rows.slice(0, 2).map(listed));
    expect(page.meta).toEqual({ count: 2, limit: 2, next_cursor: expect.any(String) });

    mocked.queryEvents.mockResolvedValueOnce({ rows: [listed(rows[2] as EventRow)], more: false });
    const next = await listSecurityEvents(admin, {
      limit: "2",
      user_id: "u9",
      from: "2024-01-01T00:00:00.000Z",
      cursor: page.meta.next_cursor ?? "",
    });
    expect(mocked.queryEvents).toHaveBeenLastCalledWith(expect.anything(), 3, rows[1]?.created_key);
    expect(next.meta).toEqual({ count: 1, limit: 2, next_cursor: null });
  });

  it("a full last page has no cursor when nothing more exists", async () => {
    mocked.queryEvents.mockResolvedValueOnce({ rows: [row(), row()].map(listed), more: false });
    expect((await listSecurityEvents(admin, { limit: "2" })).meta.next_cursor).toBeNull();
  });

  it("a malformed cursor, or a position outside from/to, is 400", async () => {
    for (const cursor of ["x", encodeCursor("2024-01-01T00:00:00.000Z#nope"), encodeCursor(`garbage#${newId()}`)]) {
      await expect(listSecurityEvents(admin, { cursor })).rejects.toThrow("Invalid cursor");
    }
    const before = encodeCursor(`2023-12-31T23:59:59.999Z#${newId()}`);
    await expect(listSecurityEvents(admin, { cursor: before, from: "2024-01-01" })).rejects.toThrow("Invalid cursor");
    expect(mocked.queryEvents).not.toHaveBeenCalled();
  });

  it("answers filters no event can match without a read", async () => {
    for (const q of [{ event_type: "nope" }, { event_type: "a#institution_created" }, { user_id: "u".repeat(600) }]) {
      expect(await listSecurityEvents(admin, q)).toEqual({ events: [], meta: { count: 0, limit: 50, next_cursor: null } });
    }
    expect(mocked.queryEvents).not.toHaveBeenCalled();
  });
});

describe("show", () => {
  it("404 for a malformed id without a read; reads only the caller's account's copy", async () => {
    await expect(showSecurityEvent(admin, "nope")).rejects.toThrow("Security event not found");
    expect(mocked.getEvent).not.toHaveBeenCalled();
    const id = newId();
    mocked.getEvent.mockResolvedValueOnce(undefined);
    expect(await status(showSecurityEvent(admin, id))).toBe(404);
    expect(mocked.getEvent).toHaveBeenCalledWith(id, "acct");
  });

  it("returns the user object, nulls when the event has none", async () => {
    const e = row({ user_id: null, user_email: null, user_name: null });
    mocked.getEvent.mockResolvedValueOnce(e);
    expect(await showSecurityEvent(admin, e.id)).toEqual({
      id: e.id,
      event_type: e.event_type,
      user: { id: null, email: null, name: null },
      ip_address: e.ip_address,
      details: e.details,
      created_at: e.created_at,
      description: e.description,
    });
  });
});

describe("export", () => {
  const body = (r: { body: unknown }) => String(r.body);
  const lines = (r: { body: unknown }) => body(r).split("\r\n").slice(1, -1);

  it("merges one stream per type newest first and logs the export with the submitted filters", async () => {
    const all = Array.from({ length: 7 }, (_, i) => row({ event_type: i % 2 ? "rate_limit_exceeded" : "institution_created" }));
    mocked.eventPages.mockImplementation((f) =>
      pagesOf(
        all.filter((e) => e.event_type === f.type),
        2,
      ),
    );
    const now = new Date("2024-05-01T01:02:03Z");
    const r = await exportSecurityEvents(
      admin,
      { event_type: "institution_created, rate_limit_exceeded,unknown", from: "2020-01-01" },
      now,
    );
    expect(mocked.eventPages).toHaveBeenCalledTimes(2);
    expect(lines(r).map((l) => l.slice(0, 26))).toEqual(all.map((e) => e.id));
    expect(r.headers).toEqual({
      "content-type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="security_events_20240501_010203.csv"',
    });
    expect(recordEvent).toHaveBeenCalledTimes(1);
    expect(exportEvent()).toMatchObject({
      event_type: "security_events_exported",
      accounts: [admin.accountId],
      user_id: admin.id,
      details: {
        event_count: 7,
        filters: { event_type: "institution_created, rate_limit_exceeded,unknown", from: "2020-01-01", to: null },
      },
    });
  });

  it("only unknown types: no read, header only", async () => {
    const r = await exportSecurityEvents(admin, { event_type: "nope" });
    expect(mocked.eventPages).not.toHaveBeenCalled();
    expect(body(r)).toBe("id,event_type,created_at,user_id,user_email,ip_address,description,details\r\n");
  });

  it(`caps at ${MAX_EXPORT_ROWS} rows and says so only when more match`, async () => {
    const many = Array.from({ length: MAX_EXPORT_ROWS + 1 }, () => row());
    mocked.eventPages.mockImplementationOnce(() => pagesOf(many));
    const over = await exportSecurityEvents(admin, {});
    expect(lines(over)).toHaveLength(MAX_EXPORT_ROWS);
    expect(over.headers?.["X-Export-Truncated"]).toBe("true");
    expect(exportEvent().details.event_count).toBe(MAX_EXPORT_ROWS);

    mocked.eventPages.mockImplementationOnce(() => pagesOf(many.slice(0, MAX_EXPORT_ROWS)));
    const exact = await exportSecurityEvents(admin, {});
    expect(lines(exact)).toHaveLength(MAX_EXPORT_ROWS);
    expect(exact.headers).not.toHaveProperty("X-Export-Truncated");
  });

  it("caps by response size so a Lambda response (6 MB as JSON) always fits", async () => {
    // ~1.5 KB of quotes and newlines per row: 10,000 rows would be far over 6 MB once JSON-escaped.
    const heavy = { note: '"quoted", \r\n'.repeat(120) };
    const many = Array.from({ length: MAX_EXPORT_ROWS }, () => row({ details: heavy, description: "d".repeat(300) }));
    mocked.eventPages.mockImplementationOnce(() => pagesOf(many));
    const r = await exportSecurityEvents(admin, {});
    const envelope = JSON.stringify({ statusCode: 200, headers: r.headers, body: r.body });
    expect(Buffer.byteLength(envelope)).toBeLessThan(6 * 1024 * 1024);
    const jsonBytes = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2;
    expect(jsonBytes(r.body as string)).toBeLessThanOrEqual(MAX_EXPORT_BYTES);
    expect(lines(r).length).toBeLessThan(MAX_EXPORT_ROWS);
    // As many rows as fit, not fewer: the next one would have passed the cap.
    expect(jsonBytes(`${r.body}${eventLine(many[lines(r).length] as EventRow)}`)).toBeGreaterThan(MAX_EXPORT_BYTES);
    expect(r.headers?.["X-Export-Truncated"]).toBe("true");
  });

  it("10,000 ordinary rows fit without the size cap", async () => {
    const many = Array.from({ length: MAX_EXPORT_ROWS }, () =>
      row({
        description: `someone.with.a.long.address@example-university.edu tried to access institution ${newId()} without access`,
        details: { attempted_institution_id: newId(), action: "manage_invitations", note: "x".repeat(150) },
      }),
    );
    mocked.eventPages.mockImplementationOnce(() => pagesOf(many));
    const r = await exportSecurityEvents(admin, {});
    expect(lines(r)).toHaveLength(MAX_EXPORT_ROWS);
    expect(r.headers).not.toHaveProperty("X-Export-Truncated");
  });
});

describe("alerts", () => {
  const counter = (sk: string, c: Partial<Record<string, number>>) => ({ pk: "CNT#acct", sk, ...c });

  it("sums the counters; summary keys always present; one read on a minute boundary", async () => {
    mocked.minuteCounters.mockResolvedValueOnce([]);
    const quiet = await securityAlerts(admin, new Date("2024-05-01T10:00:00.000Z"));
    expect(quiet).toEqual({
      summary: { unauthorized_institution_access: 0, rate_limit_exceeded: 0, token_validation_failure: 0 },
      alerts: [],
      time_range: { from: "2024-05-01T09:00:00.000Z", to: "2024-05-01T10:00:00.000Z" },
      series: expect.any(Array),
    });
    expect(quiet.series).toHaveLength(60);
    expect(quiet.series[0]).toEqual({
      minute: "2024-05-01T09:01:00.000Z",
      unauthorized_institution_access: 0,
      rate_limit_exceeded: 0,
      token_validation_failure: 0,
    });
    expect(quiet.series.at(-1)?.minute).toBe("2024-05-01T10:00:00.000Z");
    expect(mocked.minuteCounters).toHaveBeenCalledWith("acct", "2024-05-01T09:00", "2024-05-01T10:00");
    expect(mocked.countEvents).not.toHaveBeenCalled();
  });

  it("early in a minute: counter minus the events before from, only for types present in that minute", async () => {
    mocked.minuteCounters.mockResolvedValueOnce([
      counter("2024-05-01T09:00", { unauthorized_institution_access: 3 }),
      counter("2024-05-01T09:30", { unauthorized_institution_access: 3, rate_limit_exceeded: 10 }),
    ]);
    mocked.countEvents.mockResolvedValueOnce(1);
    const r = await securityAlerts(admin, new Date("2024-05-01T10:00:10.000Z"));
    expect(mocked.countEvents).toHaveBeenCalledTimes(1);
    expect(mocked.countEvents).toHaveBeenCalledWith(
      "acct",
      "unauthorized_institution_access",
      "2024-05-01T09:00:00.000Z",
      "2024-05-01T09:00:09.999Z",
    );
    expect(r.summary).toEqual({ unauthorized_institution_access: 5, rate_limit_exceeded: 10, token_validation_failure: 0 });
    expect(r.alerts).toEqual([
      { type: "unauthorized_access", severity: "high", count: 5 },
      { type: "rate_limit", severity: "medium", count: 10 },
    ]);
    // The chart's series holds each minute's counter as stored, oldest first.
    expect(r.series.find((m) => m.minute === "2024-05-01T09:30:00.000Z")).toMatchObject({
      unauthorized_institution_access: 3,
      rate_limit_exceeded: 10,
    });
  });

  it("late in a minute: the events from from instead of that minute's counter", async () => {
    mocked.minuteCounters.mockResolvedValueOnce([
      counter("2024-05-01T09:00", { token_validation_failure: 7 }),
      counter("2024-05-01T10:00", { token_validation_failure: 18 }),
    ]);
    mocked.countEvents.mockResolvedValueOnce(2);
    const r = await securityAlerts(admin, new Date("2024-05-01T10:00:50.000Z"));
    expect(mocked.countEvents).toHaveBeenCalledWith(
      "acct",
      "token_validation_failure",
      "2024-05-01T09:00:50.000Z",
      "2024-05-01T09:00:59.999Z",
    );
    expect(r.summary.token_validation_failure).toBe(20);
    expect(r.alerts).toEqual([{ type: "token_failures", severity: "high", count: 20 }]);
  });
});
