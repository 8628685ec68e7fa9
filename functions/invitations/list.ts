import { api, ok } from "../../shared/http.js";
import { listInvitations } from "../../shared/invitations/service.js";

export const handler = api(async ({ caller, query, body }) => ok(await listInvitations(caller, query, body)));
