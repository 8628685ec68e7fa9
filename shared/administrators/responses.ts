/**
 * The administrator use cases' response bodies, in valibot: schemas of the API document under these names
 * (see shared/responses.ts). Only the document and type-only imports use this module.
 */
import * as v from "valibot";
import { Id, PageMeta, Role, Timestamp } from "../responses.js";

export const Administrator = v.strictObject({
  user_id: v.pipe(v.string(), v.description("The administrator's user id (Cognito `sub`).")),
  email: v.pipe(v.string(), v.description("As the administrator's token said when access was granted.")),
  name: v.nullable(v.string()),
  account_id: v.pipe(
    v.string(),
    v.description("The administrator's own account; another than the institution's for a member from another account."),
  ),
  role: Role,
  is_super_admin: v.boolean(),
  added_at: Timestamp,
  invitation_id: v.pipe(v.nullable(Id), v.description("The invitation that granted the access; null for the institution's creator.")),
  managed_by: v.pipe(
    v.nullable(v.picklist(["scim"])),
    v.description("`scim` while the institution's directory manages this administrator: its role and removal are the directory's."),
  ),
});

export const AdministratorList = v.strictObject({ administrators: v.array(Administrator), meta: PageMeta });
export const AdministratorUpdated = v.strictObject({ administrator: Administrator, message: v.string() });
export const AdministratorRemoved = v.strictObject({
  message: v.string(),
  revoked_invitations: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.description("Active invitations the administrator had sent, now revoked."),
  ),
});
