/** Full exports as a client uses them: start, poll until done, download the file from its link. */
import { expect } from "vitest";
import { paths } from "../../shared/routes.js";
import { call } from "./api.js";

export const EXPORTS = `${paths.securityEvents}/exports`;

export interface Finished {
  // biome-ignore lint/suspicious/noExplicitAny: the export as the API shows it (validated by the contract check).
  readonly export: any;
  readonly file: string;
}

/** Polls the export until it is no longer running (at most `timeoutMs`), then downloads its file if it succeeded. */
export async function awaitExport(token: string, id: string, timeoutMs = 180_000): Promise<Finished> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call("GET", `${EXPORTS}/${id}`, { token });
    expect(res.status, res.text).toBe(200);
    const e = res.body.export;
    if (e.status !== "running") {
      if (e.status !== "succeeded") return { export: e, file: "" };
      const file = await fetch(e.download_url);
      expect(file.status).toBe(200);
      return { export: e, file: await file.text() };
    }
    if (Date.now() > deadline) throw new Error(`export ${id} still running after ${timeoutMs} ms (${e.row_count} rows)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts an export (202) and waits for it. */
export async function runExport(token: string, body: Record<string, unknown>, timeoutMs?: number): Promise<Finished> {
  const res = await call("POST", EXPORTS, { token, body });
  expect(res.status, res.text).toBe(202);
  expect(res.body.export.status).toBe("running");
  return awaitExport(token, res.body.export.id, timeoutMs);
}
