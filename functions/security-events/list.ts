import { api, ok } from "../../shared/http.js";
import { listSecurityEvents } from "../../shared/security-events/service.js";

export const handler = api(async ({ caller, query }) => ok(await listSecurityEvents(caller, query)));
