import { discovery } from "../../shared/scim/discovery.js";
import { scimApi } from "../../shared/scim/http.js";

export const handler = scimApi(async ({ directory, path }) => ({ status: 200, body: discovery(directory.baseUrl, path) }));
