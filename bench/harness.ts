/**
 * What the measures share: HTTP calls through a gateway, the bare GetItem that latencies are judged
 * against, the count of DynamoDB requests at the SDK, and users with real tokens.
 */
import { Agent, request } from "node:http";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { issueIdToken } from "../infra/local/cognito.js";
import { LOCAL_CREDENTIALS } from "../infra/local/env.js";
import { type Gateway, startGateway } from "../infra/local/gateway.js";
import { freePort } from "../infra/local/services.js";
import type { LocalStack } from "../infra/local/stack.js";

export interface Reply {
  readonly status: number;
  readonly text: string;
  /** From sending the request to the last byte of the answer. */
  readonly ms: number;
}

export interface CallOptions {
  readonly token?: string;
  readonly body?: unknown;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** HTTP calls to one gateway over keep-alive connections, as a browser makes them. */
export class Api {
  private readonly agent = new Agent({ keepAlive: true });

  constructor(readonly url: string) {}

  send(method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const url = new URL(path, this.url);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = {
      ...(opts.token && { authorization: `Bearer ${opts.token}` }),
      ...(body !== undefined && { "content-type": "application/json" }),
      ...opts.headers,
    };
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = request(url, { agent: this.agent, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - t0 }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** A call that must answer `status`; its JSON body. */
  async json(method: string, path: string, opts: CallOptions, status: number): Promise<Record<string, unknown>> {
    const r = await this.send(method, path, opts);
    if (r.status !== status) throw new Error(`${method} ${path}: ${r.status}, expected ${status}: ${r.text.slice(0, 300)}`);
    return JSON.parse(r.text) as Record<string, unknown>;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A user with a real ID token from the local Cognito. */
export interface User {
  readonly token: string;
  readonly id: string;
  readonly email: string;
  readonly account: string;
}

export async function newUser(stack: LocalStack, email: string, account: string, superAdmin = true): Promise<User> {
  const token = await issueIdToken(stack, email, { superAdmin, account, name: email.split("@")[0] ?? "user" });
  const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { sub: string };
  return { token, id: claims.sub, email, account };
}

/** The id of the object a create answered: `{ institution: { id } }`, `{ invitation: { id } }`… */
export function createdId(body: Record<string, unknown>, key: string): string {
  const id = (body[key] as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string") throw new Error(`no ${key}.id in ${JSON.stringify(body).slice(0, 200)}`);
  return id;
}

/** The token of the newest invitation mail to `email`, from the local SES's store. */
export async function mailedToken(sesEndpoint: string, email: string): Promise<string> {
  const res = await fetch(`${sesEndpoint}/store`);
  const { emails } = (await res.json()) as { emails: { destination: { to: string[] }; body: { text?: string } }[] };
  const mail = emails.filter((m) => m.destination.to.some((to) => to.toLowerCase().includes(email.toLowerCase()))).at(-1);
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.body.text ?? "")?.[1];
  if (!token) throw new Error(`no invitation mail to ${email}`);
  return token;
}

/**
 * A strongly consistent GetItem of one item by a plain DocumentClient: the fastest thing an endpoint could
 * do against the same DynamoDB, and the floor the latency measures are judged against.
 */
export function bareGetItem(stack: LocalStack, key: { pk: string; sk: string }): { time(): Promise<number>; close(): void } {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: stack.dynamodbEndpoint, region: stack.region, credentials: LOCAL_CREDENTIALS }),
  );
  const command = new GetCommand({ TableName: stack.tables.main, Key: key, ConsistentRead: true });
  return {
    async time() {
      const t0 = performance.now();
      const out = await client.send(command);
      const ms = performance.now() - t0;
      if (!out.Item) throw new Error("the bare GetItem found nothing");
      return ms;
    },
    close: () => client.destroy(),
  };
}

/**
 * A second gateway inside this process, on the stack's Cognito and DynamoDB: its handlers send through
 * this process's shared/clients.ts, where `RequestMeter` counts. The stack's own gateway runs in a process
 * of its own and serves the latency measures.
 */
export async function inProcessGateway(stack: LocalStack, opts: { machines?: boolean } = {}): Promise<Gateway> {
  const pool = `${stack.cognitoEndpoint}/${stack.userPoolId}`;
  return startGateway({
    port: await freePort(),
    auth: { issuer: pool, audience: stack.userPoolClientId, jwksUrl: `${pool}/.well-known/jwks.json` },
    region: stack.region,
    log: () => {},
    ...opts,
  });
}

/** The DynamoDB requests of one stretch, by command name in the order sent, and their consumed capacity per table. */
export interface Count {
  readonly requests: string[];
  readonly capacity: Record<string, { read: number; write: number }>;
  /** Round trips: requests sent while none was in flight, so requests sent side by side count once. */
  rounds?: number;
}

const READS = new Set(["GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"]);

/**
 * Counts DynamoDB requests with a middleware on the client, and asks for their consumed capacity
 * (`ReturnConsumedCapacity: TOTAL`) while a count is open. Scans are counted over the whole run.
 */
export class RequestMeter {
  scans = 0;
  total = 0;
  private open: Count | undefined;
  private inFlight = 0;
  private readonly name = "bench-request-meter";

  constructor(private readonly client: DynamoDBClient) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName).replace(/Command$/, "");
        this.total++;
        if (command === "Scan") this.scans++;
        const count = this.open;
        if (!count) return next(args);
        count.requests.push(command);
        if (this.inFlight++ === 0) count.rounds = (count.rounds ?? 0) + 1;
        (args.input as Record<string, unknown>).ReturnConsumedCapacity = "TOTAL";
        let out: Awaited<ReturnType<typeof next>>;
        try {
          out = await next(args);
        } finally {
          this.inFlight--;
        }
        type Consumed = { TableName?: string; CapacityUnits?: number };
        const cc = (out.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity;
        for (const c of Array.isArray(cc) ? cc : cc ? [cc] : []) {
          const table = (c.TableName ?? "?").replace(/^.*-(main|events|idempotency)$/, "$1");
          const t = count.capacity[table] ?? { read: 0, write: 0 };
          count.capacity[table] = t;
          if (READS.has(command)) t.read += c.CapacityUnits ?? 0;
          else t.write += c.CapacityUnits ?? 0;
        }
        return out;
      },
      { step: "initialize", name: this.name },
    );
  }

  /** Runs `fn` alone (nothing else may send meanwhile): what it returned, and what it sent. */
  async count<T>(fn: () => Promise<T>): Promise<{ result: T; count: Count }> {
    const count: Count = { requests: [], capacity: {} };
    this.open = count;
    try {
      return { result: await fn(), count };
    } finally {
      this.open = undefined;
    }
  }

  remove(): void {
    this.client.middlewareStack.remove(this.name);
  }
}

/** `GetItem + TransactWriteItems`, `Query×4`: the requests of one call, grouped in order of first use. */
export function describeRequests(requests: readonly string[]): string {
  if (requests.length === 0) return "none";
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => (n > 1 ? `${r}×${n}` : r)).join(" + ");
}

/** `main 0.5 RCU + events 2 WCU`. */
export function describeCapacity(capacity: Count["capacity"]): string {
  const parts: string[] = [];
  for (const [table, c] of Object.entries(capacity)) {
    if (c.read) parts.push(`${table} ${+c.read.toFixed(2)} RCU`);
    if (c.write) parts.push(`${table} ${+c.write.toFixed(2)} WCU`);
  }
  return parts.length > 0 ? parts.join(" + ") : "0";
}
