/**
 * The export worker (docs/contract/exports.md): reads the export's events page by page, newest first, and streams them
 * into a multipart upload, so its memory does not grow with the number of rows.
 */

import { MetricUnit } from "@aws-lambda-powertools/metrics";
import { isEventType, type StoredEvent } from "../audit.js";
import { now as clock } from "../clock.js";
import { METRIC } from "../observability.js";
import { CSV_HEADER, eventLine, exportFilename } from "../security-events/csv.js";
import type { EventFilter } from "../security-events/repository.js";
import { retainedFrom, showBody } from "../security-events/service.js";
import { logger, metrics } from "../telemetry.js";
import type { ExportJob } from "./dispatch.js";
import { EXPORT_MESSAGES } from "./model.js";
import type { ExportRecord } from "./repository.js";
import * as repo from "./repository.js";
import type { ExportFormat } from "./schema.js";
import { ExportFile } from "./upload.js";

/** Events per Query: few requests, one page in memory. */
const PAGE = 1_000;
/** The record shows the rows written so far after this many more. */
const PROGRESS_EVERY = 10_000;

const failedEnd = (rows: number, now = clock()) => ({
  status: "failed" as const,
  rows,
  completedAt: now.toISOString(),
  reason: EXPORT_MESSAGES.failed,
});

/** The run's peak memory as an EMF metric (operations), not in the export's record, which is the customer's. */
function publishPeakRss(rssPeak: number): void {
  metrics.addMetric(METRIC.exportWorkerPeakRss, MetricUnit.Bytes, rssPeak);
  // No middleware around the worker's handler flushes the metrics: publish them here.
  metrics.publishStoredMetrics();
}

/** One exported record: a CSV line (docs/contract/README.md's, guarded) or a JSON line of the event as `GET /security_events/:id` shows it. */
export function exportLine(format: ExportFormat, e: StoredEvent): string {
  return format === "csv" ? eventLine(e) : `${JSON.stringify(showBody(e))}\n`;
}

/** The filter of the worker's Query; `undefined` when nothing can match (an unknown type, an over-long user id). */
function eventFilter(r: ExportRecord, now: Date): EventFilter | undefined {
  const from = retainedFrom(r.filters.from ?? undefined, now);
  const { event_type: type, user_id: userId, to } = r.filters;
  if (type !== null && !isEventType(type)) return undefined;
  if (userId !== null && Buffer.byteLength(userId) > 512) return undefined;
  if (to !== null && to < from) return undefined;
  return {
    account: r.account_id,
    type: type ?? undefined,
    userId: userId ?? undefined,
    userEmail: r.filters.user_email,
    from,
    to: to ?? undefined,
  };
}

/**
 * The worker: reads the export's events page by page, newest first, and writes them into a multipart upload
 * (waiting when the upload is behind, so at most a page and two part buffers are in memory), then marks the export
 * succeeded with its row count, or failed. A run of an export that is no longer running does nothing, so a
 * repeated invocation is harmless.
 */
export async function runExport(job: ExportJob, now = clock): Promise<void> {
  const r = await repo.getExport(job.account, job.id);
  if (r?.status !== "running") return;
  const rssStart = process.memoryUsage.rss();
  let rssPeak = rssStart;
  let rows = 0;
  const ext = r.format === "csv" ? "csv" : "jsonl";
  const filename = exportFilename(new Date(r.created_at)).replace(/\.csv$/, `.${ext}`);
  const file = new ExportFile(r.object_key, {
    contentType: r.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    filename,
  });
  try {
    if (r.format === "csv") await file.write(CSV_HEADER);
    const filter = eventFilter(r, new Date(r.created_at));
    let reported = 0;
    if (filter) {
      for await (const page of repo.exportPages(filter, PAGE)) {
        await file.write(page.map((e) => exportLine(r.format, e)).join(""));
        rows += page.length;
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
        if (rows - reported >= PROGRESS_EVERY) {
          reported = rows;
          await repo.noteProgress(r.account_id, r.id, rows);
        }
      }
    }
    await file.end();
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    await repo.finishExport(r.account_id, r.id, { status: "succeeded", rows, completedAt: now().toISOString() });
    logger.info("export written", { export_id: r.id, rows, rss_start_bytes: rssStart, rss_peak_bytes: rssPeak });
    publishPeakRss(rssPeak);
  } catch (err) {
    logger.error("export failed", { export_id: r.id, error: err as Error });
    await file
      .abort()
      .catch((abortErr: unknown) => logger.warn("export upload not aborted", { export_id: r.id, error: abortErr as Error }));
    await repo.finishExport(r.account_id, r.id, failedEnd(rows, now()));
    publishPeakRss(rssPeak);
  }
}
