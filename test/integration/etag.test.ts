/**
 * ETag and If-Match on an institution (docs/contract/README.md#retries-and-concurrent-edits) through the local gateway: the ETag on every read and
 * write of one, 412 on a stale If-Match that changes nothing, also when writers race, and the check's place
 * in the contract's order (404, 403 first; the body after).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution, INST } from "../support/flows.js";
import { eventsOf, grantAccess, userIdOf } from "./helpers.js";

const CHANGED = { error: "Institution was changed by someone else" };

let owner: string;

beforeAll(async () => {
  owner = await token(uniqEmail("etag-owner"), { superAdmin: true });
});

async function show(id: string) {
  const res = await call("GET", `${INST}/${id}`, { token: owner });
  expect(res.status).toBe(200);
  return res;
}

const patch = (id: string, institution: Record<string, unknown>, ifMatch?: string, tok = owner) =>
  call("PATCH", `${INST}/${id}`, { token: tok, body: { institution }, ...(ifMatch !== undefined && { headers: { "If-Match": ifMatch } }) });

describe("ETag", () => {
  it("create, show and every update carry the institution's version; the ETag of a write is the next read's", async () => {
    const created = await call("POST", INST, { token: owner, body: { institution: { name: uniq("Etag U") } } });
    expect(created.status).toBe(201);
    expect(created.headers.etag).toBe('"1"');
    const id = created.body.institution.id as string;
    expect((await show(id)).headers.etag).toBe('"1"');
    const updated = await patch(id, { address: "1 Tag St" });
    expect(updated.headers.etag).toBe('"2"');
    const put = await call("PUT", `${INST}/${id}`, { token: owner, body: { institution: { address: "2 Tag St" } } });
    expect(put.headers.etag).toBe('"3"');
    expect((await show(id)).headers.etag).toBe('"3"');
  });
});

describe("If-Match", () => {
  it("the current ETag lets PATCH, PUT and DELETE through; a stale one is 412 and changes nothing", async () => {
    const { id } = await createInstitution(owner, { address: "Old St" });
    const fresh = (await show(id)).headers.etag as string;
    const first = await patch(id, { address: "New St" }, fresh);
    expect(first.status).toBe(200);

    const eventsBefore = (await eventsOf(owner)).length;
    const stale = await patch(id, { address: "Lost St" }, fresh);
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual(CHANGED);
    const put = await call("PUT", `${INST}/${id}`, {
      token: owner,
      body: { institution: { address: "Lost St" } },
      headers: { "If-Match": fresh },
    });
    expect(put.status).toBe(412);
    const del = await call("DELETE", `${INST}/${id}`, { token: owner, headers: { "If-Match": fresh } });
    expect(del.status).toBe(412);
    expect(del.body).toEqual(CHANGED);
    const now = await show(id);
    expect(now.body.institution.address).toBe("New St");
    expect(now.headers.etag).toBe(first.headers.etag);
    expect((await eventsOf(owner)).length).toBe(eventsBefore); // a 412 is not a security event, and nothing changed

    const gone = await call("DELETE", `${INST}/${id}`, { token: owner, headers: { "If-Match": now.headers.etag as string } });
    expect(gone.status).toBe(200);
    expect(gone.headers.etag).toBeUndefined();
  });

  it.each([
    ["*", 200],
    ['"9", "2"', 200],
    ['W/"2"', 412], // weak tags never match (strong comparison)
    ["2", 412], // not an entity tag
    ['"02"', 412],
    // Strictly RFC 9110 entity tags: anything around or between them that is not a list makes the header match nothing.
    ['"2"x', 412],
    ['x"2"', 412],
    ['"2" "3"', 412],
    ['"9", "2"junk', 412],
    ['W/ "2"', 412],
    ['"2', 412],
    ['*, "2"', 412],
    [' , "2" ,', 200], // empty list elements are allowed (RFC 9110 §5.6.1)
    ['"9",\t"2"', 200],
  ])("If-Match: %s on version 2 → %i", async (header, status) => {
    const { id } = await createInstitution(owner);
    expect((await patch(id, { address: "v2" })).headers.etag).toBe('"2"');
    const res = await patch(id, { address: "v3" }, header);
    expect(res.status).toBe(status);
  });

  it("without If-Match a write applies whatever the version", async () => {
    const { id } = await createInstitution(owner);
    await patch(id, { address: "A" });
    const res = await patch(id, { address: "B" });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"3"');
  });

  it("comes after 404 and 403, and before the body is read", async () => {
    const { id } = await createInstitution(owner);
    const stranger = await token(uniqEmail("etag-stranger"), { superAdmin: true });
    expect((await patch(id, { address: "x" }, '"99"', stranger)).status).toBe(404);
    const admin = await token(uniqEmail("etag-admin"));
    await grantAccess(id, await userIdOf(admin), "cohort_admin");
    expect((await patch(id, { address: "x" }, '"99"', admin)).status).toBe(403);
    // A stale If-Match with an invalid body: the precondition answers.
    const res = await patch(id, { name: "" }, '"99"');
    expect(res.status).toBe(412);
  });
});

describe("If-Match under races", () => {
  it("five writers with the same ETag: exactly one wins, the others get 412, and only the winner's change is stored", async () => {
    const { id } = await createInstitution(owner);
    const etag = (await show(id)).headers.etag as string;
    const eventsBefore = (await eventsOf(owner)).filter((e) => e.event_type === "institution_updated").length;
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => patch(id, { address: `Writer ${i}` }, etag)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = results.findIndex((r) => r.status === 200);
    const now = await show(id);
    expect(now.body.institution.address).toBe(`Writer ${winner}`);
    expect(now.headers.etag).toBe('"2"');
    const updates = (await eventsOf(owner)).filter((e) => e.event_type === "institution_updated").length;
    expect(updates).toBe(eventsBefore + 1);
  });

  it("an update and a delete racing on one ETag: one of them happens, the other changes nothing", async () => {
    const { id } = await createInstitution(owner);
    const etag = (await show(id)).headers.etag as string;
    const [updated, deleted] = await Promise.all([
      patch(id, { address: "Racing St" }, etag),
      call("DELETE", `${INST}/${id}`, { token: owner, headers: { "If-Match": etag } }),
    ]);
    const after = await call("GET", `${INST}/${id}`, { token: owner });
    if (deleted.status === 200) {
      // The update lost: 412, or 404 when its retry's fresh read found the institution gone.
      expect([404, 412]).toContain(updated.status);
      expect(after.status).toBe(404);
    } else {
      expect([updated.status, deleted.status]).toEqual([200, 412]);
      expect(after.body.institution.address).toBe("Racing St");
    }
  });
});
