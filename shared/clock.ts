/**
 * The one "now" of the domain. Deployed it is the system clock. The local gateway (infra/local/gateway.ts)
 * can run a request with the clock moved (a test's `x-local-clock-offset` header), so tests reach expiry
 * and cooldowns without waiting or rewriting stored data; the offset belongs to that request alone, so
 * requests of other tests on the same stack keep the real time.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const offset = new AsyncLocalStorage<number>();

/** The request header the local gateway reads the offset from, in milliseconds. */
export const CLOCK_OFFSET_HEADER = "x-local-clock-offset";

/** The current time, as the domain sees it. */
export const now = (): Date => new Date(Date.now() + (offset.getStore() ?? 0));

/** Runs `fn` with the domain's clock `ms` ahead (behind when negative). For the local stack only. */
export const withClockOffset = <T>(ms: number, fn: () => T): T => offset.run(ms, fn);
