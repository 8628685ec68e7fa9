/**
 * The SSO connection as stored (docs/sso.md), and the values Cognito's documented behaviour gives it: the
 * provider's name in the pool, the SP entity ID, the ACS URL, the OIDC redirect URI. Never the client secret,
 * which lives in the pool's identity provider alone (locally, in the local Cognito's stand-in of it).
 */
import type { Role } from "../roles.js";
import type { SamlIdp } from "./metadata.js";
import type { OidcIdp } from "./oidc.js";

export type SsoType = "saml" | "oidc";

/** The pool's custom attribute the IdP's groups are mapped to (infra/identity.ts), read by the sign-in triggers. */
export const SSO_GROUPS_ATTRIBUTE = "custom:sso_groups";

/** IdP attribute or claim names read for each of ours. */
export interface AttributeMapping {
  email: string;
  name: string;
  groups: string;
}

/** One group's role. A list, not a map: a group may be called `__proto__` or `constructor` (docs/code-structure.md). */
export interface RoleMapping {
  group: string;
  role: Role;
}

export interface Jit {
  enabled: boolean;
  default_role: Role;
}

export interface Connection {
  id: string;
  institution_id: string;
  account_id: string;
  type: SsoType;
  /** The pool's identity provider of the institution. */
  provider_name: string;
  /** `pending` while it is being made (its identity provider and the app client's list), `active` after. */
  status: "pending" | "active";
  /** Who changes it now (the pool's side first, then this item), and until when (epoch ms); absent when nobody. */
  lease_owner?: string;
  lease_until?: number;
  saml?: { metadata_url: string | null; idp: SamlIdp };
  oidc?: { client_id: string; idp: OidcIdp };
  attribute_mapping: AttributeMapping;
  role_mappings: RoleMapping[];
  jit: Jit;
  require_sso: boolean;
  created_at: string;
  updated_at: string;
  version: number;
}

/** Entra ID's claim URIs for SAML; the standard claims for OIDC (docs/sso.md). */
export const DEFAULT_MAPPINGS: Readonly<Record<SsoType, AttributeMapping>> = {
  saml: {
    email: "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
    name: "http://schemas.microsoft.com/identity/claims/displayname",
    groups: "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups",
  },
  oidc: { email: "email", name: "name", groups: "groups" },
};

/**
 * The institution's identity provider's name in the pool: its name as letters, digits and hyphens (at most 21),
 * a hyphen and the last 10 characters of its id (random, so unique in the pool), lower case: at most 32
 * characters, as Cognito allows, and never one of Cognito's own (`COGNITO`, `Google`…).
 */
export function providerNameOf(institution: { id: string; name: string }): string {
  const slug = institution.name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 21)
    .replace(/-+$/, "");
  return `${slug || "institution"}-${institution.id.slice(-10).toLowerCase()}`;
}

/** A lease outlives the pool's calls it covers (each bounded to seconds) with a margin; then anyone may take it. */
export const LEASE_MS = 60_000;
