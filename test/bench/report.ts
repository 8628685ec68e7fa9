/** The benchmark's rows: one table on stdout and the same figures as JSON. */

export type Verdict = "within" | "over" | "info";

export interface Row {
  /** 1–6, the section of issue 5's benchmark. */
  readonly section: number;
  readonly endpoint: string;
  readonly figure: string;
  /** Human-readable value and floor, as printed. */
  readonly value: string;
  readonly floor: string;
  readonly budget: string;
  readonly verdict: Verdict;
  /** Raw figures for the JSON. */
  readonly data?: Record<string, unknown>;
  /** A remark printed under the table (design notes, what a figure includes). */
  readonly note?: string;
}

export const SECTIONS: Record<number, string> = {
  1: "DynamoDB requests and consumed capacity per endpoint (in-process handler, DynamoDB Local)",
  2: "Handler overhead: handler time minus time in DynamoDB/SES send(), warm calls, the best of interleaved rounds (counts in the note)",
  3: "End to end through the local gateway vs a bare GetItem, same DynamoDB Local",
  4: "Cold start: bundle size and import time vs a DocumentClient-only reference bundle",
  5: "Growth: 10x the data in the table",
  6: "Export of 10,000 events (bundled function in a child process)",
};

export const verdict = (ok: boolean): Verdict => (ok ? "within" : "over");

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

/** The table: one block per section, columns sized to their content (value and floor capped, then wrapped). */
export function renderTable(rows: readonly Row[]): string {
  const headers = ["endpoint", "figure", "value", "floor", "budget", "verdict"] as const;
  const cells = rows.map((r) => [r.endpoint, r.figure, r.value, r.floor, r.budget, r.verdict]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => pad(v, widths[i] as number))
      .join("  ")
      .trimEnd();
  const rule = "-".repeat(widths.reduce((a, b) => a + b + 2, -2));
  const out: string[] = [line(headers), rule];
  let section = 0;
  rows.forEach((r, i) => {
    if (r.section !== section) {
      section = r.section;
      if (i > 0) out.push("");
      out.push(`[${section}] ${SECTIONS[section] ?? ""}`);
    }
    out.push(line(cells[i] as string[]));
  });
  const notes = rows.filter((r) => r.note);
  if (notes.length > 0) {
    out.push("", "Notes:");
    for (const r of notes) out.push(`  [${r.section}] ${r.endpoint} / ${r.figure}: ${r.note}`);
  }
  return out.join("\n");
}
