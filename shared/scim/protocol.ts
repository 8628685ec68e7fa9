/**
 * SCIM 2.0 as RFC 7643/7644 define it, without storage: URNs, the error shape, attribute names (case-insensitive,
 * stored in their canonical spelling), the e-mail docs/scim.md derives from a user, filters, and `attributes` /
 * `excludedAttributes`.
 *
 * No name from a request reaches a prototype (docs/code-structure.md): a path or filter naming `__proto__`, `constructor`
 * or `prototype` is refused (400); in a resource they are keys like any other, kept as own properties.
 */
import { type Filter, parse, Tester } from "scim2-parse-filter";
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

/** At most this much JSON per resource (docs/scim.md). */
export const MAX_RESOURCE_BYTES = 16 * 1024;
/** `count` at most. */
export const MAX_COUNT = 200;

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Canonical spellings of the attribute names this service reads, by lower-cased name (sub-attributes per parent).
 * Maps, not objects: a name from a request must find nothing but these (`constructor` found Object's).
 */
const CANONICAL = new Map<string, string>(
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
const SUB = new Map<string, string>(
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
  return (top ? CANONICAL : SUB).get(lower) ?? key;
}

/** Sets `key` as an own property, `__proto__` included (an assignment would set the object's prototype instead). */
export function setOwn(target: Json, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

// --- names that reach a prototype ---------------------------------------------------------------------------

const PROTOTYPE_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Whether a name from a path or filter is `__proto__`, `constructor` or `prototype` in any case, also behind
 * percent-encoding (once or more) or a `\u005f`-style escape left in the text.
 */
export function isPrototypeName(name: string): boolean {
  let v = name;
  for (let i = 0; i < 4; i++) {
    if (PROTOTYPE_NAMES.has(v.trim().toLowerCase())) return true;
    const next = v.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    let decoded = next;
    try {
      decoded = decodeURIComponent(next);
    } catch {
      // a malformed escape names nothing more
    }
    if (decoded === v) return false;
    v = decoded;
  }
  return PROTOTYPE_NAMES.has(v.trim().toLowerCase());
}

/**
 * Refuses a SCIM attribute path (a PATCH `path`, a key of a PATCH value, an `attributes` entry) that names
 * `__proto__`, `constructor` or `prototype` anywhere in it: as an attribute or sub-attribute, a URN part, an
 * attribute or operator inside a value filter, or a bracketed name (`["__proto__"]`). A quoted filter value is a
 * value, and stays free. 400 `invalidPath` (docs/code-structure.md).
 */
export function requireSafePath(path: string, what = "path"): void {
  const bracketed = [...path.matchAll(/\[\s*"((?:[^"\\]|\\.)*)"\s*\]/g)].map((m) => m[1] ?? "");
  const words = path.replace(/"(?:[^"\\]|\\.)*"?/g, " ").split(/[\s.:[\]()]+/);
  if ([...bracketed, ...words].some((w) => w !== "" && isPrototypeName(w))) {
    throw new ScimError(400, `The ${what} names an attribute no resource has`, "invalidPath");
  }
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
      if (isObject(value)) for (const [k, v] of Object.entries(canonical(value))) setOwn(out, k, v);
      continue;
    }
    setOwn(out, key, canonicalValue(value));
  }
  if (Object.hasOwn(out, "active")) out.active = toBoolean(out.active);
  return out;
}

function canonicalValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const key = canonicalKey(k, false);
    setOwn(out, key, key === "primary" ? toBoolean(v) : canonicalValue(v));
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
 * The e-mail a user grants access to (docs/scim.md): the primary `emails` value that is an address, else the
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

// --- filters -------------------------------------------------------------------------------------------------

/** A filter's string comparisons without regard to case (RFC 7643 §2.2: `caseExact` is false unless said). */
type Value = string | number | boolean | null;
const lower = <T>(v: T): T => (typeof v === "string" ? (v.toLowerCase() as T) : v);
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;
/** Two datetimes as instants: `2011-05-13T04:42:34Z` is `…34.000Z` (RFC 7644 §3.4.2.2 orders dateTime by time). */
function instants(r: unknown, v: Value): [number, number] | undefined {
  if (typeof r !== "string" || typeof v !== "string" || !DATETIME.test(r) || !DATETIME.test(v)) return undefined;
  const [a, b] = [Date.parse(r), Date.parse(v)];
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : [a, b];
}
class Matcher extends Tester {
  override eq(r: unknown, v: Value) {
    const t = instants(r, v);
    return t ? t[0] === t[1] : lower(r) === lower(v);
  }
  override ne(r: unknown, v: Value) {
    return !this.eq(r, v);
  }
  override co(r: unknown, v: Value) {
    return super.co(lower(r), lower(v));
  }
  override sw(r: unknown, v: Value) {
    return super.sw(lower(r), lower(v));
  }
  override ew(r: unknown, v: Value) {
    return super.ew(lower(r), lower(v));
  }
  override gt(r: unknown, v: Value) {
    const t = instants(r, v);
    return t ? t[0] > t[1] : super.gt(lower(r), lower(v));
  }
  override ge(r: unknown, v: Value) {
    const t = instants(r, v);
    return t ? t[0] >= t[1] : super.ge(lower(r), lower(v));
  }
  override lt(r: unknown, v: Value) {
    const t = instants(r, v);
    return t ? t[0] < t[1] : super.lt(lower(r), lower(v));
  }
  override le(r: unknown, v: Value) {
    const t = instants(r, v);
    return t ? t[0] <= t[1] : super.le(lower(r), lower(v));
  }
}
const matcher = new Matcher();

/**
 * Pre-processing, because scim2-parse-filter reads a comparison value as JSON only: Entra ID's validator sends bare
 * words and datetimes (`userName sw O`, `meta.lastModified gt 2011-05-13T04:42:34Z`), quoted here; `true`, `false`,
 * `null` (any case) and numbers stay literals. Filters only read, so this changes no data.
 */
function quoteBareValues(filter: string): string {
  return filter.replace(
    /("(?:[^"\\]|\\.)*")|(\s(?:eq|ne|co|sw|ew|gt|lt|ge|le)\s+)([^\s"()[\]]+)/gi,
    (m, quoted: string | undefined, op: string, value: string) => {
      if (quoted !== undefined) return m;
      if (/^(?:true|false|null)$/i.test(value)) return `${op}${value.toLowerCase()}`;
      if (/^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(value)) return m;
      return `${op}${JSON.stringify(value)}`;
    },
  );
}

const OPERATORS = new Set(["eq", "ne", "co", "sw", "ew", "gt", "lt", "ge", "le", "pr"]);
const invalidFilter = (detail: string) => new ScimError(400, detail, "invalidFilter");

/** Every attribute of the filter is a name a resource can have, and every operator one of RFC 7644's. */
function requireSafeFilter(f: Filter): void {
  const node = f as { op: string; attrPath?: unknown; filters?: Filter[]; filter?: Filter; valFilter?: Filter };
  if (node.op === "and" || node.op === "or") for (const g of node.filters ?? []) requireSafeFilter(g);
  else if (node.op === "not" && node.filter) requireSafeFilter(node.filter);
  else if (node.op !== "[]" && !OPERATORS.has(node.op)) throw invalidFilter(`Unknown operator ${String(node.op).slice(0, 32)}`);
  if (typeof node.attrPath === "string" && node.attrPath.split(/[.:]/).some(isPrototypeName))
    throw invalidFilter("The filter names an attribute no resource has");
  if (node.op === "[]" && node.valFilter) requireSafeFilter(node.valFilter);
}

/**
 * A filter (RFC 7644 §3.4.2.2) as a test of one resource, or 400 `invalidFilter`: the grammar and matcher of
 * scim2-parse-filter, string comparisons case-insensitive, datetimes by instant, bare values accepted, and no
 * attribute or operator named `__proto__`, `constructor` or `prototype`.
 */
export function parseFilter(text: string): (resource: Json) => boolean {
  if (text.length > 1000) throw invalidFilter("The filter is too long");
  let ast: Filter;
  try {
    ast = parse(quoteBareValues(text));
  } catch {
    throw invalidFilter("The filter is not valid SCIM filter syntax (RFC 7644 §3.4.2.2)");
  }
  requireSafeFilter(ast);
  return (r) => matcher.test(r, ast) === true;
}

// --- attributes and excludedAttributes ------------------------------------------------------------------------

/** One entry of `attributes` / `excludedAttributes`: a top-level key, a sub-attribute, a value filter (`emails[type eq "work"]`). */
interface Selected {
  readonly top: string;
  readonly sub?: string;
  readonly filter?: (value: Json) => boolean;
}

/**
 * One entry, names canonical: `name.givenName`, `urn:…:core:2.0:User:userName`, `urn:…:enterprise:2.0:User:department`,
 * `emails[type eq "work"]`, `emails[type eq "work"].value`. A name that reaches a prototype: 400 `invalidPath`.
 */
function selectedOf(raw: string): Selected {
  requireSafePath(raw, "attribute list");
  const rest = raw.trim();
  const lowered = rest.toLowerCase();
  for (const urn of [URN.user, URN.group]) {
    if (lowered.startsWith(`${urn.toLowerCase()}:`)) return selectedOf(rest.slice(urn.length + 1));
  }
  if (lowered === URN.enterprise.toLowerCase()) return { top: URN.enterprise };
  if (lowered.startsWith(`${URN.enterprise.toLowerCase()}:`))
    return { top: URN.enterprise, sub: canonicalKey(rest.slice(URN.enterprise.length + 1), false) };
  const valuePath = /^([^[\]]+)\[(.*)\](?:\.([^.[\]]+))?$/s.exec(rest);
  if (valuePath) {
    const [, top = "", filter = "", sub] = valuePath;
    return {
      top: canonicalKey(top.trim(), true),
      filter: parseFilter(filter),
      ...(sub !== undefined && { sub: canonicalKey(sub, false) }),
    };
  }
  if (/[[\]]/.test(rest))
    throw new ScimError(400, "An attribute list entry is an attribute, its sub-attribute, or a value path", "invalidPath");
  const [top = "", sub] = rest.split(".", 2);
  return { top: canonicalKey(top, true), ...(sub !== undefined && { sub: canonicalKey(sub, false) }) };
}

/** A comma-separated list, commas inside a value filter's brackets or quotes left alone. */
function entries(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "[") depth++;
    else if (c === "]") depth = Math.max(0, depth - 1);
    else if (c === "," && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out.filter((a) => a.trim() !== "");
}

const ALWAYS = new Set(["id", "schemas"]);
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Applies `attributes` or `excludedAttributes` (comma-separated) to a resource as returned. */
export function project(resource: Json, attributes: string | undefined, excluded: string | undefined): Json {
  if (attributes?.trim()) {
    const wanted = entries(attributes).map(selectedOf);
    const out: Json = {};
    for (const [key, value] of Object.entries(resource)) {
      const selected = wanted.filter((w) => sameName(w.top, key));
      if (ALWAYS.has(key) || selected.some((w) => w.sub === undefined && w.filter === undefined)) setOwn(out, key, value);
      else if (selected.length > 0) {
        const kept = keep(value, selected);
        if (kept !== undefined) setOwn(out, key, kept);
      }
    }
    return out;
  }
  if (excluded?.trim()) {
    const dropped = entries(excluded).map(selectedOf);
    const out: Json = { ...resource };
    for (const d of dropped) {
      const key = Object.keys(out).find((k) => sameName(k, d.top));
      if (!key || ALWAYS.has(key)) continue;
      if (d.sub === undefined && d.filter === undefined) delete out[key];
      else setOwn(out, key, drop(out[key], d));
    }
    return out;
  }
  return resource;
}

/** Refuses a bad `attributes` / `excludedAttributes` (400) before anything is read, as a bad filter is. */
export function requireProjection(attributes: string | undefined, excluded: string | undefined): void {
  project({}, attributes, excluded);
}

const matches = (s: Selected, v: unknown) => s.filter === undefined || (isObject(v) && s.filter(v));

/** What `selected` keep of a value: the values its filters match (a multi-valued attribute's elements), with their sub-attributes. */
function keep(value: unknown, selected: readonly Selected[]): unknown {
  const one = (v: unknown) => {
    const hits = selected.filter((s) => matches(s, v));
    if (hits.length === 0) return undefined;
    if (!isObject(v) || hits.some((s) => s.sub === undefined)) return v;
    return pick(
      v,
      hits.map((s) => s.sub as string),
      true,
    );
  };
  if (!Array.isArray(value)) return one(value);
  const kept = value.map(one).filter((v) => v !== undefined);
  return kept.length > 0 ? kept : undefined;
}

/** What is left of a value without `d`: the values its filter matches go (or their sub-attribute). */
function drop(value: unknown, d: Selected): unknown {
  const one = (v: unknown) => (!matches(d, v) ? v : d.sub === undefined ? undefined : pick(v, [d.sub], false));
  if (!Array.isArray(value)) return one(value);
  return value.map(one).filter((v) => v !== undefined);
}

/** Keeps (`keep`) or drops the sub-attributes `subs` of a complex value. */
function pick(value: unknown, subs: string[], keep: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, subs, keep));
  if (!isObject(value)) return value;
  const lowered = new Set(subs.map((s) => s.toLowerCase()));
  return Object.fromEntries(Object.entries(value).filter(([k]) => lowered.has(k.toLowerCase()) === keep));
}
