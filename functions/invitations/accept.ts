import { api, ok } from "../../shared/http.js";
import { acceptInvitation } from "../../shared/invitations/service.js";

export const handler = api(async ({ caller, body }) => ok(await acceptInvitation(caller, body)));
