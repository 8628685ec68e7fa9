import { api, ok } from "../../shared/http.js";
import { listCohorts } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, params }) => ok(await listCohorts(caller, params.id)));
