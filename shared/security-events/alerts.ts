/**
 * The alert window and rules, pure. The window [now − 1 h, now] is summed from the per-minute counters
 * that `audit.ts` writes in the same transaction as each counted event. Only the minute the window starts
 * in is partial; it is made exact with raw events of the shorter side of that minute (at most 30 s of
 * them): either the counter minus the events before `from`, or the events from `from` on instead of the
 * counter. So the cost is one counter Query of at most 61 items plus at most 30 s of one type's events per
 * counted type, whatever the number of events in the hour.
 */
import { COUNTED_TYPES, type CountedType } from "../audit.js";
import type { Iso } from "./schema.js";

export const ALERT_WINDOW_MS = 60 * 60 * 1000;

const MINUTE_MS = 60_000;

export interface AlertRule {
  readonly type: "unauthorized_access" | "rate_limit" | "token_failures";
  readonly severity: "high" | "medium";
  readonly eventType: CountedType;
  /** The entry is present when the count is at least this. */
  readonly threshold: number;
}

export const ALERT_RULES: readonly AlertRule[] = [
  { type: "unauthorized_access", severity: "high", eventType: "unauthorized_institution_access", threshold: 5 },
  { type: "rate_limit", severity: "medium", eventType: "rate_limit_exceeded", threshold: 10 },
  { type: "token_failures", severity: "high", eventType: "token_validation_failure", threshold: 20 },
];

/** The counter sort key of the minute holding `ms`: `YYYY-MM-DDTHH:MM`, as `audit.ts` writes it. */
export const minuteOf = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

/** What to read for the window ending at `now`. */
export interface AlertPlan {
  readonly from: Iso;
  readonly to: Iso;
  /** Counter minutes to read, inclusive; `firstMinute` is the (partial) minute `from` falls in. */
  readonly firstMinute: string;
  readonly lastMinute: string;
  /**
   * The correction for the partial first minute, absent when `from` is on a minute boundary: the raw
   * events in [from, to] of each type are added (sign 1, and the first minute's counter is not summed) or
   * subtracted (sign −1, the counter is summed).
   */
  readonly edge?: { readonly sign: 1 | -1; readonly from: Iso; readonly to: Iso };
}

/** The reads that give the exact counts of the window ending at `now`. */
export function planWindow(now: Date): AlertPlan {
  const toMs = now.getTime();
  const fromMs = toMs - ALERT_WINDOW_MS;
  const minuteStart = Math.floor(fromMs / MINUTE_MS) * MINUTE_MS;
  const offset = fromMs - minuteStart;
  const iso = (ms: number) => new Date(ms).toISOString();
  const plan = { from: iso(fromMs), to: iso(toMs), firstMinute: minuteOf(minuteStart), lastMinute: minuteOf(toMs) };
  if (offset === 0) return plan;
  // Early in its minute: keep that minute's counter, take away the events before `from`.
  if (offset <= MINUTE_MS / 2) return { ...plan, edge: { sign: -1, from: iso(minuteStart), to: iso(fromMs - 1) } };
  // Late in its minute: instead of that minute's counter, the events from `from` to the minute's end.
  return { ...plan, edge: { sign: 1, from: iso(fromMs), to: iso(minuteStart + MINUTE_MS - 1) } };
}

export type Summary = Record<CountedType, number>;

/** A summary with every counted type present, at zero. */
export const emptySummary = (): Summary => Object.fromEntries(COUNTED_TYPES.map((t) => [t, 0])) as Summary;

/** The alert entries the summary reaches, in the rules' order. */
export function alertsFor(summary: Summary): { type: AlertRule["type"]; severity: AlertRule["severity"]; count: number }[] {
  return ALERT_RULES.filter((r) => summary[r.eventType] >= r.threshold).map((r) => ({
    type: r.type,
    severity: r.severity,
    count: summary[r.eventType],
  }));
}
