/**
 * The console app client's lock (docs/sso.md): `UpdateUserPoolClient` writes the whole client, so whoever changes
 * it (a connection listing or unlisting its provider, a deployment's update of the client) reads it whole and
 * writes it back whole while holding this lock item (`SSOPOOL` / `CLIENT#<id>`, repository.ts), and nobody's
 * write is lost. A holder that crashed loses it after `LOCK_MS`.
 */
import { randomUUID } from "node:crypto";
import { now as clock } from "../clock.js";
import { BadGateway } from "../errors.js";
import { lockClient, unlockClient } from "./repository.js";

const LOCK_MS = 20_000;
const LOCK_WAIT_MS = 15_000;

/** Runs `fn` holding the lock of the app client `clientId`; waits for it (with jitter) at most `LOCK_WAIT_MS`. */
export async function underClientLock<T>(clientId: string, fn: () => Promise<T>): Promise<T> {
  const owner = randomUUID();
  const start = clock().getTime();
  for (let attempt = 0; ; attempt++) {
    const nowMs = clock().getTime();
    if (await lockClient(clientId, owner, nowMs, nowMs + LOCK_MS)) break;
    if (nowMs - start > LOCK_WAIT_MS) throw new BadGateway("The user pool is busy, please retry");
    await new Promise((r) => setTimeout(r, 20 + Math.random() * Math.min(400, 25 * 2 ** attempt)));
  }
  try {
    return await fn();
  } finally {
    await unlockClient(clientId, owner);
  }
}
