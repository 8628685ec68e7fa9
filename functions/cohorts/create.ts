import { api, created } from "../../shared/http.js";
import { createCohort } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params, body }) => created(await createCohort(caller, params.id, body)));
