import { scimApi } from "../../shared/scim/http.js";
import { replaceResource } from "../../shared/scim/service.js";

export const handler = scimApi(async ({ directory, params, body }) => ({
  status: 200,
  body: await replaceResource(directory, "User", params.id, body),
}));
