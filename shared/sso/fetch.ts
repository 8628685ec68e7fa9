/**
 * Fetching an IdP's document (SAML metadata, OIDC discovery, docs/sso.md) from a URL a customer chose,
 * through the webhook URL guard (shared/webhooks/guard.ts): the URL checked as written, and the socket
 * connected only to an address the guarded lookup let through, so neither a literal nor a name that resolves
 * inside (the metadata address, loopback, private ranges; DNS rebinding) is ever reached. Loopback only where
 * the local stack allows it. No redirects, a 5 s budget, at most `maxBytes` read.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { GUARD_MESSAGES, type GuardOptions, guardedLookup, RefusedDestination, urlRefusal } from "../webhooks/guard.js";

export type Fetched = { readonly kind: "ok"; readonly body: string } | { readonly kind: "refused"; readonly message: string };

const TIMEOUT_MS = 5_000;
const lookups = { loopback: guardedLookup({ allowLoopback: true }), public: guardedLookup({ allowLoopback: false }) };
const agents = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };

/** The guard's messages, for the field a URL came in (`Url must …` → `Metadata url must …`). */
export function guardMessage(message: string, field: string): string {
  return message.replace(/^Url\b/, field);
}

/** Why `url` may not be fetched as written, or undefined. */
export function urlProblem(url: string, field: string, opts: GuardOptions): string | undefined {
  const refused = urlRefusal(url, opts);
  return refused === undefined ? undefined : guardMessage(refused, field);
}

/**
 * GETs `url` (accepting `accept`) and answers its body as text, or why it could not: the guard's refusal, no
 * answer, a status other than 200, a body over `maxBytes`. Never throws.
 */
export function fetchDocument(
  url: string,
  { field, accept, maxBytes, guard }: { field: string; accept: string; maxBytes: number; guard: GuardOptions },
): Promise<Fetched> {
  const problem = urlProblem(url, field, guard);
  if (problem !== undefined) return Promise.resolve({ kind: "refused", message: problem });
  const target = new URL(url);
  const https = target.protocol === "https:";
  const refused = (message: string): Fetched => ({ kind: "refused", message });
  return new Promise<Fetched>((resolve) => {
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    const req = (https ? httpsRequest : httpRequest)(
      target,
      {
        method: "GET",
        headers: { accept, "user-agent": "institution-admin-sso-check" },
        agent: https ? agents.https : agents.http,
        lookup: guard.allowLoopback ? lookups.loopback : lookups.public,
        signal,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.destroy();
          return resolve(refused(`${field} answered HTTP ${res.statusCode ?? 0}, not 200`));
        }
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          return resolve(refused(`${field} document is too large (maximum is ${maxBytes / 1024} KiB)`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            return resolve(refused(`${field} document is too large (maximum is ${maxBytes / 1024} KiB)`));
          }
          chunks.push(chunk);
        });
        res.on("end", () => resolve({ kind: "ok", body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", () => resolve(refused(`${field} could not be read to its end`)));
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (signal.aborted) return resolve(refused(`${field} did not answer within ${TIMEOUT_MS / 1000} s`));
      if (err instanceof RefusedDestination || err.code === "EREFUSEDDESTINATION")
        return resolve(refused(guardMessage(GUARD_MESSAGES.internal, field)));
      resolve(refused(`${field} could not be reached (${err.code ?? err.name})`));
    });
    req.end();
  });
}
