/**
 * `Idempotency-Key` on every POST (docs/contract/README.md#retries-and-concurrent-edits) through the local gateway, against DynamoDB Local and the
 * local SES: a retry gets the first response byte for byte and nothing happens again (one mail, one event, one
 * record), also for 10 parallel requests; the same key with another request is 422, while the first runs 409;
 * keys are per caller and route; a malformed key is 400; what is stored and what is not.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { IDEMPOTENCY_TTL_SECONDS, payloadOf, persistence } from "../../shared/idempotency.js";
import { idempotencyTable } from "../../shared/idempotency-table.js";
import { paths, routes, takesIdempotencyKey } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { type CallOptions, type CallResult, call, sentMail, token, uniq, uniqEmail } from "../support/api.js";
import { document } from "../support/contract.js";
import { ACCEPT, createInstitution, INST, INV, invite, lastMailedToken, revoke } from "../support/flows.js";
import { eventsOf, userIdOf } from "./helpers.js";

const KEY = "Idempotency-Key";
/** Headers that differ on every response of the gateway whatever the handler answered. */
const PER_RESPONSE = new Set(["date", "apigw-requestid", "connection", "keep-alive"]);

const keyed = (key: string, opts: CallOptions): CallOptions => ({ ...opts, headers: { ...opts.headers, [KEY]: key } });

/** Status, handler headers and body text: what must be equal, byte for byte, between a request and its replay. */
function answer(res: CallResult) {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_RESPONSE.has(name)));
  return { status: res.status, headers, text: res.text };
}

async function eventCount(tok: string, type: string): Promise<number> {
  return (await eventsOf(tok)).filter((e) => e.event_type === type).length;
}

async function invitationsOf(institutionId: string): Promise<number> {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.main,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :inv)",
      ExpressionAttributeValues: { ":pk": keys.institution(institutionId).pk, ":inv": keys.invitationPrefix },
      ConsistentRead: true,
    }),
  );
  return out.Count ?? 0;
}

let owner: string;
let inst: { id: string; name: string };

beforeAll(async () => {
  owner = await token(uniqEmail("idem-owner"), { superAdmin: true });
  inst = await createInstitution(owner);
});

describe("Idempotency-Key: the route table and the document", () => {
  it("every POST of the route table takes it, and the document says so with its statuses", () => {
    const posts = routes.filter(takesIdempotencyKey);
    expect(posts.length).toBeGreaterThanOrEqual(5);
    for (const route of routes) {
      const op = (document.paths[route.path] as Record<string, { parameters?: { $ref?: string }[]; responses: object }>)[
        route.method.toLowerCase()
      ];
      if (!op) continue;
      const takes = (op.parameters ?? []).some((p) => p.$ref === "#/components/parameters/IdempotencyKey");
      // A SCIM client knows no Idempotency-Key (docs/scim.md): its POSTs are made safe by userName uniqueness. A
      // public route has no caller to key a retry's record by.
      expect(takes, `${route.method} ${route.path}`).toBe(route.method === "POST" && !route.public && route.auth !== "scim");
      if (takes) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["400", "409", "422"]));
    }
  });
});

describe("Idempotency-Key: a retried invitation", () => {
  it("answers the first response byte for byte, and sends one mail and records one event", async () => {
    const email = uniqEmail("idem-retry");
    const key = crypto.randomUUID();
    const opts = keyed(key, { token: owner, body: { institution_id: inst.id, email, role: "cohort_admin" } });
    const first = await call("POST", INV, opts);
    expect(first.status, first.text).toBe(201);
    const again = await call("POST", INV, opts);
    const third = await call("POST", INV, opts);
    expect(answer(again)).toEqual(answer(first));
    expect(answer(third)).toEqual(answer(first));
    expect(first.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
    expect(await sentMail(email)).toHaveLength(1);
    const created = (await eventsOf(owner)).filter((e) => e.event_type === "invitation_created" && e.details.email === email);
    expect(created).toHaveLength(1);
  });

  it("10 parallel POSTs with one key: one invitation, one mail, one event; each answer is the first one or 409", async () => {
    const email = uniqEmail("idem-par");
    const key = crypto.randomUUID();
    const opts = keyed(key, { token: owner, body: { institution_id: inst.id, email, role: "cohort_admin" } });
    const before = await invitationsOf(inst.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => call("POST", INV, opts)));
    const done = results.filter((r) => r.status === 201);
    const running = results.filter((r) => r.status === 409);
    expect(done.length + running.length, results.map((r) => `${r.status} ${r.text}`).join("\n")).toBe(10);
    expect(done.length).toBeGreaterThanOrEqual(1);
    for (const r of done) expect(answer(r)).toEqual(answer(done[0] as CallResult));
    for (const r of running) expect(r.body).toEqual({ error: "A request with this Idempotency-Key is in progress" });
    // Once the first has answered, a retry gets its answer.
    expect(answer(await call("POST", INV, opts))).toEqual(answer(done[0] as CallResult));
    expect(await sentMail(email)).toHaveLength(1);
    expect((await eventsOf(owner)).filter((e) => e.event_type === "invitation_created" && e.details.email === email)).toHaveLength(1);
    expect(await invitationsOf(inst.id)).toBe(before + 1);
  });

  it("the same key with another body is 422 and changes nothing", async () => {
    const email = uniqEmail("idem-body");
    const key = crypto.randomUUID();
    const first = await call("POST", INV, keyed(key, { token: owner, body: { institution_id: inst.id, email, role: "cohort_admin" } }));
    expect(first.status).toBe(201);
    const other = uniqEmail("idem-other");
    const res = await call(
      "POST",
      INV,
      keyed(key, { token: owner, body: { institution_id: inst.id, email: other, role: "cohort_admin" } }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "Idempotency-Key reused with a different request" });
    expect(await sentMail(other)).toHaveLength(0);
    // Key order and whitespace are not "another body": the same fields answer the first response.
    const reordered = await call(
      "POST",
      INV,
      keyed(key, { token: owner, rawBody: ` {"role":"cohort_admin","email":"${email}", "institution_id":"${inst.id}"}` }),
    );
    expect(answer(reordered)).toEqual(answer(first));
  });

  it("while the first request runs, the key is 409 (another body still 422); once that invocation's time is up, a retry acts", async () => {
    const email = uniqEmail("idem-run");
    const key = crypto.randomUUID();
    const body = { institution_id: inst.id, email, role: "cohort_admin" };
    // The record the first invocation writes before it acts, with a minute left before its timeout.
    const running = payloadOf(await userIdOf(owner), `POST ${INV}`, key, { params: {}, query: {}, body });
    await persistence(idempotencyTable).saveInProgress(running, 60_000);
    const res = await call("POST", INV, keyed(key, { token: owner, body }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "A request with this Idempotency-Key is in progress" });
    const other = await call("POST", INV, keyed(key, { token: owner, body: { ...body, role: "cohort_super_admin" } }));
    expect(other.status).toBe(422);
    expect(await sentMail(email)).toHaveLength(0);
    // That invocation died: past its timeout (the retry sent a minute and a second later), the key is free again.
    const retry = await call("POST", INV, keyed(key, { token: owner, body, clockOffsetMs: 61_000 }));
    expect(retry.status, retry.text).toBe(201);
    expect(await sentMail(email)).toHaveLength(1);
  });
});

describe("Idempotency-Key: every POST", () => {
  it("create institution, create cohort, resend and accept: a retry answers the first response and acts once", async () => {
    const email = uniqEmail("idem-every");
    const invitee = await token(email);
    const ownerEvents = async () => (await eventsOf(owner)).length;

    // create institution
    const name = uniq("Idem U");
    const createOpts = keyed(uniq("k"), { token: owner, body: { institution: { name } } });
    const created = await call("POST", INST, createOpts);
    expect(created.status).toBe(201);
    expect(answer(await call("POST", INST, createOpts))).toEqual(answer(created));
    const listed = await call("GET", INST, { token: owner });
    expect(listed.body.institutions.filter((i: { name: string }) => i.name === name)).toHaveLength(1);
    const id = created.body.institution.id as string;

    // create cohort
    const cohortOpts = keyed(uniq("k"), { token: owner, body: { cohort: { name: "2026" } } });
    const cohort = await call("POST", `${INST}/${id}/cohorts`, cohortOpts);
    expect(cohort.status).toBe(201);
    expect(answer(await call("POST", `${INST}/${id}/cohorts`, cohortOpts))).toEqual(answer(cohort));
    expect((await call("GET", `${INST}/${id}/cohorts`, { token: owner })).body.cohorts).toHaveLength(1);

    // resend
    const invitationId = await invite(owner, id, email);
    // Sent 11 minutes on, past the resend cooldown (the retry too, as a client's retry would come later still).
    const resendOpts = keyed(uniq("k"), { token: owner, query: { institution_id: id }, clockOffsetMs: 11 * 60_000 });
    const eventsBefore = await ownerEvents();
    const resent = await call("POST", `${INV}/${invitationId}/resend`, resendOpts);
    expect(resent.status, resent.text).toBe(200);
    expect(answer(await call("POST", `${INV}/${invitationId}/resend`, resendOpts))).toEqual(answer(resent));
    expect(await sentMail(email)).toHaveLength(2); // the invitation's and one resend
    expect(await ownerEvents()).toBe(eventsBefore + 1);

    // accept
    const acceptOpts = keyed(uniq("k"), { token: invitee, body: { token: await lastMailedToken(email) } });
    const accepted = await call("POST", ACCEPT, acceptOpts);
    expect(accepted.status, accepted.text).toBe(200);
    expect(answer(await call("POST", ACCEPT, acceptOpts))).toEqual(answer(accepted));
    expect(await eventCount(invitee, "invitation_accepted")).toBe(1);
    expect(await eventCount(invitee, "token_validation_failure")).toBe(0); // the retry did not try the used token
  });

  it("keys are per caller and per route: the same key elsewhere acts on its own", async () => {
    const key = uniq("shared-key");
    const other = await token(uniqEmail("idem-other-owner"), { superAdmin: true });
    const body = { institution: { name: uniq("Same Key U") } };
    const mine = await call("POST", INST, keyed(key, { token: owner, body }));
    const theirs = await call("POST", INST, keyed(key, { token: other, body }));
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.institution.id).not.toBe(mine.body.institution.id);
    expect(theirs.body.institution.super_admin_id).toBe(await userIdOf(other));
    // Another route, same caller, same key: its own request.
    const cohort = await call(
      "POST",
      `${INST}/${mine.body.institution.id}/cohorts`,
      keyed(key, { token: owner, body: { cohort: { name: "A" } } }),
    );
    expect(cohort.status).toBe(201);
    // Same route template, another institution: another request (422), not the first one's answer.
    const elsewhere = await call(
      "POST",
      `${INST}/${theirs.body.institution.id}/cohorts`,
      keyed(key, { token: owner, body: { cohort: { name: "A" } } }),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual({ error: "Idempotency-Key reused with a different request" });
  });

  it("without the header nothing changes: two POSTs, two institutions", async () => {
    const body = { institution: { name: uniq("No Key U") } };
    const a = await call("POST", INST, { token: owner, body });
    const b = await call("POST", INST, { token: owner, body });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.institution.id).not.toBe(b.body.institution.id);
  });
});

describe("Idempotency-Key: malformed keys and other methods", () => {
  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["not ASCII", "clé"],
    ["a tab inside", "a\tb"],
  ])("a key that is %s is 400 and nothing is done", async (_label, key) => {
    const name = uniq("Bad Key U");
    const res = await call("POST", INST, { token: owner, body: { institution: { name } }, headers: { [KEY]: key } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Idempotency-Key must be 1 to 255 printable ASCII characters" });
    const listed = await call("GET", INST, { token: owner });
    expect(listed.body.institutions.some((i: { name: string }) => i.name === name)).toBe(false);
  });

  it("255 printable characters, spaces included, are a key", async () => {
    const key = `${" ~!".repeat(84)}abc`;
    expect(key).toHaveLength(255);
    const res = await call("POST", INST, keyed(key, { token: owner, body: { institution: { name: uniq("Long Key U") } } }));
    expect(res.status).toBe(201);
  });

  it("is ignored on methods other than POST", async () => {
    const res = await call("GET", `${INST}/${inst.id}`, { token: owner, headers: { [KEY]: "" } });
    expect(res.status).toBe(200);
    const patched = await call(
      "PATCH",
      `${INST}/${inst.id}`,
      keyed("x".repeat(300), { token: owner, body: { institution: { address: "1 Key St" } } }),
    );
    expect(patched.status).toBe(200);
  });

  it("is not read on a public POST: a malformed key is no 400, and a repeated one replays nothing", async () => {
    const discover = paths.ssoDiscover;
    const bad = await call("POST", discover, { body: { email: uniqEmail("idem-public") }, headers: { [KEY]: "k".repeat(300) } });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({ sso: null });
    // The same key with another body would be 422 on a signed-in route; here each request is answered as itself.
    const first = await call("POST", discover, keyed("same-key", { body: { email: uniqEmail("idem-a") } }));
    const second = await call("POST", discover, keyed("same-key", { body: { nope: 1 } }));
    expect(first.status).toBe(200);
    expect(second.status).toBe(400);
  });
});

describe("Idempotency-Key: which answers are kept", () => {
  it("a refusal the action answered (404 and its event) is replayed, and not recorded again", async () => {
    const stranger = await token(uniqEmail("idem-stranger"), { superAdmin: true });
    const opts = keyed(uniq("k"), { token: stranger, body: { cohort: { name: "X" } } });
    const first = await call("POST", `${INST}/${inst.id}/cohorts`, opts);
    expect(first.status).toBe(404);
    const count = await eventCount(stranger, "unauthorized_institution_access");
    expect(count).toBe(1);
    expect(answer(await call("POST", `${INST}/${inst.id}/cohorts`, opts))).toEqual(answer(first));
    expect(await eventCount(stranger, "unauthorized_institution_access")).toBe(1);
  });

  it("a 429 is not kept: once the limit allows, the same key acts", async () => {
    const email = uniqEmail("idem-429");
    const ids = [await invite(owner, inst.id, email), await invite(owner, inst.id, email), await invite(owner, inst.id, email)];
    const opts = keyed(uniq("k"), { token: owner, body: { institution_id: inst.id, email, role: "cohort_admin" } });
    const refused = await call("POST", INV, opts);
    expect(refused.status).toBe(429);
    await revoke(owner, inst.id, ids[0] as string);
    const retried = await call("POST", INV, opts);
    expect(retried.status, retried.text).toBe(201);
    expect(await sentMail(email)).toHaveLength(4);
  });

  it("records expire after 24 hours (the table's TTL attribute)", async () => {
    const key = uniq("k");
    const body = { institution: { name: uniq("TTL U") } };
    const before = Math.floor(Date.now() / 1000);
    expect((await call("POST", INST, keyed(key, { token: owner, body }))).status).toBe(201);
    const record = await persistence(idempotencyTable).getRecord(
      payloadOf(await userIdOf(owner), `POST ${INST}`, key, { params: {}, query: {}, body }),
    );
    expect(record.getStatus()).toBe("COMPLETED");
    expect(record.expiryTimestamp).toBeGreaterThanOrEqual(before + IDEMPOTENCY_TTL_SECONDS);
    expect(record.expiryTimestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + IDEMPOTENCY_TTL_SECONDS);
  });
});
