/**
 * The SSO connection and home-realm discovery (docs/sso.md) over HTTP through the gateway, the IdP's documents
 * served from a web server on loopback and the pool's side in the local Cognito's identity-provider stand-ins:
 * a connection saved from a metadata URL, from metadata XML and from an OIDC issuer (with the values to paste);
 * 422 for an unreachable URL, a document without a signing certificate, an issuer mismatch, and nothing stored;
 * PATCH and DELETE, with the pool's provider and the console app client's list following; connections made at
 * once all listed; who may call; discovery; the events in the owner's trail, never the client secret.
 */
import { createServer } from "node:net";
import {
  DescribeIdentityProviderCommand,
  DescribeUserPoolClientCommand,
  ResourceNotFoundException,
} from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { paths } from "../../shared/routes.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { createInstitution } from "../support/flows.js";
import { challengeOf, discoveryDocument, type IdpServer, idpServer, publishTxt, samlMetadata } from "../support/sso.js";
import { grantAccess, userIdOf } from "./helpers.js";

const INST = paths.institutions;
const ssoOf = (id: string) => `${INST}/${id}/sso`;
const DISCOVER = paths.ssoDiscover;

let owner: string;
let member: string;
let stranger: string;
let idp: IdpServer;
const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);

beforeAll(async () => {
  const account = uniq("acct");
  [owner, member, stranger, idp] = await Promise.all([
    token(uniqEmail("sso-owner"), { superAdmin: true, account }),
    token(uniqEmail("sso-member"), { superAdmin: true, account }),
    token(uniqEmail("sso-stranger"), { superAdmin: true, account: uniq("acct") }),
    idpServer(),
  ]);
});
afterAll(async () => {
  await idp?.close();
  cognito.destroy();
});

/** The pool's provider of that name, or undefined. */
async function poolProvider(name: string) {
  try {
    return (await cognito.send(new DescribeIdentityProviderCommand({ UserPoolId: stack.userPoolId, ProviderName: name }))).IdentityProvider;
  } catch (err) {
    if (err instanceof ResourceNotFoundException || (err as Error).name === "ResourceNotFoundException") return undefined;
    throw err;
  }
}

/** The console app client's supported providers. */
async function clientProviders(): Promise<string[]> {
  const out = await cognito.send(new DescribeUserPoolClientCommand({ UserPoolId: stack.userPoolId, ClientId: stack.userPoolClientId }));
  return out.UserPoolClient?.SupportedIdentityProviders ?? [];
}

/** A metadata document served at a path of its own; its URL. */
function servedMetadata(opts: { certificate?: string | null } = {}): { url: string; entityId: string } {
  const path = `/${uniq("saml")}/metadata.xml`;
  const entityId = `${idp.url}/${uniq("entity")}`;
  idp.serve(path, samlMetadata({ entityId, ssoUrl: `${idp.url}/sso`, ...opts }));
  return { url: `${idp.url}${path}`, entityId };
}

/** An OIDC issuer on the loopback server; `named` is the issuer its discovery document claims. */
function servedIssuer(named?: string): string {
  const issuer = `${idp.url}/${uniq("oidc")}`;
  idp.serve(new URL(`${issuer}/.well-known/openid-configuration`).pathname, JSON.stringify(discoveryDocument(issuer, named ?? issuer)), {
    type: "application/json",
  });
  return issuer;
}

async function trail(type: string) {
  const res = await call("GET", paths.securityEvents, { token: owner, query: { event_type: type, limit: 200 } });
  return res.body.events as { details: Record<string, unknown>; description: string }[];
}

describe("connecting an identity provider", () => {
  it("from a metadata URL: 201 with the values to paste; the pool has the provider and the console's client lists it", async () => {
    const inst = await createInstitution(owner, { name: "Ünïversity of Tëst & Co" });
    const { url, entityId } = servedMetadata();
    const body = {
      type: "saml",
      metadata_url: url,
      // Parsed, so that `__proto__` is a key of its own (in an object literal it would set the prototype).
      role_mappings: JSON.parse(
        '{"__proto__":"cohort_super_admin","Constructor":"cohort_admin","constructor":"cohort_admin","Staff":"cohort_admin"}',
      ),
      jit: { enabled: true },
    };
    const res = await call("POST", ssoOf(inst.id), { token: owner, body });
    expect(res.status, res.text).toBe(201);
    const sso = res.body.sso;
    expect(sso.provider_name).toBe(`university-of-test-co-${inst.id.slice(-10).toLowerCase()}`);
    expect(sso).toMatchObject({
      type: "saml",
      sp: { entity_id: `urn:amazon:cognito:sp:${stack.userPoolId}`, acs_url: `${stack.cognitoEndpoint}/saml2/idpresponse` },
      idp: { entity_id: entityId, metadata_url: url },
      attribute_mapping: {
        email: "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
        name: "http://schemas.microsoft.com/identity/claims/displayname",
        groups: "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups",
      },
      jit: { enabled: true, default_role: "cohort_admin" },
      require_sso: false,
    });
    // Group names are data: `__proto__`, `constructor` and `Constructor` are groups like any other.
    expect(Object.entries(sso.role_mappings)).toEqual([
      ["__proto__", "cohort_super_admin"],
      ["Constructor", "cohort_admin"],
      ["constructor", "cohort_admin"],
      ["Staff", "cohort_admin"],
    ]);
    expect(Object.getPrototypeOf(sso.role_mappings)).toBe(Object.prototype);

    const provider = await poolProvider(sso.provider_name);
    expect(provider).toMatchObject({ ProviderType: "SAML", ProviderDetails: { MetadataURL: url } });
    expect(provider?.AttributeMapping).toEqual({
      email: sso.attribute_mapping.email,
      name: sso.attribute_mapping.name,
      "custom:sso_groups": sso.attribute_mapping.groups,
    });
    // Listed, and the pool's own sign-in not: the managed login offers no password form (docs/sso.md).
    const listed = await clientProviders();
    expect(listed).toContain(sso.provider_name);
    expect(listed).not.toContain("COGNITO");

    const shown = await call("GET", ssoOf(inst.id), { token: owner });
    expect(shown.body).toEqual({ sso });
    const [event] = (await trail("sso_connected")).filter((e) => e.details.institution_id === inst.id);
    expect(event?.details).toEqual({
      institution_id: inst.id,
      sso_connection: sso.id,
      type: "saml",
      provider_name: sso.provider_name,
      institution_name: inst.name,
    });
    // One per institution.
    const again = await call("POST", ssoOf(inst.id), { token: owner, body });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 409,
      body: { error: "The institution has an SSO connection already: change it with PATCH, or disconnect it first" },
    });
  });

  it("from metadata XML, with mappings of its own", async () => {
    const inst = await createInstitution(owner);
    const entityId = `https://idp.${uniq("x")}.test/saml`;
    const xml = samlMetadata({ entityId, ssoUrl: `${idp.url}/sso` });
    const api = apiClient(owner);
    const { sso } = ok(
      await api.POST(`${INST}/{id}/sso`, {
        params: { path: { id: inst.id } },
        body: { type: "saml", metadata_xml: xml, attribute_mapping: { email: "mail", name: "displayName" }, require_sso: true },
      }),
      201,
    );
    expect(sso.idp).toEqual({ entity_id: entityId, metadata_url: null });
    expect(sso.attribute_mapping).toMatchObject({ email: "mail", name: "displayName" });
    expect(sso.require_sso).toBe(true);
    expect((await poolProvider(sso.provider_name))?.ProviderDetails).toEqual({ MetadataFile: xml, IDPSignout: "false" });
  });

  it("from an OIDC issuer: the redirect URI to register; the client secret goes to the pool only, never back", async () => {
    const inst = await createInstitution(owner);
    const issuer = servedIssuer();
    const secret = `secret-${uniq("s")}`;
    const res = await call("POST", ssoOf(inst.id), {
      token: owner,
      body: { type: "oidc", issuer, client_id: "console", client_secret: secret },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.sso).toMatchObject({
      type: "oidc",
      sp: { redirect_uri: `${stack.cognitoEndpoint}/oauth2/idpresponse` },
      idp: { issuer, client_id: "console" },
      attribute_mapping: { email: "email", name: "name", groups: "groups" },
    });
    expect(res.text).not.toContain(secret);
    const provider = await poolProvider(res.body.sso.provider_name);
    expect(provider?.ProviderDetails).toMatchObject({ client_id: "console", client_secret: secret, oidc_issuer: issuer });

    // A new secret alone: to the pool, recorded as a change, never shown.
    const rotated = `rotated-${uniq("s")}`;
    const patched = await call("PATCH", ssoOf(inst.id), { token: owner, body: { client_secret: rotated } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.text).not.toContain(rotated);
    expect((await poolProvider(res.body.sso.provider_name))?.ProviderDetails).toMatchObject({ client_secret: rotated });
    // A new issuer needs the secret again; the type never changes.
    const issuerOnly = await call("PATCH", ssoOf(inst.id), { token: owner, body: { issuer: servedIssuer() } });
    expect(issuerOnly.body).toEqual({ errors: ["Give client_secret again when the issuer or client id changes"] });
    const retyped = await call("PATCH", ssoOf(inst.id), { token: owner, body: { type: "saml" } });
    expect(retyped.body).toEqual({ errors: ["Type cannot change: disconnect, then connect again"] });

    const events = [...(await trail("sso_connected")), ...(await trail("sso_updated"))].filter((e) => e.details.institution_id === inst.id);
    expect(events).toHaveLength(2);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(rotated);
    expect(events.find((e) => e.details.changes)?.details.changes).toEqual(["client_secret"]);
  });
});

describe("refusals: 422 saying what is wrong, and nothing stored", () => {
  let institutionId: string;
  beforeAll(async () => {
    institutionId = (await createInstitution(owner)).id;
  });

  async function refused(body: Record<string, unknown>): Promise<string[]> {
    const res = await call("POST", ssoOf(institutionId), { token: owner, body });
    expect(res.status, res.text).toBe(422);
    expect((await call("GET", ssoOf(institutionId), { token: owner })).status).toBe(404);
    return res.body.errors;
  }

  it("an unreachable metadata URL, one that answers 404, a document without a signing certificate or without SSO", async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    expect(await refused({ type: "saml", metadata_url: `http://127.0.0.1:${closed}/metadata.xml` })).toEqual([
      "Metadata url could not be reached (ECONNREFUSED)",
    ]);
    expect(await refused({ type: "saml", metadata_url: `${idp.url}/nothing-here.xml` })).toEqual([
      "Metadata url answered HTTP 404, not 200",
    ]);
    expect(await refused({ type: "saml", metadata_url: servedMetadata({ certificate: null }).url })).toEqual([
      "Metadata has no signing certificate",
    ]);
    expect(await refused({ type: "saml", metadata_url: servedMetadata({ certificate: "bm90IGEgY2VydGlmaWNhdGU=" }).url })).toEqual([
      "Metadata has no signing certificate",
    ]);
    const noSso = samlMetadata({ entityId: "urn:x", ssoUrl: "http://10.0.0.1/sso" });
    expect(await refused({ type: "saml", metadata_xml: noSso })).toEqual([
      "Metadata has no single sign-on service (HTTP-Redirect or HTTP-POST binding)",
    ]);
    expect(await refused({ type: "saml", metadata_xml: "<html><body>Sign in</body></html>" })).toEqual([
      "Metadata is not SAML 2.0 metadata (an EntityDescriptor)",
    ]);
    expect(await refused({ type: "saml", metadata_xml: "<md:EntityDescriptor" })).toEqual(["Metadata is not well-formed XML"]);
  });

  it("an issuer whose discovery document names another issuer, or that has none", async () => {
    const issuer = servedIssuer("https://login.elsewhere.test/");
    expect(await refused({ type: "oidc", issuer, client_id: "c", client_secret: "s" })).toEqual([
      "Issuer's discovery document names another issuer (https://login.elsewhere.test/): give the issuer exactly as it names itself",
    ]);
    expect(await refused({ type: "oidc", issuer: `${idp.url}/no-such-issuer`, client_id: "c", client_secret: "s" })).toEqual([
      "Issuer answered HTTP 404, not 200",
    ]);
  });

  it("the body's own problems, every message once", async () => {
    expect(await refused({ type: "ldap" })).toEqual(["Type must be saml or oidc"]);
    expect(await refused({ type: "saml" })).toEqual(["Give metadata_url or metadata_xml for a SAML connection"]);
    expect(await refused({ type: "saml", metadata_url: `${idp.url}/a`, metadata_xml: "<x/>" })).toEqual([
      "Give metadata_url or metadata_xml, not both",
    ]);
    expect(await refused({ type: "oidc", issuer: `${idp.url}/x` })).toEqual([
      "Client id must be 1 to 256 characters",
      "Client secret must be 1 to 1024 characters",
    ]);
    expect(
      await refused({
        type: "saml",
        metadata_xml: "<x/>",
        role_mappings: { "": "cohort_admin", Staff: "owner" },
        jit: { default_role: "root" },
      }),
    ).toEqual([
      "Jit must be {enabled, default_role} with default_role cohort_super_admin or cohort_admin",
      "Group names are 1 to 256 characters, on one line",
      "Role mappings map each group to cohort_super_admin or cohort_admin",
    ]);
  });
});

describe("changing and disconnecting", () => {
  it("PATCH changes only what it names (the pool's provider when its mapping changes); DELETE takes the provider and the client's entry away", async () => {
    const inst = await createInstitution(owner);
    const created = await call("POST", ssoOf(inst.id), { token: owner, body: { type: "saml", metadata_url: servedMetadata().url } });
    expect(created.status, created.text).toBe(201);
    const name = created.body.sso.provider_name as string;

    const settings = await call("PATCH", ssoOf(inst.id), {
      token: owner,
      body: {
        role_mappings: { Faculty: "cohort_super_admin" },
        jit: { enabled: true, default_role: "cohort_super_admin" },
        require_sso: true,
      },
    });
    expect(settings.status, settings.text).toBe(200);
    expect(settings.body.sso).toMatchObject({
      role_mappings: { Faculty: "cohort_super_admin" },
      jit: { enabled: true, default_role: "cohort_super_admin" },
      require_sso: true,
      attribute_mapping: created.body.sso.attribute_mapping,
    });
    const mapped = await call("PATCH", ssoOf(inst.id), {
      token: owner,
      body: { attribute_mapping: { email: "urn:oid:0.9.2342.19200300.100.1.3" } },
    });
    expect(mapped.status, mapped.text).toBe(200);
    expect((await poolProvider(name))?.AttributeMapping).toMatchObject({ email: "urn:oid:0.9.2342.19200300.100.1.3" });
    const moved = servedMetadata();
    const remetadata = await call("PATCH", ssoOf(inst.id), { token: owner, body: { metadata_url: moved.url } });
    expect(remetadata.body.sso.idp).toEqual({ entity_id: moved.entityId, metadata_url: moved.url });
    expect((await poolProvider(name))?.ProviderDetails).toMatchObject({ MetadataURL: moved.url });
    // Nothing changed: nothing written, nothing recorded.
    const before = (await trail("sso_updated")).filter((e) => e.details.institution_id === inst.id);
    expect((await call("PATCH", ssoOf(inst.id), { token: owner, body: { require_sso: true } })).status).toBe(200);
    const updates = (await trail("sso_updated")).filter((e) => e.details.institution_id === inst.id);
    expect(updates).toHaveLength(before.length);
    expect(updates.map((e) => e.details.changes).reverse()).toEqual([
      ["role_mappings", "jit", "require_sso"],
      ["attribute_mapping"],
      ["idp"],
    ]);

    const gone = await call("DELETE", ssoOf(inst.id), { token: owner });
    expect({ status: gone.status, body: gone.body }).toEqual({ status: 200, body: { message: "Single sign-on disconnected" } });
    expect(await poolProvider(name)).toBeUndefined();
    expect(await clientProviders()).not.toContain(name);
    expect((await call("GET", ssoOf(inst.id), { token: owner })).body).toEqual({ error: "No SSO connection" });
    expect((await call("DELETE", ssoOf(inst.id), { token: owner })).status).toBe(404);
    expect((await call("PATCH", ssoOf(inst.id), { token: owner, body: { require_sso: false } })).status).toBe(404);
    const [event] = (await trail("sso_disconnected")).filter((e) => e.details.institution_id === inst.id);
    expect(event?.details).toEqual({
      institution_id: inst.id,
      sso_connection: created.body.sso.id,
      provider_name: name,
      institution_name: inst.name,
    });
    // And it can connect again, under the same provider name.
    const back = await call("POST", ssoOf(inst.id), { token: owner, body: { type: "saml", metadata_url: moved.url } });
    expect(back.body.sso.provider_name).toBe(name);
  });

  it("institutions connecting at once all end up on the console's client (its list is read and written under a lock)", async () => {
    const institutions = await Promise.all(Array.from({ length: 6 }, () => createInstitution(owner)));
    const { url } = servedMetadata();
    const results = await Promise.all(
      institutions.map((i) => call("POST", ssoOf(i.id), { token: owner, body: { type: "saml", metadata_url: url } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const listed = await clientProviders();
    for (const r of results) expect(listed).toContain(r.body.sso.provider_name);
  });
});

describe("who may call", () => {
  it("the institution's super admin only: another administrator 403 (recorded), anyone else 404", async () => {
    const inst = await createInstitution(owner);
    await grantAccess(inst.id, await userIdOf(member), "cohort_super_admin");
    const forbidden = { error: "Only the institution's super admin can manage its single sign-on" };
    const body = { type: "saml", metadata_url: servedMetadata().url };
    for (const method of ["POST", "GET", "PATCH", "DELETE"] as const) {
      const opts = method === "GET" ? {} : { body };
      const mine = await call(method, ssoOf(inst.id), { token: member, ...opts });
      expect({ status: mine.status, body: mine.body }, method).toEqual({ status: 403, body: forbidden });
      const theirs = await call(method, ssoOf(inst.id), { token: stranger, ...opts });
      expect({ status: theirs.status, body: theirs.body }, method).toEqual({
        status: 404,
        body: { error: "Institution not found or access denied" },
      });
    }
    expect((await call("GET", ssoOf(inst.id), { token: owner })).status).toBe(404);
    const refusals = (await trail("insufficient_privileges")).filter((e) => e.details.institution_id === inst.id);
    expect(refusals.map((e) => e.details.action)).toEqual(Array(4).fill("manage_sso"));
  });
});

describe("home-realm discovery", () => {
  it("names the institution and its provider for an address on its verified domain; null otherwise; no token, nothing recorded", async () => {
    const inst = await createInstitution(owner, { name: uniq("Discovered College") });
    const domain = `${uniq("disc")}.test`;
    const added = await call("POST", `${INST}/${inst.id}/domains`, { token: owner, body: { domain } });
    const discover = async (email: unknown) => {
      const res = await call("POST", DISCOVER, { body: { email } });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    // Pending domain, no connection: nothing to say.
    expect(await discover(`ada@${domain}`)).toEqual({ sso: null });
    await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
    expect((await call("POST", `${INST}/${inst.id}/domains/${added.body.domain.id}/verify`, { token: owner })).body.domain.state).toBe(
      "verified",
    );
    // Verified, but no connection yet.
    expect(await discover(`ada@${domain}`)).toEqual({ sso: null });
    const connected = await call("POST", ssoOf(inst.id), { token: owner, body: { type: "saml", metadata_url: servedMetadata().url } });
    const events = (await trail("sso_connected")).length;

    const found = { sso: { provider_name: connected.body.sso.provider_name, institution: { name: inst.name } } };
    expect(await discover(`ada@${domain}`)).toEqual(found);
    expect(await discover(`  Ada.Lovelace@${domain.toUpperCase()} `)).toEqual(found);
    for (const other of [
      `ada@sub.${domain}`,
      "ada@gmail.com",
      "not an address",
      `@${domain}`,
      "x".repeat(400),
      `ada@${uniq("none")}.test`,
    ]) {
      expect(await discover(other), other).toEqual({ sso: null });
    }
    expect((await call("POST", DISCOVER, { body: {} })).status).toBe(400);
    expect((await call("POST", DISCOVER, { body: { email: 7 } })).status).toBe(400);
    // A token changes nothing: it is public either way.
    expect((await call("POST", DISCOVER, { token: owner, body: { email: `ada@${domain}` } })).body).toEqual(found);
    expect((await trail("sso_connected")).length).toBe(events);
  });
});
