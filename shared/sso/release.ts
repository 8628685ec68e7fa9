/**
 * An institution's SSO connection, released when the institution is deleted (shared/institutions/deletion.ts), as
 * the connection's own DELETE releases it: under the connection's lease, the pool first, then the table. Here the
 * pool's side is split around the table's change so that each step can be undone or finished:
 * 1. the provider taken off the console app client's list (nobody starts a sign-in through it any more), which
 *    can be undone by listing it again;
 * 2. the table's change (`remove`: the institution and everything beside it, the connection's items among them,
 *    conditioned on the lease), in one transaction; when it is refused or fails, step 1 is undone and the lease
 *    given back;
 * 3. the provider deleted from the pool. It comes last because a deleted provider cannot be made again (the OIDC
 *    client secret is kept nowhere else); if this call fails, the provider stays unlisted and unknown to the
 *    triggers (its `SSOPROVIDER#` item is gone), so nobody signs in through it, and the log names it.
 * Its own module, so that only the deletion's bundle carries the Cognito client (docs/cold-starts.md).
 */
import { randomUUID } from "node:crypto";
import { now as clock } from "../clock.js";
import { Conflict, ValidationFailed } from "../errors.js";
import { logger } from "../telemetry.js";
import { type Connection, LEASE_MS } from "./model.js";
import { deleteProvider, listOnClient, PoolRefused } from "./pool.js";
import * as repo from "./repository.js";

/** The connection as leased for the deletion, and its lease's owner. */
export interface HeldConnection {
  readonly connection: Connection;
  readonly owner: string;
}

const BUSY = "The SSO connection is being changed, please retry";

/** Runs `remove` with the connection (if any) leased and its provider unlisted; see the module's comment. */
export async function withConnectionReleased<R extends { readonly kind: string }>(
  connection: Connection | undefined,
  remove: (held: HeldConnection | undefined) => Promise<R>,
): Promise<R> {
  if (!connection) return remove(undefined);
  const nowMs = clock().getTime();
  const owner = randomUUID();
  if (repo.leased(connection, nowMs) || (await repo.lease(connection, owner, nowMs, LEASE_MS)).kind !== "ok") throw new Conflict(BUSY);
  const held: Connection = { ...connection, lease_owner: owner, version: connection.version + 1 };
  const name = connection.provider_name;
  const giveBack = () => repo.release(held, owner);
  try {
    await listOnClient(name, false);
  } catch (err) {
    await giveBack();
    throw err instanceof PoolRefused ? new ValidationFailed([err.message]) : err;
  }
  const undo = async () => {
    await listOnClient(name, true).catch((err: unknown) =>
      logger.warn("SSO provider not listed again", { provider_name: name, error: err as Error }),
    );
    await giveBack();
  };
  let result: R;
  try {
    result = await remove({ connection: held, owner });
  } catch (err) {
    await undo();
    throw err;
  }
  if (result.kind !== "ok") {
    await undo();
    return result;
  }
  await deleteProvider(name).catch((err: unknown) =>
    logger.warn("SSO provider left unlisted in the pool: delete it by hand", { provider_name: name, error: err as Error }),
  );
  return result;
}
