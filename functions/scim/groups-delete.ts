import { scimApi } from "../../shared/scim/http.js";
import { deleteResource } from "../../shared/scim/service.js";

export const handler = scimApi(async ({ directory, params }) => {
  await deleteResource(directory, "Group", params.id);
  return { status: 204 };
});
