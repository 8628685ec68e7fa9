/** A measurement in a process of its own. No imports beyond Node: the bundle bench loads it before the local stack exists. */
import { spawn } from "node:child_process";

/**
 * Runs `node <args>` in a fresh process (a cold start, memory of its own) and resolves with the JSON it prints
 * on stdout; rejects with `what` and the end of its stderr (where Node prints the error) when it exits otherwise.
 */
export function jsonChild<T>(args: readonly string[], env: NodeJS.ProcessEnv, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${what} failed (${code}): ${err.slice(-2000)}`)),
    );
  });
}
