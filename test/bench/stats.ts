/** Percentiles and formatting for the benchmark. */

/** Nearest-rank percentile (q in 0..1) of `values`; NaN when empty. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] as number;
}

export const median = (values: readonly number[]) => percentile(values, 0.5);

/** Nanoseconds (bigint) to milliseconds (number). */
export const ms = (ns: bigint) => Number(ns) / 1e6;

export const now = () => process.hrtime.bigint();

/** `12.3 ms`, `0.042 ms`: three significant digits, at least three decimals below 1 ms. */
export function fmtMs(value: number): string {
  if (!Number.isFinite(value)) return "—";
  if (value < 1) return `${value.toFixed(3)} ms`;
  if (value < 100) return `${value.toFixed(2)} ms`;
  return `${value.toFixed(0)} ms`;
}

export function fmtBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export const fmtRatio = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : "—");

export { inParallel } from "../support/seed.js";
