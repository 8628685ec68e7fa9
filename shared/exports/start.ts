/**
 * `POST /security_events/exports` (docs/contract/exports.md), in the contract's check order: cohort-super-admin status
 * (403) → body (400) → the running-export bound (429) → the export recorded with its event in one transaction
 * → the worker started.
 */
import { auditEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { TooManyRequests } from "../errors.js";
import { newId } from "../ids.js";
import { RETRY, withRetries } from "../retry.js";
import { keyPart } from "../tables.js";
import { recordedText } from "../text.js";
import { exportConfig } from "./config.js";
import { dispatchExport } from "./dispatch.js";
import { EXPORT_MESSAGES, type ExportShown, exportView } from "./model.js";
import type { ExportFilters, ExportRecord } from "./repository.js";
import * as repo from "./repository.js";
import { parseExportRequest } from "./schema.js";

/**
 * `POST /security_events/exports`: records a running export of the caller's account's events matching the
 * filters, with its `security_events_exported` event, and starts the worker. 429 with `Retry-After` while the
 * account already runs `exportConfig.slots` exports.
 */
export async function startExport(caller: Caller, body: unknown, now = clock()): Promise<ExportShown> {
  const q = parseExportRequest(body);
  // Stored and echoed as recorded (docs/security.md): a value that needed cleaning matched no event id or type anyway.
  const recorded = (value: string | undefined) => (value === undefined ? null : recordedText(value));
  const filters: ExportFilters = {
    event_type: recorded(q.event_type),
    user_id: recorded(q.user_id),
    ...(q.user_email !== undefined && { user_email: recordedText(q.user_email) }),
    from: q.from ?? null,
    to: q.to ?? null,
  };
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
    // `slot`: another request took that slot first; the next try reads the slots again.
    return result.kind === "ok" ? undefined : RETRY;
  });
  try {
    await dispatchExport({ account: caller.accountId, id });
  } catch (err) {
    await repo.finishExport(caller.accountId, id, {
      status: "failed",
      rows: 0,
      completedAt: now.toISOString(),
      reason: EXPORT_MESSAGES.failed,
    });
    throw err;
  }
  return { export: await exportView(record, now) };
}
