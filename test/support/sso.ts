/**
 * What the SSO tests (docs/sso.md) stand up on loopback: TXT records on the run's DNS server (through the
 * control server, infra/local/dns-server.ts), and an identity provider's documents served over http on
 * 127.0.0.1 (which only the local stack's URL guard lets through): SAML metadata and OIDC discovery, as an IdP
 * publishes them, or wrong in the ways the checks must catch.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { stack } from "./api.js";

// --- DNS ------------------------------------------------------------------------------------------------

async function dnsControl(name: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(`${stack.controlUrl}/control/dns/${encodeURIComponent(name)}`, init);
  if (!res.ok) throw new Error(`control server answered ${res.status} for ${name}`);
  return res;
}

/** Publishes `values` as the TXT records of `name` on the run's DNS server (none: an empty list). */
export async function publishTxt(name: string, values: readonly string[]): Promise<void> {
  await dnsControl(name, { method: "PUT", body: JSON.stringify({ txt: values }) });
}

/** Makes every lookup of `name` answer SERVFAIL. */
export async function failDns(name: string): Promise<void> {
  await dnsControl(name, { method: "PUT", body: JSON.stringify({ servfail: true }) });
}

/** TXT lookups of `name` the DNS server has answered so far. */
export async function dnsQueries(name: string): Promise<number> {
  return ((await (await dnsControl(name)).json()) as { queries: number }).queries;
}

/** The name a domain's challenge is published at. */
export const challengeOf = (domain: string) => `_institution-admin-challenge.${domain}`;

// --- an identity provider's documents ---------------------------------------------------------------

/** A self-signed signing certificate (base64 DER), as an IdP's metadata carries it. */
export const SIGNING_CERTIFICATE =
  "MIIDOTCCAiGgAwIBAgIURLK+/Zvi8QrxByH0OsOCTgx+/FcwDQYJKoZIhvcNAQELBQAwKzEpMCcGA1UEAwwgdGVzdC1pZHAuaW5zdGl0dXRpb24tYWRtaW4ubG9jYWwwIBcNMjYxMTI3MDU0ODM0WhgPMjEyNjExMDMwNTQ4MzRaMCsxKTAnBgNVBAMMIHRlc3QtaWRwLmluc3RpdHV0aW9uLWFkbWluLmxvY2FsMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAw73dyfPikE0YZPu0mGyMhAIDaFiThwjOoyoKNKPBwSeI8s06AEqd6t/BQX5Fv3H5savYTrSoXo0N0sNgNzCz2O0BLRGU5k3UtndBUaaxgJrwmqn0Cs/SqvvRfhT/XqXcr5I+jbJ7a/lNDZf9FVcYJAKMYjgfgD7TvrBxEgHqAOzGA5PH6PpIe0/QJiYl6gYc/bGOdi0IV3/7YJ0SKHbRve56kq8VOWUbE+PiboJ0B3jONiQ1H+vzmJVcsVW2b7Gsgn3otAr2LllPytPFw9TBzsCMWk3muDG7XCdaRVbpMYh33PvR0JpxunxrY4RYLfx5zRTTOMKeVwsDEnJ7sUovpwIDAQABo1MwUTAdBgNVHQ4EFgQUKN1kvq02nN0SmZ4DInrudQ2Lj94wHwYDVR0jBBgwFoAUKN1kvq02nN0SmZ4DInrudQ2Lj94wDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAtVzlJXyrO6COiRyssf33Jrye9iy/XTeEbYiDtxdMrdSe3l+NjF2QwJeS3Bz8ajjcXZTvleImtN34E2/WXQs0DKy7BGf4dGmh5EXoqJeFSZdRxdhN6TilQokJCC1dlNgTdsEKTbJCPr4jmnoCKI8eUnn8YMh5XA8HZ1THRttXurFxaseb4WmpCtcnLX+npBfchnvpU8s8fAQS0+0TcbHc3yccvMmX45L4Azp0E8ULMBMnW6/MHrsxUbULLWWFT9+YEhCn3ZCNLE1/5Qb3OKROfNlAK/TBh6/ArYYn1ur8TC32Mh4l1Tqdb9uKhzTladS9Ua/dOmN6R3/MLIVjhqyqzA==";

/** SAML 2.0 metadata of one IdP; leave out what a test wants missing. */
export function samlMetadata(opts: { entityId: string; ssoUrl: string; certificate?: string | null; extra?: string }): string {
  const key =
    opts.certificate === null
      ? ""
      : `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${opts.certificate ?? SIGNING_CERTIFICATE}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${opts.entityId}">`,
    '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">',
    key,
    "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>",
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${opts.ssoUrl}"/>`,
    opts.extra ?? "",
    "</md:IDPSSODescriptor>",
    "</md:EntityDescriptor>",
  ].join("\n");
}

/** An OIDC discovery document for `issuer` (its `issuer` field may be made to differ). */
export function discoveryDocument(issuer: string, named = issuer): Record<string, unknown> {
  return {
    issuer: named,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    userinfo_endpoint: `${issuer}/userinfo`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
  };
}

export interface IdpServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Serves `body` at `path` (200, with `type`), or with another status. */
  serve(path: string, body: string | Buffer, opts?: { type?: string; status?: number }): void;
  /** Requests received, by path. */
  hits(path: string): number;
  close(): Promise<void>;
}

/** An IdP's web server on loopback: documents by path, 404 for the rest; `/huge` streams 3 MB with no length. */
export async function idpServer(): Promise<IdpServer> {
  const documents = new Map<string, { body: string | Buffer; type: string; status: number }>();
  const counts = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (path === "/huge") {
      res.writeHead(200, { "content-type": "application/xml" });
      const chunk = Buffer.alloc(64 * 1024, "<a/>");
      let sent = 0;
      const write = () => {
        while (sent < 48) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", write);
        }
        res.end();
      };
      res.on("error", () => undefined);
      return write();
    }
    const doc = documents.get(path);
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(doc.status, { "content-type": doc.type }).end(doc.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    serve: (path, body, opts = {}) => documents.set(path, { body, type: opts.type ?? "application/xml", status: opts.status ?? 200 }),
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
