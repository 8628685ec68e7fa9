import { etagOf } from "../../shared/etag.js";
import { api, ok } from "../../shared/http.js";
import { showInstitution } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params }) => {
  const { version, ...body } = await showInstitution(caller, params.id);
  return ok(body, { ETag: etagOf(version) });
});
