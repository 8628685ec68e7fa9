/**
 * Section 3: each read endpoint end to end through the local gateway (HTTP on loopback with a keep-alive
 * agent, JWT verification, payload 2.0 event, the handler, DynamoDB Local), side by side with its floors,
 * measured from this process against the same DynamoDB Local:
 * - a bare strongly consistent GetItem (the floor);
 * - the endpoint's own DynamoDB requests, replayed bare: captured from one in-process call of its handler
 *   and sent again by a plain DocumentClient, one after the other (those the handler had in flight together,
 *   together).
 * Budget (the issue's): p50 ≤ 2× the bare GetItem for the single-read endpoints (list and show institution,
 * show security event). The other read endpoints get the same allowance, one bare GetItem for the gateway
 * and the handler, on top of their own requests: p50 ≤ own requests + 1 GetItem.
 * Calls rotate (GetItem, own requests, endpoint, ...), so drift on a shared machine hits all three alike.
 *
 * Loaded only after the environment points at the local stack.
 */
import { Agent, request } from "node:http";
import { pathToFileURL } from "node:url";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { ROOT } from "../../infra/local/services.js";
import { type Caller, callerFrom } from "../../shared/caller.js";
import { db } from "../../shared/clients.js";
import { createCohort, createInstitution } from "../../shared/institutions/service.js";
import { createInvitation } from "../../shared/invitations/issue.js";
import { listSecurityEvents } from "../../shared/security-events/service.js";
import { keys } from "../../shared/tables.js";
import { type ApiEvent, apiEvent, type Claims, context, type EventSpec } from "./apigw.js";
import { seedEvents, spreadSeeds } from "./events-growth.js";
import { type Row, verdict } from "./report.js";
import { fmtMs, fmtRatio, median, ms, now, percentile } from "./stats.js";

export const PAIRS = 300;
/** Untimed calls of every target before any is measured: the gateway's handlers load and its code gets hot. */
const WARMUP = 100;
/** The budget for single-read endpoints, in bare GetItems. */
export const SINGLE_READ_RATIO = 2;

interface Target {
  readonly name: string;
  readonly handler: string;
  readonly spec: Omit<EventSpec, "claims" | "method">;
  /** The single-read endpoints. */
  readonly singleRead: boolean;
}

type Handler = (event: ApiEvent, ctx: ReturnType<typeof context>) => Promise<APIGatewayProxyStructuredResultV2>;

interface Captured {
  readonly Command: new (input: never) => unknown;
  readonly input: unknown;
  /** Commands of one group were in flight together (alerts' COUNT Queries): replayed together. */
  readonly group: number;
}

export interface GatewayResult {
  readonly name: string;
  readonly singleRead: boolean;
  readonly requests: string[];
  readonly e2e: { p50: number; p99: number };
  readonly bare: { p50: number; p99: number };
  readonly own: { p50: number; p99: number };
  /** e2e p50 / bare GetItem p50. */
  readonly ratio: number;
  /** The budget for the e2e p50, in ms. */
  readonly budgetMs: number;
}

function httpGet(agent: Agent, url: URL, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: "GET", headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.on("data", () => {});
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function prepare(reader: Caller): Promise<{ institution: string; event: string }> {
  let institution = "";
  for (let k = 0; k < 5; k++) {
    const { institution: i } = await createInstitution(reader, {
      institution: {
        name: `Gateway College ${k}`,
        registration_number: `GW-${reader.id.slice(0, 8)}-${k}`,
        contact_email: "office@gw.example",
      },
    });
    institution ||= i.id;
  }
  for (const name of ["Spring 2027", "Autumn 2027", "Spring 2028"]) await createCohort(reader, institution, { cohort: { name } });
  for (let k = 0; k < 3; k++) {
    await createInvitation(
      reader,
      {},
      { institution_id: institution, email: `gw-invitee-${k}-${reader.id.slice(0, 8)}@bench.test`, role: "cohort_admin" },
    );
  }
  await seedEvents(spreadSeeds(reader.accountId, 80, Date.now(), 60 * 60 * 1000));
  // Counted events of all three types every 10 s over the last 70 minutes: the alerts' window always starts in a
  // minute with counted events, so every call makes the same requests (the counter Query and 3 COUNT Queries).
  const end = Date.now();
  const counted = ["unauthorized_institution_access", "rate_limit_exceeded", "token_validation_failure"] as const;
  await seedEvents(
    Array.from({ length: 420 * 3 }, (_, i) => ({
      caller: reader,
      event: { type: counted[i % 3] as (typeof counted)[number], details: { n: i } },
      at: new Date(end - Math.floor(i / 3) * 10_000),
    })),
  );
  const { events } = await listSecurityEvents(reader, { limit: "1" });
  return { institution, event: events[0]?.id ?? "" };
}

/** The DocumentClient commands one in-process call of the handler sends, in order. */
async function capture(t: Target, claims: Claims): Promise<Captured[]> {
  const handler = ((await import(pathToFileURL(`${ROOT}functions/${t.handler}.ts`).href)) as { handler: Handler }).handler;
  const captured: Captured[] = [];
  const own = Object.hasOwn(db, "send");
  const original = db.send;
  let inFlight = 0;
  let group = -1;
  db.send = ((command: { constructor: Captured["Command"]; input: unknown }, ...rest: unknown[]) => {
    if (inFlight++ === 0) group++;
    captured.push({ Command: command.constructor, input: structuredClone(command.input), group });
    return (original as (...a: unknown[]) => Promise<unknown>).call(db, command, ...rest).finally(() => inFlight--);
  }) as unknown as typeof db.send;
  try {
    const res = await handler(apiEvent({ method: "GET", ...t.spec, claims }), context(t.handler));
    if (res.statusCode !== 200) throw new Error(`${t.name}: ${res.statusCode}`);
  } finally {
    if (own) db.send = original;
    else delete (db as { send?: unknown }).send;
  }
  return captured;
}

export async function measureGateway(
  stack: { apiUrl: string; dynamodbEndpoint: string; region: string; tables: { main: string } },
  reader: { token: string; claims: Claims },
  opts: { pairs?: number; log?: (s: string) => void } = {},
): Promise<GatewayResult[]> {
  const caller = callerFrom(apiEvent({ method: "GET", route: "/", claims: reader.claims }));
  const { institution, event } = await prepare(caller);
  const targets: Target[] = [
    { name: "GET /api/v1/institutions", handler: "institutions/list", spec: { route: "/api/v1/institutions" }, singleRead: true },
    {
      name: "GET /api/v1/institutions/{id}",
      handler: "institutions/show",
      spec: { route: "/api/v1/institutions/{id}", id: institution },
      singleRead: true,
    },
    {
      name: "GET /api/v1/institutions/{id}/cohorts",
      handler: "cohorts/list",
      spec: { route: "/api/v1/institutions/{id}/cohorts", id: institution },
      singleRead: false,
    },
    {
      name: "GET /api/v1/admin/invitations",
      handler: "invitations/list",
      spec: { route: "/api/v1/admin/invitations", query: { institution_id: institution } },
      singleRead: false,
    },
    {
      name: "GET /api/v1/admin/security_events",
      handler: "security-events/list",
      spec: { route: "/api/v1/admin/security_events" },
      singleRead: false,
    },
    {
      name: "GET /api/v1/admin/security_events/{id}",
      handler: "security-events/show",
      spec: { route: "/api/v1/admin/security_events/{id}", id: event },
      singleRead: true,
    },
    {
      name: "GET /api/v1/admin/security_events/alerts",
      handler: "security-events/alerts",
      spec: { route: "/api/v1/admin/security_events/alerts" },
      singleRead: false,
    },
  ];

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const bareClient = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.dynamodbEndpoint,
      region: stack.region,
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
    }),
  );
  const bareGet = new GetCommand({ TableName: stack.tables.main, Key: keys.institution(institution), ConsistentRead: true });
  const bare = async () => {
    const t0 = now();
    const out = await bareClient.send(bareGet);
    if (!out.Item) throw new Error("bare GetItem found nothing");
    return ms(now() - t0);
  };
  const pairs = opts.pairs ?? PAIRS;
  const results: GatewayResult[] = [];
  try {
    const runs = [];
    for (const t of targets) {
      const commands = await capture(t, reader.claims);
      const groups: Captured[][] = [];
      for (const c of commands) {
        const g = groups[c.group] ?? [];
        g.push(c);
        groups[c.group] = g;
      }
      const url = new URL(t.spec.route.replace("{id}", t.spec.id ?? ""), stack.apiUrl);
      for (const [k, v] of Object.entries(t.spec.query ?? {})) url.searchParams.set(k, v);
      runs.push({
        t,
        commands,
        e2e: async () => {
          const t0 = now();
          const status = await httpGet(agent, url, reader.token);
          if (status !== 200) throw new Error(`${t.name}: ${status}`);
          return ms(now() - t0);
        },
        own: async () => {
          const t0 = now();
          for (const g of groups) await Promise.all(g.map((c) => bareClient.send(new c.Command(c.input as never) as never)));
          return ms(now() - t0);
        },
      });
    }
    for (let i = 0; i < WARMUP; i++) {
      await bare();
      for (const r of runs) {
        await r.own();
        await r.e2e();
      }
    }
    for (const r of runs) {
      const b: number[] = [];
      const o: number[] = [];
      const e: number[] = [];
      for (let i = 0; i < pairs; i++) {
        b.push(await bare());
        o.push(await r.own());
        e.push(await r.e2e());
      }
      const bareP50 = median(b);
      const ownP50 = median(o);
      const res: GatewayResult = {
        name: r.t.name,
        singleRead: r.t.singleRead,
        requests: r.commands.map((c) => c.Command.name.replace(/Command$/, "")),
        e2e: { p50: median(e), p99: percentile(e, 0.99) },
        bare: { p50: bareP50, p99: percentile(b, 0.99) },
        own: { p50: ownP50, p99: percentile(o, 0.99) },
        ratio: median(e) / bareP50,
        budgetMs: r.t.singleRead ? SINGLE_READ_RATIO * bareP50 : ownP50 + bareP50,
      };
      opts.log?.(
        `  ${r.t.name.padEnd(44)} e2e p50 ${fmtMs(res.e2e.p50)}  GetItem ${fmtMs(bareP50)} (${fmtRatio(res.ratio)})  own requests ${fmtMs(ownP50)}`,
      );
      results.push(res);
    }
  } finally {
    agent.destroy();
    bareClient.destroy();
  }
  return results;
}

export function gatewayRows(results: readonly GatewayResult[]): Row[] {
  return results.map((r) => ({
    section: 3,
    endpoint: r.name,
    figure: "e2e p50 / p99",
    value: `${fmtMs(r.e2e.p50)} / ${fmtMs(r.e2e.p99)} (${fmtRatio(r.ratio)})`,
    floor: r.singleRead
      ? `GetItem ${fmtMs(r.bare.p50)} / ${fmtMs(r.bare.p99)}`
      : `GetItem ${fmtMs(r.bare.p50)}; own ${fmtMs(r.own.p50)} / ${fmtMs(r.own.p99)}`,
    budget: r.singleRead ? `p50 ≤ ${SINGLE_READ_RATIO}× GetItem` : "p50 ≤ own + GetItem*",
    verdict: verdict(r.e2e.p50 <= r.budgetMs),
    data: { ...r },
    ...(!r.singleRead && {
      note: `* not a single read (${r.requests.join(" + ")}): the same allowance as the single reads' 2×, one bare GetItem for gateway and handler, on top of its own requests replayed bare (budget ${fmtMs(r.budgetMs)}).`,
    }),
  }));
}
