import { api, csvFile } from "../../shared/http.js";
import { exportSecurityEvents } from "../../shared/security-events/service.js";

export const handler = api(async ({ caller, query }) => csvFile(await exportSecurityEvents(caller, query)));
