/**
 * The API document itself (shared/openapi/): valid OpenAPI 3.1, an operation for every route of the route
 * table and none without one, request schemas that say what the valibot schemas accept, examples that
 * validate against their schemas, enums that match the domain, and committed client types that are current.
 * (That every response of the integration tests matches it is checked in test/support/contract.ts.)
 */
import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../shared/constants.js";
import { institutionCreate, institutionInput } from "../../shared/institutions/schema.js";
import { acceptInput, institutionRef, invitationCreateInput, invitationListQuery } from "../../shared/invitations/schema.js";
import { generateTypes, TYPES_FILE } from "../../shared/openapi/generate.js";
import { requestSchemas } from "../../shared/openapi/requests.js";
import { ROLES } from "../../shared/roles.js";
import { paths, routeKey, routes } from "../../shared/routes.js";
import { ALERT_RULES } from "../../shared/security-events/alerts.js";
import { assertConforms, contractProblems, document, documentPath, schemaProblems } from "../support/contract.js";

type Json = Record<string, unknown>;

const doc = document;
const schemas = doc.components.schemas as Json;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op: op as Json })),
);

const validate = schemaProblems;
function opOf(key: string): Json {
  const found = operations.find((o) => o.key === key);
  if (!found) throw new Error(`no operation ${key}`);
  return found.op;
}
const deref = (value: unknown, kind: string): Json => {
  const ref = (value as Json).$ref;
  return typeof ref === "string" ? ((doc.components[kind] as Json)[ref.split("/")[3] ?? ""] as Json) : (value as Json);
};

describe("the API document", () => {
  it("is valid OpenAPI 3.1 (swagger-parser, which also resolves every $ref)", async () => {
    const parsed = await SwaggerParser.validate(structuredClone(doc) as never);
    expect((parsed as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("swagger-parser does reject a broken document (so the check above can fail)", async () => {
    const broken = structuredClone(doc) as Json;
    ((broken.paths as Json)[paths.institutions] as Json).get = { responses: { 200: { $ref: "#/components/responses/Nope" } } };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it("has an operation for every route of the route table, and none that is not a route", () => {
    const documented = operations.map((o) => o.key).sort();
    expect(documented).toEqual(routes.map(routeKey).sort());
  });

  it("the coverage check names a route that has no operation", () => {
    // As the route table could grow: a route without a spec is left out of the document.
    const keys = new Set(operations.map((o) => o.key));
    const missing = [...routes, { method: "GET" as const, path: `${paths.api}/new_thing` }].map(routeKey).filter((k) => !keys.has(k));
    expect(missing).toEqual([`GET ${paths.api}/new_thing`]);
  });

  it("gives every operation a unique operationId, and the bearer scheme to all but the public routes", () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect((doc.components.securitySchemes as Json).bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    for (const route of routes) {
      const op = opOf(routeKey(route));
      if (route.public) expect(op.security, routeKey(route)).toEqual([]);
      else if (route.auth === "scim") expect(op.security, routeKey(route)).toEqual([{ scimBearer: [] }]);
      // A route a key may call (docs/api-keys.md): an ID token, or an institution API key with the route's scope.
      else if (route.scope) expect(op.security, routeKey(route)).toEqual([{ bearerAuth: [] }, { apiKey: [route.scope] }]);
      else expect(op.security, routeKey(route)).toBeUndefined();
    }
  });

  it("lists the statuses each kind of route can answer, with the headers the contract names", () => {
    for (const route of routes) {
      const responses = opOf(routeKey(route)).responses as Json;
      const statuses = Object.keys(responses);
      if (route.public && Object.keys(route.access).length === 0) {
        expect(statuses, routeKey(route)).toEqual(["200", "500"]);
        continue;
      }
      // Home-realm discovery (docs/sso.md) is public and refuses nothing: a malformed body, or the database away.
      if (route.public && route.handler === "sso/discover") {
        expect(statuses, routeKey(route)).toEqual(["200", "400", "413", "500", "503"]);
        continue;
      }
      // The public routes that act (joining from an invitation, docs/joining.md) answer all but the gateway's 401.
      if (route.public) {
        expect(statuses, routeKey(route)).toEqual(expect.arrayContaining(["400", "409", "413", "422", "429", "500", "503"]));
        expect(statuses, routeKey(route)).not.toContain("401");
      } else expect(statuses, routeKey(route)).toEqual(expect.arrayContaining(["400", "401", "413", "500", "503"]));
      for (const [status, response] of Object.entries(responses)) {
        const headers = Object.keys((deref(response, "responses").headers as Json) ?? {});
        expect(headers, `${routeKey(route)} ${status}`).toEqual(expect.arrayContaining(["Cache-Control", "X-Content-Type-Options"]));
        if (status === "429") expect(headers).toContain("Retry-After");
      }
    }
    const exportOk = deref((opOf(`GET ${paths.securityEvents}/export`).responses as Json)[200], "responses");
    expect(Object.keys(exportOk.headers as Json)).toEqual(expect.arrayContaining(["Content-Disposition", "X-Export-Truncated"]));
    expect(Object.keys(exportOk.content as Json)).toEqual(["text/csv"]);
    const mailing = operations.filter((o) => Object.hasOwn(o.op.responses as Json, "502")).map((o) => o.op.operationId);
    // Mail that could not be sent, and the user pool that could not be updated (an SSO connection, and the deletion
    // of an institution that has one: docs/sso.md).
    expect(mailing.sort()).toEqual([
      "connectSso",
      "createInvitation",
      "deleteInstitution",
      "disconnectSso",
      "resendInvitation",
      "updateSso",
    ]);
    // Mail bounds, the institution-creation bound, and on every route that can refuse (403, 404, a failed
    // token) the probing bound: all but the own-account lists, the caller's own account and the public routes.
    const limited = operations.filter((o) => Object.hasOwn(o.op.responses as Json, "429")).map((o) => o.op.operationId);
    // The SCIM routes answer as SCIM (shared/openapi/specs/scim.ts): the directory's token is no caller the probing bound counts.
    const unlimited = operations.map((o) => o.op.operationId).filter((id) => !limited.includes(id) && !String(id).startsWith("scim"));
    // Discovery refuses nothing (docs/sso.md): the WAF's rate rule bounds it, as every public route.
    expect(unlimited.sort()).toEqual([
      "discoverSso",
      "getApiDocument",
      "getApiReference",
      "listInstitutions",
      "setMfa",
      "signOutEverywhere",
    ]);
    const refused = (id: string) => {
      const op = operations.find((o) => o.op.operationId === id)?.op as Json;
      const media = (deref((op.responses as Json)[429], "responses").content as Json)["application/json"] as Json;
      return Object.values(media.examples as Json).map((e) => ((e as Json).value as Json).error);
    };
    expect(refused("showInstitution")).toEqual(["Too many refused requests, try again later"]);
    expect(refused("acceptInvitation")).toEqual(["Too many refused requests, try again later"]);
    expect(refused("createInstitution")).toEqual(
      expect.arrayContaining(["Too many institutions created today, try again later", "Too many refused requests, try again later"]),
    );
  });

  it("every example validates against the schema it illustrates", () => {
    let checked = 0;
    const check = (where: string, schema: unknown, value: unknown) => {
      expect(validate(schema, value), where).toEqual([]);
      checked++;
    };
    for (const { key, op } of operations) {
      const body = (op.requestBody as Json | undefined)?.content as Json | undefined;
      for (const [type, media] of Object.entries(body ?? {})) {
        const m = media as Json;
        if (m.example !== undefined) check(`${key} request ${type}`, m.schema, m.example);
      }
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const [type, media] of Object.entries((deref(response, "responses").content as Json) ?? {})) {
          const m = media as Json;
          if (m.example !== undefined) check(`${key} ${status} ${type}`, m.schema, m.example);
          for (const [name, ex] of Object.entries((m.examples as Json | undefined) ?? {})) {
            check(`${key} ${status} ${type} ${name}`, m.schema, (ex as Json).value);
          }
        }
      }
    }
    for (const [name, schema] of Object.entries(schemas)) {
      for (const ex of ((schema as Json).examples as unknown[] | undefined) ?? []) check(`schema ${name}`, schema, ex);
    }
    expect(checked).toBeGreaterThan(60);
  });

  it("a response that breaks a schema is caught (the validation above can fail)", () => {
    const created = deref((opOf(`POST ${paths.institutions}`).responses as Json)[201], "responses");
    const schema = ((created.content as Json)["application/json"] as Json).schema;
    const good = ((created.content as Json)["application/json"] as Json).example as Json;
    expect(validate(schema, good)).toEqual([]);
    expect(validate(schema, { ...good, extra: 1 })).not.toEqual([]);
    expect(validate(schema, { ...good, institution: { ...(good.institution as Json), created_at: "yesterday" } })).not.toEqual([]);
  });

  it("no example holds an invitation token (only 8-character previews)", () => {
    // A token is 43 base64url characters: no string of the document is one, nor holds one between separators.
    const text = JSON.stringify(doc);
    expect(text.match(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g)).toBeNull();
    expect(text).toMatch(/"token_preview":"[A-Za-z0-9_-]{8}\.\.\."/);
  });

  it("its enums are the domain's: roles, counted event types, alert rules", () => {
    expect(schemas.Role).toMatchObject({ enum: [...ROLES] });
    expect(schemas.EventType).toMatchObject({ enum: [...EVENT_TYPES] });
    const alert = (schemas.Alert as { properties: Record<string, { enum: string[] }> }).properties;
    expect(alert.type?.enum).toEqual(ALERT_RULES.map((r) => r.type));
    expect(new Set(alert.severity?.enum)).toEqual(new Set(ALERT_RULES.map((r) => r.severity)));
  });

  it("picks a route as API Gateway does: a literal segment wins over {id}", () => {
    expect(documentPath("GET", `${paths.securityEvents}/export`)).toBe(`${paths.securityEvents}/export`);
    expect(documentPath("GET", `${paths.securityEvents}/01ABC`)).toBe(`${paths.securityEvents}/{id}`);
    expect(documentPath("POST", `${paths.invitations}/x/resend`)).toBe(`${paths.invitations}/{id}/resend`);
    expect(documentPath("GET", `${paths.institutions}//cohorts`)).toBeUndefined();
    expect(documentPath("PUT", `${paths.securityEvents}/export`)).toBeUndefined();
  });
});

describe("request schemas, generated from the valibot schemas", () => {
  const req = requestSchemas("throw");
  const props = (s: unknown) => (s as { properties: Json }).properties;

  it("convert without any valibot construct left unexpressed (errorMode throw)", () => {
    expect(() => requestSchemas("throw")).not.toThrow();
  });

  it("have the valibot schemas' fields, and nothing else", () => {
    expect(Object.keys(props(props(req.institutionCreate).institution))).toEqual(Object.keys(institutionCreate.entries));
    expect(Object.keys(props(props(req.institutionUpdate).institution))).toEqual(Object.keys(institutionInput.entries));
    expect(Object.keys(props(req.invitationCreate))).toEqual(Object.keys(invitationCreateInput.entries));
    expect(Object.keys(props(req.invitationAccept))).toEqual(Object.keys(acceptInput.entries));
    // The list names its institution as every invitation endpoint does, then takes its own query.
    expect(Object.keys(props(req.invitationListQuery))).toEqual([
      ...Object.keys(institutionRef.entries),
      ...Object.keys(invitationListQuery.pipe[0].entries),
    ]);
  });

  it("agree with valibot on what a client may send", () => {
    const cases: [string, unknown, v.GenericSchema, unknown][] = [
      ["create: name only", req.institutionCreate, institutionCreate, { name: "Acme" }],
      ["create: no name", req.institutionCreate, institutionCreate, {}],
      ["create: name too long", req.institutionCreate, institutionCreate, { name: "x".repeat(256) }],
      ["create: settings as array", req.institutionCreate, institutionCreate, { name: "Acme", settings: [] }],
      ["create: non-boolean setting", req.institutionCreate, institutionCreate, { name: "Acme", settings: { auto_finalize: "yes" } }],
      ["create: cleared field", req.institutionCreate, institutionCreate, { name: "Acme", address: null }],
      ["update: nothing", req.institutionUpdate, institutionInput, {}],
      ["update: null name", req.institutionUpdate, institutionInput, { name: null }],
      ["update: long registration number", req.institutionUpdate, institutionInput, { registration_number: "R".repeat(65) }],
      [
        "invite",
        req.invitationCreate,
        invitationCreateInput,
        { institution_id: "01M84M2ES7DTY37NE05PPBJBQG", email: "Ada@Acme.test", role: "cohort_admin" },
      ],
      // Trimmed and lower-cased before it is checked: a client may send spaces around it, and capitals.
      [
        "invite: spaced e-mail",
        req.invitationCreate,
        invitationCreateInput,
        { institution_id: "i", email: " Ada@Acme.TEST\t", role: "cohort_admin" },
      ],
      [
        "invite: spaced bad e-mail",
        req.invitationCreate,
        invitationCreateInput,
        { institution_id: "i", email: " ada@ ", role: "cohort_admin" },
      ],
      ["invite: bad role", req.invitationCreate, invitationCreateInput, { institution_id: "i", email: "ada@acme.test", role: "boss" }],
      ["invite: bad e-mail", req.invitationCreate, invitationCreateInput, { institution_id: "i", email: "ada@", role: "cohort_admin" }],
      ["accept", req.invitationAccept, acceptInput, { token: "A".repeat(43) }],
      ["accept: short token", req.invitationAccept, acceptInput, { token: "A".repeat(42) }],
      ["list: limit", req.invitationListQuery, invitationListQuery, { institution_id: "i", limit: "200" }],
    ];
    for (const [name, json, valibot, value] of cases) {
      // Query strings carry text: the document types `limit` as the integer it stands for.
      const wire = name.startsWith("list") ? { ...(value as Json), limit: Number((value as Json).limit) } : value;
      const inner = (json as Json).properties && props(json).institution ? props(json).institution : json;
      expect(validate(inner, wire).length === 0, name).toBe(v.safeParse(valibot, value).success);
    }
  });

  it("the invitation schemas parse as docs/contract/README.md says", () => {
    const list = (query: Json) => v.safeParse(invitationListQuery, query);
    expect(list({}).output).toEqual({ limit: 50 });
    // Blank counts as absent, as on the security-event list.
    expect(list({ limit: "" }).output).toEqual({ limit: 50 });
    expect(list({ limit: " 200 ", cursor: "c", show_used: "true" }).output).toEqual({ limit: 200, cursor: "c", show_used: "true" });
    for (const limit of ["0", "201", "1e2", "-1"]) expect(list({ limit }).success, limit).toBe(false);
    const invite = v.safeParse(invitationCreateInput, { institution_id: "i", email: " Ada@Acme.TEST ", role: "cohort_admin" });
    expect(invite.output).toEqual({ institution_id: "i", email: "ada@acme.test", role: "cohort_admin" });
    expect(v.safeParse(invitationCreateInput, { email: "ada@acme.test", role: "cohort_admin" }).success).toBe(false);
  });

  it("mark a name required where a missing one is refused, and say how e-mails and limits read", () => {
    expect((props(req.institutionCreate).institution as Json).required).toEqual(["name"]);
    expect((props(req.institutionUpdate).institution as Json).required).toEqual([]);
    expect((props(req.cohortCreate).cohort as Json).required).toEqual(["name"]);
    expect(props(req.invitationCreate).email).toMatchObject({ pattern: expect.stringContaining("A-Za-z0-9") });
    expect(props(req.invitationListQuery).limit).toEqual({ type: "integer", minimum: 1, maximum: 200, default: 50 });
    expect(props(req.securityEventListQuery).limit).toEqual({ type: "integer", minimum: 1, maximum: 200, default: 50 });
  });
});

describe("the generated client types", () => {
  it("are current: shared/openapi/api-types.ts is what `npm run openapi:types` writes for this document", async () => {
    expect(readFileSync(TYPES_FILE, "utf8"), "run `npm run openapi:types`").toBe(await generateTypes());
  });
});

describe("the response check of every integration test (test/support/contract.ts)", () => {
  const json = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    etag: '"1"',
  };
  const shown = (opOf(`GET ${paths.institutions}/{id}`).responses as Json)[200] as Json;
  const example = ((shown.content as Json)["application/json"] as Json).example;

  it("passes a response the document describes", () => {
    expect(
      contractProblems("GET", `${paths.institutions}/01M84M2ES7DTY37NE05PPBJBQG`, { status: 200, headers: json, body: example }),
    ).toEqual([]);
  });

  it("names an unknown route, an unlisted status, an unlisted content type, a body off its schema, a missing header", () => {
    const path = `${paths.institutions}/01M84M2ES7DTY37NE05PPBJBQG`;
    expect(contractProblems("GET", `${paths.api}/nope`, { status: 404, headers: json, body: {} })[0]).toMatch(/no operation/);
    expect(contractProblems("GET", path, { status: 418, headers: json, body: {} })[0]).toMatch(/status 418 is not in the document/);
    expect(contractProblems("GET", path, { status: 200, headers: { ...json, "content-type": "text/plain" }, body: "" }).at(-1)).toMatch(
      /content type/,
    );
    expect(contractProblems("GET", path, { status: 200, headers: json, body: { ...(example as Json), extra: true } })[0]).toMatch(
      /must NOT have additional properties/,
    );
    expect(contractProblems("GET", path, { status: 404, headers: json, body: { message: "Not Found" } })[0]).toMatch(/body/);
    const tooMany = contractProblems("POST", paths.invitations, { status: 429, headers: json, body: { error: "x" } });
    expect(tooMany).toEqual([expect.stringMatching(/header Retry-After is missing/)]);
    const badHeader = { ...json, "retry-after": "soon" };
    expect(contractProblems("POST", paths.invitations, { status: 429, headers: badHeader, body: { error: "x" } })[0]).toMatch(
      /header Retry-After/,
    );
  });

  it("holds the list's paging and every response's security headers to the document", () => {
    const list = (body: unknown) => contractProblems("GET", paths.invitations, { status: 200, headers: json, body });
    expect(list({ invitations: [], meta: { count: 0, limit: 50, next_cursor: null } })).toEqual([]);
    expect(list({ invitations: [] })).not.toEqual([]);
    const bare = { "content-type": "application/json" };
    expect(() => assertConforms("GET", paths.institutions, { status: 200, headers: bare, body: { institutions: [] } })).toThrow(
      /Cache-Control/i,
    );
  });
});
