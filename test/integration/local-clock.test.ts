/**
 * The local clock (docs/local-stack.md#moving-the-clock-for-one-request): `x-local-clock-offset` moves the domain's clock only on a stack started for
 * tests (`clockHeader`, which the test run's global setup sets). A stack started as `npm start` starts it
 * (infra/local/start.ts: no `clockHeader`) answers a request carrying the header with 400 and runs nothing, so
 * nobody on it can date events in another account's trail or step past a time bound.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalStack, startLocalStack } from "../../infra/local/stack.js";
import { CLOCK_OFFSET_HEADER } from "../../shared/clock.js";
import { stack } from "../support/api.js";
import { OPENAPI } from "../support/flows.js";

const dataDir = mkdtempSync(join(tmpdir(), "npm-start-"));
let started: LocalStack | undefined;

// A whole second stack (DynamoDB Local, cognito-local, SES, S3, the gateway) with npm start's options.
beforeAll(async () => {
  started = await startLocalStack({ dataDir, persistent: false });
}, 240_000);
afterAll(async () => {
  await started?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const get = (base: string, headers: Record<string, string> = {}) => fetch(`${base}${OPENAPI}`, { headers });

describe("x-local-clock-offset", () => {
  it("on a stack started as npm start starts it: 400, the request not run; the same request without it is served", async () => {
    const base = (started as LocalStack).apiUrl;
    const moved = await get(base, { [CLOCK_OFFSET_HEADER]: String(30 * 86_400_000) });
    expect(moved.status).toBe(400);
    expect(((await moved.json()) as { message: string }).message).toMatch(/only by a local stack started for tests/);
    expect((await get(base)).status).toBe(200);
  });

  it("on the test run's stack: honoured", async () => {
    expect((await get(stack.apiUrl, { [CLOCK_OFFSET_HEADER]: "1000" })).status).toBe(200);
    // Still checked there: not a number of milliseconds is 400.
    expect((await get(stack.apiUrl, { [CLOCK_OFFSET_HEADER]: "soon" })).status).toBe(400);
  });
});
