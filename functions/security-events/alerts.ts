import { api, ok } from "../../shared/http.js";
import { securityAlerts } from "../../shared/security-events/service.js";

export const handler = api(async ({ caller }) => ok(await securityAlerts(caller)));
