import { api, created } from "../../shared/http.js";
import { createInstitution } from "../../shared/institutions/service.js";

export const handler = api(async ({ caller, body }) => created(await createInstitution(caller, body)));
