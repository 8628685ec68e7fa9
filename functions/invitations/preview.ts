import { api, ok } from "../../shared/http.js";
import { previewInvitation } from "../../shared/invitations/service.js";

export const handler = api(async ({ caller, body }) => ok(await previewInvitation(caller, body)));
