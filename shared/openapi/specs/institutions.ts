/**
 * The API document's institution and cohort operations, by route key (see shared/openapi/spec.ts).
 */
import { paths } from "../../routes.js";
import { schemaRef as ref } from "../components.js";
import { examples } from "../examples.js";
import type { RequestSchemas } from "../requests.js";
import type { Spec } from "../spec.js";
import { etag, institutionId, instNotFound, single, superAdmin, validation } from "./common.js";

export function institutionSpecs(req: RequestSchemas): Record<string, Spec> {
  const inst = paths.institutions;
  const update = (method: "PATCH" | "PUT"): Spec => ({
    operationId: method === "PATCH" ? "updateInstitution" : "replaceInstitution",
    summary: method === "PATCH" ? "Update an institution" : "Update an institution (PUT, same as PATCH)",
    description:
      "The institution's super admin. Only the submitted fields change (PUT and PATCH alike); an empty string or null clears an optional field. Logs `institution_updated`.",
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
        "Needs the cohort-super-admin status. The institution belongs to the caller's account and the caller becomes the institution's super admin. Unknown keys are ignored. Logs `institution_created`. At most 100 institutions per account per UTC day (429 with `Retry-After`).",
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
        403: superAdmin,
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
      description:
        "The institution's super admin; refused while it has cohorts. Its verified domains (and the guards that give them to it), its SSO connection (with the user pool's identity provider) and its API keys go with it. Logs `institution_deleted`.",
      tag: "Institutions",
      parameters: [institutionId],
      ifMatch: true,
      success: { status: "200", description: "Deleted.", schema: ref("Message"), example: examples.institutionDeleted },
      errors: {
        403: { delete: "Only super admins can delete institutions" },
        404: instNotFound,
        422: single({ cohorts: "Cannot delete institution with existing cohorts" }),
        409: { busy: "The SSO connection is being changed, please retry" },
        502: { pool: "The user pool could not be updated, please retry" },
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
      description: "The institution's super admin. Logs `cohort_created`.",
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
      description: "The institution's super admin. Logs `cohort_deleted`. Once its last cohort is gone, the institution can be deleted.",
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
  };
}
