/** Full exports as a client uses them: start, poll until done, download the file from its link. */
import { expect } from "vitest";
import type { operations } from "../../shared/openapi/api-types.js";
import { paths } from "../../shared/routes.js";
import { apiClient, ok } from "./client.js";

export const EXPORTS = `${paths.securityEvents}/exports`;

type Start = operations["startSecurityEventExport"]["requestBody"] extends { content: { "application/json": infer B } } ? B : never;
type Shown = operations["showSecurityEventExport"]["responses"][200]["content"]["application/json"]["export"];

export interface Finished {
  /** The export as the API shows it once it no longer runs. */
  readonly export: Shown;
  readonly file: string;
}

/** Polls the export until it is no longer running (at most `timeoutMs`), then downloads its file if it succeeded. */
export async function awaitExport(token: string, id: string, timeoutMs = 180_000): Promise<Finished> {
  const api = apiClient(token);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const e = ok(await api.GET(`${paths.securityEvents}/exports/{id}`, { params: { path: { id } } })).export;
    if (e.status !== "running") {
      if (e.status !== "succeeded") return { export: e, file: "" };
      expect(e.download_url).toEqual(expect.any(String));
      const file = await fetch(String(e.download_url));
      expect(file.status).toBe(200);
      return { export: e, file: await file.text() };
    }
    if (Date.now() > deadline) throw new Error(`export ${id} still running after ${timeoutMs} ms (${e.row_count} rows)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts an export (202) and waits for it. */
export async function runExport(token: string, body: Start, timeoutMs?: number): Promise<Finished> {
  const started = ok(await apiClient(token).POST(`${paths.securityEvents}/exports`, { body }), 202).export;
  expect(started.status).toBe("running");
  return awaitExport(token, started.id, timeoutMs);
}
