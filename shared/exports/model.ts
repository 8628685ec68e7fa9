import { exportConfig } from "./config.js";
import type { ExportRecord } from "./repository.js";
import type { ExportView } from "./results.js";

export type { ExportShown, ExportView } from "./results.js";

export const EXPORT_MESSAGES = {
  notFound: "Export not found",
  tooMany: "Too many exports running, try again later",
  failed: "The export failed",
  timedOut: "The export did not finish in time",
} as const;

/**
 * What the API shows of an export; `link` signs the download link of a succeeded one (only the show route
 * does, so only its bundle holds the presigner).
 */
export async function exportView(r: ExportRecord, now: Date, link?: (key: string) => Promise<string>): Promise<ExportView> {
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
  if (status !== "succeeded" || !link) return base;
  return {
    ...base,
    download_url: await link(r.object_key),
    expires_at: new Date(now.getTime() + exportConfig.linkSeconds * 1000).toISOString(),
    file_expires_at: new Date(Date.parse(r.completed_at ?? r.created_at) + exportConfig.fileDays * 86_400_000).toISOString(),
  };
}
