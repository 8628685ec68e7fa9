/**
 * The events table's stream consumer (docs/events-out.md): every newly recorded event (one per account copy) goes
 * to the EventBridge bus and to the enabled webhooks of its account. In AWS a Lambda event source mapping
 * calls it with batches of stream records; locally the gateway's poller reads DynamoDB Local's stream and
 * calls the same handler. A failed delivery is retried on its own schedule (retrier.ts), not by failing the
 * batch; a failed put on the bus fails the batch, which the mapping retries, then sends to the dead-letter queue.
 */

import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { StoredEvent } from "../audit.js";
import { now as clock } from "../clock.js";
import { deliver, isEnabled } from "../webhooks/deliver.js";
import type { WebhookRecord } from "../webhooks/repository.js";
import { listWebhooks, scheduleRetry } from "../webhooks/repository.js";
import { publish } from "./bus.js";

/** A stream record as Lambda and the DynamoDB Streams API both give it. */
export interface StreamRecord {
  readonly eventName?: string | undefined;
  readonly dynamodb?: { readonly NewImage?: Record<string, AttributeValue> | undefined } | undefined;
}

const EVENT_PARTITION = "EVT#";

/** The events among `records`: inserts of event items (not counters, markers or digests). */
export function eventsOf(records: readonly StreamRecord[]): StoredEvent[] {
  const out: StoredEvent[] = [];
  for (const r of records) {
    const image = r.dynamodb?.NewImage;
    if (r.eventName !== "INSERT" || !image) continue;
    const item = unmarshall(image);
    if (typeof item.pk === "string" && item.pk.startsWith(EVENT_PARTITION) && typeof item.event_type === "string") {
      out.push(item as unknown as StoredEvent);
    }
  }
  return out;
}

/**
 * Handles one batch: publishes, then delivers each event to each enabled webhook of its account (in
 * parallel). Receivers are isolated (docs/events-out.md): a receiver noted slow does not get its deliveries
 * from here, where the next batch, every account's, would wait for it; they go on the retry schedule, due
 * at once, as first attempts that the retrier makes (retrier.ts), with the same records and retries.
 */
export async function consume(records: readonly StreamRecord[], now = clock): Promise<void> {
  const events = eventsOf(records);
  if (events.length === 0) return;
  await publish(events);
  const hooks = new Map<string, Promise<WebhookRecord[]>>();
  const hooksOf = (account: string) => {
    let p = hooks.get(account);
    if (!p) {
      p = listWebhooks(account);
      hooks.set(account, p);
    }
    return p;
  };
  await Promise.all(
    events.map(async (e) => {
      const targets = (await hooksOf(e.account_id)).filter(isEnabled);
      await Promise.all(
        targets.map((w) =>
          w.slow_since === undefined
            ? deliver(w, e, now())
            : scheduleRetry(now().toISOString(), { account_id: w.account_id, webhook_id: w.id, event_id: e.id }),
        ),
      );
    }),
  );
}
