/**
 * Which function is running, for the local stack's in-process runners (the gateway, the workers, the digest
 * timer, tests that run the digester): in AWS each function is its own process with its own role; here many
 * share one, so the AWS request recorder (aws-requests.ts) learns the function from this scope.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<string>();

/** Runs `fn` as the function of `handler` (`functions/<handler>.ts`, e.g. `institutions/create`). */
export const asFunction = <T>(handler: string, fn: () => T): T => scope.run(handler, fn);

/** The handler whose code is running, if any. */
export const currentFunction = (): string | undefined => scope.getStore();
