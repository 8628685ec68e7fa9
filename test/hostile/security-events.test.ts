/**
 * Hostile input against the security-event endpoints, through the real gateway: query strings whose
 * `limit`, `from`, `to` and `cursor` are valid, blank, garbage, tricky (Feb 30, hour 24, offsets, year 999)
 * or repeated (the gateway joins repeated keys with commas), `user_id`/`event_type` of any content,
 * random extra keys and huge values, random bodies, and random path ids.
 *
 * The oracle is the contract's: 403 for a caller without cohort-super-admin status whatever the query;
 * then the first bad parameter in the order from, to, limit → 400 with its message; from after to → 400;
 * a cursor not issued for exactly these filters → 400; else 200 with at most `limit` events of the
 * caller's account matching the filters. Show: anything but a real id of the caller's account → 404.
 * Export: 400 for bad from/to, else a CSV whose cells never start a formula. Alerts: always 200.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../shared/constants.js";
import { paths } from "../../shared/routes.js";
import { token, uniq, uniqEmail } from "../support/api.js";
import { parseCsv } from "../support/csv.js";
import { EVENTS } from "../support/flows.js";
import {
  badId,
  eventsOutsideWhitelist,
  hit,
  hostileJson,
  hostileKey,
  hostileQuery,
  hostileString,
  INJECTIONS,
  printTally,
  queryString,
  type RawResult,
  runs,
  seg,
  send,
  sometimes,
  targetTooLong,
} from "./support.js";

const MSG = {
  limit: "Invalid limit: must be an integer between 1 and 200",
  from: "Invalid from: must be an ISO 8601 timestamp",
  to: "Invalid to: must be an ISO 8601 timestamp",
  range: "Invalid range: from must not be after to",
  cursor: "Invalid cursor",
};
/** Filters pick from the contract's own list of event types. */
const TYPES = EVENT_TYPES;

let admin: string;
let adminEmail: string;
let plain: string;
let other: string;
let ownIds: string[] = [];
let foreignId: string;
let foreignIds: string[] = [];
/** A real cursor, issued for the account's unfiltered list. */
let cursor: string;

beforeAll(async () => {
  const account = uniq("acct");
  // An address that starts a spreadsheet formula: its cells in the export must be guarded.
  adminEmail = uniqEmail("+sec");
  admin = await token(adminEmail, { superAdmin: true, account, name: '=HYPERLINK("http://evil")' });
  plain = await token(uniqEmail("plain"), { account });
  other = await token(uniqEmail("other"), { superAdmin: true, account: uniq("acct") });
  for (const name of INJECTIONS.slice(0, 8))
    expect((await send("POST", paths.institutions, { token: admin, json: { institution: { name } } })).status).toBe(201);
  // A name with a control or format character is refused (docs/contract/README.md): the refusal is no event.
  for (const name of ["\u202eevil", "a\u0000b"])
    expect((await send("POST", paths.institutions, { token: admin, json: { institution: { name } } })).status).toBe(422);
  for (let i = 0; i < 3; i++) await send("GET", `${paths.institutions}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { token: plain });
  await send("POST", paths.institutions, { token: other, json: { institution: { name: "Elsewhere" } } });
  const list = await send("GET", `${EVENTS}?limit=200`, { token: admin });
  ownIds = list.body.events.map((e: { id: string }) => e.id);
  const foreign = await send("GET", `${EVENTS}?limit=1`, { token: other });
  foreignId = foreign.body.events[0].id;
  foreignIds = (await send("GET", `${EVENTS}?limit=200`, { token: other })).body.events.map((e: { id: string }) => e.id);
  const first = await send("GET", `${EVENTS}?limit=1`, { token: admin });
  cursor = first.body.meta.next_cursor;
  expect(cursor).toEqual(expect.any(String));
});

afterAll(() => printTally("security events"));

// --- query generators with what the oracle needs to know -----------------------------------------------

interface Param {
  /** Values to send under the key (two = repeated key). */
  values: string[];
  /** After the gateway joined them: absent (or blank), valid with its meaning, or invalid. */
  fact: { kind: "absent" } | { kind: "valid"; ms?: number; n?: number } | { kind: "invalid" };
}

const absent: fc.Arbitrary<Param> = fc.constantFrom<Param>(
  { values: [], fact: { kind: "absent" } },
  { values: [""], fact: { kind: "absent" } },
  { values: ["  "], fact: { kind: "absent" } },
);

const date = fc.date({ min: new Date("1001-01-01T00:00:00.000Z"), max: new Date("9998-12-31T23:59:59.999Z"), noInvalidDate: true });

/** ISO 8601 spellings of an instant, each with the instant it means. */
const validIso: fc.Arbitrary<[string, number]> = fc
  .tuple(date, fc.integer({ min: 0, max: 6 }), fc.constantFrom(0, 330, -180, 60))
  .map(([d, style, offset]) => {
    const iso = d.toISOString();
    const t = d.getTime();
    const floor = (unit: number) => t - (((t % unit) + unit) % unit);
    switch (style) {
      case 0:
        return [iso, t];
      case 1:
        return [iso.slice(0, 10), floor(86_400_000)];
      case 2:
        return [`${iso.slice(0, 16)}Z`, floor(60_000)];
      case 3:
        return [iso.replace("T", " "), t];
      case 4:
        return [iso.slice(0, 19), floor(1000)];
      case 5:
        return [iso.toLowerCase(), t];
      default: {
        const local = new Date(t + offset * 60_000).toISOString().slice(0, 23);
        const sign = offset < 0 ? "-" : "+";
        const abs = Math.abs(offset);
        return [`${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`, t];
      }
    }
  });

const TRICKY_DATES = [
  "2024-02-30",
  "2023-02-29",
  "2024-13-01",
  "2024-00-10",
  "0999-12-31",
  "10000-01-01",
  "2024-01-01T24:00",
  "2024-01-01T10:60",
  "2024-01-01T10:00:61",
  "2024-1-1",
  "20240101",
  "2024-01-01T10",
  "2024-01-01Z",
  "2024-01-01T10:00:00+24:00",
  "+002024-01-01",
  "2024-01-01T10:00:00.Z",
  "2024-01-01\u0000",
  "２０２４-01-01",
];

const isoParam: fc.Arbitrary<Param> = fc.oneof(
  { weight: 4, arbitrary: absent },
  {
    weight: 5,
    arbitrary: fc
      .tuple(validIso, fc.boolean())
      .map(([[s, ms], pad]) => ({ values: [pad ? ` ${s} ` : s], fact: { kind: "valid", ms } }) as Param),
  },
  { weight: 1, arbitrary: fc.constantFrom(...TRICKY_DATES).map((s) => ({ values: [s], fact: { kind: "invalid" } }) as Param) },
  {
    weight: 1,
    arbitrary: hostileString
      .filter((s) => s.trim() !== "" && !/\d{4}-\d{2}-\d{2}/.test(s))
      .map((s) => ({ values: [s], fact: { kind: "invalid" } }) as Param),
  },
  { weight: 1, arbitrary: fc.tuple(validIso, validIso).map(([a, b]) => ({ values: [a[0], b[0]], fact: { kind: "invalid" } }) as Param) },
);

const limitParam: fc.Arbitrary<Param> = fc.oneof(
  { weight: 3, arbitrary: absent },
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 200 }), fc.constantFrom("", " ", "0"), fc.boolean())
      .map(([n, pre, pad]) => ({ values: [pad ? ` ${pre}${n} ` : `${pre}${n}`], fact: { kind: "valid", n } }) as Param),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("0", "201", "-1", "1.5", "1e2", "abc", "10000", "2 0", "١٢", "0x10", "NaN", "Infinity", "' OR 1=1 --", "50\u0000")
      .map((s) => ({ values: [s], fact: { kind: "invalid" } }) as Param),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }))
      .map(([a, b]) => ({ values: [`${a}`, `${b}`], fact: { kind: "invalid" } }) as Param),
  },
);

type CursorKind = "absent" | "real" | "garbage";
interface CursorParam {
  values: string[];
  kind: CursorKind;
}
const cursorParam: fc.Arbitrary<CursorParam> = fc.oneof(
  { weight: 6, arbitrary: absent.map((p): CursorParam => ({ values: p.values, kind: "absent" })) },
  { weight: 2, arbitrary: fc.constant<CursorParam>({ values: ["<real>"], kind: "real" }) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(hostileString, fc.constantFrom("a.b", "AAAA.AAAA", "x".repeat(300), "..", ".", "<real>x", "<real>.x", "<real><real>"))
      .filter((s) => s.trim() !== "")
      .map((s): CursorParam => ({ values: [s], kind: "garbage" })),
  },
  { weight: 1, arbitrary: fc.constant<CursorParam>({ values: ["<real>", "<real>"], kind: "garbage" }) },
);

const textParam = fc.oneof(
  { weight: 2, arbitrary: fc.constant<string[]>([]) },
  { weight: 2, arbitrary: fc.constantFrom(...TYPES).map((t) => [t]) },
  {
    weight: 3,
    arbitrary: fc.array(fc.oneof(hostileString, fc.constantFrom("#", "a#b", "acct#user", `${"u".repeat(600)}`)), {
      minLength: 1,
      maxLength: 2,
    }),
  },
);

const listQuery = fc.record({
  from: isoParam,
  to: isoParam,
  limit: limitParam,
  cursor: cursorParam,
  user_id: textParam,
  event_type: textParam,
  extra: hostileQuery.map((q) => q.filter(([k]) => !["from", "to", "limit", "cursor", "user_id", "event_type"].includes(k))),
});
type ListQuery = typeof listQuery extends fc.Arbitrary<infer T> ? T : never;

function pairsOf(q: Partial<ListQuery>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of ["from", "to", "limit", "cursor"] as const)
    for (const v of q[key]?.values ?? []) pairs.push([key, v.replaceAll("<real>", cursor)]);
  for (const key of ["user_id", "event_type"] as const) for (const v of q[key] ?? []) pairs.push([key, v]);
  return [...pairs, ...(q.extra ?? [])];
}

const present = (values: string[] | undefined) => values !== undefined && values.join(",").trim() !== "";

/** The contract's answer to a list query: 400 with the message, or 200 with the limit that applies. */
function expectedList(q: ListQuery): { status: 400; error: string } | { status: 200; limit: number } {
  if (q.from.fact.kind === "invalid") return { status: 400, error: MSG.from };
  if (q.to.fact.kind === "invalid") return { status: 400, error: MSG.to };
  if (q.limit.fact.kind === "invalid") return { status: 400, error: MSG.limit };
  const from = q.from.fact.kind === "valid" ? q.from.fact.ms : undefined;
  const to = q.to.fact.kind === "valid" ? q.to.fact.ms : undefined;
  if (from !== undefined && to !== undefined && from > to) return { status: 400, error: MSG.range };
  if (q.cursor.kind === "garbage") return { status: 400, error: MSG.cursor };
  if (q.cursor.kind === "real") {
    // A cursor is a position: filters continue after it, bounds that exclude it refuse it.
    const at = Date.parse(Buffer.from(cursor, "base64url").toString().split("#")[0] ?? "");
    if ((from !== undefined && at < from) || (to !== undefined && at > to)) return { status: 400, error: MSG.cursor };
  }
  return { status: 200, limit: q.limit.fact.kind === "valid" ? (q.limit.fact.n as number) : 50 };
}

const url = (path: string, pairs: [string, string][]) => (pairs.length > 0 ? `${path}?${queryString(pairs)}` : path);
const anyBody = sometimes(hostileJson, 3);

function expectStatus(res: RawResult, status: number, body: unknown, input: unknown) {
  const context = `input ${JSON.stringify(input)?.slice(0, 400)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect(res.status, context).toBe(status);
  if (body !== undefined) expect(res.body, context).toEqual(body);
}

// --- properties ----------------------------------------------------------------------------------------

describe("hostile input: security events", () => {
  it("GET /security_events: the first bad parameter's 400, or 200 with at most `limit` matching events", async () => {
    await fc.assert(
      fc.asyncProperty(listQuery, anyBody, async (q, body) => {
        const pairs = pairsOf(q);
        const res = await hit(`GET ${paths.securityEvents}`, "GET", url(EVENTS, pairs), {
          token: admin,
          ...(body !== null && { json: body }),
        });
        if (targetTooLong(res)) return;
        const want = expectedList(q);
        if (want.status === 400) return expectStatus(res, 400, { error: want.error }, pairs);
        expectStatus(res, 200, undefined, pairs);
        expect(res.body.meta).toMatchObject({ count: res.body.events.length, limit: want.limit });
        expect(res.body.events.length).toBeLessThanOrEqual(want.limit);
        const types = q.event_type.join(",");
        for (const e of res.body.events) {
          expect(foreignIds).not.toContain(e.id);
          if (present(q.event_type)) expect(e.event_type).toBe(types);
          if (q.from.fact.kind === "valid") expect(Date.parse(e.created_at)).toBeGreaterThanOrEqual(q.from.fact.ms as number);
          if (q.to.fact.kind === "valid") expect(Date.parse(e.created_at)).toBeLessThanOrEqual(q.to.fact.ms as number);
        }
      }),
      runs(250),
    );
  });

  it("GET /security_events/{id}: 404 for anything but a real id of the caller's account (another account's included)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: badId },
          { weight: 1, arbitrary: fc.constantFrom(...ownIds) },
          { weight: 1, arbitrary: fc.constant(foreignId) },
        ),
        anyBody,
        hostileQuery,
        async (id, body, q) => {
          const res = await hit(`GET ${paths.securityEvents}/{id}`, "GET", url(`${EVENTS}/${seg(id)}`, q), {
            token: admin,
            ...(body !== null && { json: body }),
          });
          if (targetTooLong(res)) return;
          if (!ownIds.includes(id)) return expectStatus(res, 404, { error: "Security event not found" }, id);
          expectStatus(res, 200, undefined, id);
          expect(res.body.id).toBe(id);
        },
      ),
      runs(150),
    );
  });

  it("GET /security_events/export: 400 for bad from/to, else CSV of the account's events with every formula cell guarded", async () => {
    const exportQuery = fc.record({
      from: isoParam,
      to: isoParam,
      event_type: fc.oneof(
        textParam,
        fc.constantFrom(`${TYPES[0]},${TYPES[1]}`, ",", " , institution_created ,").map((t) => [t]),
      ),
      extra: hostileQuery.map((q) => q.filter(([k]) => !["from", "to", "event_type"].includes(k))),
    });
    await fc.assert(
      fc.asyncProperty(exportQuery, anyBody, async (q, body) => {
        const pairs = pairsOf(q);
        const res = await hit(`GET ${paths.securityEvents}/export`, "GET", url(`${EVENTS}/export`, pairs), {
          token: admin,
          ...(body !== null && { json: body }),
        });
        if (targetTooLong(res)) return;
        if (q.from.fact.kind === "invalid") return expectStatus(res, 400, { error: MSG.from }, pairs);
        if (q.to.fact.kind === "invalid") return expectStatus(res, 400, { error: MSG.to }, pairs);
        const from = q.from.fact.kind === "valid" ? q.from.fact.ms : undefined;
        const to = q.to.fact.kind === "valid" ? q.to.fact.ms : undefined;
        if (from !== undefined && to !== undefined && from > to) return expectStatus(res, 400, { error: MSG.range }, pairs);
        expectStatus(res, 200, undefined, pairs);
        expect(res.headers["content-type"]).toMatch(/^text\/csv/);
        const rows = parseCsv(res.text);
        expect(rows[0]).toEqual(["id", "event_type", "created_at", "user_id", "user_email", "ip_address", "description", "details"]);
        for (const row of rows.slice(1)) {
          expect(row).toHaveLength(8);
          for (const cell of row) expect(cell, `unguarded cell ${JSON.stringify(cell)}`).not.toMatch(/^[=+\-@\t\r]/);
        }
      }),
      runs(120),
    );
  });

  it("GET /security_events/alerts: any query and body → 200 with the three counted types", async () => {
    await fc.assert(
      fc.asyncProperty(hostileQuery, anyBody, async (q, body) => {
        const res = await hit(`GET ${paths.securityEvents}/alerts`, "GET", url(`${EVENTS}/alerts`, q), {
          token: admin,
          ...(body !== null && { json: body }),
        });
        if (targetTooLong(res)) return;
        expectStatus(res, 200, undefined, q);
        expect(Object.keys(res.body.summary).sort()).toEqual([
          "rate_limit_exceeded",
          "token_validation_failure",
          "unauthorized_institution_access",
        ]);
        expect(res.body.summary.unauthorized_institution_access).toBeGreaterThanOrEqual(3);
      }),
      runs(100),
    );
  });

  it("every security-event endpoint: 403 for a caller without the status, whatever the query or id", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("", "/export", "/alerts", "/01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        listQuery,
        hostileKey,
        async (suffix, q, junk) => {
          const pairs = pairsOf(q);
          const res = await hit(
            `GET ${paths.securityEvents}/* (caller without the status)`,
            "GET",
            url(`${EVENTS}${suffix}`, [...pairs, [junk, junk]]),
            {
              token: plain,
            },
          );
          if (targetTooLong(res)) return;
          expectStatus(res, 403, { error: "Super admin access required" }, pairs);
        },
      ),
      runs(120),
    );
  });

  it("what is listed and exported is within the whitelist of event attributes, with guarded cells", async () => {
    // Its own reads: this test does not lean on what the properties above happened to list.
    const listed = (await send("GET", `${EVENTS}?limit=200`, { token: admin })).body.events as Record<string, unknown>[];
    expect(listed.length).toBeGreaterThan(0);
    for (const e of listed)
      expect(Object.keys(e).sort()).toEqual(["created_at", "description", "details", "event_type", "id", "ip_address", "user_email"]);
    expect(eventsOutsideWhitelist(listed.map((e) => ({ ...e, pk: "x", sk: "y" })))).toEqual([]);
    // The admin's address starts with "+": its cells (user_email, description) need the guard.
    const rows = parseCsv((await send("GET", `${EVENTS}/export`, { token: admin })).text).slice(1);
    expect(rows.flat().filter((cell) => /^'[=+\-@\t\r]/.test(cell)).length).toBeGreaterThan(0);
  });
});
