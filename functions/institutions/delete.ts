import { ifMatch } from "../../shared/etag.js";
import { api, ok } from "../../shared/http.js";
import { deleteInstitution } from "../../shared/institutions/deletion.js";

// No ETag on the answer: nothing is left to match.
export const handler = api(async ({ caller, params, headers }) =>
  ok(await deleteInstitution(caller, params.id, ifMatch(headers["if-match"]))),
);
