// POST `paths.invitationsRegister`, public: the invitation token in the body is the credential (docs/contract/invitations.md#open-and-register-joining).
import { api, created } from "../../shared/http.js";
import { registerFromInvitation } from "../../shared/invitations/join.js";

export const handler = api(async ({ caller, body }) => created(await registerFromInvitation(caller, body)), { public: true });
