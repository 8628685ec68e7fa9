/** `GET /security_events/exports/:id` (docs/contract/exports.md). */

import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { NotFound } from "../errors.js";
import { isId } from "../ids.js";
import { EXPORT_MESSAGES, type ExportShown, exportView } from "./model.js";
import * as repo from "./repository.js";

/** `GET /security_events/exports/:id`: status, rows, and for a finished export a download link valid 15 minutes. */
export async function showExport(caller: Caller, id: string | undefined, now = clock()): Promise<ExportShown> {
  const r = isId(id) ? await repo.getExport(caller.accountId, id) : undefined;
  if (!r) throw new NotFound(EXPORT_MESSAGES.notFound);
  return { export: await exportView(r, now, signedLink) };
}

/** The S3 client and presigner are imported for a finished export's link only, not at every cold start. */
const signedLink = async (key: string): Promise<string> => (await import("./link.js")).downloadUrl(key);
