// PATCH and PUT share this handler: both apply the submitted whitelisted fields.
import { etagOf, ifMatch } from "../../shared/etag.js";
import { api, ok } from "../../shared/http.js";
import { updateInstitution } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params, headers, body }) => {
  const { version, ...result } = await updateInstitution(caller, params.id, body, ifMatch(headers["if-match"]));
  return ok(result, { ETag: etagOf(version) });
});
