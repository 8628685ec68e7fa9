import { startExport } from "../../shared/exports/service.js";
import { api } from "../../shared/http.js";

export const handler = api(async ({ caller, body }) => startExport(caller, body));
