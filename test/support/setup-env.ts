/**
 * Runs in every test file before the file itself is imported:
 * - points the shared modules at the local stack (shared/config.ts reads the environment at import, and
 *   throws without MAIN_TABLE), so tests can also read and write DynamoDB directly. Overwritten, never
 *   defaulted: a developer's shell pointing at a real AWS account must not leak into the tests;
 * - holds the run's file lock for the duration of the file: shared for ordinary files, exclusive for files
 *   under `test/fault/`, which stop and start services (see control.ts).
 */
import { afterAll, beforeAll, inject } from "vitest";
import { localHandlerEnv } from "../../infra/local/env.js";
import "./stack-info.js";

const stack = inject("stack");

Object.assign(process.env, localHandlerEnv(stack), {
  // Functions this file runs itself (the digester, a handler) have their AWS requests recorded too (docs/iam.md).
  AWS_REQUEST_LOG: stack.awsRequestLog,
});
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;

/** Files that take services away need the stack to themselves. */
export const EXCLUSIVE_FILES = /[\\/]test[\\/]fault[\\/]/;

const LOCK_WAIT_MS = 15 * 60_000;
let release: AbortController | undefined;
/**
 * The lock response, held for the whole file. Undici cancels the body of a Response that is garbage
 * collected, which closes the connection and so releases the lock: without this reference, a file that
 * makes garbage (seeding 10,000 events) lost its shared lock mid-file, and a fault file stopped DynamoDB
 * under it.
 */
let held: Response | undefined;

// biome-ignore lint/correctness/noEmptyPattern: vitest insists on a destructuring pattern for the (unused) context.
beforeAll(async ({}, suite) => {
  const exclusive = EXCLUSIVE_FILES.test(suite.file.filepath);
  release = new AbortController();
  const res = await fetch(`${stack.controlUrl}/control/lock/${exclusive ? "exclusive" : "shared"}`, {
    method: "POST",
    signal: release.signal,
  });
  if (res.status !== 200) throw new Error(`test lock refused: ${res.status}`);
  // The body stays open while we hold the lock; closing it releases.
  held = res;
}, LOCK_WAIT_MS);

afterAll(async () => {
  release?.abort();
  await held?.body?.cancel().catch(() => {});
  held = undefined;
});
