/**
 * The API document (OpenAPI 3.1, docs/api.md): one operation per route of `shared/routes.ts`, its spec from
 * its feature's module (specs/<feature>.ts), request and response schemas generated from the valibot schemas
 * (requests.ts, responses.ts), examples from real responses (examples.ts). Only the two docs functions import
 * this module: building it loads the JSON Schema converter, which no other handler should pay for at cold start.
 */
import { lacksScope, NOT_FOR_KEYS } from "../api-keys/scopes.js";
import { messages } from "../errors.js";
import { type Route, routeKey, routes, takesIdempotencyKey, writesData } from "../routes.js";
import { commonHeaders, headers, parameters, schemaRef as ref, responses, type Schema } from "./components.js";
import { requestSchemas } from "./requests.js";
import { convertResponses } from "./responses.js";
import type { Document, ErrorStatus, Operation, Spec } from "./spec.js";
import { administratorSpecs } from "./specs/administrators.js";
import { apiKeySpecs } from "./specs/api-keys.js";
import { docsSpecs } from "./specs/docs.js";
import { exportSpecs } from "./specs/exports.js";
import { institutionSpecs } from "./specs/institutions.js";
import { invitationSpecs } from "./specs/invitations.js";
import { peopleSpecs } from "./specs/people.js";
import { scimBodies, scimConnectionSpecs, scimOperation } from "./specs/scim.js";
import { securityEventSpecs } from "./specs/security-events.js";
import { ssoSpecs } from "./specs/sso.js";
import { webhookSpecs } from "./specs/webhooks.js";

export type { Document, ErrorStatus, Operation, Spec };

const json = (schema: Schema, example?: unknown) => ({
  "application/json": { schema, ...(example !== undefined && { example }) },
});

/** Every operation's spec, by route key: one module per feature (shared/openapi/specs/). */
function specs(errorMode: "throw" | "ignore"): Record<string, Spec> {
  const req = requestSchemas(errorMode);
  return {
    ...institutionSpecs(req),
    ...administratorSpecs(req),
    ...invitationSpecs(req),
    ...securityEventSpecs(req),
    ...docsSpecs(),
    ...exportSpecs(errorMode),
    ...webhookSpecs(errorMode),
    ...peopleSpecs(errorMode),
    ...scimConnectionSpecs(),
    ...ssoSpecs(errorMode),
    ...apiKeySpecs(req),
  };
}

/** The component response whose description and headers an operation's own messages go with. */
const ERROR_RESPONSE: Record<Exclude<ErrorStatus, "422">, string> = {
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  429: "TooManyRequests",
  502: "BadGateway",
};

/** A POST's 422: its own, or-ed with the `{error}` of an `Idempotency-Key` reused with another request. */
function withReusedKey(own: Schema | undefined): Schema {
  const reused = { idempotencyKeyReused: { value: { error: messages.idempotencyKeyReused } } };
  const media = (own?.content as Record<string, Schema> | undefined)?.["application/json"];
  if (!own || !media) {
    return {
      description: "The `Idempotency-Key` was used with another request.",
      headers: commonHeaders,
      content: { "application/json": { schema: ref("Error"), examples: reused } },
    };
  }
  const schema = media.schema as Schema;
  const errorRef = "#/components/schemas/Error";
  // Already `{error}`, or one of its alternatives (a 422 of either shape): or-ing it again would match twice.
  const isError = schema.$ref === errorRef || ((schema.oneOf as Schema[] | undefined) ?? []).some((s) => s.$ref === errorRef);
  return {
    ...own,
    description: `${own.description as string} Or the \`Idempotency-Key\` was used with another request (\`{error}\`).`,
    content: {
      "application/json": {
        schema: isError ? schema : { oneOf: [schema, ref("Error")] },
        examples: { ...(media.examples as Schema), ...reused },
      },
    },
  };
}

/** A 409 that may also be `AlreadyAccepted` (docs/joining.md): or-ed with the response it had, if any. */
function withAlreadyAccepted(own: Schema | undefined): Schema {
  const ref409 = own?.$ref as string | undefined;
  const base = ref409 ? (responses[ref409.slice(ref409.lastIndexOf("/") + 1)] as Schema) : own;
  const media = (base?.content as Record<string, Schema> | undefined)?.["application/json"];
  const accepted = { alreadyAccepted: { value: { error: "Invitation already accepted", institution: { name: "Acme College" } } } };
  return {
    description: `${base ? `${base.description as string} Or the` : "The"} invitation was already accepted by the one asking: nothing is recorded.`,
    headers: base?.headers ?? commonHeaders,
    content: {
      "application/json": {
        schema: media ? { oneOf: [media.schema, ref("AlreadyAccepted")] } : ref("AlreadyAccepted"),
        examples: { ...(media?.examples as Schema | undefined), ...accepted },
      },
    },
  };
}

/** The operation of `route` from its spec: the statuses every route of its kind answers, then its own. */
function operation(route: Route, spec: Spec): Operation {
  const out: Record<string, Schema> = {
    [spec.success.status]: {
      description: spec.success.description,
      headers: { ...commonHeaders, ...spec.success.headers },
      content: {
        [spec.success.media ?? "application/json"]: {
          schema: spec.success.schema,
          ...(spec.success.example !== undefined && { example: spec.success.example }),
        },
      },
    },
  };
  const r = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const { main, events } = route.access;
  const writes = writesData(route.access);
  // The public routes that act (open, register) are the JSON API's, with a visitor for a caller; the API
  // document and its page (no table) are the docs dialect of the pipeline, which reads no body (openapi/serve.ts).
  const readsBody = !route.public || Object.keys(route.access).length > 0;
  if (readsBody) {
    // Every other function reads a body, whatever the method: 400 malformed, 413 too large.
    out[400] = r("BadRequest");
    out[413] = r("PayloadTooLarge");
  }
  if (!route.public) out[401] = r("Unauthorized");
  // A refusal (403, 404, a failed invitation token on accept or preview, any refusal of open and register)
  // counts against the probing bound (docs/security.md, docs/joining.md).
  const errors: Spec["errors"] = { ...spec.errors };
  const tokenRoutes = ["invitations/accept", "invitations/preview", "invitations/open", "invitations/register"];
  if (errors[403] || errors[404] || tokenRoutes.includes(route.handler)) {
    errors[429] = { ...errors[429], refused: "Too many refused requests, try again later" };
  }
  // An institution API key (docs/api-keys.md) is refused outside its scope, and everywhere without one: before anything
  // is read, and not counted against the probing bound (a key's scopes are fixed, there is nothing to probe).
  if (!route.public) errors[403] = { ...errors[403], apiKey: route.scope ? lacksScope(route.scope) : NOT_FOR_KEYS };
  for (const [status, messages] of Object.entries(errors) as [ErrorStatus, unknown][]) {
    if (status === "422") {
      const { shape, examples: ex } = messages as { shape: "errors" | "error" | "either"; examples: Record<string, unknown> };
      const described = {
        errors: "The record is invalid: every message, once.",
        error: "The request is valid, but the current state refuses it.",
        either: "The record is invalid (`{errors}`: every message, once), or the current state refuses it (`{error}`).",
      };
      out[status] = {
        description: described[shape],
        headers: commonHeaders,
        content: {
          "application/json": {
            schema:
              shape === "either"
                ? { oneOf: [ref("ValidationErrors"), ref("Error")] }
                : ref(shape === "errors" ? "ValidationErrors" : "Error"),
            examples: Object.fromEntries(Object.entries(ex).map(([k, value]) => [k, { value }])),
          },
        },
      };
      continue;
    }
    const base = responses[ERROR_RESPONSE[status]] as Schema;
    out[status] = {
      description: base.description,
      headers: base.headers,
      content: {
        "application/json": {
          schema: ref("Error"),
          examples: Object.fromEntries(Object.entries(messages as Record<string, string>).map(([k, error]) => [k, { value: { error } }])),
        },
      },
    };
  }
  if (writes && !out[409]) out[409] = r("Conflict");
  if (spec.ifMatch) out[412] = r("PreconditionFailed");
  const idempotent = !route.public && takesIdempotencyKey(route.method);
  if (idempotent) {
    out[409] = r("IdempotentConflict");
    out[422] = withReusedKey(out[422]);
  }
  if (spec.alreadyAccepted) out[409] = withAlreadyAccepted(out[409]);
  out[500] = r("InternalError");
  if (main || events) out[503] = r("ServiceUnavailable");
  const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  const params = [
    ...(spec.parameters ?? []),
    ...(spec.ifMatch ? [{ $ref: "#/components/parameters/IfMatch" }] : []),
    ...(idempotent ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
  ];
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: [spec.description, `Who: ${route.who}${route.scope ? `; or an API key with the scope \`${route.scope}\`` : ""}.`]
      .filter(Boolean)
      .join("\n\n"),
    tags: [spec.tag],
    ...(route.public && { security: [] }),
    ...(route.scope && { security: [{ bearerAuth: [] }, { apiKey: [route.scope] }] }),
    ...(params.length > 0 && { parameters: params }),
    ...(spec.body && {
      requestBody: { required: !spec.body.optional, content: json(spec.body.schema, spec.body.example) },
    }),
    responses: sorted,
  };
}

/** Connecting a directory that is connected already rotates its token: 200 with the same body as the 201. */
function withRotation(route: Route, op: Operation): Operation {
  const created = op.responses["201"];
  if (route.handler !== "scim/connection" || route.method !== "POST" || !created) return op;
  const responses = { ...op.responses, 200: { ...created, description: "Rotated: a new token; the old one no longer works." } };
  return { ...op, responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))) };
}

/** Builds the document. `errorMode: "throw"` makes any valibot construct the converter cannot express fail. */
export function buildDocument(errorMode: "throw" | "ignore" = "ignore"): Document {
  const all = specs(errorMode);
  const paths: Document["paths"] = {};
  for (const route of routes) {
    if (route.auth === "scim") {
      // Described as SCIM (shared/openapi/specs/scim.ts), not as the JSON API.
      paths[route.path] ??= {};
      (paths[route.path] as Record<string, Operation>)[route.method.toLowerCase()] = scimOperation(route);
      continue;
    }
    const spec = all[routeKey(route)];
    // A route without a spec is left out; the tests name it (test/integration/openapi.test.ts).
    if (!spec) continue;
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, Operation>)[route.method.toLowerCase()] = withRotation(route, operation(route, spec));
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Institution Administration API",
      version: "1.0.0",
      description: [
        "Institutions, the administrators invited into them, and the security-event audit trail of your account.",
        "",
        "Three things are called super admin here. The **cohort-super-admin status**: the user pool's `cohort_super_admin` group,",
        "which an operator grants; it lets a user create institutions and read the account's trail. The **role** in an institution,",
        "`cohort_super_admin` or `cohort_admin`, given by invitation; managing invitations needs the role `cohort_super_admin` and the",
        "status. **The institution's super admin**: its one owner (`super_admin_id`, `is_super_admin`), changed only by a transfer.",
        "",
        "Send a Cognito **ID token** as `Authorization: Bearer <token>` (access tokens are refused), or, from a machine, an",
        "institution **API key** as `Authorization: Bearer iak_…` on the routes that name its scope. Bodies are JSON in UTF-8,",
        "at most 64 KiB; responses are JSON (the export is CSV), snake_case, timestamps ISO 8601 UTC with milliseconds.",
        "Every response carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.",
      ].join("\n"),
    },
    // Relative: the document is served by the API it describes, locally and deployed.
    servers: [{ url: "/", description: "The API serving this document" }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Institutions" },
      // The cohort routes are few on purpose: enough for the rule that an institution with cohorts cannot be
      // deleted to be reachable. That is why they exist, not what a reader needs: the tag says what they do.
      { name: "Cohorts", description: "An institution's cohorts. While it has any, the institution cannot be deleted." },
      { name: "Administrators", description: "Who holds access to an institution, and changing or removing it." },
      { name: "Invitations" },
      { name: "Security events", description: "Scoped to the caller's account." },
      { name: "Webhooks", description: "The account's events, pushed to your endpoints as they are recorded." },
      { name: "Your account", description: "The caller's own second sign-in step and sessions, each recorded in their trail." },
      { name: "Directory (SCIM)", description: "The institution's directory connection." },
      { name: "Single sign-on", description: "Verified mail domains, the institution's identity provider, and finding it from an e-mail." },
      { name: "API keys", description: "Machines' credentials for one institution: scoped, shown once, revocable." },
      { name: "SCIM 2.0", description: "RFC 7643/7644, called by the directory (Entra ID, Okta) with the connection's token." },
      { name: "API document" },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "A Cognito ID token of the API's user pool (claims used: sub, email, name, cognito:groups, custom:account_id).",
        },
        scimBearer: { type: "http", scheme: "bearer", description: "A directory connection's token (`scim_…`), for the SCIM 2.0 routes." },
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "iak_…",
          description:
            "An institution API key (`iak_…`), for the routes that name a scope: it sees its institution alone, within its scopes.",
        },
      },
      // By name: a module namespace's key order depends on the loader (ESM sorts it, a CJS transform keeps source order).
      schemas: Object.fromEntries(Object.entries({ ...convertResponses(errorMode), ...scimBodies }).sort(([a], [b]) => a.localeCompare(b))),
      headers,
      parameters,
      responses,
    },
  };
}

let built: Document | undefined;
/** The document, built once per process (a warm function serves it from memory). */
export function openApiDocument(): Document {
  built ??= buildDocument();
  return built;
}
