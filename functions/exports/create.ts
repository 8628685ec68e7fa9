import { startExport } from "../../shared/exports/start.js";
import { api } from "../../shared/http.js";

export const handler = api(async ({ caller, body }) => startExport(caller, body));
