import { api, created } from "../../shared/http.js";
import { createWebhook } from "../../shared/webhooks/service.js";

export const handler = api(async ({ caller, body }) => created(await createWebhook(caller, body)));
