/**
 * DynamoDB requests and consumed capacity per endpoint: every route of shared/routes.ts called through a
 * gateway in this process, with a real token, a few times on fresh data; the requests counted at the SDK.
 * The floor is the design's minimum for the endpoint; the budget is that minimum and never a Scan.
 */

import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Gateway } from "../infra/local/gateway.js";
import type { LocalStack } from "../infra/local/stack.js";
import { db } from "../shared/clients.js";
import { config } from "../shared/config.js";
import { routes } from "../shared/routes.js";
import { keys } from "../shared/tables.js";
import { seedEvents, spreadSeeds } from "../test/support/seed-events.js";
import {
  Api,
  type CallOptions,
  type Count,
  createdId,
  describeCapacity,
  describeRequests,
  mailedToken,
  newUser,
  type RequestMeter,
  type User,
} from "./harness.js";
import { type Row, verdict } from "./report.js";

/** Calls of each endpoint: they must all make the same requests. */
export const CALLS = 3;

/** Moves an invitation's last mail back past the resend cooldown (10 minutes). */
async function mailedLongAgo(institutionId: string, invitationId: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: config.tables.main,
      Key: keys.invitation(institutionId, invitationId),
      UpdateExpression: "SET sent_at = :p",
      ExpressionAttributeValues: { ":p": new Date(Date.now() - 11 * 60_000).toISOString() },
    }),
  );
}

const INST = "/api/v1/institutions";
const INV = "/api/v1/admin/invitations";
const SEC = "/api/v1/admin/security_events";

export interface Call extends CallOptions {
  readonly path: string;
}

export interface Scenario {
  /** `METHOD path` as in shared/routes.ts. */
  readonly route: string;
  /** A variant of the route's call (its row is named `<route> <variant>`), measured after the route's own. */
  readonly variant?: string;
  readonly status: number;
  /** The requests the design needs, in any order (parallel reads may be sent in either). */
  readonly design: readonly string[];
  /** Alerts: up to this many more Queries, one per counted type with events in the window's first minute. */
  readonly extraQueries?: number;
  /** Makes what `count` calls need; returns call `i`. */
  prepare(count: number): Promise<(i: number) => Call>;
}

export interface EndpointCount {
  readonly route: string;
  readonly design: readonly string[];
  readonly extraQueries: number;
  readonly calls: Count[];
}

const sorted = (r: readonly string[]) => [...r].sort().join();

function withinDesign(e: EndpointCount, requests: readonly string[]): boolean {
  if (requests.includes("Scan")) return false;
  const extra = requests.length - e.design.length;
  if (extra < 0 || extra > e.extraQueries) return false;
  return sorted(requests) === sorted([...e.design, ...Array<string>(extra).fill("Query")]);
}

export function scenarios(stack: LocalStack, api: Api, owner: User, run: string): Scenario[] {
  const call = (path: string, opts: Omit<CallOptions, "token"> = {}, user = owner): Call => ({ path, ...opts, token: user.token });
  const institution = async (name: string) =>
    createdId(await api.json("POST", INST, { token: owner.token, body: { institution: { name: `${name} ${run}` } } }, 201), "institution");
  const invite = async (institutionId: string, email: string) =>
    createdId(
      await api.json("POST", INV, { token: owner.token, body: { institution_id: institutionId, email, role: "cohort_admin" } }, 201),
      "invitation",
    );
  const times = <T>(count: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, i) => fn(i)));
  const lookupAndTx = ["GetItem", "TransactWriteItems"];

  return [
    {
      route: `GET ${INST}`,
      status: 200,
      design: ["Query"],
      prepare: async () => {
        await times(3, () => institution("Listed"));
        return () => call(INST);
      },
    },
    {
      route: `POST ${INST}`,
      status: 201,
      design: ["TransactWriteItems"],
      prepare: async () => (i) => call(INST, { body: { institution: { name: `Created ${i}`, registration_number: `REQ-${run}-${i}` } } }),
    },
    {
      route: `GET ${INST}/{id}`,
      status: 200,
      design: ["GetItem"],
      prepare: async () => {
        const id = await institution("Shown");
        return () => call(`${INST}/${id}`);
      },
    },
    ...(["PATCH", "PUT"] as const).map(
      (method): Scenario => ({
        route: `${method} ${INST}/{id}`,
        status: 200,
        design: lookupAndTx,
        prepare: async () => {
          const id = await institution(`Updated by ${method}`);
          return (i) => call(`${INST}/${id}`, { body: { institution: { name: `Renamed ${i} ${run}`, contact_phone: "+1 555 0199" } } });
        },
      }),
    ),
    {
      route: `DELETE ${INST}/{id}`,
      status: 200,
      design: lookupAndTx,
      prepare: async (count) => {
        const ids = await times(count, () => institution("Deleted"));
        return (i) => call(`${INST}/${ids[i]}`);
      },
    },
    {
      route: `GET ${INST}/{id}/cohorts`,
      status: 200,
      design: ["GetItem", "Query"],
      prepare: async () => {
        const id = await institution("Cohorts");
        for (const name of ["Spring", "Autumn"])
          await api.json("POST", `${INST}/${id}/cohorts`, { token: owner.token, body: { cohort: { name } } }, 201);
        return () => call(`${INST}/${id}/cohorts`);
      },
    },
    {
      route: `POST ${INST}/{id}/cohorts`,
      status: 201,
      design: lookupAndTx,
      prepare: async () => {
        const id = await institution("Cohort target");
        return (i) => call(`${INST}/${id}/cohorts`, { body: { cohort: { name: `Cohort ${i}` } } });
      },
    },
    {
      route: `GET ${INV}`,
      status: 200,
      design: ["GetItem", "Query"],
      prepare: async () => {
        const id = await institution("Invitations listed");
        await times(3, (i) => invite(id, `listed-${i}-${run}@bench.test`));
        return () => call(INV, { query: { institution_id: id } });
      },
    },
    {
      route: `POST ${INV}`,
      status: 201,
      // The institution, then the e-mail's pending slots and member marker (one Query), then one transaction.
      design: ["GetItem", "Query", "TransactWriteItems"],
      prepare: async () => {
        const id = await institution("Invitations created");
        return (i) => call(INV, { body: { institution_id: id, email: `created-${i}-${run}@bench.test`, role: "cohort_admin" } });
      },
    },
    // What an Idempotency-Key adds to the same call (docs/contract/README.md#retries-and-concurrent-edits): the in-progress record (a conditional
    // PutItem) and the stored answer (UpdateItem) in the idempotency table.
    {
      route: `POST ${INV}`,
      variant: "with Idempotency-Key",
      status: 201,
      design: ["PutItem", "GetItem", "Query", "TransactWriteItems", "UpdateItem"],
      prepare: async () => {
        const id = await institution("Invitations created with a key");
        return (i) =>
          call(INV, {
            body: { institution_id: id, email: `keyed-${i}-${run}@bench.test`, role: "cohort_admin" },
            headers: { "Idempotency-Key": `bench-${run}-${i}` },
          });
      },
    },
    // Its retry: the conditional PutItem fails and returns the stored record, which is the answer. A failed
    // conditional write is charged 1 WCU, which DynamoDB reports on no error response (so not below).
    {
      route: `POST ${INV}`,
      variant: "retried with the same Idempotency-Key",
      status: 201,
      design: ["PutItem"],
      prepare: async (count) => {
        const id = await institution("Invitations retried");
        const calls = Array.from({ length: count }, (_, i) =>
          call(INV, {
            body: { institution_id: id, email: `retried-${i}-${run}@bench.test`, role: "cohort_admin" },
            headers: { "Idempotency-Key": `bench-retry-${run}-${i}` },
          }),
        );
        for (const c of calls) await api.json("POST", c.path, c, 201);
        return (i) => calls[i] as Call;
      },
    },
    {
      route: `DELETE ${INV}/{id}`,
      status: 200,
      design: ["GetItem", "GetItem", "TransactWriteItems"],
      prepare: async (count) => {
        const id = await institution("Invitations revoked");
        const ids = await times(count, (i) => invite(id, `revoked-${i}-${run}@bench.test`));
        return (i) => call(`${INV}/${ids[i]}`, { query: { institution_id: id } });
      },
    },
    {
      route: `POST ${INV}/{id}/resend`,
      status: 200,
      design: ["GetItem", "GetItem", "TransactWriteItems"],
      prepare: async (count) => {
        const id = await institution("Invitations resent");
        const ids = await times(count, (i) => invite(id, `resent-${i}-${run}@bench.test`));
        // Past the resend cooldown, so that each resend mails.
        await times(count, (i) => mailedLongAgo(id, ids[i] as string));
        return (i) => call(`${INV}/${ids[i]}/resend`, { body: { institution_id: id } });
      },
    },
    {
      route: "POST /api/v1/invitations/accept",
      status: 200,
      // The token item, then the invitation and the institution (in parallel), then one transaction.
      design: ["GetItem", "GetItem", "GetItem", "TransactWriteItems"],
      prepare: async (count) => {
        const id = await institution("Invitations accepted");
        const invitees = await times(count, async (i) => {
          const email = `accepted-${i}-${run}@bench.test`;
          await invite(id, email);
          return { user: await newUser(stack, email, `acct-invitees-${run}`, false), token: await mailedToken(stack.sesEndpoint, email) };
        });
        return (i) => {
          const who = invitees[i] as (typeof invitees)[number];
          return call("/api/v1/invitations/accept", { body: { token: who.token } }, who.user);
        };
      },
    },
    // Removing an administrator who sent 2 invitations (docs/security.md, "Offboarding is complete"): the institution,
    // the access record, the person's records of what they sent (one consistent Query), those invitations (one
    // consistent BatchGetItem), then one transaction: the removal, both revocations and their events.
    {
      route: `DELETE ${INST}/{id}/administrators/{user_id}`,
      status: 200,
      design: ["GetItem", "GetItem", "Query", "BatchGetItem", "TransactWriteItems"],
      prepare: async (count) => {
        const id = await institution("Administrators removed");
        const members = await times(count, async (i) => {
          const email = `removed-${i}-${run}@bench.test`;
          await api.json("POST", INV, { token: owner.token, body: { institution_id: id, email, role: "cohort_super_admin" } }, 201);
          const member = await newUser(stack, email, owner.account, true);
          await api.json(
            "POST",
            "/api/v1/invitations/accept",
            { token: member.token, body: { token: await mailedToken(stack.sesEndpoint, email) } },
            200,
          );
          for (const n of [1, 2]) {
            const body = { institution_id: id, email: `sent-${n}-by-${i}-${run}@bench.test`, role: "cohort_admin" };
            await api.json("POST", INV, { token: member.token, body }, 201);
          }
          return member;
        });
        return (i) => call(`${INST}/${id}/administrators/${(members[i] as User).id}`);
      },
    },
    // Institution API keys (docs/api-keys.md): the institution and its keys' partition read side by side, then one transaction.
    {
      route: `POST ${INST}/{id}/api_keys`,
      status: 201,
      design: ["GetItem", "Query", "TransactWriteItems"],
      prepare: async () => {
        const id = await institution("Keyed");
        return (i) => call(`${INST}/${id}/api_keys`, { body: { name: `Key ${i}`, scopes: ["cohorts:read"] } });
      },
    },
    {
      route: `GET ${INST}/{id}/api_keys`,
      status: 200,
      design: ["GetItem", "Query"],
      prepare: async () => {
        const id = await institution("Keys listed");
        for (const name of ["SIS", "LMS"])
          await api.json("POST", `${INST}/${id}/api_keys`, { token: owner.token, body: { name, scopes: ["cohorts:read"] } }, 201);
        return () => call(`${INST}/${id}/api_keys`);
      },
    },
    {
      route: `DELETE ${INST}/{id}/api_keys/{key_id}`,
      status: 200,
      design: ["GetItem", "GetItem", "TransactWriteItems"],
      prepare: async (count) => {
        const id = await institution("Keys revoked");
        const made = await times(count, (i) =>
          api.json("POST", `${INST}/${id}/api_keys`, { token: owner.token, body: { name: `Gone ${i}`, scopes: ["cohorts:read"] } }, 201),
        );
        const ids = made.map((m) => (m.api_key as { id: string }).id);
        return (i) => call(`${INST}/${id}/api_keys/${ids[i]}`);
      },
    },
    { route: `GET ${SEC}`, status: 200, design: ["Query"], prepare: async () => () => call(SEC) },
    {
      route: `GET ${SEC}/{id}`,
      status: 200,
      design: ["GetItem"],
      prepare: async () => {
        const list = await api.json("GET", SEC, { token: owner.token, query: { limit: "1" } }, 200);
        const id = (list.events as { id: string }[] | undefined)?.[0]?.id;
        if (!id) throw new Error("the owner's account has no events");
        return () => call(`${SEC}/${id}`);
      },
    },
    // The account's digests in the retention: one Query on its digest partition.
    { route: `GET ${SEC}/digests`, status: 200, design: ["Query"], prepare: async () => () => call(`${SEC}/digests`) },
    {
      route: `GET ${SEC}/alerts`,
      status: 200,
      design: ["Query"],
      extraQueries: 3,
      prepare: async () => {
        await seedEvents(spreadSeeds(owner.account, 300, Date.now(), 60 * 60 * 1000));
        return () => call(`${SEC}/alerts`);
      },
    },
    {
      route: `GET ${SEC}/export`,
      status: 200,
      // One Query per 1,000 rows of each type asked for, then the transaction of its own event.
      design: ["Query", "TransactWriteItems"],
      prepare: async () => () => call(`${SEC}/export`, { query: { event_type: "institution_created" } }),
    },
  ];
}

/** Each route's calls, counted; routes without a scenario come back with no calls. */
export async function measureRequests(
  stack: LocalStack,
  gateway: Gateway,
  meter: RequestMeter,
  log: (s: string) => void,
): Promise<EndpointCount[]> {
  const api = new Api(gateway.url);
  const run = Date.now().toString(36);
  try {
    const owner = await newUser(stack, `requests-owner-${run}@bench.test`, `acct-requests-${run}`);
    const all = scenarios(stack, api, owner, run);
    const out: EndpointCount[] = [];
    for (const r of routes.filter((r) => !r.public)) {
      const route = `${r.method} ${r.path}`;
      const own = all.filter((x) => x.route === route);
      if (own.length === 0) {
        out.push({ route, design: [], extraQueries: 0, calls: [] });
        continue;
      }
      for (const s of own) {
        const subject = s.variant ? `${route} ${s.variant}` : route;
        const next = await s.prepare(CALLS);
        const calls: Count[] = [];
        for (let i = 0; i < CALLS; i++) {
          const call = next(i);
          const { result, count } = await meter.count(() => api.send(r.method, call.path, call));
          if (result.status !== s.status)
            throw new Error(`${subject}: ${result.status}, expected ${s.status}: ${result.text.slice(0, 300)}`);
          calls.push(count);
        }
        log(`  ${subject.padEnd(48)} ${[...new Set(calls.map((c) => describeRequests(c.requests)))].join(" | ")}`);
        out.push({ route: subject, design: s.design, extraQueries: s.extraQueries ?? 0, calls });
      }
    }
    return out;
  } finally {
    api.close();
  }
}

export function requestRows(results: readonly EndpointCount[]): Row[] {
  return results.map((e) => {
    const seen = [...new Set(e.calls.map((c) => describeRequests(c.requests)))];
    const first = e.calls[0];
    const design = `${describeRequests(e.design)}${e.extraQueries ? ` (+≤${e.extraQueries} Query)` : ""}`;
    return {
      measure: "requests",
      subject: e.route,
      figure: "requests (capacity)",
      value: first ? `${seen.join(" | ")} (${describeCapacity(first.capacity)})` : "no scenario",
      floor: first ? design : "—",
      budget: "= floor, no Scan",
      verdict: verdict(e.calls.length > 0 && e.calls.every((c) => withinDesign(e, c.requests))),
      data: { design: e.design, extraQueries: e.extraQueries, calls: e.calls },
    };
  });
}

/** Scans among every DynamoDB request of this process in the run: the measures', their setup's, the seeding's. */
export function scanRow(meter: RequestMeter): Row {
  return {
    measure: "requests",
    subject: "every request sent from the bench process",
    figure: "Scans",
    value: `${meter.scans} of ${meter.total}`,
    floor: "—",
    budget: "0",
    verdict: verdict(meter.scans === 0),
  };
}
