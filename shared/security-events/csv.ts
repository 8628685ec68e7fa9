/**
 * CSV of the export: RFC 4180 (comma separator, CRLF line ends, cells with a comma, quote, CR or LF in
 * double quotes with quotes doubled), UTF-8, and the CSV-injection guard: a cell a spreadsheet would read
 * as a formula (starting with `= + - @`, tab or CR) is prefixed with `'`.
 */
import type { StoredEvent } from "../audit.js";

export const CSV_COLUMNS = ["id", "event_type", "created_at", "user_id", "user_email", "ip_address", "description", "details"] as const;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: guarded, then quoted if needed. `null`/`undefined` are empty cells. */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** One record, with its CRLF. */
export function csvLine(values: readonly (string | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

export const CSV_HEADER = csvLine(CSV_COLUMNS);

/** Objects with their keys sorted: DynamoDB keeps no order in a map, and the same event should always export alike. */
const sortedKeys = (_key: string, value: unknown) =>
  value !== null && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/** The export record of one event, in `CSV_COLUMNS` order; `details` as JSON text with sorted keys. */
export function eventLine(
  e: Pick<StoredEvent, "id" | "event_type" | "created_at" | "user_id" | "user_email" | "ip_address" | "description" | "details">,
): string {
  return csvLine([
    e.id,
    e.event_type,
    e.created_at,
    e.user_id,
    e.user_email,
    e.ip_address,
    e.description,
    JSON.stringify(e.details ?? {}, sortedKeys),
  ]);
}

/** `security_events_<YYYYMMDD_HHMMSS>.csv`, in UTC. */
export function exportFilename(now: Date): string {
  const iso = now.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return `security_events_${iso.slice(0, 10).replace(/-/g, "")}_${iso.slice(11, 19).replace(/:/g, "")}.csv`;
}
