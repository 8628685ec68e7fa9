/**
 * The CSV export over HTTP: header row, RFC 4180 quoting, the CSV-injection guard, the file name and
 * content type, the comma-separated type filter merged newest first, bounds, the `security_events_exported`
 * event, account isolation, and the 10,000-row cap with `X-Export-Truncated`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { describe as describeEvent, recordedDetails } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { paths } from "../../shared/routes.js";
import { call, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { parseCsv } from "../support/csv.js";
import { EXPORT } from "../support/flows.js";
import { tokenWithoutSignIn } from "../support/jwt.js";
import { type Seed, seedEvents } from "../support/seed-events.js";

const HEADER = ["id", "event_type", "created_at", "user_id", "user_email", "ip_address", "description", "details"];
const BASE = Date.UTC(2024, 5, 1, 8, 0, 0);
const BEFORE_NOW = "2024-12-31T23:59:59Z";

const guard = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

interface Seeded extends Seed {
  id: string;
}

function person(account: string, id: string, email: string, ip: string): Caller {
  return { id, email, name: null, accountId: account, isCohortSuperAdmin: false, emailVerified: true, ip };
}

/** The CSV record the contract expects for a seeded event. */
function expectedRow(s: Seeded): string[] {
  const { caller, event } = s;
  // Details as the trail records them: a value with a line break is stored with U+FFFD (docs/security.md).
  const details = recordedDetails(event.details) as Record<string, unknown>;
  return [
    s.id,
    event.type,
    s.at.toISOString(),
    guard(caller.id),
    guard(caller.email),
    guard(caller.ip),
    guard(describeEvent(event.type, details, caller.email || caller.id)),
    JSON.stringify(details, Object.keys(details).sort()),
  ];
}

async function seed(seeds: Seed[]): Promise<Seeded[]> {
  const ids = await seedEvents(seeds);
  return seeds.map((s, i) => ({ ...s, id: ids[i] as string }));
}

const newestFirst = (a: Seeded, b: Seeded) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1);

async function exportCsv(tok: string, query: Record<string, string | undefined> = {}) {
  const res = await call("GET", EXPORT, { token: tok, query });
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return { res, rows: parseCsv(res.text) };
}

describe("security events: CSV export", () => {
  const account = uniq("acct");
  let admin: string;
  let otherAdmin: string;
  let seeded: Seeded[];

  beforeAll(async () => {
    const tricky: [Caller, Seed["event"]][] = [
      [
        person(account, "u-plain", "plain@example.com", "203.0.113.5"),
        { type: "institution_created", details: { institution_id: "I1", name: 'Acme, "Best"\r\nCampus' } },
      ],
      [
        person(account, "-u-minus", '=HYPERLINK("http://evil.test","x")@evil.test', "@203.0.113.6"),
        { type: "unauthorized_institution_access", details: { attempted_institution_id: "+1234" } },
      ],
      [
        person(account, "\tu-tab", "tab@example.com", "\r203.0.113.7"),
        { type: "rate_limit_exceeded", details: { email: "a,b@x.test", limit: 3 } },
      ],
      [
        person(account, "+u-plus", "+plus@example.com", "203.0.113.8"),
        { type: "institution_created", details: { institution_id: "I2", name: "Ünïcødé ✓ 大学" } },
      ],
      [
        person(account, "u-plain", "plain@example.com", "203.0.113.5"),
        { type: "token_validation_failure", details: { reason: "expired" } },
      ],
      [
        person(account, "u-plain", "plain@example.com", "203.0.113.5"),
        { type: "rate_limit_exceeded", details: { email: "q@x.test", limit: 3 } },
      ],
    ];
    // Tokens minted without a sign-in: the trail holds the seeded events alone (a sign-in is an event of its own).
    admin = tokenWithoutSignIn(uniqEmail("exp-admin"), { superAdmin: true, account });
    otherAdmin = tokenWithoutSignIn(uniqEmail("exp-other"), { superAdmin: true, account: uniq("acct") });
    seeded = await seed(tricky.map(([caller, event], i) => ({ caller, event, at: new Date(BASE + i * 60_000) })));
    seeded.sort(newestFirst);
  });

  it("header row, every event newest first, RFC 4180 quoting and the injection guard", async () => {
    const { res, rows } = await exportCsv(admin, { to: BEFORE_NOW });
    expect(rows[0]).toEqual(HEADER);
    expect(rows.slice(1)).toEqual(seeded.map(expectedRow));
    // The raw text: quotes doubled inside quoted cells, a CR kept inside its quoted cell (the IP address),
    // CRLF between records. The name's CRLF was never stored: it is recorded as U+FFFD U+FFFD.
    expect(res.text.startsWith(`${HEADER.join(",")}\r\n`)).toBe(true);
    expect(res.text).toContain('"{""institution_id"":""I1"",""name"":""Acme, \\""Best\\""\ufffd\ufffdCampus""}"');
    expect(res.text).toContain(`,"'=HYPERLINK(""http://evil.test"",""x"")@evil.test",'@203.0.113.6,`);
    expect(res.text).toContain(`,"'\r203.0.113.7",`);
    expect(res.text).toContain(",'\tu-tab,");
    expect(res.text).toContain(",'-u-minus,");
    expect(res.text).toContain("Ünïcødé ✓ 大学");
    // No cell of any row starts with a formula character.
    for (const row of rows.slice(1)) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("is a UTF-8 CSV attachment named after the UTC time", async () => {
    const before = new Date();
    const { res } = await exportCsv(admin, { to: BEFORE_NOW });
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const m = /^attachment; filename="security_events_(\d{8})_(\d{6})\.csv"$/.exec(res.headers["content-disposition"] ?? "");
    expect(m, res.headers["content-disposition"]).not.toBeNull();
    const [, d = "", t = ""] = m ?? [];
    const stamp = Date.parse(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4)}Z`);
    expect(Math.abs(stamp - before.getTime())).toBeLessThan(60_000);
    expect(res.headers).not.toHaveProperty("x-export-truncated");
    expect(Buffer.from(res.text, "utf8").toString("utf8")).toBe(res.text);
  });

  it("event_type is split on commas: one stream per type, merged newest first", async () => {
    const { rows } = await exportCsv(admin, { event_type: "rate_limit_exceeded, institution_created,,no_such_type", to: BEFORE_NOW });
    const want = seeded.filter((s) => s.event.type === "rate_limit_exceeded" || s.event.type === "institution_created");
    expect(want).toHaveLength(4);
    expect(rows.slice(1).map((r) => r[0])).toEqual(want.map((s) => s.id));
    const single = await exportCsv(admin, { event_type: "token_validation_failure", to: BEFORE_NOW });
    expect(single.rows.slice(1).map((r) => r[1])).toEqual(["token_validation_failure"]);
  });

  it("from and to are inclusive", async () => {
    const from = new Date(BASE + 60_000).toISOString();
    const to = new Date(BASE + 3 * 60_000).toISOString();
    const { rows } = await exportCsv(admin, { from, to });
    expect(rows.slice(1).map((r) => r[2])).toEqual([to, new Date(BASE + 120_000).toISOString(), from]);
  });

  it("bad parameters are 400 like the list's", async () => {
    for (const [query, error] of [
      [{ from: "soon" }, "Invalid from: must be an ISO 8601 timestamp"],
      [{ to: "2024-13-01" }, "Invalid to: must be an ISO 8601 timestamp"],
      [{ from: "2024-06-02", to: "2024-06-01" }, "Invalid range: from must not be after to"],
    ] as const) {
      const res = await call("GET", EXPORT, { token: admin, query });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    }
  });

  it("logs security_events_exported with the row count and the filters as submitted", async () => {
    const query = { event_type: "rate_limit_exceeded,institution_created", from: "2024-06-01T08:01:00Z", to: BEFORE_NOW };
    const { rows } = await exportCsv(admin, query);
    const api = apiClient(admin);
    const list = ok(
      await api.GET(paths.securityEvents, {
        params: { query: { event_type: "security_events_exported", from: new Date(Date.now() - 60_000).toISOString(), limit: 1 } },
      }),
    );
    expect(list.events[0]?.details).toEqual({
      event_count: rows.length - 1,
      filters: { event_type: query.event_type, from: query.from, to: query.to },
    });
    expect(rows.length - 1).toBe(3);
    // Without filters, they are recorded as null.
    await exportCsv(admin);
    const again = ok(await api.GET(paths.securityEvents, { params: { query: { event_type: "security_events_exported", limit: 1 } } }));
    expect(again.events[0]?.details.filters).toEqual({ event_type: null, from: null, to: null });
  });

  it("another account's super admin exports none of these events", async () => {
    const { rows } = await exportCsv(otherAdmin);
    expect(rows).toEqual([HEADER]);
    const typed = await exportCsv(otherAdmin, { event_type: "institution_created,rate_limit_exceeded" });
    expect(typed.rows).toEqual([HEADER]);
  });
});

describe("security events: export cap", () => {
  const account = uniq("acct");
  const ROWS = 10_000;
  let admin: string;
  let seeded: Seeded[];

  beforeAll(async () => {
    const caller = person(account, "u-bulk", "bulk@example.com", "192.0.2.44");
    const seeds: Seed[] = Array.from({ length: ROWS + 1 }, (_, i) => ({
      caller,
      event: {
        type: i % 2 ? "unauthorized_institution_access" : "institution_updated",
        details: { institution_id: `I${i}`, changes: ["name"], attempted_institution_id: `I${i}` },
      },
      at: new Date(BASE + i * 1000),
    }));
    admin = tokenWithoutSignIn(uniqEmail("cap-admin"), { superAdmin: true, account });
    seeded = await seed(seeds);
    seeded.sort(newestFirst);
  }, 120_000);

  it("10,001 matching: the newest 10,000 rows and X-Export-Truncated: true", async () => {
    const { res, rows } = await exportCsv(admin);
    expect(res.headers["x-export-truncated"]).toBe("true");
    expect(rows).toHaveLength(ROWS + 1);
    expect(rows[0]).toEqual(HEADER);
    expect(rows[1]?.[0]).toBe(seeded[0]?.id);
    expect(rows.at(-1)?.[0]).toBe(seeded[ROWS - 1]?.id);
    const logged = ok(
      await apiClient(admin).GET(paths.securityEvents, { params: { query: { event_type: "security_events_exported", limit: 1 } } }),
    );
    expect(logged.events[0]?.details.event_count).toBe(ROWS);
  }, 60_000);

  it("exactly 10,000 matching: all of them, no truncation header", async () => {
    const { res, rows } = await exportCsv(admin, { to: seeded[1]?.at.toISOString() });
    expect(res.headers).not.toHaveProperty("x-export-truncated");
    expect(rows).toHaveLength(ROWS + 1);
    expect(rows[1]?.[0]).toBe(seeded[1]?.id);
  }, 60_000);

  it("merging two type streams also caps at 10,000, newest first", async () => {
    const { res, rows } = await exportCsv(admin, { event_type: "unauthorized_institution_access,institution_updated", to: BEFORE_NOW });
    expect(res.headers["x-export-truncated"]).toBe("true");
    expect(rows.slice(1).map((r) => r[0])).toEqual(seeded.slice(0, ROWS).map((s) => s.id));
  }, 60_000);
});
