/**
 * A DNS server on loopback (dns2), for verified domains (docs/sso.md): `npm start` and the test run point the
 * functions at it (`DNS_RESOLVERS`). It answers from a small JSON file, read at each query, so that
 * `npm run dns` (dns.ts) publishes to a running server by writing the file, and `.local/dns.json` outlives a
 * restart. The test run keeps its own file and publishes through the control server (test/support/control.ts).
 *
 * A name with records answers its TXT records; a name set to fail answers SERVFAIL (the tests'); any other
 * name NXDOMAIN. Only what was published: it forwards nothing.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import dns2 from "dns2";
import * as v from "valibot";
import { LOCAL_DIR } from "./stack.js";

const { Packet } = dns2;

/** `npm start`'s records (`npm run dns`). */
export const DNS_FILE = join(LOCAL_DIR, "dns.json");

/** `npm start`'s port for it when free (`DNS_PORT` picks another, which must be free). */
export const DEFAULT_DNS_PORT = 5300;

const Entry = v.object({ txt: v.array(v.string()), servfail: v.optional(v.boolean()) });
export type DnsEntry = v.InferOutput<typeof Entry>;
const Records = v.record(v.string(), Entry);

/** `Example.EDU.` and `example.edu` are one name. */
export const dnsName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, "");

/** The records of `file` by name (none when it does not exist); a Map, so that no name reaches a prototype. */
export function readRecords(file: string): Map<string, DnsEntry> {
  if (!existsSync(file)) return new Map();
  const parsed = v.safeParse(Records, JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not {"<name>": {"txt": ["<value>", …]}}: ${v.summarize(parsed.issues)}`);
  return new Map(Object.entries(parsed.output));
}

/** Replaces `file` at once (write, then rename), so a query never reads half of it. */
export function writeRecords(file: string, records: ReadonlyMap<string, DnsEntry>): void {
  const sorted = Object.fromEntries([...records].sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(`${file}.tmp`, `${JSON.stringify(sorted, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** A TXT string holds at most 255 bytes: a longer value goes in several, which a resolver joins (shared/domains/dns.ts). */
function strings(value: string): Buffer[] {
  const bytes = Buffer.from(value, "utf8");
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 255) parts.push(bytes.subarray(i, i + 255));
  return parts.length > 0 ? parts : [bytes];
}

export interface LocalDns {
  /** `127.0.0.1:<port>`, as `DNS_RESOLVERS` takes it. */
  readonly address: string;
  readonly port: number;
  /** Publishes `entry.txt` as the TXT records of `name` (empty: the name exists with none), or makes its lookups fail. */
  set(name: string, entry: { txt?: readonly string[]; servfail?: boolean }): void;
  /** TXT lookups of `name` since the start. */
  queries(name: string): number;
  close(): Promise<void>;
}

type Server = ReturnType<typeof dns2.createUDPServer>;

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.bind(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Serves `file` on 127.0.0.1:`port` (UDP; 0: any free port). With `orFree`, a port in use is replaced by a
 * free one, as `npm start` does for its other services (services.ts `portOr`).
 */
export async function startLocalDns(opts: { file: string; port?: number; orFree?: boolean }): Promise<LocalDns> {
  const counts = new Map<string, number>();
  const handler: Parameters<typeof dns2.createUDPServer>[0] = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = dnsName(question?.name ?? "");
    if (question?.type === Packet.TYPE.TXT) counts.set(name, (counts.get(name) ?? 0) + 1);
    let entry: DnsEntry | undefined;
    try {
      entry = readRecords(opts.file).get(name);
    } catch (err) {
      console.error(`[dns] ${(err as Error).message}`);
      entry = { txt: [], servfail: true };
    }
    if (!entry) response.header.rcode = Packet.RCODE.NXDOMAIN;
    else if (entry.servfail) response.header.rcode = Packet.RCODE.SERVFAIL;
    else if (question?.type === Packet.TYPE.TXT) {
      for (const value of entry.txt) {
        // The record as the encoder reads it (the typings also ask for a toBuffer it never calls).
        const answer = { name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 0, data: strings(value) };
        response.answers.push(answer as unknown as (typeof response.answers)[number]);
      }
    }
    void send(response);
  };
  let server = dns2.createUDPServer(handler);
  try {
    await listen(server, opts.port ?? 0);
  } catch (err) {
    if (!opts.orFree || (err as NodeJS.ErrnoException).code !== "EADDRINUSE") {
      throw new Error(`the DNS server cannot listen on 127.0.0.1:${opts.port}: ${(err as Error).message}`);
    }
    server = dns2.createUDPServer(handler);
    await listen(server, 0);
  }
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    port,
    set: (name, entry) => {
      const records = readRecords(opts.file);
      records.set(dnsName(name), { txt: [...(entry.txt ?? [])], ...(entry.servfail && { servfail: true }) });
      writeRecords(opts.file, records);
    },
    queries: (name) => counts.get(dnsName(name)) ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
