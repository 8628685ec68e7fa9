/**
 * Requests of a visitor without a token (the public routes that join from an invitation, docs/joining.md) from a
 * loopback address of its own: the local gateway records the connection's address as the source, and those
 * routes key the probing bound by it, so each test file (and each property run) gets its own bound instead
 * of sharing 127.0.0.1's with every parallel file. Linux routes all of 127.0.0.0/8 to the loopback device.
 */
import { randomInt } from "node:crypto";
import { request } from "node:http";
import { CLOCK_OFFSET_HEADER } from "../../shared/clock.js";
import { type CallResult, stack } from "./api.js";
import { assertConforms } from "./contract.js";

/** A loopback address no other caller of this run is likely to use: 127.x.y.z, not 127.0.0.1. */
export const loopbackAddress = (): string => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export interface VisitOptions {
  /** The source address (default: a fresh one). */
  readonly from?: string;
  readonly body?: unknown;
  /** Sent as is, with content type JSON. */
  readonly rawBody?: string;
  readonly clockOffsetMs?: number;
  /** `false` for an answer the document cannot describe. */
  readonly contract?: false;
}

/** One request without a token from `opts.from`; the answer is checked against the API document. */
export function visit(method: string, path: string, opts: VisitOptions = {}): Promise<CallResult> {
  const url = new URL(path, stack.apiUrl);
  const payload = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  if (opts.clockOffsetMs !== undefined) headers[CLOCK_OFFSET_HEADER] = String(opts.clockOffsetMs);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers, localAddress: opts.from ?? loopbackAddress() },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const responseHeaders: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders[k] = Array.isArray(v) ? v.join(", ") : v;
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: the test sees the text
          }
          const result = { status: res.statusCode ?? 0, headers: responseHeaders, body, text };
          try {
            if (opts.contract !== false) assertConforms(method, url.pathname, result);
            resolve(result);
          } catch (err) {
            reject(err);
          }
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
