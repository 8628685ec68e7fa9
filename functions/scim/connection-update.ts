import { api, ok } from "../../shared/http.js";
import { updateMappings } from "../../shared/scim/connection.js";

export const handler = api(async ({ caller, params, body }) => ok(await updateMappings(caller, params.id, body)));
