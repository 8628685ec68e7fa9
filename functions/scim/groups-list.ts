import { scimApi } from "../../shared/scim/http.js";
import { listResources } from "../../shared/scim/service.js";

export const handler = scimApi(async ({ directory, query }) => ({ status: 200, body: await listResources(directory, "Group", query) }));
