/**
 * `npm run digest`: runs the digester of the running local stack at once, for every ended period within the
 * retention that has no digest yet (the timer of `npm start` does the same just after each period ends).
 */
import { readFileSync } from "node:fs";
import { localHandlerEnv } from "./env.js";
import { STACK_FILE, type StackInfo } from "./stack.js";

async function main(): Promise<void> {
  const info = JSON.parse(readFileSync(STACK_FILE, "utf8")) as StackInfo;
  Object.assign(process.env, localHandlerEnv(info));
  // Imported after the environment is in place: shared/config.ts reads it at import.
  const { runDigester } = await import("../../shared/trail/digester.js");
  const { localSignerFromEnv } = await import("../../shared/trail/local-signer.js");
  const { retainedSince } = await import("../../shared/config.js");
  const now = new Date();
  const written = await runDigester({ now, signer: localSignerFromEnv(), from: retainedSince(now) });
  for (const d of written) console.log(`${d.account_id} #${d.sequence} ${d.period_start} … ${d.period_end}: ${d.event_count} event(s)`);
  console.log(`${written.length} digest(s) written`);
}

main().catch((err: unknown) => {
  console.error(`npm run digest failed: ${err instanceof Error ? err.message : String(err)}`);
  console.error(`(is the local stack running? ${STACK_FILE})`);
  process.exit(1);
});
