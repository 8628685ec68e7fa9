/**
 * Transfer of an institution (docs/contract/administrators.md), apart from the other administrator use cases because it alone
 * reads the user pool: the Cognito client is a static import here, so that esbuild keeps only the commands it
 * sends (a dynamic import keeps every Cognito command, +73 KiB), and the other administrator functions do not
 * bundle it. Every transfer that passes the checks reads the pool, so loading it at import costs none of them.
 */
import * as v from "valibot";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { BadRequest, Unprocessable } from "../errors.js";
import { type Institution, memberRole, TOO_MANY_FOR_CHANGE, toRecord } from "../institutions/model.js";
import type { InstitutionWritten } from "../institutions/results.js";
import { RETRY, withRetries } from "../retry.js";
import { currentAccountOf } from "../users.js";
import * as repo from "./repository.js";
import { TRANSFER_USER_MISSING, transferInput } from "./schema.js";
import {
  institutionEvent,
  lookUp,
  requireManaging,
  requireTarget,
  TRANSFER_NEEDS_SUPER_ADMIN_ROLE,
  TRANSFER_OTHER_ACCOUNT,
  TRANSFER_TO_SELF,
} from "./service.js";

/**
 * Hands the institution to another administrator: the super admin only; the target must hold role
 * `cohort_super_admin` and belong to the institution's account as the user pool holds it now (422 saying
 * which). The former super admin keeps access as `cohort_super_admin`. One read round trip, one AdminGetUser
 * and one transaction.
 */
export async function transferInstitution(caller: Caller, institutionId: string | undefined, body: unknown): Promise<InstitutionWritten> {
  const wanted = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).user_id : undefined;
  const userId = typeof wanted === "string" ? wanted : undefined;
  return withRetries("Institution was changed concurrently, please retry", async () => {
    const { visible, record } = await lookUp(caller, institutionId, userId);
    await requireManaging(caller, visible);
    const parsed = v.safeParse(transferInput, body);
    if (!parsed.success) throw new BadRequest(TRANSFER_USER_MISSING);
    const target = requireTarget(visible, userId, record);
    const { institution: before } = visible;
    if (target.user_id === caller.id) throw new Unprocessable(TRANSFER_TO_SELF);
    // The account as the pool holds it now, not as recorded at acceptance (docs/contract/administrators.md).
    if ((await currentAccountOf(target.user_id)) !== before.account_id) throw new Unprocessable(TRANSFER_OTHER_ACCOUNT);
    if (memberRole(before, target.user_id) !== "cohort_super_admin") throw new Unprocessable(TRANSFER_NEEDS_SUPER_ADMIN_ROLE);

    const now = clock();
    const after: Institution = { ...before, super_admin_id: target.user_id, updated_at: now.toISOString() };
    const details = {
      institution_id: before.id,
      from_user_id: caller.id,
      to_user_id: target.user_id,
      ...(target.email && { to_email: target.email }),
    };
    const event = institutionEvent(caller, visible, "institution_transferred", details, now);
    const written = await repo.transferInstitution(before, after, event);
    if (written.kind === "too_large") throw new Unprocessable(TOO_MANY_FOR_CHANGE);
    if (written.kind === "retry") return RETRY;
    return { institution: toRecord(after), message: `Institution transferred to ${target.email || target.user_id}` };
  });
}
