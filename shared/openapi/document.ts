/**
 * The API document (OpenAPI 3.1, DESIGN.md §6): one operation per route of `shared/routes.ts`, request
 * schemas generated from the valibot schemas (requests.ts), response schemas from components.ts, examples
 * from real responses (examples.ts). Only the two docs functions import this module: building it loads
 * the JSON Schema converter, which no other handler should pay for at cold start.
 */
import { messages } from "../errors.js";
import { type Route, routeKey, routes, takesIdempotencyKey } from "../routes.js";
import { commonHeaders, headers, parameters, schemaRef as ref, responses, type Schema, schemas } from "./components.js";
import { examples } from "./examples.js";
import { type RequestSchemas, requestSchemas } from "./requests.js";
import { scimBodies, scimConnectionSpecs, scimOperation } from "./scim.js";
import type { Document, ErrorStatus, Operation, Spec } from "./spec.js";
import { streamingSchemas, streamingSpecs } from "./streaming.js";

export type { Document, ErrorStatus, Operation, Spec };

const idParam = (description: string): Schema => ({ name: "id", in: "path", required: true, description, schema: { type: "string" } });

/** Query parameters from a converted valibot object schema, each with its description. */
function queryParams(schema: Schema, descriptions: Record<string, string>): Schema[] {
  const properties = schema.properties as Record<string, Schema>;
  const required = new Set(schema.required as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(descriptions[name] && { description: descriptions[name] }),
    schema: s,
  }));
}

const json = (schema: Schema, example?: unknown) => ({
  "application/json": { schema, ...(example !== undefined && { example }) },
});

const INSTITUTION_ID_DESCRIPTION =
  "The institution: in the query or as `institution_id` in a JSON body (the body's wins). Without either, the institution is not found (404).";

function specs(req: RequestSchemas, errorMode: "throw" | "ignore"): Record<string, Spec> {
  const institutionId = idParam("The institution's id.");
  const invitationId = idParam("The invitation's id.");
  // The spec's "query or body": neither place alone is required, so neither is marked so.
  const institutionRef = queryParams(req.institutionRef, { institution_id: INSTITUTION_ID_DESCRIPTION }).map((p) => ({
    ...p,
    required: false,
  }));
  const institutionRefBody = {
    schema: req.institutionRef,
    example: { institution_id: "01M84M2ES7DTY37NE05PPBJBQG" },
    optional: true as const,
  };
  const instNotFound = { institution: "Institution not found or access denied" };
  const invNotFound = { ...instNotFound, invitation: "Invitation not found" };
  const validation = (...messages: string[]) => ({
    shape: "errors" as const,
    examples: { validation: { errors: messages } },
  });
  const single = (examples: Record<string, string>) => ({
    shape: "error" as const,
    examples: Object.fromEntries(Object.entries(examples).map(([k, error]) => [k, { error }])),
  });
  const userIdParam: Schema = {
    name: "user_id",
    in: "path",
    required: true,
    description: "The administrator's user id.",
    schema: { type: "string" },
  };
  const manageAdmins = { superAdmin: "Only the institution's super admin can manage administrators" };
  const adminNotFound = { ...instNotFound, administrator: "Administrator not found" };
  const mailBound = { mailBound: "Too many invitation e-mails, try again later" };
  const eventsFilters = {
    user_id: "Events of this user (equality).",
    user_email:
      "Events of the user with this e-mail, as the list shows it (case-insensitive). Kept from the events a page reads (no index of its own): a page may hold fewer than `limit` events and still have a `next_cursor`.",
    event_type: "Events of this type (equality).",
    from: "Events at or after this instant: ISO 8601 date or date-time; without an offset, UTC.",
    to: "Events at or before this instant, as `from`.",
    limit: "Page size.",
    cursor: "`meta.next_cursor` of the previous page, with the same filters.",
  };

  const etag = { ETag: { $ref: "#/components/headers/ETag" } };
  const inst = "/api/v1/institutions";
  const inv = "/api/v1/admin/invitations";
  const sec = "/api/v1/admin/security_events";
  const update = (method: "PATCH" | "PUT"): Spec => ({
    operationId: method === "PATCH" ? "updateInstitution" : "replaceInstitution",
    summary: method === "PATCH" ? "Update an institution" : "Update an institution (PUT, same as PATCH)",
    description:
      "Super admin of the institution. Only the submitted fields change (PUT and PATCH alike); an empty string or null clears an optional field. Logs `institution_updated`.",
    tag: "Institutions",
    parameters: [institutionId],
    ifMatch: true,
    body: { schema: req.institutionUpdate, example: { institution: { address: "2 Main St", settings: { auto_finalize: false } } } },
    success: {
      status: "200",
      description: "Updated.",
      schema: ref("InstitutionWritten"),
      example: examples.institutionUpdated,
      headers: etag,
    },
    errors: {
      403: { update: "Only super admins can update institutions" },
      404: instNotFound,
      422: validation("Registration number has already been taken", "Name contains invalid characters"),
    },
  });

  return {
    [`GET ${inst}`]: {
      operationId: "listInstitutions",
      summary: "List the institutions you can see",
      description: "Every institution the caller has an access record for, with the caller's role, by name.",
      tag: "Institutions",
      success: { status: "200", description: "The institutions.", schema: ref("InstitutionList"), example: examples.institutionList },
    },
    [`POST ${inst}`]: {
      operationId: "createInstitution",
      summary: "Create an institution",
      description:
        "Cohort super admins only. The institution belongs to the caller's account and the caller is its super admin. Unknown keys are ignored. Logs `institution_created`. At most 100 institutions per account per UTC day (429 with `Retry-After`).",
      tag: "Institutions",
      body: {
        schema: req.institutionCreate,
        example: {
          institution: {
            name: "Acme College",
            registration_number: "AC-1",
            contact_email: "desk@acme.test",
            settings: { auto_finalize: true },
          },
        },
      },
      success: {
        status: "201",
        description: "Created.",
        schema: ref("InstitutionWritten"),
        example: examples.institutionCreated,
        headers: etag,
      },
      errors: {
        403: { superAdmin: "Super admin access required" },
        422: validation("Name can't be blank", "Contact email is invalid"),
        429: { institutionDaily: "Too many institutions created today, try again later" },
      },
    },
    [`GET ${inst}/{id}`]: {
      operationId: "showInstitution",
      summary: "Read an institution",
      description:
        "The record, the caller's role views and the effective settings. An invisible id logs `unauthorized_institution_access`.",
      tag: "Institutions",
      parameters: [institutionId],
      success: {
        status: "200",
        description: "The institution.",
        schema: ref("InstitutionShown"),
        example: examples.institutionShown,
        headers: etag,
      },
      errors: { 404: instNotFound },
    },
    [`PATCH ${inst}/{id}`]: update("PATCH"),
    [`PUT ${inst}/{id}`]: update("PUT"),
    [`DELETE ${inst}/{id}`]: {
      operationId: "deleteInstitution",
      summary: "Delete an institution",
      description: "Super admin of the institution; refused while it has cohorts. Logs `institution_deleted`.",
      tag: "Institutions",
      parameters: [institutionId],
      ifMatch: true,
      success: { status: "200", description: "Deleted.", schema: ref("Message"), example: examples.institutionDeleted },
      errors: {
        403: { delete: "Only super admins can delete institutions" },
        404: instNotFound,
        422: single({ cohorts: "Cannot delete institution with existing cohorts" }),
      },
    },
    [`GET ${inst}/{id}/cohorts`]: {
      operationId: "listCohorts",
      summary: "List an institution's cohorts",
      tag: "Cohorts",
      parameters: [institutionId],
      success: { status: "200", description: "The cohorts.", schema: ref("CohortList"), example: examples.cohortList },
      errors: { 404: instNotFound },
    },
    [`POST ${inst}/{id}/cohorts`]: {
      operationId: "createCohort",
      summary: "Create a cohort",
      description: "Super admin of the institution. Logs `cohort_created`.",
      tag: "Cohorts",
      parameters: [institutionId],
      body: { schema: req.cohortCreate, example: { cohort: { name: "2026" } } },
      success: { status: "201", description: "Created.", schema: ref("CohortCreated"), example: examples.cohortCreated },
      errors: {
        403: { cohort: "Only super admins can create cohorts" },
        404: instNotFound,
        422: validation("Name can't be blank"),
      },
    },
    [`DELETE ${inst}/{id}/cohorts/{cohort_id}`]: {
      operationId: "deleteCohort",
      summary: "Delete a cohort",
      description: "Super admin of the institution. Logs `cohort_deleted`. Once its last cohort is gone, the institution can be deleted.",
      tag: "Cohorts",
      parameters: [
        institutionId,
        { name: "cohort_id", in: "path", required: true, description: "The cohort's id.", schema: { type: "string" } },
      ],
      success: { status: "200", description: "Deleted.", schema: ref("Message"), example: examples.cohortDeleted },
      errors: {
        403: { cohort: "Only super admins can delete cohorts" },
        404: { ...instNotFound, cohort: "Cohort not found" },
      },
    },
    [`GET ${inst}/{id}/administrators`]: {
      operationId: "listAdministrators",
      summary: "List an institution's administrators",
      description:
        "Any administrator of the institution. Ordered by e-mail, paged; a page reads only that page. Members from another account show their own `account_id`.",
      tag: "Administrators",
      parameters: [
        institutionId,
        ...queryParams(req.administratorListQuery, { limit: "Page size.", cursor: "`meta.next_cursor` of the previous page." }),
      ],
      success: {
        status: "200",
        description: "One page of administrators.",
        schema: ref("AdministratorList"),
        example: examples.administratorList,
      },
      errors: { 404: instNotFound },
    },
    [`PATCH ${inst}/{id}/administrators/{user_id}`]: {
      operationId: "changeAdministratorRole",
      summary: "Change an administrator's role",
      description: "The institution's super admin; never its own role. Logs `administrator_role_changed`.",
      tag: "Administrators",
      parameters: [institutionId, userIdParam],
      body: { schema: req.roleChange, example: { role: "cohort_super_admin" } },
      success: { status: "200", description: "Changed.", schema: ref("AdministratorUpdated"), example: examples.administratorUpdated },
      errors: {
        403: manageAdmins,
        404: adminNotFound,
        422: single({ superAdmin: "The super admin's role cannot be changed" }),
      },
    },
    [`DELETE ${inst}/{id}/administrators/{user_id}`]: {
      operationId: "removeAdministrator",
      summary: "Remove an administrator, or leave",
      description:
        "The super admin removes anyone but itself; any other administrator may remove itself (leave). Takes the access and the seat, and revokes the active invitations that administrator sent (each logs `invitation_revoked`, reason `administrator_removed`). Logs `administrator_removed`. The person can be invited again.",
      tag: "Administrators",
      parameters: [institutionId, userIdParam],
      success: { status: "200", description: "Removed.", schema: ref("AdministratorRemoved"), example: examples.administratorRemoved },
      errors: {
        403: manageAdmins,
        404: adminNotFound,
        422: single({ superAdmin: "The super admin cannot be removed; transfer the institution first" }),
      },
    },
    [`POST ${inst}/{id}/transfer`]: {
      operationId: "transferInstitution",
      summary: "Transfer an institution to another administrator",
      description:
        "The super admin. The new super admin must be an administrator of the institution, of its account, with role `cohort_super_admin`; the former keeps access as `cohort_super_admin`. Logs `institution_transferred`.",
      tag: "Administrators",
      parameters: [institutionId],
      body: { schema: req.transfer, example: { user_id: "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10" } },
      success: { status: "200", description: "Transferred.", schema: ref("InstitutionWritten"), example: examples.institutionTransferred },
      errors: {
        403: manageAdmins,
        404: adminNotFound,
        422: single({
          self: "You are already the institution's super admin",
          account: "The new super admin must belong to the institution's account",
          role: "The new super admin must have the role cohort_super_admin",
        }),
      },
    },
    [`GET ${inv}`]: {
      operationId: "listInvitations",
      summary: "List an institution's invitations",
      description: "Any administrator of the institution. Active invitations, or with `show_used=true` used ones; newest first, paged.",
      tag: "Invitations",
      parameters: queryParams(req.invitationListQuery, {
        institution_id: "The institution.",
        show_used: "`true` lists used invitations; any other value or none, active ones.",
        limit: "Page size.",
        cursor: "`meta.next_cursor` of the previous page.",
      }),
      success: { status: "200", description: "One page of invitations.", schema: ref("InvitationList"), example: examples.invitationList },
      errors: { 404: instNotFound },
    },
    [`POST ${inv}`]: {
      operationId: "createInvitation",
      summary: "Invite an administrator",
      description:
        "A cohort super admin managing the institution; only its super admin may invite `cohort_super_admin`. Mails the accept link and logs `invitation_created`. At most 3 active invitations per e-mail and institution, and bounded mail volume (per institution, per mailbox across the service, per account): each bound answers 429 with `Retry-After` and logs `rate_limit_exceeded`. The fields may also be sent as query parameters.",
      tag: "Invitations",
      body: {
        schema: req.invitationCreate,
        example: { institution_id: "01M84M2ES7DTY37NE05PPBJBQG", email: "ada@acme.test", role: "cohort_admin" },
      },
      success: {
        status: "201",
        description: "Invited; the e-mail is sent.",
        schema: ref("InvitationIssued"),
        example: examples.invitationCreated,
      },
      errors: {
        403: { superAdmin: "Super admin access required", superAdminRole: "Only the institution's super admin can invite super admins" },
        404: instNotFound,
        422: validation("Email already has access to this institution"),
        429: { pending: "Too many pending invitations for this email", ...mailBound },
        502: { mail: "Failed to send invitation email" },
      },
    },
    [`DELETE ${inv}/{id}`]: {
      operationId: "revokeInvitation",
      summary: "Revoke an invitation",
      description: "A cohort super admin managing the institution. The record stays, with `revoked_at`. Logs `invitation_revoked`.",
      tag: "Invitations",
      parameters: [invitationId, ...institutionRef],
      body: institutionRefBody,
      success: { status: "200", description: "Revoked.", schema: ref("Message"), example: examples.invitationRevoked },
      errors: {
        403: { superAdmin: "Super admin access required" },
        404: invNotFound,
        422: single({ notActive: "Failed to revoke invitation" }),
      },
    },
    [`POST ${inv}/{id}/resend`]: {
      operationId: "resendInvitation",
      summary: "Resend an invitation",
      description:
        "Same caller rule as create. Issues a new token (the old one stops working), restarts the validity period and mails again. Logs `invitation_resent`.",
      tag: "Invitations",
      parameters: [invitationId, ...institutionRef],
      body: institutionRefBody,
      success: { status: "200", description: "Resent.", schema: ref("InvitationResent"), example: examples.invitationResent },
      errors: {
        403: { superAdmin: "Super admin access required" },
        404: invNotFound,
        422: single({ notActive: "Cannot resend a revoked invitation" }),
        429: mailBound,
        502: { mail: "Failed to send invitation email" },
      },
    },
    "POST /api/v1/invitations/accept": {
      operationId: "acceptInvitation",
      summary: "Accept an invitation",
      description:
        "The signed-in user whose e-mail was invited. Grants the invited role (never lowers one the user has) and logs `invitation_accepted`; a failed attempt logs `token_validation_failure` and leaves the invitation as it was.",
      tag: "Invitations",
      // No example: the only valid one would be a token (it comes from the invitation e-mail's link).
      body: { schema: req.invitationAccept },
      success: { status: "200", description: "Accepted.", schema: ref("InvitationAccepted"), example: examples.invitationAccepted },
      errors: {
        422: single({ invalid: "Invalid or expired invitation", full: "Institution has reached its limit of 95 administrators" }),
      },
      alreadyAccepted: true,
    },
    "POST /api/v1/invitations/preview": {
      operationId: "previewInvitation",
      summary: "Preview an invitation",
      description:
        "The signed-in user whose e-mail was invited: what accepting would grant (the institution, the role, who invited, until when). The token goes in the body, never in a URL. Consumes nothing; a failure is accept's and logs `token_validation_failure`.",
      tag: "Invitations",
      body: { schema: req.invitationAccept },
      success: { status: "200", description: "The invitation.", schema: ref("InvitationPreview"), example: examples.invitationPreview },
      errors: { 422: single({ invalid: "Invalid or expired invitation" }) },
      alreadyAccepted: true,
    },
    "POST /api/v1/invitations/open": {
      operationId: "openInvitation",
      summary: "Open an invitation, without an account",
      description:
        "No token of the API: the invitation token in the body is the credential. What preview shows, plus the invited e-mail and whether a user with it exists (`has_account`), so the page offers sign-in or creating an account. Consumes nothing. An unknown, expired or revoked token is accept's 422 and logs `token_validation_failure` in the institution owner's trail; a used one answers 409 `Invitation already accepted`, recording nothing. Refusals count against the probing bound of the source address.",
      tag: "Invitations",
      body: { schema: req.invitationOpen },
      success: { status: "200", description: "The invitation.", schema: ref("InvitationOpened"), example: examples.invitationOpened },
      errors: { 422: single({ invalid: "Invalid or expired invitation" }) },
      alreadyAccepted: true,
    },
    "POST /api/v1/invitations/register": {
      operationId: "registerFromInvitation",
      summary: "Create an account from an invitation and accept it",
      description:
        "No token of the API: the invitation token in the body is the credential. Creates the user-pool user (the invited e-mail, verified; `name`; the inviting institution's account; no group), sets the password, and accepts the invitation as accept does, logging `account_created` and `invitation_accepted` in one transaction; then sign in. Refusals: a token as open's (422 + `token_validation_failure`, or 409 already accepted); `name` and `password` 422 `{errors}` (the password by the user pool's policy, saying what it lacks); 409 when a user with the e-mail exists (sign in and accept instead; the invitation stays active). Nothing is created on any refusal; refusals count against the probing bound of the source address.",
      tag: "Invitations",
      body: { schema: req.invitationRegister },
      success: {
        status: "201",
        description: "Account created.",
        schema: ref("InvitationRegistered"),
        example: examples.invitationRegistered,
      },
      errors: {
        409: { exists: "An account with this e-mail already exists; sign in to accept the invitation" },
        422: {
          shape: "either",
          examples: {
            invalid: { error: "Invalid or expired invitation" },
            password: { errors: ["Password is too short (minimum is 12 characters)", "Password must contain a symbol"] },
          },
        },
      },
      alreadyAccepted: true,
    },
    [`GET ${sec}`]: {
      operationId: "listSecurityEvents",
      summary: "List security events",
      description:
        "Cohort super admins; the caller's account only. Newest first (ties by id), paged; filters combine with AND. With both `user_id` and `event_type` a page may hold fewer than `limit` events and still have a `next_cursor`. Events past the retention are never listed.",
      tag: "Security events",
      parameters: queryParams(req.securityEventListQuery, eventsFilters),
      success: { status: "200", description: "One page of events.", schema: ref("SecurityEventList"), example: examples.securityEventList },
      errors: { 403: { superAdmin: "Super admin access required" } },
    },
    [`GET ${sec}/export`]: {
      operationId: "exportSecurityEvents",
      summary: "Export security events as CSV",
      description:
        "Cohort super admins. Columns `id,event_type,created_at,user_id,user_email,ip_address,description,details` (details as JSON), RFC 4180, UTF-8; a cell starting with `= + - @`, tab or CR gets a leading `'`. Newest first, at most 10,000 rows. `event_type` may name several types, comma-separated. Logs `security_events_exported`.",
      tag: "Security events",
      parameters: queryParams(req.securityEventExportQuery, {
        event_type: "One type, or several separated by commas.",
        user_email: "Events of the user with this e-mail (case-insensitive).",
        from: eventsFilters.from,
        to: eventsFilters.to,
      }),
      success: {
        status: "200",
        description: "The CSV file.",
        schema: { type: "string" },
        example: examples.securityEventExport,
        media: "text/csv",
        headers: {
          "Content-Disposition": { $ref: "#/components/headers/ContentDisposition" },
          "X-Export-Truncated": { $ref: "#/components/headers/XExportTruncated" },
        },
      },
      errors: { 403: { superAdmin: "Super admin access required" } },
    },
    [`GET ${sec}/alerts`]: {
      operationId: "securityAlerts",
      summary: "Alerts of the last hour",
      description:
        "Cohort super admins. Counts of the three counted event types over the last hour, the alerts they reach, and the per-minute series.",
      tag: "Security events",
      success: { status: "200", description: "The alerts.", schema: ref("Alerts"), example: examples.securityAlerts },
      errors: { 403: { superAdmin: "Super admin access required" } },
    },
    [`GET ${sec}/digests`]: {
      operationId: "listSecurityEventDigests",
      summary: "Signed digests of the trail",
      description:
        "Cohort super admins; the caller's account only. One digest per period (a UTC hour) that had events, oldest first, each chained to the account's previous digest and signed with ECDSA P-256 / SHA-256; `public_key` (PEM, SPKI) checks every signature. `events_hash` is the SHA-256 of the period's events, oldest first, each as the RFC 8785 canonical JSON of what `GET /security_events/{id}` returns, joined by a line feed. Periods that began before the retention are left out. See docs/trail.md and `npm run verify-trail`.",
      tag: "Security events",
      parameters: queryParams(req.securityEventDigestsQuery, {
        from: "Digests of the periods from the one holding this instant (ISO 8601).",
        to: "Digests of the periods that start at or before this instant (ISO 8601).",
      }),
      success: {
        status: "200",
        description: "The digests and the public key.",
        schema: ref("DigestList"),
        example: examples.securityEventDigests,
      },
      errors: { 403: { superAdmin: "Super admin access required" } },
    },
    [`GET ${sec}/{id}`]: {
      operationId: "showSecurityEvent",
      summary: "Read a security event",
      tag: "Security events",
      parameters: [idParam("The event's id.")],
      success: { status: "200", description: "The event.", schema: ref("SecurityEvent"), example: examples.securityEvent },
      errors: { 403: { superAdmin: "Super admin access required" }, 404: { event: "Security event not found" } },
    },
    "GET /api/v1/openapi.json": {
      operationId: "getApiDocument",
      summary: "This document",
      description: "No token needed.",
      tag: "API document",
      success: {
        status: "200",
        description: "The OpenAPI 3.1 document.",
        schema: { type: "object", properties: { openapi: { type: "string", const: "3.1.0" } }, required: ["openapi"] },
        example: undefined,
      },
    },
    "GET /api/v1/docs": {
      operationId: "getApiReference",
      summary: "The API reference page",
      description: "An interactive page (Swagger UI, served by this API, no CDN) built from this document. No token needed.",
      tag: "API document",
      success: { status: "200", description: "The HTML page.", schema: { type: "string" }, example: undefined, media: "text/html" },
    },
    // Full exports and webhooks (DESIGN.md §11).
    ...streamingSpecs(errorMode),
    ...scimConnectionSpecs(),
  };
}

/** Response wrappers of the success bodies, so that each has a name in generated clients. */
const bodies: Record<string, Schema> = {
  Message: { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false },
  InstitutionList: closedList("institutions", "InstitutionListItem"),
  InstitutionShown: closedObject({
    institution: ref("Institution"),
    role: { ...ref("Role"), description: "The caller's role in the institution." },
    is_super_admin: { type: "boolean" },
    settings: ref("EffectiveSettings"),
  }),
  InstitutionWritten: closedObject({ institution: ref("Institution"), message: { type: "string" } }),
  CohortList: closedList("cohorts", "Cohort"),
  CohortCreated: closedObject({ cohort: ref("Cohort") }),
  InvitationList: closedObject({ invitations: { type: "array", items: ref("InvitationListItem") }, meta: ref("PageMeta") }),
  InvitationIssued: closedObject({ invitation: ref("IssuedInvitation"), message: { type: "string" } }),
  InvitationResent: closedObject({ invitation: ref("ResentInvitation"), message: { type: "string" } }),
  InvitationAccepted: closedObject({
    institution: closedObject({ id: ref("Id"), name: { type: "string" } }),
    role: ref("Role"),
    message: { type: "string" },
  }),
  InvitationRegistered: closedObject({
    institution: closedObject({ id: ref("Id"), name: { type: "string" } }),
    role: ref("Role"),
    message: { type: "string", const: "Account created" },
  }),
  AdministratorList: closedObject({ administrators: { type: "array", items: ref("Administrator") }, meta: ref("PageMeta") }),
  AdministratorUpdated: closedObject({ administrator: ref("Administrator"), message: { type: "string" } }),
  AdministratorRemoved: closedObject({
    message: { type: "string" },
    revoked_invitations: { type: "integer", minimum: 0, description: "Active invitations the administrator had sent, now revoked." },
  }),
  SecurityEventList: closedObject({ events: { type: "array", items: ref("ListedEvent") }, meta: ref("PageMeta") }),
};

function closedObject(properties: Record<string, Schema>): Schema {
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}
function closedList(key: string, item: string): Schema {
  return closedObject({ [key]: { type: "array", items: ref(item) } });
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
  const isError = schema.$ref === "#/components/schemas/Error";
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

/** A 409 that may also be `AlreadyAccepted` (DESIGN.md §14): or-ed with the response it had, if any. */
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
  const writes = [main, events].some((a) => a === "write" || a === "readwrite");
  // The public routes that act (open, register) are handlers of the shared middy stack, with a visitor for a
  // caller; the API document and its page (no table) are handlers of their own (openapi/serve.ts).
  const sharedStack = !route.public || Object.keys(route.access).length > 0;
  if (sharedStack) {
    // Every handler of the shared middy stack reads a body, whatever the method: 400 malformed, 413 too large.
    out[400] = r("BadRequest");
    out[413] = r("PayloadTooLarge");
  }
  if (!route.public) out[401] = r("Unauthorized");
  // A refusal (403, 404, a failed invitation token on accept or preview, any refusal of open and register)
  // counts against the probing bound (DESIGN.md §13, §14).
  const errors: Spec["errors"] = { ...spec.errors };
  const tokenRoutes = ["invitations/accept", "invitations/preview", "invitations/open", "invitations/register"];
  if (errors[403] || errors[404] || tokenRoutes.includes(route.handler)) {
    errors[429] = { ...errors[429], refused: "Too many refused requests, try again later" };
  }
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
    description: [spec.description, `Who: ${route.who}.`].filter(Boolean).join("\n\n"),
    tags: [spec.tag],
    ...(route.public && { security: [] }),
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
  const all = specs(requestSchemas(errorMode), errorMode);
  const paths: Document["paths"] = {};
  for (const route of routes) {
    if (route.auth === "scim") {
      // Described as SCIM (shared/openapi/scim.ts), not as the JSON API.
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
        "Send a Cognito **ID token** as `Authorization: Bearer <token>` (access tokens are refused). Bodies are JSON in UTF-8,",
        "at most 64 KiB; responses are JSON (the export is CSV), snake_case, timestamps ISO 8601 UTC with milliseconds.",
        "Every response carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.",
      ].join("\n"),
    },
    // Relative: the document is served by the API it describes, locally and deployed.
    servers: [{ url: "/", description: "The API serving this document" }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Institutions" },
      { name: "Cohorts", description: "Minimal, so that the delete rule is reachable." },
      { name: "Administrators", description: "Who holds access to an institution, and changing or removing it." },
      { name: "Invitations" },
      { name: "Security events", description: "Scoped to the caller's account." },
      { name: "Webhooks", description: "The account's events, pushed to your endpoints as they are recorded." },
      { name: "Directory (SCIM)", description: "The institution's directory connection." },
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
      },
      schemas: { ...schemas, ...bodies, ...streamingSchemas, ...scimBodies },
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
