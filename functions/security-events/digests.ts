import { api, ok } from "../../shared/http.js";
import { listDigests } from "../../shared/trail/service.js";

export const handler = api(async ({ caller, query }) => ok(await listDigests(caller, query)));
