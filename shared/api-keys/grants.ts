/**
 * What a key may not hand out (docs/api-keys.md): the super-admin role stays with a person, whether by invitation or
 * by a role change. A refusal is recorded as every refused role check is (`insufficient_privileges`, required
 * role `super_admin`, in the owner's trail too) and counts against the probing bound.
 */
import { auditEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { Forbidden } from "../errors.js";
import type { Visible } from "../institutions/service.js";
import { recordRefusal } from "../refusals.js";
import type { Role } from "../roles.js";

export const KEYS_INVITE_ADMINS_ONLY = "API keys invite cohort_admin only";
export const KEYS_GRANT_ADMINS_ONLY = "API keys cannot give the cohort_super_admin role";

/** 403 for an API key giving `role` cohort_super_admin; anyone else, or another role, passes. */
export async function requireKeyMayGrant(caller: Caller, visible: Visible, role: Role, action: string, message: string): Promise<void> {
  if (!caller.apiKey || role !== "cohort_super_admin") return;
  const { institution } = visible;
  const details = { action, required_role: "super_admin" as const, institution_id: institution.id };
  await recordRefusal(caller, auditEvent(caller, "insufficient_privileges", details, { owner: institution.account_id }));
  throw new Forbidden(message);
}
