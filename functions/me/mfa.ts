import { api, ok } from "../../shared/http.js";
import { setMfa } from "../../shared/people/service.js";

export const handler = api(async ({ caller, body }) => ok(await setMfa(caller, body)));
