/**
 * Directory provisioning in the API document (docs/scim.md): the connection routes as JSON API operations, and
 * the SCIM 2.0 routes described as SCIM: `application/scim+json` bodies whose schemas are the service's own
 * (`GET /Schemas`, RFC 7643), the RFC's error shape, and the directory's bearer token instead of an ID token.
 */
import { ROLES } from "../../roles.js";
import { paths, type Route } from "../../routes.js";
import { commonHeaders, schemaRef as ref, type Schema } from "../components.js";
import { examples } from "../examples.js";
import type { Operation, Spec } from "../spec.js";

const inst = paths.institutions;

/** The connection routes' specs. */
export function scimConnectionSpecs(): Record<string, Spec> {
  const institutionId: Schema = {
    name: "id",
    in: "path",
    required: true,
    description: "The institution's id.",
    schema: { type: "string" },
  };
  const forbidden = { 403: { superAdmin: "Only the institution's super admin can manage its directory connection" } };
  const notFound = { institution: "Institution not found or access denied", connection: "No directory connection" };
  const shown = { schema: ref("ScimConnectionShown"), example: examples.scimConnection };
  return {
    [`POST ${inst}/{id}/scim`]: {
      operationId: "connectDirectory",
      summary: "Connect the institution's directory (SCIM), or rotate its token",
      description:
        "Creates the institution's one connection (201) or, when it exists, issues a new token (200); the old token stops working at once. The token is shown this once and stored only as a SHA-256 hash. Logs `scim_connected` or `scim_token_rotated`.",
      tag: "Directory (SCIM)",
      parameters: [institutionId],
      success: {
        status: "201",
        description: "Connected (or, 200, rotated).",
        schema: ref("ScimConnectionWritten"),
        example: examples.scimConnectionIssued,
      },
      errors: { ...forbidden, 404: { institution: notFound.institution } },
    },
    [`GET ${inst}/{id}/scim`]: {
      operationId: "showDirectoryConnection",
      summary: "Read the institution's directory connection",
      description: "Without the token: its preview, times, when the directory last used it, and the role mappings.",
      tag: "Directory (SCIM)",
      parameters: [institutionId],
      success: { status: "200", description: "The connection.", ...shown },
      errors: { ...forbidden, 404: notFound },
    },
    [`PATCH ${inst}/{id}/scim`]: {
      operationId: "mapDirectoryGroups",
      summary: "Map the directory's groups to roles",
      description:
        "Replaces the mappings (group displayName → role), which take effect at once for every administrator the directory gave access. Logs `scim_role_mappings_changed` and each `administrator_role_changed` (source `scim`).",
      tag: "Directory (SCIM)",
      parameters: [institutionId],
      body: {
        schema: {
          type: "object",
          properties: { role_mappings: { type: "object", additionalProperties: { type: "string", enum: [...ROLES] } } },
          required: ["role_mappings"],
        },
        example: { role_mappings: { "Campus admins": "cohort_super_admin", Staff: "cohort_admin" } },
      },
      success: { status: "200", description: "Mapped.", ...shown },
      errors: {
        ...forbidden,
        404: notFound,
        422: { shape: "errors", examples: { names: { errors: ["Group names are 1 to 256 characters, on one line"] } } },
      },
    },
    [`DELETE ${inst}/{id}/scim`]: {
      operationId: "disconnectDirectory",
      summary: "Disconnect the institution's directory",
      description: "Its token stops working; the administrators it gave stay, manageable by hand again. Logs `scim_disconnected`.",
      tag: "Directory (SCIM)",
      parameters: [institutionId],
      success: { status: "200", description: "Disconnected.", schema: ref("Message"), example: { message: "Directory disconnected" } },
      errors: { ...forbidden, 404: notFound },
    },
  };
}

/**
 * The SCIM 2.0 protocol's bodies (RFC 7643/7644): the service's own `/Schemas` define a resource's attributes,
 * so the document names only the frame (the connection routes' bodies are in shared/scim/responses.ts).
 */
export const scimBodies: Record<string, Schema> = {
  ScimError: {
    type: "object",
    description: "RFC 7644 §3.12.",
    properties: {
      schemas: { type: "array", items: { const: "urn:ietf:params:scim:api:messages:2.0:Error" } },
      status: { type: "string" },
      scimType: { type: "string" },
      detail: { type: "string" },
    },
    required: ["schemas", "status", "detail"],
  },
  ScimResource: {
    type: "object",
    description: "A SCIM resource (RFC 7643): its attributes as the service's `/Schemas` define them, `id`, `schemas` and `meta`.",
    properties: { schemas: { type: "array", items: { type: "string" } }, id: { type: "string" } },
    required: ["schemas"],
  },
};

const SCIM = "application/scim+json";
const scimContent = (schema: Schema) => ({ [SCIM]: { schema }, "application/json": { schema } });
const scimError = (description: string) => ({ description, headers: commonHeaders, content: scimContent(ref("ScimError")) });

/** A SCIM route's operation: SCIM bodies, SCIM errors, the directory's token. */
export function scimOperation(route: Route): Operation {
  const [, resource = "", id] = route.path.slice(paths.scim.length).split("/");
  // `/Users/{proxy+}`: the list with a trailing slash (shared/routes.ts), its own operation in the document.
  const slash = id?.endsWith("+}") === true;
  const single = id !== undefined && !slash;
  const what = single
    ? `one of ${resource}`
    : slash
      ? `${resource}, with a trailing slash (\`/${resource}/\`, as Entra ID's validator sends it)`
      : resource;
  const verbs: Record<string, string> = {
    GET: single ? "Read" : "List",
    POST: "Create",
    PUT: "Replace",
    PATCH: "Update",
    DELETE: "Delete",
  };
  const success: Record<string, string> = { POST: "201", DELETE: "204" };
  const status = success[route.method] ?? "200";
  const responses: Record<string, Schema> = {
    [status]:
      status === "204"
        ? { description: "Deleted.", headers: commonHeaders }
        : { description: "A SCIM resource, or a ListResponse.", headers: commonHeaders, content: scimContent(ref("ScimResource")) },
    400: scimError("invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12)."),
    401: {
      description:
        'No token, or one that is unknown, rotated or revoked: API Gateway\'s answer before any handler, `{"message":"Unauthorized"}`.',
      headers: commonHeaders,
      content: { "application/json": { schema: { type: "object", properties: { message: { type: "string" } } } } },
    },
    403: scimError("The institution's 95-seat limit."),
    404: scimError("No such resource in this directory."),
    409: scimError("uniqueness: a taken userName or displayName, or the institution's super admin."),
    413: scimError("A body over 64 KiB, or a resource over 16 KiB."),
    500: scimError("Unexpected."),
    503: scimError("The database could not be reached in time."),
  };
  return {
    operationId: `scim${verbs[route.method] ?? route.method}${(resource + (single ? "ById" : slash ? "TrailingSlash" : "")).replace(/[^A-Za-z]/g, "")}`,
    summary: `SCIM 2.0: ${(verbs[route.method] ?? route.method).toLowerCase()} ${what}`,
    description: `RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: ${route.who}.`,
    tags: ["SCIM 2.0"],
    security: [{ scimBearer: [] }],
    ...(single && { parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }] }),
    ...(slash && {
      parameters: [
        {
          name: "proxy+",
          in: "path",
          required: true,
          description: "Empty: the list, as without the slash. A deeper path names no resource: 404.",
          schema: { type: "string", maxLength: 0 },
        },
      ],
    }),
    ...(["POST", "PUT", "PATCH"].includes(route.method) && { requestBody: { required: true, content: scimContent({ type: "object" }) } }),
    responses,
  };
}
