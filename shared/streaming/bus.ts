/**
 * Puts events on the EventBridge custom bus (docs/events-out.md): `source: institution-admin`, `detail-type:
 * <event_type>`, `detail: <the event as show returns it>`; the account is the entry's resource. Only the
 * stream consumer imports this module, so only its bundle holds the EventBridge client. Without a bus (the
 * local stack) nothing is put. `EVENTBRIDGE_ENDPOINT` points the client elsewhere (there is no local
 * EventBridge: the test of this module answers PutEvents itself).
 */

import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from "@aws-sdk/client-eventbridge";
import type { StoredEvent } from "../audit.js";
import { localCredentials, observe } from "../aws.js";
import { config } from "../config.js";
import { showBody } from "../security-events/service.js";
import { readSettings, STREAM } from "../settings.js";
import { EVENT_SOURCE } from "./source.js";

const { EVENT_BUS_NAME: busName, EVENTBRIDGE_ENDPOINT: endpoint } = readSettings(STREAM(), ["EVENT_BUS_NAME", "EVENTBRIDGE_ENDPOINT"]);
const eventBridge = observe(new EventBridgeClient({ region: config.region, endpoint, ...localCredentials(endpoint) }));

/** PutEvents takes at most 10 entries. */
const BATCH = 10;

export function busEntry(e: StoredEvent, bus: string): PutEventsRequestEntry {
  return {
    EventBusName: bus,
    Source: EVENT_SOURCE,
    DetailType: e.event_type,
    Detail: JSON.stringify(showBody(e)),
    Time: new Date(e.created_at),
    Resources: [`institution-admin:account/${e.account_id}`],
  };
}

/** Puts every event; throws if any entry failed, so that the stream's batch is retried (at least once). */
export async function publish(events: readonly StoredEvent[]): Promise<void> {
  if (!busName || events.length === 0) return;
  for (let i = 0; i < events.length; i += BATCH) {
    const entries = events.slice(i, i + BATCH).map((e) => busEntry(e, busName));
    const out = await eventBridge.send(new PutEventsCommand({ Entries: entries }));
    if ((out.FailedEntryCount ?? 0) > 0) throw new Error(`EventBridge refused ${out.FailedEntryCount} of ${entries.length} events`);
  }
}
