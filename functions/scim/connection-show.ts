import { api, ok } from "../../shared/http.js";
import { showConnection } from "../../shared/scim/connection.js";

export const handler = api(async ({ caller, params }) => ok(await showConnection(caller, params.id)));
