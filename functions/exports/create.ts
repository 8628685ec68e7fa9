import { startExport } from "../../shared/exports/start.js";
import { accepted, api } from "../../shared/http.js";

export const handler = api(async ({ caller, body }) => accepted(await startExport(caller, body)));
