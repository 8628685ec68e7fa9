import { api, created, ok } from "../../shared/http.js";
import { connectDirectory } from "../../shared/scim/connection.js";

export const handler = api(async ({ caller, params }) => {
  const { created: isNew, scim } = await connectDirectory(caller, params.id);
  return isNew ? created({ scim }) : ok({ scim });
});
