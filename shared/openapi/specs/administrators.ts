/**
 * The API document's administrator operations, by route key (see shared/openapi/spec.ts).
 */
import { paths } from "../../routes.js";
import { schemaRef as ref, type Schema } from "../components.js";
import { examples } from "../examples.js";
import type { RequestSchemas } from "../requests.js";
import type { Spec } from "../spec.js";
import { institutionId, instNotFound, queryParams, single } from "./common.js";

export function administratorSpecs(req: RequestSchemas): Record<string, Spec> {
  const inst = paths.institutions;
  const userIdParam: Schema = {
    name: "user_id",
    in: "path",
    required: true,
    description: "The administrator's user id.",
    schema: { type: "string" },
  };
  const manageAdmins = { superAdmin: "Only the institution's super admin can manage administrators" };
  const adminNotFound = { ...instNotFound, administrator: "Administrator not found" };
  return {
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
        "The institution's super admin removes anyone but themselves; any other administrator may remove themselves (leave). Takes the access and the seat, and revokes the active invitations that administrator sent (each logs `invitation_revoked`, reason `administrator_removed`). Logs `administrator_removed`. The person can be invited again.",
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
        "The institution's super admin hands the institution to another administrator of it, of its account, with the role `cohort_super_admin`, who becomes the institution's super admin; the former keeps access with the role `cohort_super_admin`. Logs `institution_transferred`.",
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
  };
}
