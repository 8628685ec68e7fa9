// The CSV response (body, content type, filename, truncation header) is built by the domain.
import { api } from "../../shared/http.js";
import { exportSecurityEvents } from "../../shared/security-events/service.js";

export const handler = api(async ({ caller, query }) => exportSecurityEvents(caller, query));
