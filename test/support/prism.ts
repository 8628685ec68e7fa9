/**
 * Prism (`@stoplight/prism-cli`) as a validating proxy in front of the local gateway: every request and
 * response passing through is checked against an OpenAPI document. With `--errors`, a response that breaks
 * the document is replaced by a 500 `application/problem+json` naming the violations, a request that breaks
 * it is answered by Prism itself (422, or 401 without credentials) and never forwarded; either way Prism logs
 * a `Violation:` line or a `Request terminated with error:` line.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { accepts, freePort, Service } from "../../infra/local/services.js";

const prismCli = join(dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");

export interface PrismProxy {
  /** Where to send requests instead of the gateway. */
  readonly url: string;
  /** Its log file (stdout and stderr). */
  readonly logFile: string;
  /** The log so far, bearer tokens masked. */
  log(): string;
  /** The log's lines that report a problem: `Violation:` and `Request terminated with error:`. */
  problems(): string[];
  stop(): Promise<void>;
}

/** What Prism prints when it finds a problem with a request or a response. */
export const PRISM_PROBLEM = /Violation:|Request terminated with error/;

/**
 * Starts `prism proxy <document> <upstream> --errors` on a free port of 127.0.0.1 and resolves once it accepts
 * connections (it listens only after loading the document). `document` is a URL or a file.
 */
export async function startPrism(document: string, upstream: string, logFile: string): Promise<PrismProxy> {
  let lastError: unknown;
  // The free port can be taken between picking and binding it (other processes share the machine): try another.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const service = new Service({
      name: "prism",
      command: process.execPath,
      args: [prismCli, "proxy", document, upstream, "--errors", "--host", "127.0.0.1", "--port", String(port)],
      port,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      output: logFile,
      ready: () => accepts(port),
      readyTimeoutMs: 120_000,
    });
    try {
      await service.start();
    } catch (err) {
      lastError = err;
      if (/EADDRINUSE/.test(String(err))) continue;
      throw err;
    }
    const log = () => readFileSync(logFile, "utf8").replace(/(Bearer\s+)[\w.~+/=-]+/gi, "$1***");
    return {
      url: `http://127.0.0.1:${port}`,
      logFile,
      log,
      problems: () =>
        log()
          .split("\n")
          .filter((line) => PRISM_PROBLEM.test(line)),
      stop: () => service.stop(),
    };
  }
  throw lastError;
}
