import { listAdministrators } from "../../shared/administrators/service.js";
import { api, ok } from "../../shared/http.js";

export const handler = api(async ({ caller, params, query }) => ok(await listAdministrators(caller, params.id, query)));
