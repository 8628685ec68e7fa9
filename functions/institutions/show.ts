import { api, ok } from "../../shared/http.js";
import { showInstitution } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params }) => ok(await showInstitution(caller, params.id)));
