import { api, ok } from "../../shared/http.js";
import { disconnectDirectory } from "../../shared/scim/connection.js";

export const handler = api(async ({ caller, params }) => ok(await disconnectDirectory(caller, params.id)));
