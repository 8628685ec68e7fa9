// POST `paths.invitationsOpen`, public: the invitation token in the body is the credential (docs/contract/invitations.md#open-and-register-joining).
import { api, ok } from "../../shared/http.js";
import { openInvitation } from "../../shared/invitations/join.js";

export const handler = api(async ({ caller, body }) => ok(await openInvitation(caller, body)), { public: true });
