import { showExport } from "../../shared/exports/show.js";
import { api, ok } from "../../shared/http.js";

export const handler = api(async ({ caller, params }) => ok(await showExport(caller, params.id)));
