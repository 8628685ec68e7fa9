/**
 * Webhook isolation (docs/events-out.md): a healthy receiver's delivery latency alone, and beside another
 * account's receiver that answers in 5 s. Its own local stack with the gateway's workers (the stream
 * consumer and the retrier, which the other measures leave out). Latency: from sending the request that
 * records an event (an institution created) to its delivery arriving at the receiver. Budget: with the slow
 * neighbour, the healthy p50 within 2× of its p50 alone.
 */
import { join } from "node:path";
import { MEASUREMENT_BOUNDS } from "../infra/local/env.js";
import { startLocalStack } from "../infra/local/stack.js";
import { receiver } from "../test/support/webhook-receiver.js";
import { Api, newUser } from "./harness.js";
import { fmtMs, median, type Row, verdict } from "./report.js";

/** The healthy receiver's p50 beside a slow one, at most this many times its p50 alone. */
export const WEBHOOK_ISOLATION_FACTOR = 2;
const SLOW_MS = 5_000;
const INST = "/api/v1/institutions";
const HOOKS = "/api/v1/admin/webhooks";
/** Between two measured events, so that the measured stretch spans several of the slow receiver's answers. */
const GAP_MS = 500;

export interface WebhookFigures {
  readonly alone: number[];
  readonly withSlow: number[];
  readonly slowDeliveries: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measureWebhooks(dataDir: string, opts: { rounds?: number; log: (s: string) => void }): Promise<WebhookFigures> {
  const rounds = opts.rounds ?? 15;
  const stack = await startLocalStack({ dataDir, persistent: false, tablePrefix: "benchwh", handlerEnv: { ...MEASUREMENT_BOUNDS } });
  const api = new Api(stack.apiUrl);
  const [healthy, slow] = await Promise.all([receiver(0), receiver(0, { delayMs: SLOW_MS })]);
  try {
    const run = Date.now().toString(36);
    const [healthyUser, slowUser] = await Promise.all([
      newUser(stack, `healthy-${run}@bench.test`, `acct-healthy-${run}`),
      newUser(stack, `slow-${run}@bench.test`, `acct-slow-${run}`),
    ]);
    await api.json("POST", HOOKS, { token: healthyUser.token, body: { webhook: { url: healthy.url } } }, 201);
    await api.json("POST", HOOKS, { token: slowUser.token, body: { webhook: { url: slow.url } } }, 201);

    /** One event in the healthy account: ms from sending its request to its delivery's arrival. */
    const once = async (i: number): Promise<number> => {
      const before = healthy.received.length;
      const t0 = Date.now();
      await api.json("POST", INST, { token: healthyUser.token, body: { institution: { name: `Healthy ${run} ${i}` } } }, 201);
      const deadline = t0 + 60_000;
      while (healthy.received.length <= before) {
        if (Date.now() > deadline) throw new Error("no delivery to the healthy receiver within 60 s");
        await sleep(5);
      }
      return (healthy.received[before]?.arrivedAt ?? Date.now()) - t0;
    };

    opts.log(`webhooks: ${rounds} deliveries to the healthy receiver alone`);
    const alone: number[] = [];
    for (let i = 0; i < rounds; i++) {
      alone.push(await once(i));
      await sleep(GAP_MS);
    }

    opts.log(`webhooks: ${rounds} more while another account's receiver answers every delivery in ${SLOW_MS / 1000} s`);
    let neighbourBusy = true;
    const neighbour = (async () => {
      for (let i = 0; neighbourBusy; i++) {
        await api.json("POST", INST, { token: slowUser.token, body: { institution: { name: `Slow ${run} ${i}` } } }, 201);
        await sleep(300);
      }
    })();
    // The neighbour's first delivery takes its 5 s wherever it goes: measure from when its receiver is busy.
    while (slow.received.length === 0) await sleep(20);
    const withSlow: number[] = [];
    try {
      for (let i = 0; i < rounds; i++) {
        withSlow.push(await once(rounds + i));
        await sleep(GAP_MS);
      }
    } finally {
      neighbourBusy = false;
      await neighbour;
    }
    return { alone, withSlow, slowDeliveries: slow.received.length };
  } finally {
    api.close();
    await Promise.all([healthy.close(), slow.close()]);
    await stack.stop();
  }
}

export function webhookRows(f: WebhookFigures): Row[] {
  const alone = median(f.alone);
  const withSlow = median(f.withSlow);
  return [
    {
      measure: "webhooks",
      subject: "healthy receiver",
      figure: `p50 delivery latency beside a receiver answering in ${SLOW_MS / 1000} s (${f.slowDeliveries} slow deliveries)`,
      value: `${fmtMs(withSlow)} (${(withSlow / alone).toFixed(2)}×)`,
      floor: `${fmtMs(alone)} alone`,
      budget: `≤ ${WEBHOOK_ISOLATION_FACTOR}× alone`,
      verdict: verdict(withSlow <= WEBHOOK_ISOLATION_FACTOR * alone),
      data: { alone: f.alone, withSlow: f.withSlow },
    },
  ];
}

export const webhooksDataDir = (dataDir: string) => join(dataDir, "webhooks");
