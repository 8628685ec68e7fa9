/** A webhook receiver on this machine (the local stack accepts loopback http URLs), for the tests of deliveries. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly answered: number;
  /** When the request arrived (epoch ms), and when it was answered (set then). */
  readonly arrivedAt: number;
  answeredAt?: number;
}

/**
 * A receiver that answers 500 to its first `failures` requests, then 204; or what `failures()` says each
 * time; after `delayMs` (a slow receiver).
 */
export async function receiver(failures: number | (() => number) = 0, { delayMs = 0 }: { delayMs?: number } = {}) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const answered = typeof failures === "function" ? failures() : received.length < failures ? 500 : 204;
      const r: Received = {
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString("utf8"),
        answered,
        arrivedAt: Date.now(),
      };
      received.push(r);
      setTimeout(() => {
        res.statusCode = answered;
        res.end();
        r.answeredAt = Date.now();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // Deliveries keep their connections alive: close them, or close() waits for the sender to let go.
        server.closeAllConnections();
      }),
  };
}

/** `fn`'s first defined value, polled every 250 ms for at most `timeoutMs`. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
