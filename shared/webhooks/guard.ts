/**
 * The SSRF guard of webhook URLs (docs/contract/webhooks.md). A webhook URL is chosen by a customer, and the consumer and
 * the retrier fetch it from inside AWS, so a URL must not reach the service's own network: loopback, private
 * (RFC 1918), link-local (the instance metadata address 169.254.169.254), CGNAT, unique-local and link-local
 * IPv6, those spelled as IPv4-mapped IPv6, the unspecified address, multicast and the other reserved ranges.
 *
 * - At creation, `urlRefusal` checks the URL as written (scheme, credentials, port, IP literal, local names)
 *   and `resolvedRefusal` resolves its host: any address outside the public unicast ranges refuses it.
 * - At delivery, the URL is checked again, and the connection resolves the host through `guardedLookup`, which
 *   refuses the connection unless every address is public: the socket connects to the address it checked, so
 *   a name that resolved to a public address at creation and to an internal one now (DNS rebinding) is refused.
 *
 * The local stack's receivers on this machine (`WEBHOOK_ALLOW_LOOPBACK_HTTP`, its setting alone) may be on
 * loopback, over http or https; every other rule holds there too. Ranges are classified by `ipaddr.js`.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

export const GUARD_MESSAGES = {
  scheme: "Url must be an https URL",
  credentials: "Url must not contain a user name or password",
  port: "Url port must be 443 or above 1023",
  ipLiteral: "Url must name its host, not an IP address",
  localName: "Url must name a public host",
  internal: "Url host must resolve to public addresses only, not to a private, loopback or link-local address",
} as const;

export interface GuardOptions {
  /** Loopback receivers, over http too: the local stack only. */
  readonly allowLoopback: boolean;
}

/** A connection the guard refused; a delivery counts it as a failed attempt. */
export class RefusedDestination extends Error {
  override readonly name = "RefusedDestination";
  readonly code = "EREFUSEDDESTINATION";
}

/**
 * Why a connection to the IP address `address` is refused, or undefined when it may be made: only public
 * unicast addresses pass (loopback too, with `allowLoopback`). An IPv4-mapped IPv6 address is judged as its
 * IPv4 address; NAT64, 6to4, Teredo and the deprecated IPv4-compatible form (which embed an IPv4 address) are
 * refused whatever they embed.
 */
export function refusedAddress(address: string, { allowLoopback }: GuardOptions): string | undefined {
  if (!ipaddr.isValid(address)) return `not an IP address: ${address}`;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so a mapped address gets its IPv4 range.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === "loopback" && allowLoopback) return undefined;
  if (range !== "unicast") return range;
  // ::a.b.c.d (IPv4-compatible, RFC 4291 §2.5.5.1): no range of its own in ipaddr.js, never a public address.
  if (
    ip.kind() === "ipv6" &&
    ip
      .toByteArray()
      .slice(0, 12)
      .every((b) => b === 0)
  )
    return "ipv4Compatible";
  return undefined;
}

/** `[::1]` → `::1`: URL hostnames keep an IPv6 literal's brackets. */
const unbracketed = (hostname: string) => (hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname);

/** Names that never leave the machine or its network, whatever DNS says. */
function isLocalName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, "").toLowerCase();
  // A single label (`metadata`, `intranet`) resolves through the resolver's search domains, not the public DNS.
  return !name.includes(".") || name === "localhost" || name.endsWith(".localhost");
}

const LOOPBACK_NAMES = new Set(["localhost", "localhost."]);

/**
 * Why `text` is refused as a webhook URL as written (no DNS), or undefined when it passes: https only (http to
 * loopback with `allowLoopback`), no credentials, port 443 or above 1023, a host name rather than an IP
 * literal (loopback literals with `allowLoopback`), not a local name. The WHATWG parser has already turned
 * the other spellings of an IPv4 address (`2130706433`, `0x7f.1`, `0177.0.0.1`) into dotted decimal.
 */
export function urlRefusal(text: string, opts: GuardOptions): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return GUARD_MESSAGES.scheme;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return GUARD_MESSAGES.scheme;
  if (url.username || url.password) return GUARD_MESSAGES.credentials;
  const host = unbracketed(url.hostname);
  const literal = ipaddr.isValid(host);
  const loopback =
    opts.allowLoopback && (literal ? refusedAddress(host, { allowLoopback: false }) === "loopback" : LOOPBACK_NAMES.has(host));
  if (url.protocol === "http:" && !loopback) return GUARD_MESSAGES.scheme;
  if (loopback) return undefined;
  if (url.port !== "" && Number(url.port) < 1024) return GUARD_MESSAGES.port;
  if (literal) return GUARD_MESSAGES.ipLiteral;
  if (isLocalName(host)) return GUARD_MESSAGES.localName;
  return undefined;
}

type Resolve = (hostname: string, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/** A lookup for `net.connect` that answers only addresses `refusedAddress` lets through, else fails with RefusedDestination. */
export function guardedLookup(opts: GuardOptions, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname, (err, found) => {
      if (err) return callback(err, "", 0);
      const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
      const refused = found.map((a) => refusedAddress(a.address, opts)).find((r) => r !== undefined);
      if (refused !== undefined || wanted.length === 0) {
        return callback(new RefusedDestination(`${hostname} resolves to a refused address (${refused ?? "none usable"})`), "", 0);
      }
      if (options.all) return callback(null, wanted);
      const [first] = wanted as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}

/** How long creation waits for DNS before it takes the URL as written (deliveries check it again anyway). */
const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * Why the host of `text` (which passed `urlRefusal`) is refused for what it resolves to now, or undefined.
 * A name that does not resolve (yet) passes: what it may resolve to later is checked at each delivery, so
 * refusing it here would add no safety, only refuse a receiver whose DNS is not set up yet.
 */
export async function resolvedRefusal(text: string, opts: GuardOptions, resolve: Resolve = systemResolve): Promise<string | undefined> {
  const host = unbracketed(new URL(text).hostname);
  if (ipaddr.isValid(host)) return refusedAddress(host, opts) === undefined ? undefined : GUARD_MESSAGES.internal;
  const addresses = await new Promise<LookupAddress[]>((done) => {
    const timer = setTimeout(() => done([]), RESOLVE_TIMEOUT_MS);
    resolve(host, (err, found) => {
      clearTimeout(timer);
      done(err ? [] : found);
    });
  });
  return addresses.some((a) => refusedAddress(a.address, opts) !== undefined) ? GUARD_MESSAGES.internal : undefined;
}
