/**
 * One POST of a delivery, through the SSRF guard (guard.ts): the URL is checked as written, and the socket
 * connects only to an address the guarded lookup checked, so DNS cannot move it inside between the check and
 * the connection. node:http(s) rather than fetch: their `lookup` option is the connection's own resolution.
 * Redirects are not followed (a 3xx is a failed attempt); keep-alive agents reuse a receiver's connection.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { type GuardOptions, guardedLookup, RefusedDestination, urlRefusal } from "./guard.js";

export interface PostOptions extends GuardOptions {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly timeoutMs: number;
  /** The connection's resolver (tests: a name that resolves where they choose). */
  readonly lookup?: LookupFunction;
}

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
const lookups = { loopback: guardedLookup({ allowLoopback: true }), public: guardedLookup({ allowLoopback: false }) };
const defaultLookup = (opts: GuardOptions) => (opts.allowLoopback ? lookups.loopback : lookups.public);

const MAX_DRAINED_BYTES = 64 * 1024;

/** A request that did not answer within the timeout. */
export class DeliveryTimeout extends Error {
  override readonly name = "TimeoutError";
}

/**
 * POSTs `body` to `url` and resolves with the answer's status (its body is discarded); rejects with
 * RefusedDestination when the guard refuses the URL or the address, DeliveryTimeout past `timeoutMs`, or the
 * connection's error.
 */
export function post(url: string, opts: PostOptions): Promise<number> {
  const refused = urlRefusal(url, opts);
  if (refused !== undefined) return Promise.reject(new RefusedDestination(refused));
  const signal = AbortSignal.timeout(opts.timeoutMs);
  return send(new URL(url), opts, signal, true);
}

function send(target: URL, opts: PostOptions, signal: AbortSignal, mayRetry: boolean): Promise<number> {
  const https = target.protocol === "https:";
  return new Promise<number>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      target,
      {
        method: "POST",
        headers: { ...opts.headers, "content-length": String(Buffer.byteLength(opts.body)) },
        // A test's own resolver gets sockets of its own: a pooled one was connected through another lookup.
        agent: opts.lookup ? false : https ? agents.https : agents.http,
        lookup: opts.lookup ?? defaultLookup(opts),
        signal,
      },
      (res) => {
        // A short answer is drained so its connection serves the next delivery; a long or unsized one is cut.
        const length = Number(res.headers["content-length"]);
        if (Number.isInteger(length) && length <= MAX_DRAINED_BYTES) res.resume();
        else res.destroy();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (signal.aborted) return reject(new DeliveryTimeout(`No answer within ${opts.timeoutMs} ms`));
      // A kept-alive connection the receiver closed meanwhile (a Lambda frozen between invocations): once more
      // on a new one, within the same timeout, rather than a failed attempt the receiver never saw.
      if (mayRetry && req.reusedSocket && err.code === "ECONNRESET") return resolve(send(target, opts, signal, false));
      reject(err);
    });
    req.end(opts.body);
  });
}
