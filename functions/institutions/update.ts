// PATCH and PUT share this handler: both apply the submitted whitelisted fields.
import { api, ok } from "../../shared/http.js";
import { updateInstitution } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params, body }) => ok(await updateInstitution(caller, params.id, body)));
