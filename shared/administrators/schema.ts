/** Input shapes of the administrator endpoints (docs/contract/administrators.md). */
import * as v from "valibot";
import { roleSchema } from "../invitations/schema.js";
import { DEFAULT_LIMIT, limitParam, queryParam } from "../paging.js";

/** Query of the list: paged like the invitation list. */
export const administratorListQuery = v.pipe(
  v.object({ limit: limitParam, cursor: queryParam }),
  // valibot types a key whose schema accepts undefined as optional; the default is already applied.
  v.transform((q) => ({ ...q, limit: q.limit ?? DEFAULT_LIMIT })),
);

/** Body of a role change. A role outside the two (or none) is 400 `Invalid role specified`. */
export const roleChangeInput = v.object({ role: roleSchema });

export const TRANSFER_USER_MISSING = "param is missing or the value is empty: user_id";

/** Body of a transfer: the user id of the new super admin (a Cognito `sub`; at most 128 characters). */
export const transferInput = v.object({
  user_id: v.pipe(v.string(TRANSFER_USER_MISSING), v.nonEmpty(TRANSFER_USER_MISSING), v.maxLength(128, TRANSFER_USER_MISSING)),
});

/** Body of an invitation preview: accept's. */
export { acceptInput as previewInput } from "../invitations/schema.js";
