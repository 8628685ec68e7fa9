/**
 * Hostile input against verified domains, the SSO connection and discovery (docs/sso.md), through the real
 * gateway: server-side request forgery through metadata URLs and issuers (the instance metadata address in
 * every spelling, private, link-local, CGNAT and unique-local ranges, local names, other schemes, credentials),
 * XML with external entities and entity expansion ("billion laughs") in `metadata_xml` and behind a metadata URL,
 * oversized documents, and random bodies on every route. Never a 5xx, every refusal a 422 saying what is wrong,
 * no request to a canary the documents point at, nothing stored on a refusal (neither in the table nor in the
 * pool), and no sign of prototype pollution after.
 */
import { DescribeUserPoolClientCommand } from "@aws-sdk/client-cognito-identity-provider";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { paths } from "../../shared/routes.js";
import { providerNameOf } from "../../shared/sso/model.js";
import { userIdOf } from "../integration/helpers.js";
import { stack, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution } from "../support/flows.js";
import { type IdpServer, idpServer, samlMetadata } from "../support/sso.js";
import {
  anyString,
  badId,
  expectNoPollution,
  hit,
  hostileJson,
  pollution,
  printTally,
  runs,
  seg,
  storedOutsideWhitelist,
  targetTooLong,
} from "./support.js";

const INST = paths.institutions;

let owner: string;
let outsider: string;
let institution: { id: string; name: string };
let idp: IdpServer;
const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);

beforeAll(async () => {
  [owner, outsider, idp] = await Promise.all([
    token(uniqEmail("hsso-owner"), { superAdmin: true }),
    token(uniqEmail("hsso-outsider"), { superAdmin: true }),
    idpServer(),
  ]);
  institution = await createInstitution(owner);
});
afterAll(async () => {
  printTally("sso");
  await idp?.close();
  cognito.destroy();
});

const ssoPath = () => `${INST}/${institution.id}/sso`;

/** Nothing of a connection: 404 here, no provider of the institution in the pool or on the console's client. */
async function expectNothingStored(): Promise<void> {
  const shown = await hit("GET sso", "GET", ssoPath(), { token: owner });
  expect(shown.status).toBe(404);
  const client = await cognito.send(new DescribeUserPoolClientCommand({ UserPoolId: stack.userPoolId, ClientId: stack.userPoolClientId }));
  expect(client.UserPoolClient?.SupportedIdentityProviders ?? []).not.toContain(providerNameOf(institution));
}

/** Addresses the service must never fetch, spelled every way (none is loopback, which the local stack allows). */
const FORBIDDEN_URLS = [
  "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "https://169.254.169.254/latest/meta-data/",
  "https://2852039166/latest/meta-data/",
  "https://0xa9fea9fe/",
  "https://0251.0376.0251.0376/",
  "https://169.254.169.254.nip.io.localhost/",
  "https://[::ffff:169.254.169.254]/",
  "https://[::ffff:a9fe:a9fe]/",
  "https://[fd00:ec2::254]/",
  "https://[fe80::1]/metadata",
  "https://10.0.0.1/metadata.xml",
  "https://172.16.5.4:8443/saml",
  "https://192.168.1.1/",
  "https://100.64.0.1/",
  "https://0.0.0.0:8443/",
  "https://[::]/",
  "https://224.0.0.1/",
  "https://metadata/computeMetadata/v1/",
  "https://intranet/saml/metadata",
  "https://idp.localhost/metadata",
  "https://user:secret@10.0.0.1/",
  "https://idp.example.edu:22/metadata",
  "file:///etc/passwd",
  "gopher://10.0.0.1:25/_HELO",
  "ftp://10.0.0.1/metadata.xml",
  "dict://10.0.0.1:11211/stat",
  "javascript:alert(1)",
  "data:text/xml,<md:EntityDescriptor/>",
  "//169.254.169.254/",
  "not a url",
];

describe("server-side request forgery", () => {
  it("refuses every forbidden address as a metadata URL and as an OIDC issuer: 422 naming the field, nothing fetched or stored", async () => {
    for (const url of FORBIDDEN_URLS) {
      const saml = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_url: url } });
      expect(saml.status, `${url}: ${saml.text}`).toBe(422);
      expect(
        saml.body.errors.every((e: string) => e.startsWith("Metadata url")),
        `${url}: ${saml.text}`,
      ).toBe(true);
      const oidc = await hit("POST sso", "POST", ssoPath(), {
        token: owner,
        json: { type: "oidc", issuer: url, client_id: "c", client_secret: "s" },
      });
      expect(oidc.status, `${url}: ${oidc.text}`).toBe(422);
      expect(
        oidc.body.errors.every((e: string) => e.startsWith("Issuer")),
        `${url}: ${oidc.text}`,
      ).toBe(true);
    }
    await expectNothingStored();
  });

  it("refuses metadata whose single sign-on service is such an address, and random URLs never get past the guard into a 5xx", async () => {
    for (const url of FORBIDDEN_URLS.slice(0, 20)) {
      const xml = samlMetadata({ entityId: "urn:x", ssoUrl: url });
      const res = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_xml: xml } });
      expect(res.body, url).toEqual({ errors: ["Metadata has no single sign-on service (HTTP-Redirect or HTTP-POST binding)"] });
    }
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          anyString,
          fc.constantFrom(...FORBIDDEN_URLS).chain((u) => fc.tuple(fc.constant(u), anyString).map(([a, b]) => `${a}${b}`)),
          fc.ipV4().map((ip) => `https://${ip}/metadata`),
          fc.ipV6().map((ip) => `https://[${ip}]/metadata`),
        ),
        async (url) => {
          // Loopback is the local stack's allowance (a real IdP on this machine), not a forgery here.
          if (/^https?:\/\/(\[::1\]|\[::ffff:7f|127\.|localhost)/i.test(url)) return;
          const res = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_url: url } });
          expect(res.status, res.text).toBe(422);
        },
      ),
      runs(80),
    );
    await expectNothingStored();
  });
});

describe("XML attacks in metadata", () => {
  const canary = () => `${idp.url}/canary-${uniq("c")}`;
  const xxe = (target: string) =>
    `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY xxe SYSTEM "${target}">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&xxe;"/>`;
  const parameterEntity = (target: string) =>
    `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY % remote SYSTEM "${target}"> %remote;]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>`;
  const laughs = (levels: number) => {
    const entities = [`<!ENTITY lol0 "lol">`];
    for (let i = 1; i < levels; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
    return `<?xml version="1.0"?><!DOCTYPE lolz [${entities.join("")}]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&lol${levels - 1};"/>`;
  };
  const quadratic = () =>
    `<?xml version="1.0"?><!DOCTYPE q [<!ENTITY a "${"a".repeat(20_000)}">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${"&a;".repeat(8_000)}</md:EntityDescriptor>`;
  const DOCTYPE = { errors: ["Metadata must not contain a DOCTYPE or entity declarations"] };

  it("refuses external entities, parameter entities, billion laughs and quadratic blowup, as XML and behind a URL, at once", async () => {
    const target = canary();
    const documents = [
      xxe("file:///etc/passwd"),
      xxe(target),
      parameterEntity(target),
      laughs(10),
      quadratic(),
      `<!--x--><!doctype md SYSTEM "${target}"><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>`,
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"><!ENTITY x "y"></md:EntityDescriptor>`,
    ];
    for (const [i, xml] of documents.entries()) {
      const started = Date.now();
      const direct = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_xml: xml } });
      // The quadratic one is over 64 KiB as a body: the body limit answers first.
      if (Buffer.byteLength(JSON.stringify({ type: "saml", metadata_xml: xml })) > 64 * 1024) expect(direct.status).toBe(413);
      else expect(direct.body, `document ${i}`).toEqual(DOCTYPE);
      const path = `/attack-${i}-${uniq("x")}.xml`;
      idp.serve(path, xml);
      const viaUrl = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_url: `${idp.url}${path}` } });
      expect(viaUrl.body, `document ${i} by URL`).toEqual(DOCTYPE);
      expect(Date.now() - started, `document ${i}`).toBeLessThan(5_000);
    }
    // No parser followed the entities out to the canary.
    expect(idp.hits(new URL(target).pathname)).toBe(0);
    await expectNothingStored();
  });

  it("answers random XML-ish text as metadata with 422, never a 5xx", async () => {
    const fragments = fc.constantFrom(
      "<md:EntityDescriptor",
      'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"',
      "<md:IDPSSODescriptor>",
      "</md:EntityDescriptor>",
      "<![CDATA[",
      "]]>",
      "<?xml",
      "&amp;",
      "&#x0;",
      "<!--",
      "<a:b xmlns:a='x'>",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fragments, anyString), { minLength: 1, maxLength: 12 }), async (parts) => {
        const res = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_xml: parts.join("") } });
        expect(res.status, res.text).toBe(422);
      }),
      runs(80),
    );
    await expectNothingStored();
  });
});

describe("oversized documents", () => {
  it("stops reading a metadata or discovery document past its bound (422), and a body past 64 KiB is 413", async () => {
    const huge = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_url: `${idp.url}/huge` } });
    expect(huge.body).toEqual({ errors: ["Metadata url document is too large (maximum is 1024 KiB)"] });
    idp.serve(
      "/big-issuer/.well-known/openid-configuration",
      JSON.stringify({ issuer: `${idp.url}/big-issuer`, pad: "x".repeat(300_000) }),
      {
        type: "application/json",
      },
    );
    const big = await hit("POST sso", "POST", ssoPath(), {
      token: owner,
      json: { type: "oidc", issuer: `${idp.url}/big-issuer`, client_id: "c", client_secret: "s" },
    });
    expect(big.body).toEqual({ errors: ["Issuer document is too large (maximum is 256 KiB)"] });
    const body = await hit("POST sso", "POST", ssoPath(), { token: owner, json: { type: "saml", metadata_xml: "x".repeat(70_000) } });
    expect(body.status).toBe(413);
    await expectNothingStored();
  });
});

describe("random bodies and ids on every route", () => {
  it("never answer 5xx; refusals store nothing; the stored items and events stay within their whitelists; nothing polluted", async () => {
    const routesOf = (id: string) =>
      [
        ["POST domains", "POST", `${INST}/${seg(id)}/domains`],
        ["GET domains", "GET", `${INST}/${seg(id)}/domains`],
        ["POST verify", "POST", `${INST}/${seg(id)}/domains/${seg(id)}/verify`],
        ["DELETE domain", "DELETE", `${INST}/${seg(id)}/domains/${seg(id)}`],
        ["POST sso", "POST", `${INST}/${seg(id)}/sso`],
        ["PATCH sso", "PATCH", `${INST}/${seg(id)}/sso`],
        ["DELETE sso", "DELETE", `${INST}/${seg(id)}/sso`],
      ] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 6 }),
        fc.oneof(badId, fc.constant("mine")),
        fc.oneof(
          hostileJson,
          pollution({ polluted: true }),
          fc.record({ domain: fc.oneof(anyString, hostileJson) }),
          fc.record({
            type: fc.constantFrom("saml", "oidc", "SAML", "__proto__"),
            metadata_xml: fc.oneof(anyString, hostileJson),
            role_mappings: fc.oneof(hostileJson, pollution({ polluted: true })),
            attribute_mapping: hostileJson,
            jit: hostileJson,
          }),
        ),
        async (n, id, body) => {
          const [endpoint, method, path] = routesOf(id === "mine" ? institution.id : id)[n] as readonly [string, string, string];
          const res = await hit(endpoint, method, path, { token: owner, ...(method === "GET" ? {} : { json: body }) });
          if (targetTooLong(res)) return;
          expect(res.status, `${endpoint}: ${res.text}`).toBeLessThan(500);
          if (id !== "mine") expect([400, 404, 413, 429]).toContain(res.status);
          // Nothing of a connection comes of a random body: it names no document that could be fetched and passes.
          if (endpoint.endsWith("sso")) expect([400, 404, 409, 413, 422]).toContain(res.status);
        },
      ),
      runs(150),
    );
    await expectNothingStored();
    const stored = await storedOutsideWhitelist([await userIdOf(owner)]);
    expect(stored.problems).toEqual([]);
    await expectNoPollution(outsider, institution.id);
  });

  it("discovery answers any body with 200 or 400 and records nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(hostileJson, fc.record({ email: fc.oneof(anyString, hostileJson) }), pollution({ polluted: true })),
        async (body) => {
          const res = await hit("POST discover", "POST", paths.ssoDiscover, { json: body });
          if (targetTooLong(res)) return;
          expect([200, 400, 413], res.text).toContain(res.status);
          if (res.status === 200) expect(res.body).toEqual({ sso: null });
        },
      ),
      runs(100),
    );
    await expectNoPollution(outsider, institution.id);
  });
});
