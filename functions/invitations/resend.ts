import { api, ok } from "../../shared/http.js";
import { resendInvitation } from "../../shared/invitations/issue.js";

export const handler = api(async ({ caller, params, query, body }) => ok(await resendInvitation(caller, params.id, query, body)));
