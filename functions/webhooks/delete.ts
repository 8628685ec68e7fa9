import { api, ok } from "../../shared/http.js";
import { deleteWebhook } from "../../shared/webhooks/service.js";

export const handler = api(async ({ caller, params }) => ok(await deleteWebhook(caller, params.id)));
