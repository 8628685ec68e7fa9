import { api, ok } from "../../shared/http.js";
import { listInstitutions } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller }) => ok(await listInstitutions(caller)));
