/**
 * The discovery endpoints (RFC 7644 §4): ServiceProviderConfig, ResourceTypes and Schemas (RFC 7643 §8.7: core
 * User, Group and the enterprise User extension), written once here as the RFC defines them.
 */
import { MAX_COUNT, notFound, URN } from "./protocol.js";

type Json = Record<string, unknown>;

interface AttrOpts {
  multi?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: "readOnly" | "readWrite" | "immutable" | "writeOnly";
  returned?: "always" | "never" | "default" | "request";
  uniqueness?: "none" | "server" | "global";
  sub?: Json[];
  canonical?: string[];
  refs?: string[];
  description?: string;
}

function attr(name: string, type: string, o: AttrOpts = {}): Json {
  return {
    name,
    type,
    multiValued: o.multi ?? false,
    description: o.description ?? name,
    required: o.required ?? false,
    ...(o.canonical && { canonicalValues: o.canonical }),
    caseExact: o.caseExact ?? false,
    mutability: o.mutability ?? "readWrite",
    returned: o.returned ?? "default",
    uniqueness: o.uniqueness ?? "none",
    ...(o.refs && { referenceTypes: o.refs }),
    ...(o.sub && { subAttributes: o.sub }),
  };
}

const str = (name: string, o: AttrOpts = {}) => attr(name, "string", o);
/** A multi-valued attribute of `value`, `display`, `type` and `primary` (RFC 7643 §2.4). */
const multi = (name: string, types: string[], valueType = "string", extra: Json[] = []) =>
  attr(name, "complex", {
    multi: true,
    sub: [attr("value", valueType), str("display"), str("type", { canonical: types }), attr("primary", "boolean"), ...extra],
  });

const userAttributes: Json[] = [
  str("userName", {
    required: true,
    uniqueness: "server",
    description: "Unique identifier for the User, case-insensitive per connection.",
  }),
  attr("name", "complex", {
    sub: ["formatted", "familyName", "givenName", "middleName", "honorificPrefix", "honorificSuffix"].map((n) => str(n)),
  }),
  str("displayName"),
  str("nickName"),
  attr("profileUrl", "reference", { refs: ["external"] }),
  str("title"),
  str("userType"),
  str("preferredLanguage"),
  str("locale"),
  str("timezone"),
  attr("active", "boolean", { description: "An active user with an e-mail is an administrator of the institution." }),
  str("password", { mutability: "writeOnly", returned: "never", description: "Never stored." }),
  multi("emails", ["work", "home", "other"]),
  multi("phoneNumbers", ["work", "home", "mobile", "fax", "pager", "other"]),
  multi("ims", ["aim", "gtalk", "icq", "xmpp", "msn", "skype", "qq", "yahoo"]),
  multi("photos", ["photo", "thumbnail"], "reference"),
  attr("addresses", "complex", {
    multi: true,
    sub: [
      ...["formatted", "streetAddress", "locality", "region", "postalCode", "country"].map((n) => str(n)),
      str("type", { canonical: ["work", "home", "other"] }),
      attr("primary", "boolean"),
    ],
  }),
  attr("groups", "complex", {
    multi: true,
    mutability: "readOnly",
    sub: [
      str("value", { mutability: "readOnly" }),
      attr("$ref", "reference", { refs: ["User", "Group"], mutability: "readOnly" }),
      str("display", { mutability: "readOnly" }),
      str("type", { canonical: ["direct", "indirect"], mutability: "readOnly" }),
    ],
  }),
  multi("entitlements", []),
  multi("roles", []),
  multi("x509Certificates", [], "binary"),
];

const groupAttributes: Json[] = [
  str("displayName", { required: true, uniqueness: "server", description: "Unique per connection, case-insensitive." }),
  attr("members", "complex", {
    multi: true,
    sub: [
      str("value", { mutability: "immutable" }),
      attr("$ref", "reference", { refs: ["User", "Group"], mutability: "immutable" }),
      str("display"),
      str("type", { canonical: ["User", "Group"], mutability: "immutable" }),
    ],
  }),
];

const enterpriseAttributes: Json[] = [
  str("employeeNumber"),
  str("costCenter"),
  str("organization"),
  str("division"),
  str("department"),
  attr("manager", "complex", {
    sub: [str("value"), attr("$ref", "reference", { refs: ["User"] }), str("displayName", { mutability: "readOnly" })],
  }),
];

const SCHEMAS: Record<string, { name: string; description: string; attributes: Json[] }> = {
  [URN.user]: { name: "User", description: "User Account", attributes: userAttributes },
  [URN.group]: { name: "Group", description: "Group", attributes: groupAttributes },
  [URN.enterprise]: { name: "EnterpriseUser", description: "Enterprise User", attributes: enterpriseAttributes },
};

const schemaResource = (base: string, id: string) => {
  // Own keys only: `/Schemas/constructor` names Object's, not a schema.
  const s = Object.hasOwn(SCHEMAS, id) ? SCHEMAS[id] : undefined;
  if (!s) throw notFound(id);
  return { schemas: [URN.schema], id, ...s, meta: { resourceType: "Schema", location: `${base}/Schemas/${id}` } };
};

const RESOURCE_TYPES = {
  User: {
    endpoint: "/Users",
    description: "User Account",
    schema: URN.user,
    schemaExtensions: [{ schema: URN.enterprise, required: false }],
  },
  Group: { endpoint: "/Groups", description: "Group", schema: URN.group },
} as const;

const resourceType = (base: string, id: string) => {
  const t = (RESOURCE_TYPES as Record<string, (typeof RESOURCE_TYPES)[keyof typeof RESOURCE_TYPES]>)[id];
  if (!t || !Object.hasOwn(RESOURCE_TYPES, id)) throw notFound(id);
  return {
    schemas: [URN.resourceType],
    id,
    name: id,
    ...t,
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/${id}` },
  };
};

const list = (resources: Json[]) => ({
  schemas: [URN.list],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

/** The discovery document at `path` (below the base path); `base` is the service's base URL. */
export function discovery(base: string, path: string): Json {
  const [kind, id] = path.replace(/^\/+/, "").split("/", 2);
  if (kind === "ServiceProviderConfig" && id === undefined) {
    return {
      schemas: [URN.serviceProviderConfig],
      documentationUri: "https://datatracker.ietf.org/doc/html/rfc7644",
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_COUNT },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "OAuth Bearer Token",
          description: "The connection's token, as `Authorization: Bearer <token>`.",
          primary: true,
        },
      ],
      meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
    };
  }
  if (kind === "ResourceTypes")
    return id === undefined ? list(Object.keys(RESOURCE_TYPES).map((t) => resourceType(base, t))) : resourceType(base, id);
  if (kind === "Schemas")
    return id === undefined ? list(Object.keys(SCHEMAS).map((s) => schemaResource(base, s))) : schemaResource(base, id);
  throw notFound(path);
}
