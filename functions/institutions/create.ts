import { etagOf } from "../../shared/etag.js";
import { api, created } from "../../shared/http.js";
import { createInstitution } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, body }) => {
  const { version, ...result } = await createInstitution(caller, body);
  return created(result, { ETag: etagOf(version) });
});
