import { api, ok } from "../../shared/http.js";
import { deleteInstitution } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params }) => ok(await deleteInstitution(caller, params.id)));
