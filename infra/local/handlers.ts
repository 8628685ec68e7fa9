/**
 * The functions' handler modules, loaded as the local stack runs them in its own process: the gateway's routes
 * and authorizers (gateway.ts), and the pool's triggers behind the local Lambda endpoint (lambda.ts).
 */
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const FUNCTIONS_DIR = fileURLToPath(new URL("../../functions/", import.meta.url));
const loaded = new Map<string, Promise<unknown>>();

/** Imports `functions/<name>.ts` on first use and returns its `handler`; a failed import is retried on the next call. */
export function loadHandler<H>(name: string): Promise<H> {
  let p = loaded.get(name);
  if (!p) {
    p = import(pathToFileURL(join(FUNCTIONS_DIR, `${name}.ts`)).href).then((mod: { handler?: unknown }) => {
      if (typeof mod.handler !== "function") throw new Error(`functions/${name}.ts does not export a function \`handler\``);
      return mod.handler;
    });
    p.catch(() => loaded.delete(name));
    loaded.set(name, p);
  }
  return p as Promise<H>;
}
