/**
 * End to end through the local gateway: the endpoints that read one item, or a short list in one request,
 * each called over HTTP on loopback with a real token
 * (the gateway verifies it, builds the payload 2.0 event, runs the handler against DynamoDB Local), as a
 * browser would, against a bare GetItem from this process to the same DynamoDB Local. Rounds interleave
 * them: a GetItem, then an endpoint, for every endpoint, round after round, so that a slow stretch of the
 * shared machine slows floor and endpoints alike. The other reads do more in DynamoDB than a GetItem (a
 * lookup and a Query, a page of 50 events, the alerts' counter and edge Queries): their requests are the
 * requests measure's, their growth the growth measure's.
 */
import type { LocalStack } from "../infra/local/stack.js";
import { keys } from "../shared/tables.js";
import { seedEvents, spreadSeeds } from "../test/support/seed-events.js";
import { Api, bareGetItem, createdId, newUser, type User } from "./harness.js";
import { fmtMs, fmtRatio, median, percentile, type Row, verdict } from "./report.js";

/** Budget: an endpoint's p50 at most this many bare GetItem p50s. */
export const GATEWAY_RATIO = 2;
export const ROUNDS = 300;
const WARMUP_ROUNDS = 30;

const INST = "/api/v1/institutions";
const SEC = "/api/v1/admin/security_events";

interface Target {
  readonly name: string;
  readonly path: string;
}

export interface GatewayResult {
  readonly name: string;
  readonly p50: number;
  readonly p99: number;
}

export interface GatewayResults {
  readonly getItem: { readonly p50: number; readonly p99: number };
  readonly endpoints: GatewayResult[];
  readonly rounds: number;
}

/** A reader with five institutions and an hour of security events. */
async function prepare(api: Api, reader: User): Promise<{ institution: string; event: string }> {
  const institutions: string[] = [];
  for (let k = 0; k < 5; k++) {
    const body = { institution: { name: `Gateway College ${k}`, contact_email: "office@gw.example" } };
    institutions.push(createdId(await api.json("POST", INST, { token: reader.token, body }, 201), "institution"));
  }
  await seedEvents(spreadSeeds(reader.account, 500, Date.now(), 60 * 60 * 1000));
  const list = await api.json("GET", SEC, { token: reader.token, query: { limit: "1" } }, 200);
  const event = (list.events as { id: string }[] | undefined)?.[0]?.id;
  if (!event) throw new Error("the reader has no events");
  return { institution: institutions[0] as string, event };
}

export async function measureGateway(stack: LocalStack, opts: { rounds?: number; log: (s: string) => void }): Promise<GatewayResults> {
  const api = new Api(stack.apiUrl);
  const run = Date.now().toString(36);
  const reader = await newUser(stack, `gateway-reader-${run}@bench.test`, `acct-gateway-${run}`);
  const { institution, event } = await prepare(api, reader);
  const targets: Target[] = [
    { name: `GET ${INST}`, path: INST },
    { name: `GET ${INST}/{id}`, path: `${INST}/${institution}` },
    { name: `GET ${SEC}/{id}`, path: `${SEC}/${event}` },
  ];
  const floor = bareGetItem(stack, keys.institution(institution));
  const rounds = opts.rounds ?? ROUNDS;
  const getItem: number[] = [];
  const times = targets.map(() => [] as number[]);
  try {
    for (let r = 0; r < WARMUP_ROUNDS + rounds; r++) {
      for (const [i, t] of targets.entries()) {
        const g = await floor.time();
        const res = await api.send("GET", t.path, { token: reader.token });
        if (res.status !== 200) throw new Error(`${t.name}: ${res.status} ${res.text.slice(0, 200)}`);
        if (r < WARMUP_ROUNDS) continue;
        getItem.push(g);
        (times[i] as number[]).push(res.ms);
      }
    }
  } finally {
    floor.close();
    api.close();
  }
  const endpoints = targets.map((t, i) => {
    const e = times[i] as number[];
    opts.log(`  ${t.name.padEnd(44)} p50 ${fmtMs(median(e))}  (GetItem ${fmtMs(median(getItem))})`);
    return { name: t.name, p50: median(e), p99: percentile(e, 0.99) };
  });
  return { getItem: { p50: median(getItem), p99: percentile(getItem, 0.99) }, endpoints, rounds };
}

export function gatewayRows(r: GatewayResults): Row[] {
  return r.endpoints.map((e) => {
    const ratio = e.p50 / r.getItem.p50;
    return {
      measure: "gateway",
      subject: e.name,
      figure: "p50 / p99",
      value: `${fmtMs(e.p50)} / ${fmtMs(e.p99)} (${fmtRatio(ratio)})`,
      floor: `GetItem ${fmtMs(r.getItem.p50)} / ${fmtMs(r.getItem.p99)}`,
      budget: `p50 ≤ ${GATEWAY_RATIO}× GetItem`,
      verdict: verdict(ratio <= GATEWAY_RATIO),
      data: { ...e, ratio, getItem: r.getItem, rounds: r.rounds },
    };
  });
}
