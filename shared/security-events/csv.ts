/**
 * CSV of the export: RFC 4180 (comma separator, CRLF line ends, cells with a comma, quote, CR or LF in
 * double quotes with quotes doubled), UTF-8, and the CSV-injection guard: a cell a spreadsheet would read
 * as a formula (starting with `= + - @`, tab or CR) is prefixed with `'`.
 */
import stringify from "safe-stable-stringify";
import type { StoredEvent } from "../audit.js";

export const CSV_COLUMNS = ["id", "event_type", "created_at", "user_id", "user_email", "ip_address", "description", "details"] as const;

/** One cell: guarded, then quoted if needed. `null`/`undefined` are empty cells. */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/**
 * One record, with its CRLF, as one flat string: `join` makes one, where `+=` would leave a tree of
 * pieces that the export holds for every row until the body is joined.
 */
export function csvLine(values: readonly (string | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

export const CSV_HEADER = csvLine(CSV_COLUMNS);

export type ExportedEvent = Pick<StoredEvent, (typeof CSV_COLUMNS)[number]>;

/**
 * The export record of one event, in `CSV_COLUMNS` order; `details` as JSON text with sorted keys,
 * because DynamoDB keeps no order in a map and the same event should always export alike.
 */
export function eventLine(e: ExportedEvent): string {
  return csvLine([e.id, e.event_type, e.created_at, e.user_id, e.user_email, e.ip_address, e.description, stringify(e.details ?? {})]);
}

/** `security_events_<YYYYMMDD_HHMMSS>.csv`, in UTC. */
export function exportFilename(now: Date): string {
  const iso = now.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  return `security_events_${iso.slice(0, 10).replaceAll("-", "")}_${iso.slice(11, 19).replaceAll(":", "")}.csv`;
}
