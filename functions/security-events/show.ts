import { api, ok } from "../../shared/http.js";
import { showSecurityEvent } from "../../shared/security-events/service.js";

export const handler = api(async ({ caller, params }) => ok(await showSecurityEvent(caller, params.id)));
