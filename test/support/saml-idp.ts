/**
 * An institution's SAML 2.0 identity provider on loopback (docs/sso.md#the-managed-login-locally), built on samlify: for the tests
 * (test/integration/sso-login.test.ts) and for `npm start`, so a person can walk the sign-in.
 *
 * - Its signing key and self-signed certificate are made at start (openssl: Node's crypto makes key pairs but not
 *   certificates) and live only in memory: no private key is ever written to the repository.
 * - `GET /metadata` publishes the IdP's metadata (entity ID, signing certificate, the HTTP-Redirect single sign-on
 *   service at `/sso`), as the connection's `metadata_url` takes it.
 * - `GET /sso?SAMLRequest=…&RelayState=…` (the service provider's AuthnRequest) shows a sign-in form; posting an
 *   account's id as `login` answers with a page that posts the signed `SAMLResponse` and the `RelayState` to the
 *   AuthnRequest's ACS URL (HTTP-POST binding). The assertion is signed; it carries the NameID (the account's subject),
 *   and the attributes `email`, `name` and `groups` (one AttributeValue per group) under the claim URIs Entra ID
 *   uses, the connection's default SAML mapping.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Accounts, autoPostPage, formBody, type IdpAccount, loginPage } from "./idp-accounts.js";

/** The part of samlify used here. */
interface Samlify {
  setSchemaValidator(v: { validate(xml: string): Promise<unknown> }): void;
  IdentityProvider(settings: Record<string, unknown>): {
    getMetadata(): string;
    parseLoginRequest(sp: unknown, binding: "redirect", req: { query: Record<string, string> }): Promise<unknown>;
    createLoginResponse(
      sp: unknown,
      request: unknown,
      binding: "post",
      user: Record<string, string>,
      opts: { relayState: string; customTagReplacement: (template: string) => { id: string; context: string } },
    ): Promise<{ context: string }>;
  };
  ServiceProvider(settings: Record<string, unknown>): unknown;
  Extractor: { extract(xml: string, fields: unknown): unknown; loginRequestFields: unknown };
  Utility: { inflateString(s: string): string };
}
// samlify's typings pull in lib "dom" (through an old @xmldom/xmldom), which retypes fetch and Headers for the whole
// program: so it is loaded untyped and typed above.
const samlify = createRequire(import.meta.url)("samlify") as Samlify;

/** The attribute names the IdP asserts: Entra ID's claim URIs (the connection's default SAML mapping, docs/sso.md). */
export const SAML_ATTRIBUTES = {
  email: "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  name: "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name",
  groups: "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups",
} as const;

// samlify asks for a schema validator before it parses anything. This IdP parses only AuthnRequests, which come
// from the local managed login (node-saml) and carry nothing it trusts: whom it signs in is the form's choice. The
// checks that matter are on the service provider's side (node-saml verifies the signed response against the
// certificate). So the validator accepts; no schema-validating package is installed for it.
samlify.setSchemaValidator({ validate: () => Promise.resolve("skipped") });

/** A fresh RSA key and a self-signed certificate for `cn`, in PEM; the certificate also as base64 DER. */
export function signingKeyPair(cn: string): { key: string; certificate: string; certificateBase64: string } {
  const dir = mkdtempSync(join(tmpdir(), "saml-idp-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-sha256",
        "-days",
        "2",
        "-subj",
        `/CN=${cn}`,
        "-keyout",
        join(dir, "k"),
        "-out",
        join(dir, "c"),
      ],
      { stdio: "ignore" },
    );
    const key = readFileSync(join(dir, "k"), "utf8");
    const certificate = readFileSync(join(dir, "c"), "utf8");
    return { key, certificate, certificateBase64: certificate.replace(/-----[^-]+-----|\s/g, "") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SamlIdp {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly entityId: string;
  /** Where the metadata is published (`metadata_url`). */
  readonly metadataUrl: string;
  readonly metadata: string;
  /** Adds or replaces an account. */
  account(account: IdpAccount): void;
  close(): Promise<void>;
}

const xml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

function attributeStatement(account: IdpAccount): string {
  const attr = (name: string, values: readonly string[]) =>
    values.length === 0
      ? ""
      : `<saml:Attribute Name="${xml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
          .map((v) => `<saml:AttributeValue xsi:type="xs:string">${xml(v)}</saml:AttributeValue>`)
          .join("")}</saml:Attribute>`;
  const body = [
    attr(SAML_ATTRIBUTES.email, account.email === undefined ? [] : [account.email]),
    attr(SAML_ATTRIBUTES.name, account.name === undefined ? [] : [account.name]),
    attr(SAML_ATTRIBUTES.groups, account.groups ?? []),
  ].join("");
  return body ? `<saml:AttributeStatement>${body}</saml:AttributeStatement>` : "";
}

/** Starts the IdP on 127.0.0.1 (`port`: 0 for a free one) with `accounts`. */
export async function startSamlIdp(opts: { accounts?: readonly IdpAccount[]; port?: number; name?: string } = {}): Promise<SamlIdp> {
  const accounts = new Accounts(opts.accounts);
  const title = opts.name ?? "Test SAML IdP";
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${url}/metadata`;
  const keys = signingKeyPair(`saml-idp-${(server.address() as AddressInfo).port}.local`);
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey: keys.key,
    signingCert: keys.certificate,
    nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"],
    singleSignOnService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect", Location: `${url}/sso` }],
    wantAuthnRequestsSigned: false,
    requestSignatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  });
  const metadata = idp.getMetadata();

  /** The service provider an AuthnRequest names: its issuer and ACS URL, as the request says. */
  const spOf = (entityID: string, acs: string) =>
    samlify.ServiceProvider({
      entityID,
      wantAssertionsSigned: true,
      wantMessageSigned: true,
      assertionConsumerService: [{ Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", Location: acs }],
    });

  const send = (res: ServerResponse, status: number, body: string, type = "text/html; charset=utf-8") =>
    void res.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = new URL(req.url ?? "/", url);
    if (req.method === "GET" && at.pathname === "/metadata") return send(res, 200, metadata, "application/samlmetadata+xml");
    if (req.method === "GET" && at.pathname === "/sso") {
      const SAMLRequest = at.searchParams.get("SAMLRequest");
      if (!SAMLRequest) return send(res, 400, "SAMLRequest missing");
      const hidden = { SAMLRequest, RelayState: at.searchParams.get("RelayState") ?? "" };
      return send(res, 200, loginPage({ title, action: "/sso", hidden, accounts: accounts.list() }));
    }
    if (req.method === "POST" && at.pathname === "/sso") {
      const form = await formBody(req);
      const hidden = { SAMLRequest: form.get("SAMLRequest") ?? "", RelayState: form.get("RelayState") ?? "" };
      const account = accounts.get(form.get("login") ?? "");
      if (!account)
        return send(res, 200, loginPage({ title, action: "/sso", hidden, accounts: accounts.list(), error: "No such account" }));
      // The request as the SP sent it (HTTP-Redirect): its ID, issuer and ACS URL. Its issuer is taken as given.
      const peek = samlify.Extractor.extract(
        samlify.Utility.inflateString(decodeURIComponent(hidden.SAMLRequest)),
        samlify.Extractor.loginRequestFields,
      ) as { request?: { id?: string; assertionConsumerServiceUrl?: string }; issuer?: string };
      const acs = peek.request?.assertionConsumerServiceUrl;
      if (!peek.issuer || !acs) return send(res, 400, "The AuthnRequest names no issuer or ACS URL");
      const sp = spOf(peek.issuer, acs);
      const parsed = await idp.parseLoginRequest(sp, "redirect", { query: { SAMLRequest: hidden.SAMLRequest } });
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const inResponseTo = peek.request?.id ?? "";
      const responseId = `_${randomUUID()}`;
      const response = await idp.createLoginResponse(
        sp,
        parsed,
        "post",
        { email: account.email ?? "" },
        {
          relayState: hidden.RelayState,
          // The whole response written here (samlify's template has one value per attribute; groups have several).
          customTagReplacement: () => ({
            id: responseId,
            context:
              `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${xml(acs)}" InResponseTo="${xml(inResponseTo)}">` +
              `<saml:Issuer>${xml(entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
              `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="_${randomUUID()}" Version="2.0" IssueInstant="${now.toISOString()}">` +
              `<saml:Issuer>${xml(entityId)}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${xml(account.subject ?? account.id)}</saml:NameID>` +
              `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${later}" Recipient="${xml(acs)}" InResponseTo="${xml(inResponseTo)}"/></saml:SubjectConfirmation></saml:Subject>` +
              `<saml:Conditions NotBefore="${now.toISOString()}" NotOnOrAfter="${later}"><saml:AudienceRestriction><saml:Audience>${xml(peek.issuer ?? "")}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
              `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
              `${attributeStatement(account)}</saml:Assertion></samlp:Response>`,
          }),
        },
      );
      return send(res, 200, autoPostPage(acs, { SAMLResponse: response.context, RelayState: hidden.RelayState }));
    }
    send(res, 404, "Not found", "text/plain");
  }

  server.on("request", (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 400, `The IdP could not answer: ${(err as Error).message}`, "text/plain");
    });
  });
  return {
    url,
    entityId,
    metadataUrl: `${url}/metadata`,
    metadata,
    account: (a) => accounts.put(a),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
