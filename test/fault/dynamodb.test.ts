/**
 * DynamoDB Local taken away in the middle of a stream of writes (a fault file: it has the stack to itself).
 *
 * - *Paused* (SIGSTOP): connections are accepted and never answered, as with a hung host or a network
 *   partition. Data is kept, so afterwards the tables can be compared with what the API answered. This is
 *   the case the SDK's request timeout and retry policy (shared/clients.ts) exist for: a request answers a
 *   prompt 503 `{error: "Service temporarily unavailable"}` once its attempts are spent, never a 500, never
 *   the gateway's own timeout. A pause shorter than the retry window costs time, not errors.
 * - *Stopped*: connections are refused. The 503 comes at once (refused connections fail in milliseconds).
 *   DynamoDB Local runs in memory for the tests, so a stop loses every item: this runs last in the file,
 *   asserts nothing about old data, and checks that the restart re-created the tables so that the files
 *   after this one (which create their own data, as every file does) find a working API.
 *
 * After each pause: every change the API reported as done is stored with its event, no change exists
 * without its event and no event without its change (test/fault/consistency.ts). A request that got 503
 * may or may not have been applied (its transaction may have reached DynamoDB before the freeze), but
 * only ever both or neither.
 */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dayOf, hourOf } from "../../shared/bounds.js";
import { DYNAMODB_RETRY_POLICY, db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { claimsOf } from "../integration/helpers.js";
import { type CallResult, call, dynamodb, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution, INST, INV } from "../support/flows.js";
import { receiver, until } from "../support/webhook-receiver.js";
import { type AuditedUser, auditUsers } from "./consistency.js";

const UNAVAILABLE = { error: "Service temporarily unavailable" };

/**
 * The longest a request may take to answer 503 when DynamoDB does not answer, from the policy in
 * shared/clients.ts: every attempt of one SDK call runs into the request timeout, with the standard
 * strategy's backoff (at most 100 ms · 2^i before retry i+1) in between: 3 × 3 s + 0.3 s = 9.3 s. The calls
 * before it took milliseconds; 1.5 s more covers the gateway and timers firing late on a loaded machine.
 */
const { maxAttempts, requestTimeoutMs } = DYNAMODB_RETRY_POLICY;
const RETRY_WINDOW_MS =
  maxAttempts * requestTimeoutMs + Array.from({ length: maxAttempts - 1 }, (_, i) => 100 * 2 ** i).reduce((a, b) => a + b, 0);
const PROMPT_503_MS = RETRY_WINDOW_MS + 1_500;

type Kind = "create" | "update" | "cohort" | "invite" | "delete";

interface Outcome {
  kind: Kind;
  worker: number;
  status: number;
  body: unknown;
  ms: number;
  /** Institution id the request was about (for creates: the id answered, when 201). */
  institutionId?: string;
  /** Unique name (creates, deletes) or e-mail (invitations) of the request. */
  ref: string;
  /** Id the API answered for a created thing (institution, cohort, invitation). */
  id?: string;
  /** When the request was sent (performance.now()). */
  sentAt: number;
}

let owner: string;
let user: AuditedUser;
let ownerAccount: string;

/** A new institution of the owner's; its id. */
const newInstitution = async () => (await createInstitution(owner, { name: uniq("Fault U") })).id;

beforeAll(async () => {
  const account = uniq("acct");
  ownerAccount = account;
  owner = await token(uniqEmail("owner"), { superAdmin: true, account, name: "Fault Owner" });
  user = { userId: String(claimsOf(owner).sub), accountId: account };
});

// Each test's stream creates dozens of institutions and mails dozens of invitations in the one account, more
// on a fast machine: the account-wide bounds (docs/security.md, tested in test/integration/bounds.test.ts) are
// not what these tests are about, so the account's counters of this day and hour start far below zero.
beforeEach(async () => {
  const now = new Date();
  const headStart = (key: { pk: string; sk: string }, attribute: string) =>
    db.send(new PutCommand({ TableName: config.tables.main, Item: { ...key, [attribute]: -1_000_000 } }));
  await headStart(keys.accountDailyInstitutions(ownerAccount, dayOf(now)), "institutions");
  await headStart(keys.accountHourlyMails(ownerAccount, hourOf(now)), "mails");
});

afterAll(async () => {
  // Whatever happened above, leave DynamoDB running with its tables for the files after this one.
  await dynamodb.resume();
  await dynamodb.start();
});

/**
 * `workers` loops of mixed writes until `stop()`: creates, updates and cohort creates on the worker's own
 * institution, invitation creates, and deletes of institutions the worker created (and got 201 for) in
 * this stream. Each worker only touches its own institutions, so every answer can be checked.
 */
function writeStream(workers: number, home: readonly string[]) {
  const outcomes: Outcome[] = [];
  let running = true;
  const timed = async (o: Omit<Outcome, "status" | "body" | "ms" | "sentAt">, req: () => Promise<CallResult>) => {
    const started = performance.now();
    const res = await req();
    const out: Outcome = { ...o, status: res.status, body: res.body, ms: performance.now() - started, sentAt: started };
    outcomes.push(out);
    return out;
  };
  const loop = async (w: number) => {
    const mine = home[w] as string;
    const deletable: string[] = [];
    const cycle: Kind[] = ["create", "update", "cohort", "invite", "delete"];
    for (let i = 0; running; i++) {
      const kind = cycle[(i + w) % cycle.length] as Kind; // workers out of step: a freeze catches every kind
      if (kind === "create") {
        const name = uniq("Stream U");
        const o = await timed({ kind, worker: w, ref: name }, () => call("POST", INST, { token: owner, body: { institution: { name } } }));
        if (o.status === 201) {
          o.id = (o.body as { institution: { id: string } }).institution.id;
          o.institutionId = o.id;
          deletable.push(o.id);
        }
      } else if (kind === "update") {
        const name = uniq("Renamed U");
        await timed({ kind, worker: w, ref: name, institutionId: mine }, () =>
          call("PATCH", `${INST}/${mine}`, { token: owner, body: { institution: { name, address: uniq("Street") } } }),
        );
      } else if (kind === "cohort") {
        const name = uniq("Cohort");
        const o = await timed({ kind, worker: w, ref: name, institutionId: mine }, () =>
          call("POST", `${INST}/${mine}/cohorts`, { token: owner, body: { cohort: { name } } }),
        );
        if (o.status === 201) o.id = (o.body as { cohort: { id: string } }).cohort.id;
      } else if (kind === "invite") {
        const email = uniqEmail("invitee");
        const o = await timed({ kind, worker: w, ref: email, institutionId: mine }, () =>
          call("POST", INV, { token: owner, body: { institution_id: mine, email, role: "cohort_admin" } }),
        );
        if (o.status === 201) o.id = (o.body as { invitation: { id: string } }).invitation.id;
      } else {
        const id = deletable.shift();
        if (!id) continue;
        await timed({ kind, worker: w, ref: id, institutionId: id }, () => call("DELETE", `${INST}/${id}`, { token: owner }));
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, w) => loop(w)));
  return {
    outcomes,
    /** Waits until every worker has had `n` answers to requests sent at `since` (performance.now()) or later. */
    answered: (n: number, since = 0) =>
      until(
        `${n} answers per worker`,
        async () => {
          const sent = outcomes.filter((o) => o.sentAt >= since);
          return Array.from({ length: workers }, (_, w) => sent.filter((o) => o.worker === w).length).every((k) => k >= n)
            ? true
            : undefined;
        },
        PROMPT_503_MS * 2,
      ),
    stop: async () => {
      running = false;
      await done;
      return outcomes;
    },
  };
}

/**
 * Holds a fault for real time: what these tests are about is the SDK's own request timeout and retries,
 * which run on the system clock, so the local clock offset cannot stand in for it. Every other wait here is
 * for a state (the stream's answers).
 */
const holdFault = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Checks the tables against the answers: 2xx present with its event, 503 both or neither, nothing else. */
async function checkConsistency(outcomes: readonly Outcome[]) {
  const report = await auditUsers([user]);
  expect(report.problems).toEqual([]);
  const createdIds = new Map([...report.institutions.values()].map((i) => [i.name, i.id]));
  for (const o of outcomes) {
    const ok = o.status >= 200 && o.status < 300;
    if (o.kind === "create") {
      if (ok) expect(report.institutions.get(o.id as string)?.name).toBe(o.ref);
      else expect(o.status).toBe(503); // present or not: the audit above saw it consistent either way
      if (ok) expect(createdIds.get(o.ref)).toBe(o.id);
    } else if (o.kind === "delete") {
      const inst = report.institutions.get(o.ref);
      expect(inst, `deleted institution ${o.ref} has its institution_created`).toBeDefined();
      if (ok) {
        expect(inst?.exists).toBe(false);
        expect(report.deletedNames.has(inst?.name as string)).toBe(true);
      }
    } else if (o.kind === "cohort" && ok) {
      expect(report.institutions.get(o.institutionId as string)?.cohortIds.has(o.id as string)).toBe(true);
    } else if (o.kind === "invite" && ok) {
      expect(report.institutions.get(o.institutionId as string)?.invitationIds.has(o.id as string)).toBe(true);
    }
  }
  // Updates: each worker's institution moved by at least its 200s and at most its 200s + 503s.
  const byInstitution = new Map<string, Outcome[]>();
  for (const o of outcomes.filter((x) => x.kind === "update")) {
    byInstitution.set(o.institutionId as string, [...(byInstitution.get(o.institutionId as string) ?? []), o]);
  }
  for (const [id, ups] of byInstitution) {
    const inst = report.institutions.get(id);
    const done = ups.filter((u) => u.status === 200).length;
    const unknown = ups.filter((u) => u.status === 503).length;
    expect(inst?.updatedEvents).toBeGreaterThanOrEqual(done);
    expect(inst?.updatedEvents).toBeLessThanOrEqual(done + unknown);
  }
  const applied = outcomes.filter((o) => o.kind === "create" && o.status === 503 && createdIds.has(o.ref)).length;
  const unknownCreates = outcomes.filter((o) => o.kind === "create" && o.status === 503).length;
  if (unknownCreates > 0)
    console.log(`[fault] creates answered 503 that were applied (both) / not (neither): ${applied} / ${unknownCreates - applied}`);
  return report;
}

function summary(label: string, outcomes: readonly Outcome[]) {
  const by = new Map<string, number>();
  for (const o of outcomes) by.set(`${o.kind} ${o.status}`, (by.get(`${o.kind} ${o.status}`) ?? 0) + 1);
  const slowest = Math.max(0, ...outcomes.map((o) => o.ms));
  console.log(
    `[fault] ${label}: ${outcomes.length} writes; ${[...by].map(([k, n]) => `${k}×${n}`).join(", ")}; slowest ${Math.round(slowest)} ms`,
  );
}

describe("DynamoDB unreachable in the middle of a stream of writes", () => {
  it("paused for less than the retry window: slower answers, no errors, nothing half-written", async () => {
    const home = await Promise.all(Array.from({ length: 6 }, () => newInstitution()));
    const stream = writeStream(6, home);
    await stream.answered(2); // every worker is writing
    await dynamodb.pause();
    await holdFault(requestTimeoutMs + 500); // past one attempt's timeout, so that retries overlap the resume
    await dynamodb.resume();
    await stream.answered(2, performance.now()); // every worker is answered again after the resume
    const outcomes = await stream.stop();
    summary("short pause", outcomes);

    const unexpected = outcomes.filter((o) => o.status >= 300);
    expect(unexpected.map((o) => `${o.kind} ${o.status} ${JSON.stringify(o.body)}`)).toEqual([]);
    await checkConsistency(outcomes);
  });

  it("paused for longer than the retry window: prompt 503 {error}, never 500; afterwards no change without its event", async () => {
    const home = await Promise.all(Array.from({ length: 8 }, () => newInstitution()));
    const stream = writeStream(8, home);
    await stream.answered(2); // every worker is writing
    await dynamodb.pause();
    await holdFault(RETRY_WINDOW_MS + 2_000); // past the whole retry window: requests give up with 503
    await dynamodb.resume();
    await stream.answered(2, performance.now()); // every worker is answered again after the resume
    const outcomes = await stream.stop();
    summary("long pause", outcomes);

    const failed = outcomes.filter((o) => o.status >= 300);
    expect(failed.length).toBeGreaterThan(0);
    for (const o of failed) {
      expect({ kind: o.kind, status: o.status, body: o.body }).toEqual({ kind: o.kind, status: 503, body: UNAVAILABLE });
      expect(o.ms, `${o.kind} answered 503 after ${Math.round(o.ms)} ms`).toBeLessThan(PROMPT_503_MS);
    }
    // No request waits out the freeze: each SDK call gives up within the retry window, answered or not.
    for (const o of outcomes) expect(o.ms, `${o.kind} ${o.status} took ${Math.round(o.ms)} ms`).toBeLessThan(PROMPT_503_MS);
    expect(new Set(failed.map((o) => o.kind)).size).toBeGreaterThanOrEqual(2);

    const report = await checkConsistency(outcomes);
    // The API serves again, on the same data.
    const list = await call("GET", INST, { token: owner });
    expect(list.status).toBe(200);
    const listed = new Set((list.body.institutions as { id: string }[]).map((i) => i.id));
    const live = [...report.institutions.values()].filter((i) => i.exists).map((i) => i.id);
    expect([...listed].sort()).toEqual(live.sort());
  });

  it("stopped (connection refused): every endpoint answers 503 {error} at once; after the restart the tables exist again", async () => {
    const id = await newInstitution();
    const other = await token(uniqEmail("member"), { superAdmin: true, account: user.accountId });
    await dynamodb.stop();
    try {
      const requests: [string, string, Record<string, unknown>?][] = [
        ["GET", INST],
        ["POST", INST, { institution: { name: uniq("Down U") } }],
        ["GET", `${INST}/${id}`],
        ["PATCH", `${INST}/${id}`, { institution: { name: "x" } }],
        ["PUT", `${INST}/${id}`, { institution: { name: "x" } }],
        ["DELETE", `${INST}/${id}`],
        ["GET", `${INST}/${id}/cohorts`],
        ["POST", `${INST}/${id}/cohorts`, { cohort: { name: "c" } }],
        ["GET", `${INV}?institution_id=${id}`],
        ["POST", INV, { institution_id: id, email: uniqEmail("down"), role: "cohort_admin" }],
        ["DELETE", `${INV}/01ARZ3NDEKTSV4RRFFQ69G5FAV?institution_id=${id}`],
        ["POST", `${INV}/01ARZ3NDEKTSV4RRFFQ69G5FAV/resend`, { institution_id: id }],
        ["POST", paths.invitationsAccept, { token: "a".repeat(43) }],
        ["GET", paths.securityEvents],
        ["GET", `${paths.securityEvents}/export`],
        ["GET", `${paths.securityEvents}/alerts`],
        ["GET", `${paths.securityEvents}/01ARZ3NDEKTSV4RRFFQ69G5FAV`],
      ];
      for (const [method, path, body] of requests) {
        for (const tok of [owner, other]) {
          const started = performance.now();
          const res = await call(method, path, { token: tok, ...(body && { body }) });
          const ms = performance.now() - started;
          expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 503, body: UNAVAILABLE });
          expect(ms, `${method} ${path} took ${Math.round(ms)} ms`).toBeLessThan(2_000);
        }
      }
    } finally {
      await dynamodb.start();
    }
    // In-memory DynamoDB Local comes back empty, with its tables: the API works on the new, empty data.
    const list = await call("GET", INST, { token: owner });
    expect(list).toMatchObject({ status: 200, body: { institutions: [] } });
    const fresh = await newInstitution();
    expect((await call("GET", `${INST}/${fresh}`, { token: owner })).status).toBe(200);
    expect((await call("GET", paths.securityEvents, { token: owner })).status).toBe(200);
    expect((await auditUsers([user])).problems).toEqual([]);
    // The re-created events table has a new stream: the local consumer follows it, so a webhook still gets events.
    const hook = await receiver(0);
    try {
      const created = await call("POST", paths.webhooks, { token: owner, body: { webhook: { url: hook.url } } });
      expect(created.status, created.text).toBe(201);
      const types = await until(
        "the webhook's own creation delivered",
        async () => {
          const got = hook.received.map((r) => (JSON.parse(r.body) as { type: string }).type);
          return got.includes("webhook_created") ? got : undefined;
        },
        30_000,
      );
      expect(types).toContain("webhook_created");
    } finally {
      await hook.close();
    }
  });
});
