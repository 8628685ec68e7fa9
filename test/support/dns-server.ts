/**
 * The test run's DNS server on loopback (dns2), for verified domains (docs/sso.md): the stack's functions
 * resolve through it (`DNS_RESOLVERS`), and tests publish TXT records on it and count the lookups, through the
 * control server (`/control/dns/<name>`, control.ts). It lives in the global-setup process beside the stack.
 *
 * A name with records answers them; a name set to fail answers SERVFAIL; any other name NXDOMAIN.
 */
import type { AddressInfo } from "node:net";
import dns2 from "dns2";

const { Packet } = dns2;

export interface TestDns {
  /** `127.0.0.1:<port>`, as `DNS_RESOLVERS` takes it. */
  readonly address: string;
  /** Publishes `values` as the TXT records of `name` (empty: none), or makes its lookups fail. */
  set(name: string, entry: { txt?: readonly string[]; servfail?: boolean }): void;
  /** TXT lookups of `name` so far. */
  queries(name: string): number;
  close(): Promise<void>;
}

export async function startTestDns(): Promise<TestDns> {
  const records = new Map<string, { txt: readonly string[]; servfail: boolean }>();
  const counts = new Map<string, number>();
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = (question?.name ?? "").toLowerCase();
    if (question?.type === Packet.TYPE.TXT) counts.set(name, (counts.get(name) ?? 0) + 1);
    const entry = records.get(name);
    if (!entry) response.header.rcode = Packet.RCODE.NXDOMAIN;
    else if (entry.servfail) response.header.rcode = Packet.RCODE.SERVFAIL;
    else if (question?.type === Packet.TYPE.TXT) {
      for (const value of entry.txt) {
        // The record as the encoder reads it (the typings also ask for a toBuffer it never calls).
        const answer = { name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 0, data: value };
        response.answers.push(answer as typeof answer & { toBuffer: never });
      }
    }
    void send(response);
  });
  await server.listen(0, "127.0.0.1");
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    set: (name, entry) => records.set(name.toLowerCase(), { txt: entry.txt ?? [], servfail: entry.servfail ?? false }),
    queries: (name) => counts.get(name.toLowerCase()) ?? 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
