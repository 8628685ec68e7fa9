/**
 * The SSRF guard of webhook URLs (shared/webhooks/guard.ts, transport.ts): the address classifier against an
 * oracle of CIDR ranges written here independently of ipaddr.js, the URL checks, the guarded lookup, and a
 * POST whose connection goes where the guarded lookup said and nowhere it refused. Every connection these
 * tests make (or would make if the guard failed) goes to loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GUARD_MESSAGES,
  guardedLookup,
  RefusedDestination,
  refusedAddress,
  resolvedRefusal,
  urlRefusal,
} from "../../shared/webhooks/guard.js";
import { post } from "../../shared/webhooks/transport.js";

const DEPLOYED = { allowLoopback: false } as const;
const LOCAL = { allowLoopback: true } as const;

// ---- An oracle: IPv4 ranges as numbers ----
const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
const cidr = (text: string) => {
  const [ip, bits] = text.split("/") as [string, string];
  const [a, b, c, d] = ip.split(".").map(Number) as [number, number, number, number];
  return { base: v4(a, b, c, d), size: 2 ** (32 - Number(bits)) };
};
const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".");

/** What the brief names: loopback, RFC 1918, link-local (metadata), CGNAT, 0.0.0.0/8. */
const MUST_REFUSE_V4 = ["127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "100.64.0.0/10", "0.0.0.0/8"].map(
  cidr,
);
/** Every other range set apart from public unicast (IANA special-purpose, multicast, reserved 240/4). */
const OTHER_SPECIAL_V4 = [
  "224.0.0.0/4",
  "240.0.0.0/4",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "192.175.48.0/24",
  "192.31.196.0/24",
  "192.52.193.0/24",
].map(cidr);
const inAny = (n: number, ranges: { base: number; size: number }[]) => ranges.some((r) => n >= r.base && n < r.base + r.size);

/** An address inside one of `ranges`. */
const inRange = (ranges: { base: number; size: number }[]) =>
  fc.constantFrom(...ranges).chain((r) => fc.integer({ min: 0, max: r.size - 1 }).map((offset) => dotted(r.base + offset)));

/** `::ffff:a.b.c.d` spelled in hex groups, as a URL parser writes it. */
const mappedHex = (ip: string) => {
  const [a, b, c, d] = ip.split(".").map(Number) as [number, number, number, number];
  return `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};
const hexGroups = (n: number) => fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: n, maxLength: n });

describe("refusedAddress", () => {
  it("refuses every IPv4 address of the named ranges, in both modes except loopback locally, and as IPv4-mapped IPv6", () => {
    fc.assert(
      fc.property(inRange(MUST_REFUSE_V4), (ip) => {
        expect(refusedAddress(ip, DEPLOYED), ip).toBeDefined();
        expect(refusedAddress(`::ffff:${ip}`, DEPLOYED), ip).toBeDefined();
        expect(refusedAddress(mappedHex(ip), DEPLOYED), ip).toBeDefined();
        const loopback = ip.startsWith("127.");
        expect(refusedAddress(ip, LOCAL) === undefined, ip).toBe(loopback);
        expect(refusedAddress(`::ffff:${ip}`, LOCAL) === undefined, ip).toBe(loopback);
      }),
      { numRuns: 2000 },
    );
  });

  it("lets every IPv4 address outside the special ranges through, mapped or not", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
        const ip = dotted(n);
        const special = inAny(n, MUST_REFUSE_V4) || inAny(n, OTHER_SPECIAL_V4);
        expect(refusedAddress(ip, DEPLOYED) !== undefined, ip).toBe(special);
        expect(refusedAddress(`::ffff:${ip}`, DEPLOYED) !== undefined, ip).toBe(special);
      }),
      { numRuns: 5000 },
    );
  });

  it("refuses unique-local, link-local, loopback, unspecified, multicast and IPv4-embedding IPv6", () => {
    const within = (prefix: number, mask: number) =>
      hexGroups(8).map((g) => [((g[0] as number) & ~mask & 0xffff) | prefix, ...g.slice(1)].map((x) => x.toString(16)).join(":"));
    fc.assert(
      fc.property(
        fc.oneof(
          within(0xfc00, 0xfe00), // fc00::/7
          within(0xfe80, 0xffc0), // fe80::/10
          within(0xff00, 0xff00), // ff00::/8
          hexGroups(2).map((g) => `64:ff9b::${g.map((x) => x.toString(16)).join(":")}`), // NAT64
          hexGroups(6).map((g) => `2002:${g.map((x) => x.toString(16)).join(":")}::`), // 6to4
          hexGroups(2)
            .filter(([hi, lo]) => !(hi === 0 && lo === 1)) // ::1 is loopback, a receiver locally
            .map((g) => `::${g.map((x) => x.toString(16)).join(":")}`), // IPv4-compatible
        ),
        (ip) => {
          expect(refusedAddress(ip, DEPLOYED), ip).toBeDefined();
          expect(refusedAddress(ip, LOCAL), ip).toBeDefined();
        },
      ),
    );
    for (const ip of ["::1", "::", "fd00:ec2::254", "fe80::1", "::ffff:169.254.169.254", "::ffff:a00:1", "::127.0.0.1"]) {
      expect(refusedAddress(ip, DEPLOYED), ip).toBeDefined();
    }
    expect(refusedAddress("::1", LOCAL)).toBeUndefined();
    expect(refusedAddress("::ffff:127.0.0.1", LOCAL)).toBeUndefined();
  });

  it("lets public IPv6 unicast through", () => {
    for (const ip of ["2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "2600:1f18::1"])
      expect(refusedAddress(ip, DEPLOYED), ip).toBeUndefined();
    for (const ip of ["8.8.8.8", "1.1.1.1", "52.94.236.248"]) expect(refusedAddress(ip, DEPLOYED), ip).toBeUndefined();
    expect(refusedAddress("not-an-ip", DEPLOYED)).toBeDefined();
  });
});

describe("urlRefusal", () => {
  it("refuses, deployed, what the brief lists, each with its reason", () => {
    const cases: [string, string][] = [
      ["https://127.0.0.1/", GUARD_MESSAGES.ipLiteral],
      ["https://169.254.169.254/latest/meta-data/", GUARD_MESSAGES.ipLiteral],
      ["https://[::ffff:10.0.0.1]/", GUARD_MESSAGES.ipLiteral],
      ["https://[::1]/", GUARD_MESSAGES.ipLiteral],
      ["https://[fd00:ec2::254]/", GUARD_MESSAGES.ipLiteral],
      ["https://0.0.0.0/", GUARD_MESSAGES.ipLiteral],
      ["https://8.8.8.8/", GUARD_MESSAGES.ipLiteral],
      // Other spellings of 127.0.0.1 that the URL parser turns into it.
      ["https://2130706433/", GUARD_MESSAGES.ipLiteral],
      ["https://0x7f.1/", GUARD_MESSAGES.ipLiteral],
      ["https://0177.0.0.1/", GUARD_MESSAGES.ipLiteral],
      ["https://127.1/", GUARD_MESSAGES.ipLiteral],
      ["https://user:pw@example.com/", GUARD_MESSAGES.credentials],
      ["https://user@example.com/", GUARD_MESSAGES.credentials],
      ["https://localhost/", GUARD_MESSAGES.localName],
      ["https://LOCALHOST./", GUARD_MESSAGES.localName],
      ["https://api.localhost/", GUARD_MESSAGES.localName],
      ["https://metadata/", GUARD_MESSAGES.localName],
      ["https://example.com:22/", GUARD_MESSAGES.port],
      ["https://example.com:80/", GUARD_MESSAGES.port],
      ["http://example.com/", GUARD_MESSAGES.scheme],
      ["http://127.0.0.1:8080/", GUARD_MESSAGES.scheme],
      ["ftp://example.com/", GUARD_MESSAGES.scheme],
      ["file:///etc/passwd", GUARD_MESSAGES.scheme],
      ["not a url", GUARD_MESSAGES.scheme],
    ];
    for (const [url, reason] of cases) expect(urlRefusal(url, DEPLOYED), url).toBe(reason);
  });

  it("refuses every IPv4 literal deployed, and every non-loopback one locally", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
        const ip = dotted(n);
        for (const url of [`https://${ip}/`, `https://[::ffff:${ip}]/`, `https://${n}/`]) {
          expect(urlRefusal(url, DEPLOYED), url).toBe(GUARD_MESSAGES.ipLiteral);
          expect(urlRefusal(url, LOCAL) === undefined, url).toBe(ip.startsWith("127."));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("takes public https names, on 443 or a port above 1023", () => {
    for (const url of [
      "https://siem.example.com/hooks",
      "https://example.com:443/x",
      "https://example.com:8443/x",
      "https://hooks.example.com./",
    ]) {
      expect(urlRefusal(url, DEPLOYED), url).toBeUndefined();
    }
  });

  it("locally, also loopback receivers over http, on any port; nothing else changes", () => {
    for (const url of [
      "http://127.0.0.1:4000/hook",
      "http://localhost:4000/",
      "http://[::1]:4000/",
      "https://127.0.0.1/",
      "http://127.0.0.2:80/",
    ]) {
      expect(urlRefusal(url, LOCAL), url).toBeUndefined();
    }
    expect(urlRefusal("http://10.0.0.1/", LOCAL)).toBe(GUARD_MESSAGES.scheme);
    expect(urlRefusal("https://169.254.169.254/", LOCAL)).toBe(GUARD_MESSAGES.ipLiteral);
    expect(urlRefusal("http://user:pw@127.0.0.1:4000/", LOCAL)).toBe(GUARD_MESSAGES.credentials);
    expect(urlRefusal("http://example.com/", LOCAL)).toBe(GUARD_MESSAGES.scheme);
  });
});

/** A resolver that answers `answers` in turn (the last one from then on). */
function resolver(...answers: string[][]) {
  let i = 0;
  const calls: string[] = [];
  const resolve = (host: string, cb: (err: NodeJS.ErrnoException | null, a: { address: string; family: number }[]) => void) => {
    calls.push(host);
    const addrs = answers[Math.min(i++, answers.length - 1)] as string[];
    if (addrs.length === 0) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" }), []);
    cb(
      null,
      addrs.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  };
  return { resolve, calls };
}

describe("guardedLookup and resolvedRefusal", () => {
  const lookupOnce = (lookup: ReturnType<typeof guardedLookup>, options: { all?: boolean; family?: number }) =>
    new Promise<{ err: Error | null; address: unknown; family?: number | undefined }>((done) =>
      lookup("hooks.example.com", options, (err, address, family) => done({ err, address, family })),
    );

  it("answers public addresses in either form; refuses when any address is internal", async () => {
    const pub = guardedLookup(DEPLOYED, resolver(["93.184.216.34", "2606:2800:220:1::1"]).resolve);
    expect(await lookupOnce(pub, { all: true })).toMatchObject({
      err: null,
      address: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1::1", family: 6 },
      ],
    });
    expect(await lookupOnce(pub, { family: 6 })).toMatchObject({ err: null, address: "2606:2800:220:1::1", family: 6 });
    for (const mixed of [["93.184.216.34", "10.0.0.7"], ["::ffff:169.254.169.254"], ["127.0.0.1"], ["fd00::1"]]) {
      const { err } = await lookupOnce(guardedLookup(DEPLOYED, resolver(mixed).resolve), { all: true });
      expect(err, mixed.join()).toBeInstanceOf(RefusedDestination);
    }
    const local = await lookupOnce(guardedLookup(LOCAL, resolver(["127.0.0.1"]).resolve), {});
    expect(local).toMatchObject({ err: null, address: "127.0.0.1", family: 4 });
  });

  it("at creation: a name resolving inside is refused; one that does not resolve passes (deliveries check it)", async () => {
    expect(await resolvedRefusal("https://hooks.example.com/", DEPLOYED, resolver(["10.1.2.3"]).resolve)).toBe(GUARD_MESSAGES.internal);
    expect(await resolvedRefusal("https://hooks.example.com/", DEPLOYED, resolver(["93.184.216.34", "fe80::1"]).resolve)).toBe(
      GUARD_MESSAGES.internal,
    );
    expect(await resolvedRefusal("https://hooks.example.com/", DEPLOYED, resolver(["93.184.216.34"]).resolve)).toBeUndefined();
    expect(await resolvedRefusal("https://hooks.example.com/", DEPLOYED, resolver([]).resolve)).toBeUndefined();
    // The system resolver: localhost is loopback.
    expect(await resolvedRefusal("https://localhost/", DEPLOYED)).toBe(GUARD_MESSAGES.internal);
    expect(await resolvedRefusal("http://localhost:1/", LOCAL)).toBeUndefined();
  });
});

describe("post: the connection goes where the guarded lookup said", () => {
  let server: Server;
  let port: number;
  const received: string[] = [];
  beforeAll(async () => {
    // Only on 127.0.0.2: a request that arrives came through the injected resolver, not the system's localhost.
    server = createServer((req, res) => {
      received.push(`${req.method} ${req.headers.host} ${req.url}`);
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.2", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const send = (url: string, opts: { allowLoopback: boolean }, resolve?: ReturnType<typeof resolver>["resolve"]) =>
    post(url, {
      ...opts,
      headers: { "content-type": "application/json" },
      body: "{}",
      timeoutMs: 2000,
      ...(resolve && { lookup: guardedLookup(opts, resolve) }),
    });

  it("connects to the checked address (locally, loopback allowed)", async () => {
    const r = resolver(["127.0.0.2"]);
    expect(await send(`http://localhost:${port}/in`, LOCAL, r.resolve)).toBe(204);
    expect(r.calls).toEqual(["localhost"]);
    expect(received).toEqual([`POST localhost:${port} /in`]);
  });

  it("DNS rebinding: public when created, loopback when delivered → refused, nothing sent", async () => {
    const r = resolver(["93.184.216.34"], ["127.0.0.2"]);
    const url = `https://rebind.example.com:${port}/in`;
    expect(urlRefusal(url, DEPLOYED)).toBeUndefined();
    expect(await resolvedRefusal(url, DEPLOYED, r.resolve)).toBeUndefined();
    const before = received.length;
    await expect(send(url, DEPLOYED, r.resolve)).rejects.toBeInstanceOf(RefusedDestination);
    expect(r.calls).toEqual(["rebind.example.com", "rebind.example.com"]);
    expect(received.length).toBe(before);
  });

  it("an IP literal is refused before any connection, deployed (net.connect would skip the lookup)", async () => {
    const r = resolver(["127.0.0.2"]);
    const before = received.length;
    await expect(send(`https://127.0.0.2:${port}/in`, DEPLOYED, r.resolve)).rejects.toThrow(GUARD_MESSAGES.ipLiteral);
    await expect(send(`http://127.0.0.2:${port}/in`, DEPLOYED)).rejects.toThrow(GUARD_MESSAGES.scheme);
    expect(r.calls).toEqual([]);
    expect(received.length).toBe(before);
    // Locally a loopback literal is a receiver.
    expect(await send(`http://127.0.0.2:${port}/local`, LOCAL)).toBe(204);
    expect(received.at(-1)).toBe(`POST 127.0.0.2:${port} /local`);
  });
});

describe("post: a kept-alive connection the receiver dropped", () => {
  let server: Server;
  let port: number;
  const seen: string[] = [];
  beforeAll(async () => {
    const perSocket = new WeakMap<object, number>();
    // Answers the first request of each connection; drops the connection at its second (a receiver's idle
    // timeout while a Lambda was frozen looks the same to the client).
    server = createServer((req, res) => {
      const n = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, n);
      seen.push(`${req.url} #${n}`);
      if (n > 1) return req.socket.destroy();
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-length": "2" }).end("ok"));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.2", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("is tried once more on a new connection, not counted as a failed attempt", async () => {
    const send = (path: string) => post(`http://127.0.0.2:${port}${path}`, { ...LOCAL, headers: {}, body: "{}", timeoutMs: 2000 });
    expect(await send("/a")).toBe(200);
    expect(await send("/b")).toBe(200);
    expect(seen).toEqual(["/a #1", "/b #2", "/b #1"]);
  });
});
