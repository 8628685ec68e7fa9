/**
 * What the benchmark counts at the SDK clients (production code is untouched):
 * - every DynamoDB request by command name, and its consumed capacity per table, with a middleware
 *   (`ReturnConsumedCapacity: TOTAL` is set on the command's input by it, only while a measurement is open);
 * - the time spent inside `send()` of the DynamoDB clients (the base client and the DocumentClient) and of
 *   the SES client, by wrapping each instance's `send`: from the call to the settled promise, so it includes
 *   the SDK's own work before its first middleware (resolving the middleware stack) and after its last. It
 *   is the union of the intervals in which at least one send is in flight: a handler that sends two
 *   GetItems in parallel waits once, not twice;
 * - Scans, over the whole run, measured or not.
 */
import { now } from "./stats.js";

type Next = (args: { input: unknown }) => Promise<{ output: unknown }>;

/** The part of an SDK client the meter needs: its middleware stack and `send`. */
export interface MeteredClient {
  send(...args: unknown[]): Promise<unknown>;
  readonly middlewareStack: {
    add(mw: (next: Next, context: { commandName?: string }) => Next, options: { step: "initialize"; priority: "high"; name: string }): void;
    remove(name: string): boolean;
  };
}

/** One measured stretch (usually one handler invocation). */
export interface Measurement {
  /** DynamoDB commands in the order they were sent, without the `Command` suffix. */
  readonly requests: string[];
  /** Consumed capacity units per table name, reads and writes apart. */
  readonly capacity: Record<string, { read: number; write: number }>;
  /** SES commands sent. */
  readonly mail: string[];
  /** Nanoseconds in which a DynamoDB or SES send was in flight. */
  ioNs: bigint;
  /** Nanoseconds in which an SES send was in flight (part of `ioNs`). */
  mailNs: bigint;
  /** With `start({ record: true })`: what each send returned, in the order the sends were made. */
  readonly outputs?: unknown[];
}

const DATA_PLANE = new Set([
  "GetItem",
  "PutItem",
  "UpdateItem",
  "DeleteItem",
  "Query",
  "Scan",
  "BatchGetItem",
  "BatchWriteItem",
  "TransactWriteItems",
  "TransactGetItems",
]);
const READS = new Set(["GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"]);

interface ConsumedCapacity {
  TableName?: string;
  CapacityUnits?: number;
}

const NAME = "bench-meter";

export class Meter {
  /** Scans seen by the DynamoDB client since install, measured or not. */
  scans = 0;
  /** DynamoDB requests seen since install. */
  totalRequests = 0;
  private current: Measurement | undefined;
  private inFlight = 0;
  private mailInFlight = 0;
  private since = 0n;
  private mailSince = 0n;
  /** Called with each SES command input (the benchmark reads invitation tokens out of the mail it sends). */
  onMail: ((input: unknown) => void) | undefined;

  private readonly restore: (() => void)[] = [];
  /** While set, every send answers the next of these recorded outputs instead of going out (see `replay`). */
  private replaying: { outputs: readonly unknown[]; next: number; ns: bigint } | undefined;

  /** `dynamo`: the DynamoDB clients (base and DocumentClient; they share one middleware stack). */
  constructor(dynamo: readonly MeteredClient[], ses?: MeteredClient) {
    const [base] = dynamo;
    if (base) {
      base.middlewareStack.add((next, context) => (args) => this.dynamoSend(next, context, args), {
        step: "initialize",
        priority: "high",
        name: NAME,
      });
      this.restore.push(() => base.middlewareStack.remove(NAME));
    }
    if (ses) {
      ses.middlewareStack.add((next, context) => (args) => this.sesSend(next, context, args), {
        step: "initialize",
        priority: "high",
        name: NAME,
      });
      this.restore.push(() => ses.middlewareStack.remove(NAME));
    }
    for (const client of dynamo) this.wrapSend(client, false);
    if (ses) this.wrapSend(ses, true);
  }

  private wrapSend(client: MeteredClient, mail: boolean): void {
    const own = Object.hasOwn(client, "send");
    const original = client.send;
    client.send = (...args: unknown[]) => {
      const r = this.replaying;
      if (r) {
        const t0 = now();
        const out = r.outputs[r.next++];
        const copy = out === undefined ? {} : structuredClone(out);
        r.ns += now() - t0;
        return Promise.resolve(copy);
      }
      const m = this.current;
      if (!m) return original.apply(client, args);
      this.enter(mail);
      const sent = original.apply(client, args);
      if (m.outputs) {
        const k = m.outputs.push(undefined) - 1;
        sent.then(
          (out) => {
            (m.outputs as unknown[])[k] = structuredClone(out);
          },
          () => {},
        );
      }
      return sent.finally(() => this.leave(m, mail));
    };
    this.restore.push(() => {
      if (own) client.send = original;
      else delete (client as { send?: unknown }).send;
    });
  }

  uninstall(): void {
    for (const r of this.restore.splice(0)) r();
  }

  /**
   * Runs `fn` with every send answering, at once, the next of `outputs` (recorded by `start({ record: true })`),
   * in order: the handler's own work without any I/O wait between its parts. `ns` is the time spent copying
   * the outputs, to subtract.
   */
  async replay<T>(outputs: readonly unknown[], fn: () => Promise<T>): Promise<{ result: T; ns: bigint }> {
    const r = { outputs, next: 0, ns: 0n };
    this.replaying = r;
    try {
      return { result: await fn(), ns: r.ns };
    } finally {
      this.replaying = undefined;
    }
  }

  /** Opens a measurement; everything sent until `stop()` is counted into it. */
  start(opts: { record?: boolean } = {}): Measurement {
    const m: Measurement = { requests: [], capacity: {}, mail: [], ioNs: 0n, mailNs: 0n, ...(opts.record && { outputs: [] }) };
    this.current = m;
    return m;
  }

  stop(): void {
    this.current = undefined;
  }

  /** Runs `fn` inside a fresh measurement. */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; m: Measurement; ns: bigint }> {
    const m = this.start();
    const t0 = now();
    try {
      const result = await fn();
      return { result, m, ns: now() - t0 };
    } finally {
      this.stop();
    }
  }

  private enter(mail: boolean): void {
    if (this.inFlight++ === 0) this.since = now();
    if (mail && this.mailInFlight++ === 0) this.mailSince = now();
  }

  private leave(m: Measurement, mail: boolean): void {
    const t = now();
    if (--this.inFlight === 0) m.ioNs += t - this.since;
    if (mail && --this.mailInFlight === 0) m.mailNs += t - this.mailSince;
  }

  private async dynamoSend(next: Next, context: { commandName?: string }, args: { input: unknown }): Promise<{ output: unknown }> {
    const command = String(context.commandName ?? "?").replace(/Command$/, "");
    this.totalRequests++;
    if (command === "Scan") this.scans++;
    const m = this.current;
    if (!m) return next(args);
    if (DATA_PLANE.has(command)) (args.input as Record<string, unknown>).ReturnConsumedCapacity = "TOTAL";
    m.requests.push(command);
    const out = await next(args);
    const cc = (out.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
    for (const c of Array.isArray(cc) ? cc : cc ? [cc] : []) {
      const table = c.TableName ?? "?";
      const t = m.capacity[table] ?? { read: 0, write: 0 };
      m.capacity[table] = t;
      if (READS.has(command)) t.read += c.CapacityUnits ?? 0;
      else t.write += c.CapacityUnits ?? 0;
    }
    return out;
  }

  private async sesSend(next: Next, context: { commandName?: string }, args: { input: unknown }): Promise<{ output: unknown }> {
    this.onMail?.(args.input);
    const m = this.current;
    if (!m) return next(args);
    m.mail.push(String(context.commandName ?? "?").replace(/Command$/, ""));
    return next(args);
  }
}

/** `GetItem`, `GetItem ×2 + TransactWriteItems`: the requests of one call, grouped in order of first use. */
export function describeRequests(requests: readonly string[]): string {
  if (requests.length === 0) return "none";
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => (n > 1 ? `${r}×${n}` : r)).join(" + ");
}

/** `main 1 RCU`, `main 6 WCU + events 2 WCU`: capacity per table, with the table prefix dropped. */
export function describeCapacity(capacity: Measurement["capacity"]): string {
  const parts: string[] = [];
  for (const [table, c] of Object.entries(capacity)) {
    const short = table.replace(/^.*-(main|events)$/, "$1");
    if (c.read) parts.push(`${short} ${+c.read.toFixed(2)} RCU`);
    if (c.write) parts.push(`${short} ${+c.write.toFixed(2)} WCU`);
  }
  return parts.length > 0 ? parts.join(" + ") : "0";
}

export function totalCapacity(capacity: Measurement["capacity"]): { read: number; write: number } {
  let read = 0;
  let write = 0;
  for (const c of Object.values(capacity)) {
    read += c.read;
    write += c.write;
  }
  return { read, write };
}
