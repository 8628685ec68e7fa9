/**
 * The local stand-in for the EventBridge Scheduler schedule of the digest function: runs the same digester
 * just after each period ends (period end + the digester's 10 s grace + 1 s), signing with the local key
 * pair. Imported by the gateway (its environment is the handlers') only when `DIGEST_TIMER` is set.
 */
import { asFunction } from "./function-scope.js";

export function startDigestTimer(log: (line: string) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = async () => {
    const { nextRunAt, runDigester } = await import("../../shared/trail/digester.js");
    const { localSignerFromEnv } = await import("../../shared/trail/local-signer.js");
    const signer = localSignerFromEnv();
    const next = () => {
      if (stopped) return;
      timer = setTimeout(run, Math.max(0, nextRunAt(Date.now()) - Date.now()));
      timer.unref();
    };
    const run = async () => {
      try {
        const written = await asFunction("trail/digest", () => runDigester({ now: new Date(), signer }));
        if (written.length > 0) log(`[digest] ${written.length} digest(s) written`);
      } catch (err) {
        log(`[digest] run failed: ${(err as Error).stack ?? err}`);
      }
      next();
    };
    // A first run at start-up catches up on periods that ended while the stack was stopped.
    await run();
  };
  void schedule().catch((err: unknown) => log(`[digest] timer not started: ${(err as Error).stack ?? err}`));
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
