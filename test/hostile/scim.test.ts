/**
 * Hostile input against directory provisioning (docs/scim.md), through the real gateway and its Lambda
 * authorizer: random bodies, filters, ids and queries on the SCIM routes, with a valid directory token; random
 * bodies on the connection routes. Never a 5xx; every SCIM refusal in the RFC's shape; a refused write changes
 * nothing (the directory's users, the institution's seats and version are compared after each).
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { getInstitution } from "../../shared/institutions/repository.js";
import { token, uniqEmail } from "../support/api.js";
import { createInstitution, INST } from "../support/flows.js";
import { connect, SCIM, URN } from "../support/scim.js";
import { anyString, badId, hit, hostileJson, printTally, runs, seg, sometimes, targetTooLong } from "./support.js";

let owner: string;
let institutionId: string;
let dir: string;
let userId: string;

beforeAll(async () => {
  owner = await token(uniqEmail("hs-owner"), { superAdmin: true });
  institutionId = (await createInstitution(owner)).id;
  dir = (await connect(owner, institutionId)).token;
  const res = await hit("POST /Users", "POST", `${SCIM}/Users`, {
    token: dir,
    json: { userName: uniqEmail("hs-user"), emails: [{ value: uniqEmail("hs-mail"), primary: true }], active: true },
  });
  expect(res.status, res.text).toBe(201);
  userId = res.body.id;
});

/** What must not change on a refusal: the directory's users (as SCIM lists them) and the institution's seats and version. */
async function snapshot() {
  const users = await hit("GET /Users", "GET", `${SCIM}/Users?count=200`, { token: dir });
  const inst = await getInstitution(institutionId);
  return JSON.stringify([
    users.body.Resources.map((u: { meta: { lastModified: string } }) => u.meta.lastModified),
    inst?.version,
    inst?.members,
  ]);
}

function expectScimShape(res: { status: number; body: Record<string, unknown> }) {
  expect(res.status).toBeLessThan(500);
  if (res.status >= 400 && res.status !== 401) {
    expect(res.body.schemas).toEqual([URN.error]);
    expect(res.body.status).toBe(String(res.status));
  }
}

const filterish = fc.oneof(
  anyString,
  fc.constantFrom(
    'userName eq "',
    "userName eq",
    "(userName pr",
    'emails[type eq "work"',
    'not userName eq "x"',
    'userName zz "x"',
    "a.b.c.d pr",
    'meta.created gt 5 and (title eq "x" or not (x pr))',
    "__proto__ pr",
    'constructor.prototype eq "x"',
  ),
  fc.stringMatching(/^[a-zA-Z.()"[\] ]{0,80}$/),
);

describe("the SCIM routes", () => {
  it("answer random filters, paging and projections with 200 or 400 in SCIM's shape", async () => {
    await fc.assert(
      fc.asyncProperty(
        filterish,
        sometimes(fc.oneof(anyString, fc.integer().map(String)), 2),
        sometimes(anyString, 3),
        async (filter, count, attributes) => {
          const q = new URLSearchParams({ filter, ...(count !== null && { count }), ...(attributes !== null && { attributes }) });
          const res = await hit("GET /Users", "GET", `${SCIM}/Users?${q}`, { token: dir });
          // A filter too long for any HTTP server's request line: 431 before the gateway routes it, never 5xx.
          if (targetTooLong(res)) return;
          expect([200, 400], res.text).toContain(res.status);
          expectScimShape(res);
        },
      ),
      runs(60),
    );
  });

  it("refuse random bodies and ids on writes in SCIM's shape, and a refusal changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("POST", "PUT", "PATCH"),
        fc.constantFrom("Users", "Groups"),
        fc.oneof(
          hostileJson,
          fc.record({ userName: fc.oneof(anyString, hostileJson), active: hostileJson }),
          fc.record({
            schemas: fc.constant([URN.patch]),
            Operations: fc.array(fc.record({ op: anyString, path: anyString, value: hostileJson }), { maxLength: 3 }),
          }),
          fc.record({ displayName: fc.oneof(anyString, hostileJson), members: hostileJson }),
        ),
        fc.oneof(badId, fc.constant("real")),
        async (method, kind, body, id) => {
          const before = await snapshot();
          const path = method === "POST" ? `${SCIM}/${kind}` : `${SCIM}/${kind}/${seg(id === "real" ? userId : id)}`;
          const res = await hit(`${method} /${kind}`, method, path, { token: dir, json: body });
          if (targetTooLong(res)) return;
          expectScimShape(res);
          if (res.status >= 400) expect(await snapshot()).toBe(before);
        },
      ),
      runs(60),
    );
  });

  it("answer malformed JSON and oversized bodies with 400 and 413 in SCIM's shape", async () => {
    const malformed = await hit("POST /Users", "POST", `${SCIM}/Users`, {
      token: dir,
      raw: "{not json",
      headers: { "content-type": "application/scim+json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ schemas: [URN.error], status: "400", scimType: "invalidSyntax" });
    const big = await hit("POST /Users", "POST", `${SCIM}/Users`, {
      token: dir,
      json: { userName: "big@x.test", title: "x".repeat(70_000) },
    });
    expect(big.status).toBe(413);
    expect(big.body.schemas).toEqual([URN.error]);
    const badEscape = await hit("GET /Schemas/{id}", "GET", `${SCIM}/Schemas/%E0%A4%A`, { token: dir });
    expect(badEscape.status).toBe(404);
    expect(badEscape.body.schemas).toEqual([URN.error]);
    const resource = await hit("POST /Users", "POST", `${SCIM}/Users`, {
      token: dir,
      json: { userName: "large@x.test", title: "x".repeat(20_000) },
    });
    expect(resource.status).toBe(413);
  });
});

describe("the connection routes", () => {
  it("answer random bodies and ids with 4xx or success, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("POST", "GET", "PATCH", "DELETE"),
        fc.oneof(badId, fc.constant("mine")),
        hostileJson,
        async (method, id, body) => {
          // Never the real one's DELETE or POST: the directory's token above must stay valid.
          const target = id === "mine" ? institutionId : id;
          if (id === "mine" && (method === "DELETE" || method === "POST")) return;
          const res = await hit(`${method} scim`, method, `${INST}/${seg(target)}/scim`, { token: owner, json: body });
          if (targetTooLong(res)) return;
          expect(res.status, res.text).toBeLessThan(500);
          if (id !== "mine") expect([400, 404, 413, 429]).toContain(res.status);
          if (id === "mine" && method === "PATCH") expect([200, 400, 422]).toContain(res.status);
        },
      ),
      runs(60),
    );
    printTally("scim");
  });
});
