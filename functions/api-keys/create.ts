import { createApiKey } from "../../shared/api-keys/service.js";
import { api, created } from "../../shared/http.js";

export const handler = api(async ({ caller, params, body }) => created(await createApiKey(caller, params.id, body)));
