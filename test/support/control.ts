/**
 * The control server of the test run, living in the global-setup process that owns the stack. Test workers
 * cannot reach the stack's child processes, so they ask here:
 *
 * - `POST /control/{dynamodb|ses}/{stop|start|pause|resume}` → 204 once done (for fault tests);
 * - `POST /control/lock/{shared|exclusive}` → 200 once granted; the lock is held for as long as the
 *   response stays open and released when the client closes it (or its process dies). Every test file
 *   holds the shared lock (setup-env.ts); files under `test/fault/` take the exclusive one, so a fault
 *   test never stops DynamoDB under another file's feet. Writers go first: once an exclusive request
 *   waits, new shared requests queue behind it.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LocalDns } from "../../infra/local/dns-server.js";
import type { ControllableService, LocalStack } from "../../infra/local/stack.js";

interface Waiter {
  readonly exclusive: boolean;
  readonly res: ServerResponse;
}

export interface ControlServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startControlServer(stack: LocalStack, dns?: LocalDns): Promise<ControlServer> {
  const services: Record<string, ControllableService> = { dynamodb: stack.dynamodb, ses: stack.ses };
  let readers = 0;
  let writer = false;
  const queue: Waiter[] = [];

  const grant = (w: Waiter) => {
    if (w.exclusive) writer = true;
    else readers++;
    w.res.writeHead(200, { "content-type": "text/plain" });
    w.res.write("granted\n"); // flushes the headers: the client's fetch resolves now, the body never ends
    w.res.once("close", () => {
      if (w.exclusive) writer = false;
      else readers--;
      pump();
    });
  };
  const pump = () => {
    while (queue.length > 0) {
      const next = queue[0] as Waiter;
      if (writer || (next.exclusive && readers > 0)) return;
      queue.shift();
      grant(next);
      if (next.exclusive) return;
    }
  };

  const server = createServer((req, res) => {
    req.resume();
    const lock = /^\/control\/lock\/(shared|exclusive)$/.exec(req.url ?? "");
    if (req.method === "POST" && lock) {
      const waiter: Waiter = { exclusive: lock[1] === "exclusive", res };
      queue.push(waiter);
      // Gave up while waiting (timeout, dead worker): leave the queue.
      res.once("close", () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        pump();
      });
      pump();
      return;
    }
    // The run's DNS server (infra/local/dns-server.ts): PUT a name's records `{txt?, servfail?}`, GET its lookup count.
    const dnsName = /^\/control\/dns\/([^/?]+)$/.exec(req.url ?? "");
    if (dns && dnsName) {
      const name = decodeURIComponent(dnsName[1] as string);
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ queries: dns.queries(name) }));
        return;
      }
      let text = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => {
        text += c;
      });
      req.on("end", () => {
        dns.set(name, JSON.parse(text || "{}") as { txt?: string[]; servfail?: boolean });
        res.writeHead(204).end();
      });
      return;
    }
    const m = /^\/control\/(dynamodb|ses)\/(stop|start|pause|resume)$/.exec(req.url ?? "");
    const service = m ? services[m[1] as string] : undefined;
    if (req.method !== "POST" || !m || !service) {
      res.writeHead(404).end();
      return;
    }
    const action = m[2] as "stop" | "start" | "pause" | "resume";
    Promise.resolve(service[action]()).then(
      () => res.writeHead(204).end(),
      (err: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(String((err as Error).stack ?? err)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
