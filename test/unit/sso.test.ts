/**
 * The pure rules of docs/sso.md: what a verifiable domain is, what SAML metadata and an OIDC discovery
 * document must hold, the pool's provider name, the app client's provider list, and the connection body's checks
 * (group names are data).
 */
import { describe, expect, it } from "vitest";
import { domainOfEmail } from "../../shared/domains/form.js";
import { effectiveState } from "../../shared/domains/model.js";
import { checkDomain, DOMAIN_ERRORS } from "../../shared/domains/name.js";
import type { ValidationFailed } from "../../shared/errors.js";
import { clientProviders } from "../../shared/sso/app-client.js";
import { METADATA_ERRORS, parseIdpMetadata } from "../../shared/sso/metadata.js";
import { providerNameOf } from "../../shared/sso/model.js";
import { checkDiscovery, discoveryUrl } from "../../shared/sso/oidc.js";
import { connectionInput, SSO_ERRORS } from "../../shared/sso/schema.js";
import { SIGNING_CERTIFICATE, samlMetadata } from "../support/sso.js";

const anyUrl = () => true;

describe("a verifiable domain", () => {
  it("is kept lower-cased, in its ASCII form, without a trailing dot", () => {
    expect(checkDomain(" Bücher.DE. ")).toEqual({ domain: "xn--bcher-kva.de" });
    expect(checkDomain("ＡＣＭＥ.edu")).toEqual({ domain: "acme.edu" });
    expect(checkDomain("cs.acme.ac.uk")).toEqual({ domain: "cs.acme.ac.uk" });
  });

  it("refuses public suffixes (private ones too), consumer providers and what is no domain name", () => {
    expect(checkDomain("ac.uk")).toEqual({ errors: [DOMAIN_ERRORS.publicSuffix] });
    expect(checkDomain("blogspot.com")).toEqual({ errors: [DOMAIN_ERRORS.publicSuffix] });
    expect(checkDomain("googlemail.com")).toEqual({ errors: [DOMAIN_ERRORS.consumer] });
    expect(checkDomain("eu.mail.yahoo.com")).toEqual({ errors: [DOMAIN_ERRORS.consumer] });
    for (const bad of ["acme..edu", "-acme.edu", "acme-.edu", "ac_me.edu", "10.0.0.1", "[::1]", "acme.edu/x", "a%2eb.edu", "acme.123"]) {
      expect(checkDomain(bad), bad).toEqual({ errors: [DOMAIN_ERRORS.invalid] });
    }
    expect(checkDomain("edu")).toEqual({ errors: [DOMAIN_ERRORS.oneLabel] });
    expect(checkDomain("   ")).toEqual({ errors: [DOMAIN_ERRORS.blank] });
  });

  it("is an e-mail's domain only when it could be one", () => {
    expect(domainOfEmail("ada@Acme.EDU")).toBe("acme.edu");
    // Its form only (form.ts): a consumer domain is never verified, so its lookup finds nothing either way.
    expect(domainOfEmail("ada@gmail.com")).toBe("gmail.com");
    expect(domainOfEmail("ada@bücher.de")).toBe("xn--bcher-kva.de");
    expect(domainOfEmail("ada@localhost")).toBeUndefined();
    expect(domainOfEmail("ada@")).toBeUndefined();
    expect(domainOfEmail("acme.edu")).toBeUndefined();
  });

  it("has failed 7 days after it was added while still pending, and not before", () => {
    const added = { state: "pending" as const, created_at: "2026-01-01T00:00:00.000Z" };
    expect(effectiveState(added, new Date("2026-01-07T23:59:59.999Z"))).toBe("pending");
    expect(effectiveState(added, new Date("2026-01-08T00:00:00.000Z"))).toBe("failed");
    expect(effectiveState({ ...added, state: "verified" }, new Date("2027-01-01T00:00:00.000Z"))).toBe("verified");
  });
});

describe("SAML metadata", () => {
  const md = (extra = "", opts: { certificate?: string | null } = {}) =>
    samlMetadata({ entityId: "https://idp.test/e", ssoUrl: "https://idp.test/sso", extra, ...opts });

  it("gives the IdP's entity ID, its single sign-on services (redirect first) and signing certificates", async () => {
    const post = '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.test/post"/>';
    const parsed = await parseIdpMetadata(md(post), anyUrl);
    expect(parsed).toEqual({
      idp: {
        entity_id: "https://idp.test/e",
        sso: [
          { binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect", location: "https://idp.test/sso" },
          { binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", location: "https://idp.test/post" },
        ],
        certificates: [SIGNING_CERTIFICATE],
      },
    });
  });

  it("needs a signing certificate (an encryption key is none) and a single sign-on service the check allows", async () => {
    const encryptionOnly = md().replace('use="signing"', 'use="encryption"');
    expect(await parseIdpMetadata(encryptionOnly, anyUrl)).toEqual({ errors: [METADATA_ERRORS.noCertificate] });
    expect(await parseIdpMetadata(md("", { certificate: null }), () => false)).toEqual({
      errors: [METADATA_ERRORS.noCertificate, METADATA_ERRORS.noSso],
    });
  });

  it("refuses a DOCTYPE or entity before parsing, several IdPs, and what is not metadata", async () => {
    expect(await parseIdpMetadata(`<!DOCTYPE x>${md()}`, anyUrl)).toEqual({ errors: [METADATA_ERRORS.doctype] });
    const entity = md().replace('entityID="https://idp.test/e"', 'entityID="https://idp.test/e"');
    const two = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${[entity, entity.replace("/e", "/f")].map((e) => e.replace('<?xml version="1.0" encoding="UTF-8"?>', "")).join("")}</md:EntitiesDescriptor>`;
    expect(await parseIdpMetadata(two, anyUrl)).toEqual({ errors: [METADATA_ERRORS.several] });
    expect(await parseIdpMetadata('<EntityDescriptor xmlns="urn:other"/>', anyUrl)).toEqual({ errors: [METADATA_ERRORS.notMetadata] });
    expect(await parseIdpMetadata("", anyUrl)).toEqual({ errors: [METADATA_ERRORS.malformed] });
  });
});

describe("an OIDC discovery document", () => {
  const doc = (fields: Record<string, unknown>) => JSON.stringify({ issuer: "https://idp.test", ...fields });
  const endpoints = { authorization_endpoint: "https://idp.test/a", token_endpoint: "https://idp.test/t", jwks_uri: "https://idp.test/k" };

  it("names exactly the issuer given, with the endpoints a sign-in needs", () => {
    expect(discoveryUrl("https://idp.test/tenant/")).toBe("https://idp.test/tenant/.well-known/openid-configuration");
    expect(checkDiscovery("https://idp.test", doc(endpoints), anyUrl)).toEqual({
      idp: { issuer: "https://idp.test", ...endpoints, userinfo_endpoint: null },
    });
    expect(checkDiscovery("https://idp.test/", doc(endpoints), anyUrl)).toMatchObject({
      errors: [expect.stringContaining("another issuer")],
    });
    expect(checkDiscovery("https://idp.test", doc({ token_endpoint: 7 }), anyUrl)).toEqual({
      errors: [
        "Issuer's discovery document has no authorization_endpoint",
        "Issuer's discovery document has no token_endpoint",
        "Issuer's discovery document has no jwks_uri",
      ],
    });
    // Inherited properties are no fields of the document.
    expect(checkDiscovery("https://idp.test", "{}", anyUrl)).toEqual({ errors: ["Issuer's discovery document has no issuer"] });
    expect(checkDiscovery("https://idp.test", "[1]", anyUrl)).toEqual({ errors: ["Issuer's discovery document is not a JSON object"] });
  });
});

describe("the pool's provider name", () => {
  it("is the name's letters and digits and 10 characters of the id: at most 32, stable, never empty", () => {
    const id = "01KAB6Q2M4N8P0R2T4V6X8Y0Z1";
    expect(providerNameOf({ id, name: "École Polytechnique Fédérale de Lausanne" })).toBe("ecole-polytechnique-f-t4v6x8y0z1");
    expect(providerNameOf({ id, name: "東京大学" })).toBe("institution-t4v6x8y0z1");
    for (const name of ["a".repeat(300), "--x--", "Ünï"]) {
      const made = providerNameOf({ id, name });
      expect(made.length).toBeLessThanOrEqual(32);
      expect(made).toMatch(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/);
    }
  });
});

describe("the console app client's provider list", () => {
  it("is the institutions' providers alone, once each: the managed login's password form (COGNITO) is not offered", () => {
    expect(clientProviders(["acme-01K", "COGNITO", "beta-01K", "acme-01K"])).toEqual(["acme-01K", "beta-01K"]);
    expect(clientProviders(["COGNITO", "acme-01K"])).toEqual(["acme-01K"]);
  });

  it("is COGNITO alone while no institution is connected: an OAuth client lists one provider", () => {
    expect(clientProviders([])).toEqual(["COGNITO"]);
    expect(clientProviders(["COGNITO"])).toEqual(["COGNITO"]);
  });
});

describe("the connection's body", () => {
  const fail = (body: unknown, current?: { type: "saml" | "oidc" }) => {
    try {
      connectionInput(body, current);
    } catch (err) {
      return (err as ValidationFailed).errors;
    }
    return [];
  };

  it("keeps group names as data, in order: __proto__ and constructor are groups", () => {
    const body = JSON.parse(
      '{"type":"saml","metadata_xml":"<x/>","role_mappings":{"__proto__":"cohort_admin","constructor":"cohort_super_admin"}}',
    );
    expect(connectionInput(body, undefined).role_mappings).toEqual([
      { group: "__proto__", role: "cohort_admin" },
      { group: "constructor", role: "cohort_super_admin" },
    ]);
    expect(({} as Record<string, unknown>).cohort_admin).toBeUndefined();
  });

  it("asks what the type needs on POST; on PATCH the type stays and a new issuer needs the secret", () => {
    expect(fail({})).toEqual([SSO_ERRORS.type]);
    expect(fail([])).toEqual([SSO_ERRORS.body]);
    expect(fail({ type: "oidc", issuer: "https://idp.test", client_id: "c" })).toEqual([SSO_ERRORS.clientSecret]);
    expect(fail({ client_id: "d" }, { type: "oidc" })).toEqual([SSO_ERRORS.secretAgain]);
    expect(fail({ type: "oidc" }, { type: "saml" })).toEqual([SSO_ERRORS.typeChange]);
    expect(connectionInput({ client_secret: "s" }, { type: "oidc" })).toMatchObject({ source: undefined, clientSecret: "s" });
    expect(connectionInput({ require_sso: true }, { type: "saml" })).toMatchObject({ source: undefined, require_sso: true });
    expect(
      fail({ role_mappings: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`g${i}`, "cohort_admin"])) }, { type: "saml" }),
    ).toEqual([SSO_ERRORS.tooManyMappings]);
  });
});
