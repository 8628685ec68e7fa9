import { transferInstitution } from "../../shared/administrators/transfer.js";
import { api, ok } from "../../shared/http.js";

export const handler = api(async ({ caller, params, body }) => ok(await transferInstitution(caller, params.id, body)));
