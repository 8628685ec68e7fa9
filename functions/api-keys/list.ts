import { listApiKeys } from "../../shared/api-keys/service.js";
import { api, ok } from "../../shared/http.js";

export const handler = api(async ({ caller, params }) => ok(await listApiKeys(caller, params.id)));
