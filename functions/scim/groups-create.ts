import { scimApi } from "../../shared/scim/http.js";
import { createResource } from "../../shared/scim/service.js";

export const handler = scimApi(async ({ directory, body }) => ({ status: 201, body: await createResource(directory, "Group", body) }));
