import { api, ok } from "../../shared/http.js";
import { listWebhooks } from "../../shared/webhooks/service.js";

export const handler = api(async ({ caller }) => ok(await listWebhooks(caller)));
