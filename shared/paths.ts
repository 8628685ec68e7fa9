/**
 * The API's path prefixes: the one place `/api/v1` is spelled. A module of its own, without the route table,
 * so that the console's entry (web/src/api.ts) and the tests take these few strings and nothing else;
 * shared/routes.ts re-exports them.
 */
const api = "/api/v1";

export const paths = {
  api,
  institutions: `${api}/institutions`,
  invitations: `${api}/admin/invitations`,
  invitationsAccept: `${api}/invitations/accept`,
  invitationsPreview: `${api}/invitations/preview`,
  invitationsOpen: `${api}/invitations/open`,
  invitationsRegister: `${api}/invitations/register`,
  securityEvents: `${api}/admin/security_events`,
  webhooks: `${api}/admin/webhooks`,
  /** Home-realm discovery (docs/sso.md): public, the e-mail's SSO connection. */
  ssoDiscover: `${api}/sso/discover`,
  /** The caller's own account (docs/contract/people.md): their second sign-in step, their sessions. */
  me: `${api}/me`,
  openapi: `${api}/openapi.json`,
  docs: `${api}/docs`,
  /** The SCIM 2.0 service (docs/scim.md): a connection's `base_url` is the API's origin and this. */
  scim: "/api/scim/v2",
} as const;
