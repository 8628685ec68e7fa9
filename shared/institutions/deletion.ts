/**
 * Deleting an institution (docs/contract/institutions.md), in the contract's check order: look up among visible
 * (404 + `unauthorized_institution_access`) → its super admin (403 + `insufficient_privileges`) → `If-Match` (412)
 * → no cohort (422). It takes with it what it leaves beside it (docs/sso.md, docs/api-keys.md): its verified
 * domains and the service-wide guards they hold, its SSO connection with its provider's item and the pool's
 * identity provider (shared/sso/release.ts), and its API keys; all the table's writes and `institution_deleted`
 * in one transaction. Its own module: only the deletion's function carries the pool's client.
 */
import { auditEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { messages, Unprocessable } from "../errors.js";
import type { VersionCheck } from "../etag.js";
import type { Message } from "../results.js";
import { RETRY, withRetries } from "../retry.js";
import { withConnectionReleased } from "../sso/release.js";
import { TOO_MANY_FOR_CHANGE } from "./model.js";
import * as repo from "./repository.js";
import { requireSuperAdminOf, requireVersion, requireVisible } from "./service.js";

const HAS_COHORTS = "Cannot delete institution with existing cohorts";

/**
 * Deletes an institution that has no cohort, if its version passes `expected` (`If-Match`). One read, the three
 * reads of what it leaves (side by side), the pool's calls when it has an SSO connection, and one transaction.
 */
export async function deleteInstitution(caller: Caller, id: string | undefined, expected?: VersionCheck): Promise<Message> {
  return withRetries("Institution was changed concurrently, please retry", async () => {
    const visible = await requireVisible(caller, id);
    await requireSuperAdminOf(caller, visible, "destroy_institution", messages.onlySuperAdminsDelete);
    requireVersion(visible.institution, expected);
    const { institution } = visible;
    // Before the pool is touched; the transaction checks it again (a cohort made meanwhile).
    if ((institution.cohort_count ?? 0) > 0) throw new Unprocessable(HAS_COHORTS);
    const { domains, connection, keys } = await repo.readRemnants(institution.id);
    const event = auditEvent(caller, "institution_deleted", { institution_name: institution.name }, { owner: institution.account_id });
    const result = await withConnectionReleased(connection, (held) =>
      repo.removeInstitution(institution, event, { domains, connection: held, keys }),
    );
    if (result.kind === "ok") return { message: `Institution '${institution.name}' deleted successfully` };
    if (result.kind === "has_cohorts") throw new Unprocessable(HAS_COHORTS);
    if (result.kind === "too_large") throw new Unprocessable(TOO_MANY_FOR_CHANGE);
    return RETRY;
  });
}
