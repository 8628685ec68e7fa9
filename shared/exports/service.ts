/**
 * Full exports of the trail (DESIGN.md §11), in the contract's check order: cohort-super-admin status (403)
 * → body (400) → the running-export bound (429) → the export recorded with its event in one transaction →
 * the worker started. The worker writes the file to S3 as it reads, one page at a time, so its memory does
 * not grow with the number of rows.
 */
import { PassThrough } from "node:stream";
import { auditEvent, isEventType, type StoredEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { Forbidden, messages, NotFound, TooManyRequests } from "../errors.js";
import type { ApiResponse } from "../http.js";
import { isId, newId } from "../ids.js";
import { RETRY, withRetries } from "../retry.js";
import { CSV_HEADER, eventLine, exportFilename } from "../security-events/csv.js";
import type { EventFilter } from "../security-events/repository.js";
import { retainedFrom, showBody } from "../security-events/service.js";
import { keyPart } from "../tables.js";
import { logger } from "../telemetry.js";
import { exportConfig } from "./config.js";
import { dispatchExport, type ExportJob } from "./dispatch.js";
import type { ExportFilters, ExportRecord } from "./repository.js";
import * as repo from "./repository.js";
import { type ExportFormat, parseExportRequest } from "./schema.js";
import { downloadUrl, uploadStream } from "./storage.js";

export const EXPORT_MESSAGES = {
  notFound: "Export not found",
  tooMany: "Too many exports running, try again later",
  failed: "The export failed",
  timedOut: "The export did not finish in time",
} as const;

/** Events per Query: few requests, one page in memory. */
const PAGE = 1_000;
/** The record shows the rows written so far after this many more. */
const PROGRESS_EVERY = 10_000;

function requireSuperAdmin(caller: Caller): void {
  if (!caller.isCohortSuperAdmin) throw new Forbidden(messages.superAdminRequired);
}

/** What the API shows of an export; the link only for a finished one. */
async function view(r: ExportRecord, now: Date) {
  const timedOut = r.status === "running" && r.lease_until < now.getTime();
  const status = timedOut ? "failed" : r.status;
  const base = {
    id: r.id,
    status,
    format: r.format,
    filters: r.filters,
    created_at: r.created_at,
    row_count: r.row_count,
    completed_at: r.completed_at ?? null,
  };
  if (status === "failed") return { ...base, reason: timedOut ? EXPORT_MESSAGES.timedOut : (r.reason ?? EXPORT_MESSAGES.failed) };
  if (status !== "succeeded") return base;
  return {
    ...base,
    download_url: await downloadUrl(r.object_key),
    expires_at: new Date(now.getTime() + exportConfig.linkSeconds * 1000).toISOString(),
    file_expires_at: new Date(Date.parse(r.completed_at ?? r.created_at) + exportConfig.fileDays * 86_400_000).toISOString(),
  };
}

/**
 * `POST /security_events/exports`: records a running export of the caller's account's events matching the
 * filters, with its `security_events_exported` event, and starts the worker. 429 with `Retry-After` while the
 * account already runs `exportConfig.slots` exports.
 */
export async function startExport(caller: Caller, body: unknown, now = new Date()): Promise<ApiResponse> {
  requireSuperAdmin(caller);
  const q = parseExportRequest(body);
  const filters: ExportFilters = { event_type: q.event_type ?? null, user_id: q.user_id ?? null, from: q.from ?? null, to: q.to ?? null };
  const id = newId(now.getTime());
  const leaseUntil = now.getTime() + exportConfig.leaseSeconds * 1000;
  const record: ExportRecord = {
    id,
    account_id: caller.accountId,
    status: "running",
    format: q.format,
    filters,
    created_at: now.toISOString(),
    created_by: caller.id,
    row_count: 0,
    lease_until: leaseUntil,
    object_key: `exports/${encodeURIComponent(keyPart(caller.accountId))}/${id}.${q.format}`,
    ttl: Math.floor(now.getTime() / 1000) + exportConfig.fileDays * 86_400 + 86_400,
  };
  const event = auditEvent(caller, "security_events_exported", { export_id: id, format: q.format, filters }, { now });

  await withRetries("Export could not be started, please retry", async () => {
    const taken = await repo.slots(caller.accountId);
    const busy = new Map(taken.filter((s) => s.exportId !== undefined && s.leaseUntil >= now.getTime()).map((s) => [s.n, s]));
    const free = Array.from({ length: exportConfig.slots }, (_, n) => n).find((n) => !busy.has(n));
    if (free === undefined) {
      // The running exports most likely end well before their lease: a client polls again within a minute.
      const soonest = Math.min(...[...busy.values()].map((s) => s.leaseUntil));
      throw new TooManyRequests(EXPORT_MESSAGES.tooMany, Math.min(60, (soonest - now.getTime()) / 1000));
    }
    const result = await repo.createExport(record, free, event, now.getTime());
    return result === "ok" ? undefined : RETRY;
  });
  try {
    await dispatchExport({ account: caller.accountId, id });
  } catch (err) {
    await repo.finishExport(caller.accountId, id, failedEnd(0, 0, 0, now));
    throw err;
  }
  return { status: 202, body: { export: await view(record, now) } };
}

/** `GET /security_events/exports/:id`: status, rows, and for a finished export a download link valid 15 minutes. */
export async function showExport(caller: Caller, id: string | undefined, now = new Date()) {
  requireSuperAdmin(caller);
  const r = isId(id) ? await repo.getExport(caller.accountId, id) : undefined;
  if (!r) throw new NotFound(EXPORT_MESSAGES.notFound);
  return { export: await view(r, now) };
}

const failedEnd = (rows: number, rssStart: number, rssPeak: number, now = new Date()) => ({
  status: "failed" as const,
  rows,
  completedAt: now.toISOString(),
  reason: EXPORT_MESSAGES.failed,
  rssStart,
  rssPeak,
});

/** One exported record: a CSV line (§3's, guarded) or a JSON line of the event as `GET /security_events/:id` shows it. */
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
  return { account: r.account_id, type: type ?? undefined, userId: userId ?? undefined, from, to: to ?? undefined };
}

/**
 * The worker: reads the export's events page by page, newest first, and streams them into a multipart upload
 * (waiting when the upload is behind, so at most a page and two parts are in memory), then marks the export
 * succeeded with its row count, or failed. A run of an export that is no longer running does nothing, so a
 * repeated invocation is harmless.
 */
export async function runExport(job: ExportJob, now = () => new Date()): Promise<void> {
  const r = await repo.getExport(job.account, job.id);
  if (r?.status !== "running") return;
  const rssStart = process.memoryUsage.rss();
  let rssPeak = rssStart;
  let rows = 0;
  const body = new PassThrough();
  const ext = r.format === "csv" ? "csv" : "jsonl";
  const filename = exportFilename(new Date(r.created_at)).replace(/\.csv$/, `.${ext}`);
  const uploaded = uploadStream(r.object_key, body, {
    contentType: r.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    filename,
  });
  // The upload's failure surfaces when it is awaited; until then writes would wait on a stream nobody reads.
  let uploadFailed: unknown;
  uploaded.catch((err: unknown) => {
    uploadFailed = err;
    body.destroy();
  });
  const write = async (text: string) => {
    if (uploadFailed) throw uploadFailed;
    if (!body.write(text))
      await new Promise<void>((resolve, reject) => {
        body.once("drain", resolve);
        body.once("close", () => reject(uploadFailed ?? new Error("upload stream closed")));
      });
  };
  try {
    if (r.format === "csv") await write(CSV_HEADER);
    const filter = eventFilter(r, new Date(r.created_at));
    let reported = 0;
    if (filter) {
      for await (const page of repo.exportPages(filter, PAGE)) {
        await write(page.map((e) => exportLine(r.format, e)).join(""));
        rows += page.length;
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
        if (rows - reported >= PROGRESS_EVERY) {
          reported = rows;
          await repo.noteProgress(r.account_id, r.id, rows, rssPeak);
        }
      }
    }
    body.end();
    await uploaded;
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    await repo.finishExport(r.account_id, r.id, { status: "succeeded", rows, completedAt: now().toISOString(), rssStart, rssPeak });
    logger.info("export written", { export_id: r.id, rows, rss_start_bytes: rssStart, rss_peak_bytes: rssPeak });
  } catch (err) {
    body.destroy();
    logger.error("export failed", { export_id: r.id, error: err as Error });
    await repo.finishExport(r.account_id, r.id, failedEnd(rows, rssStart, rssPeak, now()));
  }
}
