/**
 * The TXT lookup of a domain's challenge (docs/sso.md), through `node:dns`'s `Resolver` with the servers of
 * `DNS_RESOLVERS` (`host:port`, comma-separated), or the system's when unset. Tests serve the records from a
 * DNS server on loopback. No cache: each verification asks now.
 */
import { Resolver } from "node:dns/promises";
import { DNS, readSettings } from "../settings.js";

const servers = readSettings(DNS(), ["DNS_RESOLVERS"]).DNS_RESOLVERS;

/** Each try waits this long; two tries: a verification answers within about 5 s whatever DNS does. */
const TIMEOUT_MS = 2_000;
const TRIES = 2;

export type TxtLookup =
  | { readonly kind: "found"; readonly values: readonly string[] }
  | { readonly kind: "not_found" }
  | { readonly kind: "failed"; readonly code: string };

let resolver: Resolver | undefined;
function resolverOf(): Resolver {
  if (!resolver) {
    resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
    if (servers) resolver.setServers(servers.split(",").map((s) => s.trim()));
  }
  return resolver;
}

/** The TXT records at `name`, each record's strings joined (a long value comes in 255-byte strings). */
export async function lookupTxt(name: string): Promise<TxtLookup> {
  try {
    const records = await resolverOf().resolveTxt(name);
    return { kind: "found", values: records.map((chunks) => chunks.join("")) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "EUNKNOWN";
    // No such name, or the name without TXT records: the record is not (yet) published.
    if (code === "ENOTFOUND" || code === "ENODATA") return { kind: "not_found" };
    return { kind: "failed", code };
  }
}
