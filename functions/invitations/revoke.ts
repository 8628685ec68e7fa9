import { api, ok } from "../../shared/http.js";
import { revokeInvitation } from "../../shared/invitations/service.js";

export const handler = api(async ({ caller, params, query, body }) => ok(await revokeInvitation(caller, params.id, query, body)));
