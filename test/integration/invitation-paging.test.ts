/**
 * Issue 14, point 9 (docs/contract/invitations.md, Invitations): the invitation list pages like the security events:
 * `limit` 1–200 (default 50), `cursor` from `meta.next_cursor`, `meta {count, limit, next_cursor}` with
 * `next_cursor` null on the last page, newest first; a bad `limit` or `cursor` is 400 `{error}`. The reads
 * a page costs are in invitation-list-budget.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../../shared/openapi/api-types.js";
import { paths } from "../../shared/routes.js";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { acceptLatest, createInstitution, INV, invite, revoke } from "../support/flows.js";

interface Page {
  ids: string[];
  meta: { count: number; limit: number; next_cursor: string | null };
}

let owner: string;
let institutionId: string;
/** The active invitations, newest first. */
let active: string[];
let used: string[];
const usedEmails: string[] = [];

/** The list's query besides the institution. */
type Query = Omit<NonNullable<operations["listInvitations"]["parameters"]["query"]>, "institution_id">;

async function page(query: Query, tok = owner): Promise<Page> {
  const listed = ok(await apiClient(tok).GET(paths.invitations, { params: { query: { institution_id: institutionId, ...query } } }));
  expect(Object.keys(listed).sort()).toEqual(["invitations", "meta"]);
  return { ids: listed.invitations.map((i) => i.id), meta: listed.meta };
}

/** Every page for `query`, following the cursors. */
async function walk(query: Query): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const p = await page({ ...query, cursor });
    pages.push(p);
    cursor = p.meta.next_cursor ?? undefined;
  } while (cursor && pages.length < 50);
  return pages;
}

beforeAll(async () => {
  owner = await token(uniqEmail("owner"), { superAdmin: true, account: uniq("acct") });
  institutionId = (await createInstitution(owner)).id;
  const made: string[] = [];
  // A second apart (each sent with the clock moved one second more), so that newest-first is decided by
  // when they were sent.
  for (let i = 0; i < 5; i++) {
    const body = { institution_id: institutionId, email: uniqEmail(`p${i}`), role: "cohort_admin" } as const;
    made.push(ok(await apiClient(owner, { clockOffsetMs: i * 1_000 }).POST(paths.invitations, { body }), 201).invitation.id);
  }
  await revoke(owner, institutionId, await invite(owner, institutionId, uniqEmail("gone")));
  used = [];
  for (let i = 0; i < 2; i++) {
    const email = uniqEmail(`u${i}`);
    usedEmails.push(email);
    used.push(await invite(owner, institutionId, email));
    await acceptLatest(await token(email), email);
  }
  active = made.reverse();
});

describe("invitation list: pages", () => {
  it("without paging parameters: every active one, newest first, with meta {count, limit: 50, next_cursor: null}", async () => {
    expect(await page({})).toEqual({ ids: active, meta: { count: 5, limit: 50, next_cursor: null } });
  });

  it("limit 2: three pages, each with its meta; the cursors lead through all of them once; null on the last", async () => {
    const pages = await walk({ limit: 2 });
    expect(pages.map((p) => p.ids)).toEqual([active.slice(0, 2), active.slice(2, 4), active.slice(4)]);
    expect(pages.map((p) => [p.meta.count, p.meta.limit])).toEqual([
      [2, 2],
      [2, 2],
      [1, 2],
    ]);
    expect(pages.slice(0, 2).map((p) => typeof p.meta.next_cursor)).toEqual(["string", "string"]);
    expect(pages[2]?.meta.next_cursor).toBeNull();
  });

  it("limit 1 and 200 are allowed; a page of exactly the remaining items ends with a null cursor", async () => {
    const ones = await walk({ limit: 1 });
    expect(ones.flatMap((p) => p.ids)).toEqual(active);
    expect(ones).toHaveLength(5);
    expect(await page({ limit: 200 })).toEqual({ ids: active, meta: { count: 5, limit: 200, next_cursor: null } });
    expect(await page({ limit: 5 })).toEqual({ ids: active, meta: { count: 5, limit: 5, next_cursor: null } });
  });

  it("show_used=true pages the used ones the same way", async () => {
    const pages = await walk({ show_used: "true", limit: 1 });
    expect(pages.flatMap((p) => p.ids)).toEqual([...used].reverse());
    expect(pages.at(-1)?.meta.next_cursor).toBeNull();
  });

  it("a bad limit → 400 {error}", async () => {
    for (const limit of ["0", "201", "-1", "abc", "1.5", "1e2", "50x"]) {
      const res = await call("GET", INV, { token: owner, query: { institution_id: institutionId, limit } });
      expect({ limit, status: res.status, keys: Object.keys(res.body ?? {}) }).toEqual({ limit, status: 400, keys: ["error"] });
      expect(typeof res.body.error).toBe("string");
    }
  });

  it("a bad cursor → 400 {error}", async () => {
    for (const cursor of ["garbage", "x".repeat(500), "eyJhIjoxfQ", "%00"]) {
      const res = await call("GET", INV, { token: owner, query: { institution_id: institutionId, cursor } });
      expect({ cursor: cursor.slice(0, 20), status: res.status, keys: Object.keys(res.body ?? {}) }).toEqual({
        cursor: cursor.slice(0, 20),
        status: 400,
        keys: ["error"],
      });
    }
  });

  it("a page is the same for every member with access", async () => {
    const asMember = await page({ limit: 3 }, await token(usedEmails[0] as string));
    expect(asMember).toEqual(await page({ limit: 3 }));
  });
});
