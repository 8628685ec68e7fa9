import { removeAdministrator } from "../../shared/administrators/service.js";
import { api, ok } from "../../shared/http.js";

export const handler = api(async ({ caller, params }) => ok(await removeAdministrator(caller, params.id, params.user_id)));
