import { api, created } from "../../shared/http.js";
import { createInvitation } from "../../shared/invitations/issue.js";

export const handler = api(async ({ caller, query, body }) => created(await createInvitation(caller, query, body)));
