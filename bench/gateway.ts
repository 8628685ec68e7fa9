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
import { Api, bareGetItem, createdId, inProcessGateway, newUser, type User } from "./harness.js";
import { fmtMs, fmtRatio, median, percentile, type Row, verdict } from "./report.js";

/** Budget: an endpoint's p50 at most this many bare GetItem p50s. */
export const GATEWAY_RATIO = 2;
/**
 * Budget: a person's read through the gateway that plays the edge's key choice and the machines' API
 * (docs/api-keys.md) at most this many times the same read through one without them, in the same rounds: within
 * the noise.
 */
export const KEYS_RATIO = 1.15;
export const ROUNDS = 300;
const WARMUP_ROUNDS = 30;

const INST = "/api/v1/institutions";
const SEC = "/api/v1/admin/security_events";

interface Target {
  readonly name: string;
  readonly path: string;
  /** Another gateway than the stack's: the people's API before keys, or after, in this process. */
  readonly api?: Api;
  /** Another credential than the reader's token: an institution API key. */
  readonly token?: string;
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

/** The names of the before-and-after rows (`keysRows`). */
const BEFORE_KEYS = `GET ${INST}/{id} (in-process, before keys)`;
const AFTER_KEYS = `GET ${INST}/{id} (in-process, with keys)`;
const BY_KEY = `GET ${INST}/{id} (in-process, an API key)`;

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
  // A person's read, through two gateways in this process: one as the people's API was before institution API keys
  // (no edge choice, no machines' API), one as it is; and a key's read through the machines' API.
  const [before, after] = await Promise.all([inProcessGateway(stack, { machines: false }), inProcessGateway(stack)]);
  const beforeApi = new Api(before.url);
  const afterApi = new Api(after.url);
  const made = await api.json(
    "POST",
    `${INST}/${institution}/api_keys`,
    { token: reader.token, body: { name: `bench ${run}`, scopes: ["institution:read"] } },
    201,
  );
  const key = String(made.key);
  targets.push(
    { name: BEFORE_KEYS, path: `${INST}/${institution}`, api: beforeApi },
    { name: AFTER_KEYS, path: `${INST}/${institution}`, api: afterApi },
    { name: BY_KEY, path: `${INST}/${institution}`, api: afterApi, token: key },
  );
  const floor = bareGetItem(stack, keys.institution(institution));
  const rounds = opts.rounds ?? ROUNDS;
  const getItem: number[] = [];
  const times = targets.map(() => [] as number[]);
  try {
    for (let r = 0; r < WARMUP_ROUNDS + rounds; r++) {
      for (const [i, t] of targets.entries()) {
        const g = await floor.time();
        const res = await (t.api ?? api).send("GET", t.path, { token: t.token ?? reader.token });
        if (res.status !== 200) throw new Error(`${t.name}: ${res.status} ${res.text.slice(0, 200)}`);
        if (r < WARMUP_ROUNDS) continue;
        getItem.push(g);
        (times[i] as number[]).push(res.ms);
      }
    }
  } finally {
    floor.close();
    api.close();
    beforeApi.close();
    afterApi.close();
    await Promise.all([before.close(), after.close()]);
  }
  const endpoints = targets.map((t, i) => {
    const e = times[i] as number[];
    opts.log(`  ${t.name.padEnd(44)} p50 ${fmtMs(median(e))}  (GetItem ${fmtMs(median(getItem))})`);
    return { name: t.name, p50: median(e), p99: percentile(e, 0.99) };
  });
  return { getItem: { p50: median(getItem), p99: percentile(getItem, 0.99) }, endpoints, rounds };
}

export function gatewayRows(r: GatewayResults): Row[] {
  return [...endpointRows(r), ...keysRows(r)];
}

/** A person's read with the machines' API played beside it, against the same read before it: the same rounds, interleaved. */
function keysRows(r: GatewayResults): Row[] {
  const before = r.endpoints.find((e) => e.name === BEFORE_KEYS);
  const after = r.endpoints.find((e) => e.name === AFTER_KEYS);
  if (!before || !after) return [];
  const ratio = after.p50 / before.p50;
  return [
    {
      measure: "gateway",
      subject: `people's read with keys / before keys`,
      figure: "p50 ratio",
      value: `${fmtMs(after.p50)} / ${fmtMs(before.p50)} (${fmtRatio(ratio)})`,
      floor: `before keys ${fmtMs(before.p50)} / ${fmtMs(before.p99)}`,
      budget: `≤ ${KEYS_RATIO}× (the noise)`,
      verdict: verdict(ratio <= KEYS_RATIO),
      data: { before, after, ratio, rounds: r.rounds },
    },
  ];
}

function endpointRows(r: GatewayResults): Row[] {
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
