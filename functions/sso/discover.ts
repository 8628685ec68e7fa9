/** Home-realm discovery (docs/sso.md): public, records nothing. */
import { api, ok } from "../../shared/http.js";
import { discover } from "../../shared/sso/discover.js";

export const handler = api(async ({ body }) => ok(await discover(body)), { public: true });
