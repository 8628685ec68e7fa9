import { api, ok } from "../../shared/http.js";
import { listDeliveries } from "../../shared/webhooks/service.js";

export const handler = api(async ({ caller, params }) => ok(await listDeliveries(caller, params.id)));
