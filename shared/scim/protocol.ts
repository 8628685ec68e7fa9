/**
 * SCIM 2.0 as RFC 7643/7644 define it, without storage: URNs, the error shape, attribute names (case-insensitive,
 * stored in their canonical spelling), the e-mail §15 derives from a user, and `attributes` /
 * `excludedAttributes`.
 */
import { DomainError } from "../errors.js";

export const URN = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  enterprise: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  list: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patch: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

export const SCIM_CONTENT_TYPE = "application/scim+json";

/** RFC 7644 §3.12 `scimType`s this service answers. */
export type ScimType =
  | "invalidFilter"
  | "tooMany"
  | "uniqueness"
  | "mutability"
  | "invalidSyntax"
  | "invalidPath"
  | "noTarget"
  | "invalidValue";

/** An error in the RFC's shape: `{schemas: [Error], status, scimType?, detail}` (status as a string, as the RFC's examples). */
export class ScimError extends DomainError {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
  override body() {
    return scimErrorBody(this.status, this.message, this.scimType);
  }
}

export const scimErrorBody = (status: number, detail: string, scimType?: ScimType) => ({
  schemas: [URN.error],
  status: String(status),
  ...(scimType && { scimType }),
  detail,
});

export const notFound = (id: string) => new ScimError(404, `Resource ${id.slice(0, 64)} not found`);

/** At most this much JSON per resource (DESIGN.md §15). */
export const MAX_RESOURCE_BYTES = 16 * 1024;
/** `count` at most. */
export const MAX_COUNT = 200;

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Canonical spellings of the attribute names this service reads, by lower-cased name (sub-attributes per parent). */
const CANONICAL: Record<string, string> = Object.fromEntries(
  [
    "userName",
    "name",
    "displayName",
    "nickName",
    "profileUrl",
    "title",
    "userType",
    "preferredLanguage",
    "locale",
    "timezone",
    "active",
    "password",
    "emails",
    "phoneNumbers",
    "ims",
    "photos",
    "addresses",
    "groups",
    "entitlements",
    "roles",
    "x509Certificates",
    "externalId",
    "members",
    "schemas",
    "id",
    "meta",
  ].map((n) => [n.toLowerCase(), n]),
);
const SUB: Record<string, string> = Object.fromEntries(
  [
    "value",
    "display",
    "type",
    "primary",
    "formatted",
    "familyName",
    "givenName",
    "middleName",
    "honorificPrefix",
    "honorificSuffix",
    "$ref",
    "streetAddress",
    "locality",
    "region",
    "postalCode",
    "country",
    "employeeNumber",
    "costCenter",
    "organization",
    "division",
    "department",
    "manager",
    "displayName",
  ].map((n) => [n.toLowerCase(), n]),
);
const URNS = [URN.user, URN.group, URN.enterprise];

/** A key in its canonical spelling: known attribute names and URNs, whatever case the directory sent. */
function canonicalKey(key: string, top: boolean): string {
  const lower = key.toLowerCase();
  const urn = URNS.find((u) => u.toLowerCase() === lower);
  if (urn) return urn;
  return (top ? CANONICAL[lower] : SUB[lower]) ?? key;
}

/**
 * The resource with canonical attribute names (RFC 7643 §2.1: names are case-insensitive), the core URN's
 * attributes lifted to the top (`{"urn:…:core:2.0:User": {...}}` as some clients send them) and `active`
 * a boolean (Entra ID sends "True"/"False").
 */
export function canonical(resource: Json): Json {
  const out: Json = {};
  for (const [rawKey, value] of Object.entries(resource)) {
    const key = canonicalKey(rawKey, true);
    if (key === URN.user || key === URN.group) {
      if (isObject(value)) Object.assign(out, canonical(value));
      continue;
    }
    out[key] = canonicalValue(value);
  }
  if ("active" in out) out.active = toBoolean(out.active);
  return out;
}

function canonicalValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const key = canonicalKey(k, false);
    out[key] = key === "primary" ? toBoolean(v) : canonicalValue(v);
  }
  return out;
}

/** A boolean as directories send it: true/false, or the strings "True"/"False" in any case. */
export function toBoolean(v: unknown): unknown {
  if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
  return v;
}

/** An address as far as provisioning needs one; no quote or backslash, so it goes into a Cognito filter as is. */
const EMAIL = /^[^\s@"\\]+@[^\s@"\\]+\.[^\s@"\\]+$/;
const isAddress = (v: unknown): v is string =>
  typeof v === "string" && v.length <= 254 && EMAIL.test(v.trim()) && !/\p{Cc}|\p{Cf}/u.test(v);

/**
 * The e-mail a user grants access to (DESIGN.md §15): the primary `emails` value that is an address, else the
 * first that is, else `userName` when it is one; lower-cased. Undefined: the user grants nothing.
 */
export function emailOf(attributes: Json): string | undefined {
  const emails = Array.isArray(attributes.emails) ? attributes.emails.filter(isObject) : [];
  const primary = emails.find((e) => e.primary === true && isAddress(e.value));
  const first = emails.find((e) => isAddress(e.value));
  const chosen = primary?.value ?? first?.value ?? (isAddress(attributes.userName) ? attributes.userName : undefined);
  return typeof chosen === "string" ? chosen.trim().toLowerCase() : undefined;
}

/** A person's name from a user resource, for a new pool user: `name.formatted`, given and family, or `displayName`. */
export function nameOf(attributes: Json): string | undefined {
  const n = isObject(attributes.name) ? attributes.name : {};
  const parts = [n.givenName, n.familyName].filter((p): p is string => typeof p === "string" && p.trim() !== "");
  const name = [n.formatted, parts.join(" "), attributes.displayName].find((v): v is string => typeof v === "string" && v.trim() !== "");
  return (
    name
      ?.replace(/[\p{Cc}\p{Cf}]/gu, " ")
      .trim()
      .slice(0, 128) || undefined
  );
}

/** userName and displayName are unique case-insensitively: compared folded. */
export const fold = (s: string): string => s.normalize("NFKC").toLowerCase();

/**
 * One path of `attributes`/`excludedAttributes` as [top-level key, sub-attribute?], names canonical: `name.givenName`,
 * `urn:…:core:2.0:User:userName`, `urn:…:enterprise:2.0:User:department`.
 */
function pathOf(raw: string): [string, string | undefined] {
  const lower = raw.trim().toLowerCase();
  for (const urn of [URN.user, URN.group]) {
    if (lower.startsWith(`${urn.toLowerCase()}:`)) return pathOf(raw.trim().slice(urn.length + 1));
  }
  if (lower.startsWith(`${URN.enterprise.toLowerCase()}:`))
    return [URN.enterprise, canonicalKey(raw.trim().slice(URN.enterprise.length + 1), false)];
  if (lower === URN.enterprise.toLowerCase()) return [URN.enterprise, undefined];
  const [top = "", sub] = raw.trim().split(".", 2);
  return [canonicalKey(top, true), sub === undefined ? undefined : canonicalKey(sub, false)];
}

const ALWAYS = new Set(["id", "schemas"]);

/** Applies `attributes` or `excludedAttributes` (comma-separated) to a resource as returned. */
export function project(resource: Json, attributes: string | undefined, excluded: string | undefined): Json {
  if (attributes?.trim()) {
    const wanted = attributes
      .split(",")
      .filter((a) => a.trim() !== "")
      .map(pathOf);
    const out: Json = {};
    for (const [key, value] of Object.entries(resource)) {
      if (ALWAYS.has(key)) {
        out[key] = value;
        continue;
      }
      const paths = wanted.filter(([top]) => top.toLowerCase() === key.toLowerCase());
      if (paths.length === 0) continue;
      if (paths.some(([, sub]) => sub === undefined)) out[key] = value;
      else
        out[key] = pick(
          value,
          paths.map(([, sub]) => sub as string),
          true,
        );
    }
    return out;
  }
  if (excluded?.trim()) {
    const dropped = excluded
      .split(",")
      .filter((a) => a.trim() !== "")
      .map(pathOf);
    const out: Json = { ...resource };
    for (const [top, sub] of dropped) {
      const key = Object.keys(out).find((k) => k.toLowerCase() === top.toLowerCase());
      if (!key || ALWAYS.has(key)) continue;
      if (sub === undefined) delete out[key];
      else out[key] = pick(out[key], [sub], false);
    }
    return out;
  }
  return resource;
}

/** Keeps (`keep`) or drops the sub-attributes `subs` of a complex value or of each element of a multi-valued one. */
function pick(value: unknown, subs: string[], keep: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, subs, keep));
  if (!isObject(value)) return value;
  const lowered = new Set(subs.map((s) => s.toLowerCase()));
  return Object.fromEntries(Object.entries(value).filter(([k]) => lowered.has(k.toLowerCase()) === keep));
}
