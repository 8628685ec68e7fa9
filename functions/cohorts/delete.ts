import { api, ok } from "../../shared/http.js";
import { deleteCohort } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params }) => ok(await deleteCohort(caller, params.id, params.cohort_id)));
