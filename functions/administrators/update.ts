import { changeAdministratorRole } from "../../shared/administrators/service.js";
import { api, ok } from "../../shared/http.js";

export const handler = api(async ({ caller, params, body }) => ok(await changeAdministratorRole(caller, params.id, params.user_id, body)));
