/**
 * The SSO connection's and home-realm discovery's response bodies (docs/sso.md), in valibot: schemas of the
 * API document under these names (see shared/responses.ts). Only the document and type-only imports use this
 * module. Never the client secret.
 */
import * as v from "valibot";
import { Id, Role, Timestamp } from "../responses.js";

const text = (description: string) => v.pipe(v.string(), v.description(description));

export const SsoConnection = v.pipe(
  v.strictObject({
    id: Id,
    type: v.picklist(["saml", "oidc"]),
    provider_name: text("The identity provider's name in the user pool (`identity_provider` of the managed login)."),
    sp: v.pipe(
      v.union([
        v.strictObject({
          entity_id: text("SP entity ID (audience): `urn:amazon:cognito:sp:<user pool id>`."),
          acs_url: text("Assertion consumer service (reply) URL: `<pool domain>/saml2/idpresponse`."),
        }),
        v.strictObject({ redirect_uri: text("The redirect URI to register with the OIDC client: `<pool domain>/oauth2/idpresponse`.") }),
      ]),
      v.description("What the IdP's administrator pastes there: SAML's entity ID and ACS URL, or OIDC's redirect URI."),
    ),
    idp: v.pipe(
      v.union([
        v.strictObject({
          entity_id: text("The IdP's entity ID, from its metadata."),
          metadata_url: v.pipe(v.nullable(v.string()), v.description("Where the metadata was read; null when it was given as XML.")),
        }),
        v.strictObject({ issuer: v.string(), client_id: v.string() }),
      ]),
      v.description("The identity provider as checked when saved."),
    ),
    attribute_mapping: v.pipe(
      v.strictObject({ email: v.string(), name: v.string(), groups: v.string() }),
      v.description("The IdP's attribute (SAML) or claim (OIDC) names for e-mail, name and groups."),
    ),
    role_mappings: v.pipe(v.record(v.string(), Role), v.description("IdP group → role, for membership on first sign-in.")),
    jit: v.pipe(
      v.strictObject({ enabled: v.boolean(), default_role: Role }),
      v.description("Membership on first sign-in: the highest mapped role of the person's groups, else `default_role`."),
    ),
    require_sso: v.pipe(v.boolean(), v.description("People on the institution's verified domains sign in through the IdP only.")),
    created_at: Timestamp,
    updated_at: Timestamp,
  }),
  v.description("The institution's single sign-on connection. The OIDC client secret is write-only."),
);

export const SsoConnectionShown = v.strictObject({ sso: SsoConnection });

export const SsoDiscovery = v.pipe(
  v.strictObject({
    sso: v.nullable(
      v.strictObject({
        provider_name: text("Pass as `identity_provider` to the pool's managed login."),
        institution: v.strictObject({ name: v.string() }),
      }),
    ),
  }),
  v.description("The institution whose verified domain the e-mail is on and that has a connection, or null."),
);
