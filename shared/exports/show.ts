/** `GET /security_events/exports/:id` (DESIGN.md §11). */

import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { NotFound } from "../errors.js";
import { isId } from "../ids.js";
import { downloadUrl } from "./link.js";
import { EXPORT_MESSAGES, exportView } from "./model.js";
import * as repo from "./repository.js";

/** `GET /security_events/exports/:id`: status, rows, and for a finished export a download link valid 15 minutes. */
export async function showExport(caller: Caller, id: string | undefined, now = clock()) {
  const r = isId(id) ? await repo.getExport(caller.accountId, id) : undefined;
  if (!r) throw new NotFound(EXPORT_MESSAGES.notFound);
  return { export: await exportView(r, now, downloadUrl) };
}
