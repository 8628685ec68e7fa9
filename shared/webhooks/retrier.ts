/**
 * Due webhook retries (docs/contract/webhooks.md): each run takes the retries that are due off the schedule (one Query,
 * then a conditional delete each, so two runs never attempt one twice) and attempts them again. A scheduled
 * function runs it every minute in AWS; the local gateway every second.
 */

import { now as clock } from "../clock.js";
import { getEvent } from "../security-events/repository.js";
import { logger } from "../telemetry.js";
import { deliver, isEnabled } from "./deliver.js";
import * as repo from "./repository.js";

const BATCH = 100;

/** Attempts every retry due at `now`; returns how many it attempted. */
export async function runDueRetries(now = clock()): Promise<number> {
  let attempted = 0;
  for (;;) {
    const due = await repo.dueRetries(now.toISOString(), BATCH);
    await Promise.all(
      due.map(async (r) => {
        if (!(await repo.takeRetry(r.sk))) return;
        const [w, e] = await Promise.all([repo.getWebhook(r.account_id, r.webhook_id), getEvent(r.event_id, r.account_id)]);
        // A webhook deleted or disabled since, or an event gone past its retention: nothing more to deliver.
        if (!isEnabled(w) || !e) return;
        attempted++;
        await deliver(w, e, clock()).catch((err: unknown) =>
          logger.error("webhook retry failed", { webhook_id: r.webhook_id, event_id: r.event_id, error: err as Error }),
        );
      }),
    );
    if (due.length < BATCH) return attempted;
  }
}
