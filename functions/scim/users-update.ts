import { scimApi } from "../../shared/scim/http.js";
import { patchResource } from "../../shared/scim/service.js";

export const handler = scimApi(async ({ directory, params, body }) => ({
  status: 200,
  body: await patchResource(directory, "User", params.id, body),
}));
