/**
 * The bodies of `POST` and `PATCH /institutions/:id/sso` (docs/sso.md): `{type, metadata_url | metadata_xml}`
 * (SAML) or `{type, issuer, client_id, client_secret}` (OIDC), plus `attribute_mapping`, `role_mappings`, `jit`
 * and `require_sso`. Types and lengths here (valibot, the API document's source); what depends on the type,
 * and the role mappings, in `connectionInput` (code: a group name such as `__proto__` stays data).
 */
import * as v from "valibot";
import { ValidationFailed } from "../errors.js";
import { isRole, ROLES, type Role } from "../roles.js";
import { isPlainText } from "../text.js";
import type { AttributeMapping, Jit, RoleMapping, SsoType } from "./model.js";

export const SSO_ERRORS = {
  body: "param is missing or the value is empty: type",
  type: "Type must be saml or oidc",
  typeChange: "Type cannot change: disconnect, then connect again",
  samlSource: "Give metadata_url or metadata_xml for a SAML connection",
  samlBoth: "Give metadata_url or metadata_xml, not both",
  metadataUrl: "Metadata url must be a URL of at most 2048 characters",
  metadataXml: "Metadata xml must be text",
  issuer: "Issuer must be a URL of at most 2048 characters",
  clientId: "Client id must be 1 to 256 characters",
  clientSecret: "Client secret must be 1 to 1024 characters",
  secretAgain: "Give client_secret again when the issuer or client id changes",
  attribute: (key: string) => `Attribute mapping ${key} must be 1 to 256 characters, on one line`,
  mappings: "Role mappings must be an object of group names to roles",
  tooManyMappings: "Role mappings are at most 50",
  groupName: "Group names are 1 to 256 characters, on one line",
  mappedRole: `Role mappings map each group to ${ROLES.join(" or ")}`,
  jit: `Jit must be {enabled, default_role} with default_role ${ROLES.join(" or ")}`,
  requireSso: "Require sso must be true or false",
} as const;

const MAX_MAPPINGS = 50;
const MAX_NAME = 256;

const attribute = (key: string) =>
  v.optional(
    v.pipe(
      v.string(SSO_ERRORS.attribute(key)),
      v.trim(),
      v.check((s) => s.length > 0 && [...s].length <= MAX_NAME && isPlainText(s), SSO_ERRORS.attribute(key)),
    ),
  );

/** Every field, each optional: what applies to the type, and what POST requires, is `connectionInput`'s. */
export const ssoFields = v.object({
  type: v.optional(v.picklist(["saml", "oidc"], SSO_ERRORS.type)),
  metadata_url: v.optional(
    v.pipe(v.string(SSO_ERRORS.metadataUrl), v.trim(), v.minLength(1, SSO_ERRORS.metadataUrl), v.maxLength(2048, SSO_ERRORS.metadataUrl)),
  ),
  metadata_xml: v.optional(v.pipe(v.string(SSO_ERRORS.metadataXml), v.minLength(1, SSO_ERRORS.metadataXml))),
  issuer: v.optional(
    v.pipe(v.string(SSO_ERRORS.issuer), v.trim(), v.minLength(1, SSO_ERRORS.issuer), v.maxLength(2048, SSO_ERRORS.issuer)),
  ),
  client_id: v.optional(
    v.pipe(v.string(SSO_ERRORS.clientId), v.trim(), v.minLength(1, SSO_ERRORS.clientId), v.maxLength(256, SSO_ERRORS.clientId)),
  ),
  client_secret: v.optional(
    v.pipe(v.string(SSO_ERRORS.clientSecret), v.minLength(1, SSO_ERRORS.clientSecret), v.maxLength(1024, SSO_ERRORS.clientSecret)),
  ),
  attribute_mapping: v.optional(
    v.object({ email: attribute("email"), name: attribute("name"), groups: attribute("groups") }, SSO_ERRORS.attribute("email")),
  ),
  role_mappings: v.optional(v.unknown()),
  jit: v.optional(
    v.object(
      { enabled: v.optional(v.boolean(SSO_ERRORS.jit)), default_role: v.optional(v.picklist(ROLES, SSO_ERRORS.jit)) },
      SSO_ERRORS.jit,
    ),
  ),
  require_sso: v.optional(v.boolean(SSO_ERRORS.requireSso)),
});

/** Where the IdP's document comes from. */
export type Source =
  | { readonly type: "saml"; readonly metadata_url: string; readonly metadata_xml?: undefined }
  | { readonly type: "saml"; readonly metadata_xml: string; readonly metadata_url?: undefined }
  | { readonly type: "oidc"; readonly issuer: string; readonly client_id: string; readonly client_secret: string | undefined };

/** A body, checked: what it changes (PATCH) or sets (POST). */
export interface ConnectionInput {
  readonly type: SsoType;
  /** Absent on a PATCH that leaves the IdP as it is. */
  readonly source: Source | undefined;
  /** A PATCH that gives only a new client secret. */
  readonly clientSecret: string | undefined;
  readonly attribute_mapping: Partial<AttributeMapping> | undefined;
  readonly role_mappings: RoleMapping[] | undefined;
  readonly jit: Partial<Jit> | undefined;
  readonly require_sso: boolean | undefined;
}

/**
 * `role_mappings` as a list of `{group, role}`, in the order given; every name is data (own properties only,
 * read with `Object.entries`), so `__proto__` and `Constructor` are groups like any other.
 */
function parseRoleMappings(raw: unknown, errors: string[]): RoleMapping[] | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    errors.push(SSO_ERRORS.mappings);
    return undefined;
  }
  const entries = Object.entries(raw);
  if (entries.length > MAX_MAPPINGS) errors.push(SSO_ERRORS.tooManyMappings);
  if (entries.some(([name]) => name.trim() === "" || [...name].length > MAX_NAME || !isPlainText(name))) errors.push(SSO_ERRORS.groupName);
  if (!entries.every(([, role]) => isRole(role))) errors.push(SSO_ERRORS.mappedRole);
  const seen = new Set<string>();
  const out: RoleMapping[] = [];
  for (const [name, role] of entries) {
    const group = name.trim();
    if (seen.has(group)) continue;
    seen.add(group);
    out.push({ group, role: role as Role });
  }
  return out;
}

/**
 * Checks a body against the fields (422 `{errors}`, every message once) and the type: POST (`current`
 * undefined) needs a type and its source; PATCH takes the connection's type, and a new source replaces the IdP.
 */
export function connectionInput(body: unknown, current: { type: SsoType } | undefined): ConnectionInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ValidationFailed([SSO_ERRORS.body]);
  const parsed = v.safeParse(ssoFields, body);
  const errors = parsed.success ? [] : [...new Set(parsed.issues.map((i) => i.message))];
  const roleMappings = parseRoleMappings((body as Record<string, unknown>).role_mappings, errors);
  if (!parsed.success || errors.length > 0) throw new ValidationFailed(errors);
  const f = parsed.output;
  const type = current?.type ?? f.type;
  if (type === undefined) throw new ValidationFailed([SSO_ERRORS.type]);
  if (current && f.type !== undefined && f.type !== current.type) throw new ValidationFailed([SSO_ERRORS.typeChange]);
  let source: Source | undefined;
  let clientSecret: string | undefined;
  if (type === "saml") {
    if (f.metadata_url !== undefined && f.metadata_xml !== undefined) throw new ValidationFailed([SSO_ERRORS.samlBoth]);
    if (f.metadata_url !== undefined) source = { type, metadata_url: f.metadata_url };
    else if (f.metadata_xml !== undefined) source = { type, metadata_xml: f.metadata_xml };
    else if (!current) throw new ValidationFailed([SSO_ERRORS.samlSource]);
  } else {
    const changesIdp = f.issuer !== undefined || f.client_id !== undefined;
    if (!current || changesIdp) {
      const missing: string[] = [];
      if (f.issuer === undefined && !current) missing.push(SSO_ERRORS.issuer);
      if (f.client_id === undefined && !current) missing.push(SSO_ERRORS.clientId);
      if (f.client_secret === undefined) missing.push(current ? SSO_ERRORS.secretAgain : SSO_ERRORS.clientSecret);
      if (missing.length > 0) throw new ValidationFailed(missing);
    }
    if (changesIdp || !current) {
      // On a PATCH the one left out stays as it is: the use case fills it in from the connection.
      source = { type, issuer: f.issuer ?? "", client_id: f.client_id ?? "", client_secret: f.client_secret };
    } else clientSecret = f.client_secret;
  }
  return {
    type,
    source,
    clientSecret,
    attribute_mapping: f.attribute_mapping,
    role_mappings: roleMappings,
    jit: f.jit,
    require_sso: f.require_sso,
  };
}
