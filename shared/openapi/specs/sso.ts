/**
 * Verified domains, the SSO connection and home-realm discovery in the API document (docs/sso.md), by route
 * key (see shared/openapi/spec.ts).
 */
import type { JsonSchema } from "@valibot/to-json-schema";
import { DOMAIN_ERRORS } from "../../domains/name.js";
import { ROLES } from "../../roles.js";
import { paths } from "../../routes.js";
import { ssoFields } from "../../sso/schema.js";
import { schemaRef as ref, type Schema } from "../components.js";
import { convertObject } from "../requests.js";
import type { Spec } from "../spec.js";
import { institutionId, instNotFound, validation } from "./common.js";

const inst = paths.institutions;
const domainId: Schema = { name: "domain_id", in: "path", required: true, description: "The domain's id.", schema: { type: "string" } };
const domainsForbidden = { 403: { superAdmin: "Only the institution's super admin can manage its domains" } };
const ssoForbidden = { 403: { superAdmin: "Only the institution's super admin can manage its single sign-on" } };

const domainExample = {
  id: "01JD3Z8Q9X4T7V2N5M8K1C6B0D",
  domain: "acme.edu",
  state: "pending",
  verification: {
    record_type: "TXT",
    record_name: "_institution-admin-challenge.acme.edu",
    record_value: "n3N0yTj2mQ4cZ8l5w3sXkq1PpB7vYd9eRu6oHf0…",
  },
  created_at: "2026-11-23T16:33:19.655Z",
  verified_at: null,
  last_checked_at: null,
  last_error: null,
};
const verifiedExample = {
  ...domainExample,
  state: "verified",
  verified_at: "2026-11-23T17:02:41.120Z",
  last_checked_at: "2026-11-23T17:02:41.120Z",
};
const ssoExample = {
  id: "01JD3Z8Q9X4T7V2N5M8K1C6B0E",
  type: "saml",
  provider_name: "acme-college-m8k1c6b0e7",
  sp: {
    entity_id: "urn:amazon:cognito:sp:us-east-1_AbCdEfGhI",
    acs_url: "https://institution-admin.auth.us-east-1.amazoncognito.com/saml2/idpresponse",
  },
  idp: {
    entity_id: "https://sts.windows.net/0d2b…/",
    metadata_url: "https://login.microsoftonline.com/0d2b…/federationmetadata/2007-06/federationmetadata.xml",
  },
  attribute_mapping: {
    email: "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
    name: "http://schemas.microsoft.com/identity/claims/displayname",
    groups: "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups",
  },
  role_mappings: { "Campus admins": "cohort_super_admin", Staff: "cohort_admin" },
  jit: { enabled: true, default_role: "cohort_admin" },
  require_sso: false,
  created_at: "2026-11-23T16:40:02.311Z",
  updated_at: "2026-11-23T16:40:02.311Z",
};

/** The connection's body: the fields from the valibot schema, `role_mappings` said as what it is (checked by code). */
function ssoBody(errorMode: "throw" | "ignore", create: boolean): Schema {
  const roleMappings = {
    type: "object",
    additionalProperties: { type: "string", enum: [...ROLES] },
    maxProperties: 50,
    description: "IdP group name → role. Any group name (1–256 characters, one line) is data, `__proto__` included.",
  };
  const body = convertObject(
    ssoFields,
    errorMode,
    new Map<unknown, JsonSchema>([[ssoFields.entries.role_mappings, roleMappings as JsonSchema]]),
  );
  return {
    ...body,
    description: create
      ? "SAML: `type`, and `metadata_url` or `metadata_xml`. OIDC: `type`, `issuer`, `client_id`, `client_secret` (write-only). The rest optional."
      : "Any of the fields, each optional; `type` cannot change. A new `issuer` or `client_id` needs `client_secret` again.",
    ...(create && { required: ["type"] }),
  };
}

export function ssoSpecs(errorMode: "throw" | "ignore"): Record<string, Spec> {
  const domainNotFound = { ...instNotFound, domain: "Domain not found" };
  const ssoShown = { schema: ref("SsoConnectionShown"), example: { sso: ssoExample } };
  return {
    [`GET ${inst}/{id}/domains`]: {
      operationId: "listDomains",
      summary: "List the institution's domains",
      description: "Oldest first, each with its state and the TXT record to publish. A domain pending for 7 days shows as `failed`.",
      tag: "Single sign-on",
      parameters: [institutionId],
      success: { status: "200", description: "The domains.", schema: ref("DomainList"), example: { domains: [domainExample] } },
      errors: { 404: instNotFound },
    },
    [`POST ${inst}/{id}/domains`]: {
      operationId: "addDomain",
      summary: "Add a mail domain to verify",
      description:
        "Lower-cased and put in its ASCII (IDNA) form; at least two labels; not a public suffix; not a consumer mail provider's. At most 20 per institution. Answers the TXT record to publish at `_institution-admin-challenge.<domain>`, then verify. Logs `domain_added`.",
      tag: "Single sign-on",
      parameters: [institutionId],
      body: {
        schema: {
          type: "object",
          properties: {
            domain: { type: "string", maxLength: 1024, description: "A mail domain of the institution, e.g. `acme.edu` or `bücher.de`." },
          },
          required: ["domain"],
        },
        example: { domain: "acme.edu" },
      },
      success: { status: "201", description: "Added, pending.", schema: ref("DomainShown"), example: { domain: domainExample } },
      errors: {
        ...domainsForbidden,
        404: instNotFound,
        422: validation(DOMAIN_ERRORS.publicSuffix, DOMAIN_ERRORS.consumer),
      },
    },
    [`POST ${inst}/{id}/domains/{domain_id}/verify`]: {
      operationId: "verifyDomain",
      summary: "Verify a domain now",
      description:
        "Looks the TXT record up now. Found with the domain's value: `verified` (logs `domain_verified`). Otherwise it stays `pending` with `last_checked_at` and `last_error` (logs `domain_verification_failed`); 7 days after it was added it is `failed`. A verified or failed domain is answered as it is. A domain is verified by at most one institution: 409 when another has it.",
      tag: "Single sign-on",
      parameters: [institutionId, domainId],
      success: {
        status: "200",
        description: "The domain after the lookup.",
        schema: ref("DomainShown"),
        example: { domain: verifiedExample },
      },
      errors: { ...domainsForbidden, 404: domainNotFound, 409: { taken: "Domain is verified by another institution" } },
    },
    [`DELETE ${inst}/{id}/domains/{domain_id}`]: {
      operationId: "removeDomain",
      summary: "Remove a domain",
      description: "A verified domain becomes free for another institution to verify. Logs `domain_removed`.",
      tag: "Single sign-on",
      parameters: [institutionId, domainId],
      success: { status: "200", description: "Removed.", schema: ref("Message"), example: { message: "Domain removed" } },
      errors: { ...domainsForbidden, 404: domainNotFound },
    },
    [`POST ${inst}/{id}/sso`]: {
      operationId: "connectSso",
      summary: "Connect the institution's identity provider (SAML 2.0 or OpenID Connect)",
      description:
        "The metadata (SAML: an IdP descriptor with a signing certificate and a single sign-on service) or the discovery document (OIDC: its `issuer` equal to the one given) is fetched and checked now, from https URLs to public hosts only (as webhooks). The user pool gets the institution's identity provider, listed for the console. Answers the values the IdP's administrator pastes (`sp`). Logs `sso_connected`.",
      tag: "Single sign-on",
      parameters: [institutionId],
      body: {
        schema: ssoBody(errorMode, true),
        example: { type: "saml", metadata_url: ssoExample.idp.metadata_url, jit: { enabled: true, default_role: "cohort_admin" } },
      },
      success: { status: "201", description: "Connected.", ...ssoShown },
      errors: {
        ...ssoForbidden,
        404: instNotFound,
        409: { exists: "The institution has an SSO connection already: change it with PATCH, or disconnect it first" },
        422: validation("Metadata has no signing certificate"),
        502: { pool: "The user pool could not be updated, please retry" },
      },
    },
    [`GET ${inst}/{id}/sso`]: {
      operationId: "showSso",
      summary: "Read the institution's SSO connection",
      description: "Never the client secret.",
      tag: "Single sign-on",
      parameters: [institutionId],
      success: { status: "200", description: "The connection.", ...ssoShown },
      errors: { ...ssoForbidden, 404: { ...instNotFound, connection: "No SSO connection" } },
    },
    [`PATCH ${inst}/{id}/sso`]: {
      operationId: "updateSso",
      summary: "Change the institution's SSO connection",
      description:
        "The fields of connect, each optional. A new IdP document is checked as on connect. Logs `sso_updated` with the fields that changed.",
      tag: "Single sign-on",
      parameters: [institutionId],
      body: { schema: ssoBody(errorMode, false), example: { require_sso: true, role_mappings: { Staff: "cohort_admin" } } },
      success: { status: "200", description: "Changed.", ...ssoShown },
      errors: {
        ...ssoForbidden,
        404: { ...instNotFound, connection: "No SSO connection" },
        409: { busy: "The SSO connection is being changed, please retry" },
        422: validation(
          "Issuer's discovery document names another issuer (https://other.example/): give the issuer exactly as it names itself",
        ),
        502: { pool: "The user pool could not be updated, please retry" },
      },
    },
    [`DELETE ${inst}/{id}/sso`]: {
      operationId: "disconnectSso",
      summary: "Disconnect the institution's identity provider",
      description: "The pool's identity provider goes, and with it the console's way to sign in through it. Logs `sso_disconnected`.",
      tag: "Single sign-on",
      parameters: [institutionId],
      success: { status: "200", description: "Disconnected.", schema: ref("Message"), example: { message: "Single sign-on disconnected" } },
      errors: {
        ...ssoForbidden,
        404: { ...instNotFound, connection: "No SSO connection" },
        409: { busy: "The SSO connection is being changed, please retry" },
        502: { pool: "The user pool could not be updated, please retry" },
      },
    },
    [`POST ${paths.ssoDiscover}`]: {
      operationId: "discoverSso",
      summary: "Find the identity provider of an e-mail address (home-realm discovery)",
      description:
        "Public. `sso` names the institution whose verified domain the address is on and its provider, when it has a connection; otherwise null. It refuses nothing and records nothing.",
      tag: "Single sign-on",
      body: {
        schema: { type: "object", properties: { email: { type: "string", maxLength: 1024 } }, required: ["email"] },
        example: { email: "ada@acme.edu" },
      },
      success: {
        status: "200",
        description: "The address's institution and provider, or null.",
        schema: ref("SsoDiscovery"),
        example: { sso: { provider_name: ssoExample.provider_name, institution: { name: "Acme College" } } },
      },
    },
  };
}
