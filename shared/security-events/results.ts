/** What the security-event use cases return (the API's response bodies; see shared/results.ts). */
import type { CountedType, EventType } from "../constants.js";
import type { PageMeta, Timestamp } from "../results.js";
import type { AlertRule } from "./alerts.js";

export interface ListedEvent {
  id: string;
  event_type: EventType;
  user_email: string | null;
  ip_address: string;
  details: Record<string, unknown>;
  created_at: Timestamp;
  description: string;
}

export interface SecurityEventList {
  events: ListedEvent[];
  meta: PageMeta;
}

/** A type, not an interface: the trail's digests hash it as a plain record (trail/digest.ts `EventBody`). */
export type SecurityEventView = {
  id: string;
  event_type: EventType;
  user: { id: string | null; email: string | null; name: string | null };
  ip_address: string;
  details: Record<string, unknown>;
  created_at: Timestamp;
  description: string;
};

export type AlertCounts = Record<CountedType, number>;

/** The counted types' events in one minute (`YYYY-MM-DDTHH:MM`) of the hour. */
export interface AlertMinute extends AlertCounts {
  minute: string;
}

export interface Alerts {
  summary: AlertCounts;
  alerts: { type: AlertRule["type"]; severity: AlertRule["severity"]; count: number }[];
  time_range: { from: Timestamp; to: Timestamp };
  series: AlertMinute[];
}
