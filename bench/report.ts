/** The benchmark's one table: rows of every measure, printed on stdout and written as JSON. */
import { writeFileSync } from "node:fs";

export type Verdict = "within" | "over";

/** The measures, in the order they run and are printed. */
export const MEASURES = {
  bundles: "Bundle size and import time of every function vs a DocumentClient-only bundle",
  requests: "DynamoDB requests and consumed capacity per endpoint, counted at the SDK",
  gateway: "End to end through the local gateway vs a bare GetItem, interleaved rounds",
  cold: "A cold request: import to the handler's first answer in a fresh process vs the reference bundle's GetItem, interleaved",
  growth: "Growth: the same reads with 10× the data in the tables",
  export: "Export of 10,000 events: the bundled function vs bare paging, fresh processes",
  exports: "Full exports to S3: the worker's bundle at 10,000 and 100,000 rows, CSV and JSON Lines, fresh processes",
  webhooks: "Webhook isolation: a healthy receiver's delivery latency alone and beside a receiver answering in 5 s",
  console: "Console: first page and its assets",
} as const;

export type Measure = keyof typeof MEASURES;

export interface Row {
  readonly measure: Measure;
  /** The endpoint, function or run the figure is about. */
  readonly subject: string;
  readonly figure: string;
  /** As printed. */
  readonly value: string;
  /** What the value is judged against, measured in the same run. */
  readonly floor: string;
  readonly budget: string;
  readonly verdict: Verdict;
  /** Raw figures, for the JSON only. */
  readonly data?: Record<string, unknown>;
}

export const verdict = (ok: boolean): Verdict => (ok ? "within" : "over");

/** Nearest-rank percentile (q in 0..1); NaN when empty. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] as number;
}

export const median = (values: readonly number[]) => percentile(values, 0.5);

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  return ms < 100 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}

export function fmtBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export const fmtRatio = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : "—");

/** `+12%`, `-3%`, for a ratio new/old. */
export const fmtChange = (r: number) => (Number.isFinite(r) ? `${r >= 1 ? "+" : ""}${((r - 1) * 100).toFixed(0)}%` : "—");

const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length));

/** One table, a heading line per measure, the measures in their order. */
export function renderTable(unordered: readonly Row[]): string {
  const order = Object.keys(MEASURES);
  const rows = [...unordered].sort((a, b) => order.indexOf(a.measure) - order.indexOf(b.measure));
  const headers = ["subject", "figure", "value", "floor", "budget", "verdict"];
  const cells = rows.map((r) => [r.subject, r.figure, r.value, r.floor, r.budget, r.verdict]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => pad(v, widths[i] as number))
      .join("  ")
      .trimEnd();
  const out = [line(headers), "-".repeat(widths.reduce((a, b) => a + b + 2, -2))];
  let measure: Measure | undefined;
  rows.forEach((r, i) => {
    if (r.measure !== measure) {
      measure = r.measure;
      out.push(`[${measure}] ${MEASURES[measure]}`);
    }
    out.push(line(cells[i] as string[]));
  });
  return out.join("\n");
}

export function writeResults(file: string, run: Record<string, unknown>, rows: readonly Row[]): void {
  const over = rows.filter((r) => r.verdict === "over").length;
  const results = { ...run, summary: { rows: rows.length, within: rows.length - over, over }, measures: MEASURES, rows };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
