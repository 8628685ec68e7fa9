/**
 * The stored form of an instant: ISO 8601 in UTC with milliseconds (`2024-05-01T10:00:00.000Z`), which
 * sorts as text in time order.
 *
 * Memoized for the last instant formatted: a request formats its one `now` in several places (the event,
 * the record, condition values), and each `toISOString` costs microseconds when the CPU's caches are
 * cold after an I/O wait (`npm run bench`, section 2).
 */
let lastMs = Number.NaN;
let lastIso = "";

export function isoTime(date: Date): string {
  const ms = date.getTime();
  // An invalid date (NaN) never equals the memo, so it throws in toISOString as usual.
  if (ms !== lastMs) {
    lastIso = date.toISOString();
    lastMs = ms;
  }
  return lastIso;
}
