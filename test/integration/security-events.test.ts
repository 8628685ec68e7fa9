/**
 * Security-event list and show over HTTP through the local gateway: ordering, cursor paging, each filter
 * and their combinations, inclusive bounds, bad parameters, account isolation, and the 403 of all four
 * endpoints. Events are seeded straight into DynamoDB in the shape `auditItems` writes, in an account of
 * this file's own.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { EventType } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { newId } from "../../shared/ids.js";
import type { operations } from "../../shared/openapi/api-types.js";
import { paths } from "../../shared/routes.js";
import { call, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { EVENTS } from "../support/flows.js";
import { tokenWithoutSignIn } from "../support/jwt.js";
import { type Seed, seedEvents } from "../support/seed-events.js";

interface Expected {
  id: string;
  event_type: EventType;
  user_id: string;
  created_at: string;
}

const TYPES: EventType[] = ["institution_created", "unauthorized_institution_access", "rate_limit_exceeded"];
const BASE = Date.UTC(2024, 2, 1, 12, 0, 0);

/** Newest first, ties by id (descending, as the index sorts `<created_at>#<id>`). */
const order = (a: Expected, b: Expected) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1);

function actor(account: string, id: string): Caller {
  return {
    id,
    email: `${id}@example.com`,
    name: `User ${id}`,
    accountId: account,
    isCohortSuperAdmin: false,
    emailVerified: true,
    ip: "198.51.100.7",
  };
}

/** 25 events: one every 10 s, every fifth instant shared by two events (ties), two users, three types. */
async function seedAccount(account: string): Promise<Expected[]> {
  const seeds: Seed[] = [];
  for (let i = 0; i < 25; i++) {
    const slot = i - Math.floor(i / 5); // i = 5, 10, … share the instant of i − 1
    const user = i % 2 ? "user-odd" : "user-even";
    const type = TYPES[i % 3] as EventType;
    seeds.push({
      caller: actor(account, user),
      event: {
        type,
        details: { institution_id: newId(), attempted_institution_id: "x", name: `N${i}`, email: "e@x.test", limit: 3, n: i },
      },
      at: new Date(BASE + slot * 10_000),
    });
  }
  const ids = await seedEvents(seeds);
  return seeds
    .map((s, i) => ({ id: ids[i] as string, event_type: s.event.type, user_id: s.caller.id, created_at: s.at.toISOString() }))
    .sort(order);
}

type Query = NonNullable<operations["listSecurityEvents"]["parameters"]["query"]>;

/** One page of the trail as `tok` lists it (200 expected). */
async function page(tok: string, query: Query = {}) {
  return ok(await apiClient(tok).GET(paths.securityEvents, { params: { query } }));
}

/** The listing as sent, for parameters the contract refuses (a limit of "ten"). */
async function list(tok: string, query: Record<string, string | number | undefined> = {}) {
  return call("GET", EVENTS, { token: tok, query });
}

/** The ids of a page's events, in order. */
const ids = (listed: { events: { id: string }[] }) => listed.events.map((e) => e.id);

/** Every page of a filtered listing, following `next_cursor`. */
async function allPages(tok: string, query: Query) {
  const pages: { ids: string[]; meta: { count: number; limit: number; next_cursor: string | null } }[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const listed = await page(tok, { ...query, cursor });
    pages.push({ ids: ids(listed), meta: listed.meta });
    cursor = listed.meta.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return pages;
}

describe("security events: list and show", () => {
  const account = uniq("acct");
  const other = uniq("acct");
  let admin: string;
  let plain: string;
  let otherAdmin: string;
  let events: Expected[];

  beforeAll(async () => {
    // Tokens minted without a sign-in: the trail holds the seeded events alone (a sign-in is an event of its own).
    admin = tokenWithoutSignIn(uniqEmail("sec-admin"), { superAdmin: true, account });
    plain = tokenWithoutSignIn(uniqEmail("sec-plain"), { account });
    otherAdmin = tokenWithoutSignIn(uniqEmail("sec-other"), { superAdmin: true, account: other });
    events = await seedAccount(account);
  });

  it("non-super-admin: 403 on all four endpoints, before any validation", async () => {
    for (const [path, query] of [
      [EVENTS, { limit: "0" }],
      [`${EVENTS}/${events[0]?.id}`, {}],
      [`${EVENTS}/export`, { from: "bad" }],
      [`${EVENTS}/alerts`, {}],
    ] as const) {
      const res = await call("GET", path, { token: plain, query });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: "Super admin access required" });
    }
  });

  it("lists the account's events newest first, ties by id, in the contract's shape", async () => {
    const listed = await page(admin, { limit: 200 });
    expect(ids(listed)).toEqual(events.map((e) => e.id));
    expect(listed.meta).toEqual({ count: 25, limit: 200, next_cursor: null });
    const first = listed.events[0];
    expect(Object.keys(first ?? {}).sort()).toEqual([
      "created_at",
      "description",
      "details",
      "event_type",
      "id",
      "ip_address",
      "user_email",
    ]);
    expect(first).toMatchObject({
      id: events[0]?.id,
      event_type: events[0]?.event_type,
      user_email: `${events[0]?.user_id}@example.com`,
      ip_address: "198.51.100.7",
      created_at: events[0]?.created_at,
    });
    expect(typeof first?.description).toBe("string");
    expect(first?.details).toMatchObject({ limit: 3 });
  });

  it("defaults to pages of 50", async () => {
    expect((await page(admin)).meta).toEqual({ count: 25, limit: 50, next_cursor: null });
  });

  it("pages through a cursor without overlap or loss (4 pages of 7)", async () => {
    const pages = await allPages(admin, { limit: 7 });
    expect(pages.map((p) => p.ids.length)).toEqual([7, 7, 7, 4]);
    expect(pages.map((p) => p.meta.count)).toEqual([7, 7, 7, 4]);
    expect(pages.every((p) => p.meta.limit === 7)).toBe(true);
    expect(pages.flatMap((p) => p.ids)).toEqual(events.map((e) => e.id));
    expect(pages.at(-1)?.meta.next_cursor).toBeNull();
  });

  it("an exactly full last page has no next cursor", async () => {
    const pages = await allPages(admin, { limit: 5 });
    expect(pages.map((p) => p.ids.length)).toEqual([5, 5, 5, 5, 5]);
  });

  const cases: [string, Query, (e: Expected) => boolean][] = [
    ["user_id", { user_id: "user-odd" }, (e) => e.user_id === "user-odd"],
    ["event_type", { event_type: "rate_limit_exceeded" }, (e) => e.event_type === "rate_limit_exceeded"],
    [
      "user_id + event_type",
      { user_id: "user-even", event_type: "institution_created" },
      (e) => e.user_id === "user-even" && e.event_type === "institution_created",
    ],
    ["from", { from: new Date(BASE + 100_000).toISOString() }, (e) => e.created_at >= new Date(BASE + 100_000).toISOString()],
    ["to", { to: new Date(BASE + 100_000).toISOString() }, (e) => e.created_at <= new Date(BASE + 100_000).toISOString()],
    [
      "from + to",
      { from: new Date(BASE + 40_000).toISOString(), to: new Date(BASE + 150_000).toISOString() },
      (e) => e.created_at >= new Date(BASE + 40_000).toISOString() && e.created_at <= new Date(BASE + 150_000).toISOString(),
    ],
    [
      "everything",
      {
        user_id: "user-odd",
        event_type: "unauthorized_institution_access",
        from: new Date(BASE).toISOString(),
        to: new Date(BASE + 190_000).toISOString(),
      },
      (e) =>
        e.user_id === "user-odd" &&
        e.event_type === "unauthorized_institution_access" &&
        e.created_at <= new Date(BASE + 190_000).toISOString(),
    ],
    [
      "event_type + from (offset form)",
      { event_type: "institution_created", from: "2024-03-01T14:01:00+02:00" },
      (e) => e.event_type === "institution_created" && e.created_at >= "2024-03-01T12:01:00.000Z",
    ],
  ];

  it.each(cases)("filter %s: exactly the matching events, in order, also across pages", async (_, query, match) => {
    const expected = events.filter(match).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(events.length);
    expect(ids(await page(admin, { ...query, limit: 200 }))).toEqual(expected);
    const paged = await allPages(admin, { ...query, limit: 2 });
    expect(paged.flatMap((p) => p.ids)).toEqual(expected);
  });

  it("from and to are inclusive at exact timestamps, ties included", async () => {
    // Slot 4 (BASE + 40 s) holds two events (ties); slot 8 (BASE + 80 s) too.
    const from = new Date(BASE + 40_000).toISOString();
    const to = new Date(BASE + 80_000).toISOString();
    const expected = events.filter((e) => e.created_at >= from && e.created_at <= to);
    expect(expected.filter((e) => e.created_at === from)).toHaveLength(2);
    expect(expected.filter((e) => e.created_at === to)).toHaveLength(2);
    expect(ids(await page(admin, { from, to, limit: 200 }))).toEqual(expected.map((e) => e.id));
    // from = to: exactly the events at that instant.
    const at = await page(admin, { from: to, to });
    expect(ids(at)).toEqual(expected.filter((e) => e.created_at === to).map((e) => e.id));
    // One millisecond off either side leaves them out.
    const inside = await page(admin, {
      from: new Date(BASE + 40_001).toISOString(),
      to: new Date(BASE + 79_999).toISOString(),
      limit: 200,
    });
    expect(ids(inside)).toEqual(expected.filter((e) => e.created_at !== from && e.created_at !== to).map((e) => e.id));
  });

  it("an event type no event has, or a user id with the key separator, is simply empty", async () => {
    for (const query of [
      { event_type: "no_such_type" },
      { user_id: "user-odd#rate_limit_exceeded" },
      { event_type: "x#institution_created" },
    ]) {
      expect(await page(admin, query)).toEqual({ events: [], meta: { count: 0, limit: 50, next_cursor: null } });
    }
  });

  it.each([
    [{ limit: "0" }, "Invalid limit: must be an integer between 1 and 200"],
    [{ limit: "201" }, "Invalid limit: must be an integer between 1 and 200"],
    [{ limit: "ten" }, "Invalid limit: must be an integer between 1 and 200"],
    [{ limit: "2.5" }, "Invalid limit: must be an integer between 1 and 200"],
    [{ from: "yesterday" }, "Invalid from: must be an ISO 8601 timestamp"],
    [{ from: "2024-02-30T00:00:00Z" }, "Invalid from: must be an ISO 8601 timestamp"],
    [{ to: "12/01/2024" }, "Invalid to: must be an ISO 8601 timestamp"],
    [{ from: "2024-03-02T00:00:00Z", to: "2024-03-01T00:00:00Z" }, "Invalid range: from must not be after to"],
    [{ cursor: "garbage" }, "Invalid cursor"],
    [{ cursor: "a.b" }, "Invalid cursor"],
  ])("bad parameters %o → 400", async (query, error) => {
    const res = await list(admin, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it("a cursor is a position: other filters continue after it within themselves; outside from/to it is 400", async () => {
    const first = await page(admin, { limit: 3 });
    const cursor = first.meta.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const after = events.slice(3);
    const typed = await page(admin, { event_type: "institution_created", cursor, limit: 200 });
    expect(ids(typed)).toEqual(after.filter((e) => e.event_type === "institution_created").map((e) => e.id));
    const early = await list(admin, { to: events.at(-1)?.created_at as string, cursor });
    expect(early.status).toBe(400);
    expect(early.body).toEqual({ error: "Invalid cursor" });
    // A changed page size is fine: the cursor is a position, not a page number.
    expect(ids(await page(admin, { cursor, limit: 4 }))).toEqual(events.slice(3, 7).map((e) => e.id));
  });

  it("a malformed cursor is 400", async () => {
    const cursor = (await page(admin, { limit: 3 })).meta.next_cursor as string;
    const notAPosition = Buffer.from(`${events[10]?.created_at}`).toString("base64url");
    for (const bad of [notAPosition, `${cursor}.x`, "%%%", "x".repeat(300)]) {
      const res = await list(admin, { cursor: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({ error: "Invalid cursor" });
    }
  });

  it("show: the event with its user object", async () => {
    const e = events[3] as Expected;
    const shown = ok(await apiClient(admin).GET(`${paths.securityEvents}/{id}`, { params: { path: { id: e.id } } }));
    expect(shown).toEqual({
      id: e.id,
      event_type: e.event_type,
      user: { id: e.user_id, email: `${e.user_id}@example.com`, name: `User ${e.user_id}` },
      ip_address: "198.51.100.7",
      details: expect.objectContaining({ limit: 3 }),
      created_at: e.created_at,
      description: expect.any(String),
    });
  });

  it("show: unknown and malformed ids are 404", async () => {
    for (const id of [newId(), "not-an-id", "%20", "x".repeat(300)]) {
      const res = await call("GET", `${EVENTS}/${id}`, { token: admin });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ error: "Security event not found" });
    }
  });

  describe("account isolation: a super admin of another account", () => {
    it("lists none of the events, whatever the filters", async () => {
      for (const query of [{}, { user_id: "user-odd" }, { event_type: "rate_limit_exceeded" }, { from: "2000-01-01" }]) {
        expect((await page(otherAdmin, { ...query, limit: 200 })).events).toEqual([]);
      }
    });

    it("gets 404 for each of them", async () => {
      for (const e of events.slice(0, 5)) {
        const res = await call("GET", `${EVENTS}/${e.id}`, { token: otherAdmin });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: "Security event not found" });
      }
    });

    it("reads nothing of the account through its cursor: a cursor is only a position in the caller's own partition", async () => {
      const cursor = (await page(admin, { limit: 3 })).meta.next_cursor as string;
      expect((await page(otherAdmin, { cursor, limit: 3 })).events).toEqual([]);
      // A made-up position is no better.
      const made = Buffer.from(`${events[2]?.created_at}#${events[2]?.id}`).toString("base64url");
      expect((await page(otherAdmin, { cursor: made })).events).toEqual([]);
    });
  });
});
