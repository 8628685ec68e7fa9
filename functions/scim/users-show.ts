import { scimApi } from "../../shared/scim/http.js";
import { showResource } from "../../shared/scim/service.js";

export const handler = scimApi(async ({ directory, params, query }) => ({
  status: 200,
  body: await showResource(directory, "User", params.id, query),
}));
