// Generated from the API document by `npm run openapi:types` (openapi-typescript); do not edit.

export interface paths {
  "/api/v1/institutions": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the institutions you can see
     * @description Every institution the caller has an access record for, with the caller's role, by name.
     *
     *     Who: any authorized user; or an API key with the scope `institution:read`.
     */
    get: operations["listInstitutions"];
    put?: never;
    /**
     * Create an institution
     * @description Needs the cohort-super-admin status. The institution belongs to the caller's account and the caller becomes the institution's super admin. Unknown keys are ignored. Logs `institution_created`. At most 100 institutions per account per UTC day (429 with `Retry-After`).
     *
     *     Who: a user with the cohort-super-admin status.
     */
    post: operations["createInstitution"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read an institution
     * @description The record, the caller's role views and the effective settings. An invisible id logs `unauthorized_institution_access`.
     *
     *     Who: user with access; or an API key with the scope `institution:read`.
     */
    get: operations["showInstitution"];
    /**
     * Update an institution (PUT, same as PATCH)
     * @description The institution's super admin. Only the submitted fields change (PUT and PATCH alike); an empty string or null clears an optional field. Logs `institution_updated`.
     *
     *     Who: the institution's super admin; or an API key with the scope `institution:write`.
     */
    put: operations["replaceInstitution"];
    post?: never;
    /**
     * Delete an institution
     * @description The institution's super admin; refused while it has cohorts. Its verified domains (and the guards that give them to it), its SSO connection (with the user pool's identity provider) and its API keys go with it. Logs `institution_deleted`.
     *
     *     Who: the institution's super admin.
     */
    delete: operations["deleteInstitution"];
    options?: never;
    head?: never;
    /**
     * Update an institution
     * @description The institution's super admin. Only the submitted fields change (PUT and PATCH alike); an empty string or null clears an optional field. Logs `institution_updated`.
     *
     *     Who: the institution's super admin; or an API key with the scope `institution:write`.
     */
    patch: operations["updateInstitution"];
    trace?: never;
  };
  "/api/v1/institutions/{id}/cohorts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an institution's cohorts
     * @description Who: user with access; or an API key with the scope `cohorts:read`.
     */
    get: operations["listCohorts"];
    put?: never;
    /**
     * Create a cohort
     * @description The institution's super admin. Logs `cohort_created`.
     *
     *     Who: the institution's super admin; or an API key with the scope `cohorts:write`.
     */
    post: operations["createCohort"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/cohorts/{cohort_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a cohort
     * @description The institution's super admin. Logs `cohort_deleted`. Once its last cohort is gone, the institution can be deleted.
     *
     *     Who: the institution's super admin; or an API key with the scope `cohorts:write`.
     */
    delete: operations["deleteCohort"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/administrators": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an institution's administrators
     * @description Any administrator of the institution. Ordered by e-mail, paged; a page reads only that page. Members from another account show their own `account_id`.
     *
     *     Who: user with access; or an API key with the scope `administrators:read`.
     */
    get: operations["listAdministrators"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/administrators/{user_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove an administrator, or leave
     * @description The institution's super admin removes anyone but themselves; any other administrator may remove themselves (leave). Takes the access and the seat, and revokes the active invitations that administrator sent (each logs `invitation_revoked`, reason `administrator_removed`). Logs `administrator_removed`. The person can be invited again.
     *
     *     Who: the institution's super admin, or the administrator itself (leaving); or an API key with the scope `administrators:write`.
     */
    delete: operations["removeAdministrator"];
    options?: never;
    head?: never;
    /**
     * Change an administrator's role
     * @description The institution's super admin; never its own role. Logs `administrator_role_changed`.
     *
     *     Who: the institution's super admin; or an API key with the scope `administrators:write`.
     */
    patch: operations["changeAdministratorRole"];
    trace?: never;
  };
  "/api/v1/institutions/{id}/transfer": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Transfer an institution to another administrator
     * @description The institution's super admin hands the institution to another administrator of it, of its account, with the role `cohort_super_admin`, who becomes the institution's super admin; the former keeps access with the role `cohort_super_admin`. Logs `institution_transferred`.
     *
     *     Who: the institution's super admin.
     */
    post: operations["transferInstitution"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/invitations": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List an institution's invitations
     * @description Any administrator of the institution. Active invitations, or with `show_used=true` used ones; newest first, paged.
     *
     *     Who: user with access; or an API key with the scope `invitations:read`.
     */
    get: operations["listInvitations"];
    put?: never;
    /**
     * Invite an administrator
     * @description Needs the cohort-super-admin status and the role `cohort_super_admin` on the institution; only the institution's super admin may invite with the role `cohort_super_admin`. Mails the accept link and logs `invitation_created`. At most 3 active invitations per e-mail and institution, and bounded mail volume (per institution, per mailbox across the service, per account): each bound answers 429 with `Retry-After` and logs `rate_limit_exceeded`. The fields may also be sent as query parameters.
     *
     *     Who: a user with the cohort-super-admin status and the role `cohort_super_admin` on the institution; or an API key with the scope `invitations:write`.
     */
    post: operations["createInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/invitations/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an invitation
     * @description Needs the cohort-super-admin status and the role `cohort_super_admin` on the institution. The record stays, with `revoked_at`. Logs `invitation_revoked`.
     *
     *     Who: a user with the cohort-super-admin status and the role `cohort_super_admin` on the institution; or an API key with the scope `invitations:write`.
     */
    delete: operations["revokeInvitation"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/invitations/{id}/resend": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resend an invitation
     * @description Same caller rule as create. Issues a new token (the old one stops working), restarts the validity period and mails again. Logs `invitation_resent`.
     *
     *     Who: a user with the cohort-super-admin status and the role `cohort_super_admin` on the institution; or an API key with the scope `invitations:write`.
     */
    post: operations["resendInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/invitations/accept": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Accept an invitation
     * @description The signed-in user whose e-mail was invited. Grants the invited role (never lowers one the user has) and logs `invitation_accepted`; a failed attempt logs `token_validation_failure` and leaves the invitation as it was.
     *
     *     Who: the invited e-mail's user.
     */
    post: operations["acceptInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/invitations/preview": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview an invitation
     * @description The signed-in user whose e-mail was invited: what accepting would grant (the institution, the role, who invited, until when). The token goes in the body, never in a URL. Consumes nothing; a failure is accept's and logs `token_validation_failure`.
     *
     *     Who: the invited e-mail's user.
     */
    post: operations["previewInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/invitations/open": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Open an invitation, without an account
     * @description No token of the API: the invitation token in the body is the credential. What preview shows, plus the invited e-mail and whether a user with it exists (`has_account`), so the page offers sign-in or creating an account. Consumes nothing. An unknown, expired or revoked token is accept's 422 and logs `token_validation_failure` in the institution owner's trail; a used one answers 409 `Invitation already accepted`, recording nothing. Refusals count against the probing bound of the source address.
     *
     *     Who: anyone holding the invitation's token, without a token of the API.
     */
    post: operations["openInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/invitations/register": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create an account from an invitation and accept it
     * @description No token of the API: the invitation token in the body is the credential. Creates the user-pool user (the invited e-mail, verified; `name`; the inviting institution's account; no group), sets the password, and accepts the invitation as accept does, logging `account_created` and `invitation_accepted` in one transaction; then sign in. Refusals: a token as open's (422 + `token_validation_failure`, or 409 already accepted); `name` and `password` 422 `{errors}` (the password by the user pool's policy, saying what it lacks); 409 when a user with the e-mail exists (sign in and accept instead; the invitation stays active). Nothing is created on any refusal; refusals count against the probing bound of the source address.
     *
     *     Who: anyone holding the invitation's token, without a token of the API.
     */
    post: operations["registerFromInvitation"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/security_events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List security events
     * @description Needs the cohort-super-admin status; the caller's account only. Newest first (ties by id), paged; filters combine with AND. With both `user_id` and `event_type` a page may hold fewer than `limit` events and still have a `next_cursor`. Events past the retention are never listed.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    get: operations["listSecurityEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/security_events/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export security events as CSV
     * @description Needs the cohort-super-admin status. Columns `id,event_type,created_at,user_id,user_email,ip_address,description,details` (details as JSON), RFC 4180, UTF-8; a cell starting with `= + - @`, tab or CR gets a leading `'`. Newest first, at most 10,000 rows. `event_type` may name several types, comma-separated. Logs `security_events_exported`.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    get: operations["exportSecurityEvents"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/security_events/alerts": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Alerts of the last hour
     * @description Needs the cohort-super-admin status. Counts of the three counted event types over the last hour, the alerts they reach, and the per-minute series.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    get: operations["securityAlerts"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/security_events/digests": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Signed digests of the trail
     * @description Needs the cohort-super-admin status; the caller's account only. One digest per period (a UTC hour) that had events, oldest first, each chained to the account's previous digest and signed with ECDSA P-256 / SHA-256; `public_key` (PEM, SPKI) checks every signature. `events_hash` is the SHA-256 of the period's events, oldest first, each as the RFC 8785 canonical JSON of what `GET /security_events/{id}` returns, joined by a line feed. Periods that began before the retention are left out. See docs/trail.md and `npm run verify-trail`.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    get: operations["listSecurityEventDigests"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/security_events/exports": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Export every matching event to a file
     * @description Needs the cohort-super-admin status; the caller's account only. Starts a full export, as CSV (the columns, quoting and injection guard of the CSV export, without its 10,000-row cap) or JSON Lines (each line the event as `GET /security_events/{id}` shows it), newest first, with the list's filters. Poll `GET …/exports/{id}` for its status and download link. At most 2 exports of an account run at a time. Logs `security_events_exported`.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    post: operations["startSecurityEventExport"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/security_events/exports/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Status and download link of an export
     * @description Needs the cohort-super-admin status; the caller's account only. A succeeded export carries a download link valid for 15 minutes.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    get: operations["showSecurityEventExport"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/security_events/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read a security event
     * @description Who: a user with the cohort-super-admin status.
     */
    get: operations["showSecurityEvent"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/webhooks": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the account's webhooks
     * @description Needs the cohort-super-admin status; the caller's account only. Secrets are never shown again.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    get: operations["listWebhooks"];
    put?: never;
    /**
     * Create a webhook
     * @description Needs the cohort-super-admin status; for the caller's account. Every event recorded in the account from then on is POSTed to `url`, signed per Standard Webhooks (`webhook-id` is the event id, so duplicates can be dropped; payload `{type, timestamp, data}` with `data` the event as show returns it). A receiver must answer 2xx within 5 s; failed deliveries are retried with exponential backoff for 24 hours. https URLs only, to a public host: a host name (not an IP address), no user name or password, port 443 or above 1023, resolving to public addresses only (not loopback, private, link-local, CGNAT or unique-local ones); each delivery resolves the host again and connects only to an address that passes. At most 5 per account. Logs `webhook_created`.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    post: operations["createWebhook"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/webhooks/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a webhook
     * @description Needs the cohort-super-admin status; the caller's account only. Pending retries stop. Logs `webhook_deleted`.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    delete: operations["deleteWebhook"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/admin/webhooks/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Recent deliveries of a webhook
     * @description Needs the cohort-super-admin status; the caller's account only. The newest 50 deliveries (one per event), with their attempts so far.
     *
     *     Who: a user with the cohort-super-admin status.
     */
    get: operations["listWebhookDeliveries"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/me/mfa": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Turn your authenticator app on or off
     * @description The caller's own second sign-in step: `totp: true` makes the authenticator app (TOTP) the preferred second step, so that later sign-ins ask for its code; `false` turns it off. Turning it on needs an app the caller has associated and verified a code of first, with their own access token (Cognito's `AssociateSoftwareToken`, then `VerifySoftwareToken`; the console does both). Where the deployment requires a second step (`mfa: required`) it cannot be turned off. Logs `mfa_enabled` or `mfa_disabled` in the caller's account.
     *
     *     Who: any authorized user.
     */
    put: operations["setMfa"];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/me/sign_out_everywhere": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out everywhere
     * @description Revokes every refresh token of the caller: each browser or app signed in as them must sign in again once its ID token (valid for an hour at most) expires. Logs `signed_out_everywhere` in the caller's account.
     *
     *     Who: any authorized user.
     */
    post: operations["signOutEverywhere"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/scim": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the institution's directory connection
     * @description Without the token: its preview, times, when the directory last used it, and the role mappings.
     *
     *     Who: the institution's super admin.
     */
    get: operations["showDirectoryConnection"];
    put?: never;
    /**
     * Connect the institution's directory (SCIM), or rotate its token
     * @description Creates the institution's one connection (201) or, when it exists, issues a new token (200); the old token stops working at once. The token is shown this once and stored only as a SHA-256 hash. Logs `scim_connected` or `scim_token_rotated`.
     *
     *     Who: the institution's super admin.
     */
    post: operations["connectDirectory"];
    /**
     * Disconnect the institution's directory
     * @description Its token stops working; the administrators it gave stay, manageable by hand again. Logs `scim_disconnected`.
     *
     *     Who: the institution's super admin.
     */
    delete: operations["disconnectDirectory"];
    options?: never;
    head?: never;
    /**
     * Map the directory's groups to roles
     * @description Replaces the mappings (group displayName → role), which take effect at once for every administrator the directory gave access. Logs `scim_role_mappings_changed` and each `administrator_role_changed` (source `scim`).
     *
     *     Who: the institution's super admin.
     */
    patch: operations["mapDirectoryGroups"];
    trace?: never;
  };
  "/api/scim/v2/ServiceProviderConfig": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: list ServiceProviderConfig
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimListServiceProviderConfig"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/ResourceTypes": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: list ResourceTypes
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimListResourceTypes"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/ResourceTypes/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: read one of ResourceTypes
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimReadResourceTypesById"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/Schemas": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: list Schemas
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimListSchemas"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/Schemas/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: read one of Schemas
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimReadSchemasById"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/Users": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: list Users
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimListUsers"];
    put?: never;
    /**
     * SCIM 2.0: create Users
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    post: operations["scimCreateUsers"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/Users/{proxy+}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: list Users, with a trailing slash (`/Users/`, as Entra ID's validator sends it)
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimListUsersTrailingSlash"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/Users/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: read one of Users
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimReadUsersById"];
    /**
     * SCIM 2.0: replace one of Users
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    put: operations["scimReplaceUsersById"];
    post?: never;
    /**
     * SCIM 2.0: delete one of Users
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    delete: operations["scimDeleteUsersById"];
    options?: never;
    head?: never;
    /**
     * SCIM 2.0: update one of Users
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    patch: operations["scimUpdateUsersById"];
    trace?: never;
  };
  "/api/scim/v2/Groups": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: list Groups
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimListGroups"];
    put?: never;
    /**
     * SCIM 2.0: create Groups
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    post: operations["scimCreateGroups"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/Groups/{proxy+}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: list Groups, with a trailing slash (`/Groups/`, as Entra ID's validator sends it)
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimListGroupsTrailingSlash"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/scim/v2/Groups/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * SCIM 2.0: read one of Groups
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    get: operations["scimReadGroupsById"];
    /**
     * SCIM 2.0: replace one of Groups
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    put: operations["scimReplaceGroupsById"];
    post?: never;
    /**
     * SCIM 2.0: delete one of Groups
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    delete: operations["scimDeleteGroupsById"];
    options?: never;
    head?: never;
    /**
     * SCIM 2.0: update one of Groups
     * @description RFC 7644, as the service's /ServiceProviderConfig, /ResourceTypes and /Schemas describe it. Who: the institution's directory (SCIM bearer token).
     */
    patch: operations["scimUpdateGroupsById"];
    trace?: never;
  };
  "/api/v1/institutions/{id}/domains": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the institution's domains
     * @description Oldest first, each with its state and the TXT record to publish. A domain pending for 7 days shows as `failed`.
     *
     *     Who: user with access.
     */
    get: operations["listDomains"];
    put?: never;
    /**
     * Add a mail domain to verify
     * @description Lower-cased and put in its ASCII (IDNA) form; at least two labels; not a public suffix; not a consumer mail provider's. At most 20 per institution. Answers the TXT record to publish at `_institution-admin-challenge.<domain>`, then verify. Logs `domain_added`.
     *
     *     Who: the institution's super admin.
     */
    post: operations["addDomain"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/domains/{domain_id}/verify": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify a domain now
     * @description Looks the TXT record up now. Found with the domain's value: `verified` (logs `domain_verified`). Otherwise it stays `pending` with `last_checked_at` and `last_error` (logs `domain_verification_failed`); 7 days after it was added it is `failed`. A verified or failed domain is answered as it is. A domain is verified by at most one institution: 409 when another has it.
     *
     *     Who: the institution's super admin.
     */
    post: operations["verifyDomain"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/domains/{domain_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a domain
     * @description A verified domain becomes free for another institution to verify. Logs `domain_removed`.
     *
     *     Who: the institution's super admin.
     */
    delete: operations["removeDomain"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/sso": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Read the institution's SSO connection
     * @description Never the client secret.
     *
     *     Who: the institution's super admin.
     */
    get: operations["showSso"];
    put?: never;
    /**
     * Connect the institution's identity provider (SAML 2.0 or OpenID Connect)
     * @description The metadata (SAML: an IdP descriptor with a signing certificate and a single sign-on service) or the discovery document (OIDC: its `issuer` equal to the one given) is fetched and checked now, from https URLs to public hosts only (as webhooks). The user pool gets the institution's identity provider, listed for the console. Answers the values the IdP's administrator pastes (`sp`). Logs `sso_connected`.
     *
     *     Who: the institution's super admin.
     */
    post: operations["connectSso"];
    /**
     * Disconnect the institution's identity provider
     * @description The pool's identity provider goes, and with it the console's way to sign in through it. Logs `sso_disconnected`.
     *
     *     Who: the institution's super admin.
     */
    delete: operations["disconnectSso"];
    options?: never;
    head?: never;
    /**
     * Change the institution's SSO connection
     * @description The fields of connect, each optional. A new IdP document is checked as on connect. Logs `sso_updated` with the fields that changed.
     *
     *     Who: the institution's super admin.
     */
    patch: operations["updateSso"];
    trace?: never;
  };
  "/api/v1/sso/discover": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Find the identity provider of an e-mail address (home-realm discovery)
     * @description Public. `sso` names the institution whose verified domain the address is on and its provider, when it has a connection; otherwise null. It refuses nothing and records nothing.
     *
     *     Who: anyone, without a token.
     */
    post: operations["discoverSso"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/api_keys": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List the institution's API keys
     * @description The institution's super admin. Newest first, with each key's last use (noted at most once a minute); never a key.
     *
     *     Who: the institution's super admin.
     */
    get: operations["listApiKeys"];
    put?: never;
    /**
     * Make an API key for the institution
     * @description The institution's super admin. A key is a machine's credential for this institution alone: send it as `Authorization: Bearer iak_…` on the same paths; its scopes are its whole grant (each route a key may call names its scope), and it invites `cohort_admin` only. The key is in this answer only; the service keeps its SHA-256 hash and its first 8 characters. At most 20 live (unexpired) keys per institution. A revoked key stops working within 60 seconds, an expired one at once. Logs `api_key_created`.
     *
     *     Who: the institution's super admin.
     */
    post: operations["createApiKey"];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/institutions/{id}/api_keys/{key_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an API key
     * @description The institution's super admin. The key stops working within 60 seconds (the machines' API caches its authorizer's answer for at most that long). Invitations it sent stay until they are used, expire or are revoked. Logs `api_key_revoked`.
     *
     *     Who: the institution's super admin.
     */
    delete: operations["revokeApiKey"];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/openapi.json": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This document
     * @description No token needed.
     *
     *     Who: anyone, without a token.
     */
    get: operations["getApiDocument"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  "/api/v1/docs": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The API reference page
     * @description An interactive page (Swagger UI, served by this API, no CDN) built from this document. No token needed.
     *
     *     Who: anyone, without a token.
     */
    get: operations["getApiReference"];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Administrator: {
      /** @description The administrator's user id (Cognito `sub`). */
      user_id: string;
      /** @description As the administrator's token said when access was granted. */
      email: string;
      name: string | null;
      /** @description The administrator's own account; another than the institution's for a member from another account. */
      account_id: string;
      role: components["schemas"]["Role"];
      is_super_admin: boolean;
      added_at: components["schemas"]["Timestamp"];
      /** @description The invitation that granted the access; null for the institution's creator. */
      invitation_id: components["schemas"]["Id"] | null;
      /** @description `scim` while the institution's directory manages this administrator: its role and removal are the directory's. */
      managed_by: "scim" | null;
    };
    AdministratorList: {
      administrators: components["schemas"]["Administrator"][];
      meta: components["schemas"]["PageMeta"];
    };
    AdministratorRemoved: {
      message: string;
      /** @description Active invitations the administrator had sent, now revoked. */
      revoked_invitations: number;
    };
    AdministratorUpdated: {
      administrator: components["schemas"]["Administrator"];
      message: string;
    };
    Alert: {
      /** @enum {string} */
      type: "unauthorized_access" | "rate_limit" | "token_failures";
      /** @enum {string} */
      severity: "high" | "medium";
      count: number;
    };
    /** @description Events of each counted type in the last hour (0 when none). */
    AlertCounts: {
      unauthorized_institution_access: number;
      rate_limit_exceeded: number;
      token_validation_failure: number;
    };
    /** @description The counted types' events in one minute of the hour. */
    AlertMinute: {
      /** @description The minute, UTC (ISO 8601). */
      minute: string;
      unauthorized_institution_access: number;
      rate_limit_exceeded: number;
      token_validation_failure: number;
    };
    Alerts: {
      summary: components["schemas"]["AlertCounts"];
      /** @description Present only when a count reaches its threshold: unauthorized_access ≥ 5 (high), rate_limit ≥ 10 (medium), token_failures ≥ 20 (high). */
      alerts: components["schemas"]["Alert"][];
      time_range: {
        from: components["schemas"]["Timestamp"];
        to: components["schemas"]["Timestamp"];
      };
      /** @description Per-minute counts over the same hour, oldest first, for a chart. */
      series: components["schemas"]["AlertMinute"][];
    };
    /** @description The invitation was used already, by the one asking: reopening an accepted link. Nothing is recorded. */
    AlreadyAccepted: {
      /** @constant */
      error: "Invitation already accepted";
      institution: {
        name: string;
      };
    };
    /** @description An institution API key. Never the key. */
    ApiKey: {
      id: components["schemas"]["Id"];
      name: string;
      scopes: components["schemas"]["ApiKeyScope"][];
      /** @description The key's first 8 characters and `...`: the key itself is shown only when it is made. */
      key_preview: string;
      created_at: components["schemas"]["Timestamp"];
      /** @description E-mail of the super admin who made it. */
      created_by: string;
      /** @description When it stops working; null: never. */
      expires_at: components["schemas"]["Timestamp"] | null;
      /** @description Its last use, noted at most once a minute; null: never used. */
      last_used_at: components["schemas"]["Timestamp"] | null;
    };
    ApiKeyCreated: {
      api_key: components["schemas"]["ApiKey"];
      /** @description `iak_` + 32 random bytes (base64url): shown this once, stored only as a SHA-256 hash. Send it as `Authorization: Bearer <key>`. */
      key: string;
    };
    ApiKeyList: {
      /** @description Newest first. */
      api_keys: components["schemas"]["ApiKey"][];
    };
    /**
     * @description What a key may do: the routes each opens are in their operations.
     * @enum {string}
     */
    ApiKeyScope:
      | "institution:read"
      | "institution:write"
      | "cohorts:read"
      | "cohorts:write"
      | "administrators:read"
      | "administrators:write"
      | "invitations:read"
      | "invitations:write";
    Cohort: {
      id: components["schemas"]["Id"];
      name: string;
      created_at: components["schemas"]["Timestamp"];
    };
    CohortCreated: {
      cohort: components["schemas"]["Cohort"];
    };
    CohortList: {
      cohorts: components["schemas"]["Cohort"][];
    };
    /** @description A signed digest of one account's events in one period. */
    Digest: {
      account_id: string;
      /** @description 1 for the account's first digest, then +1 each. */
      sequence: number;
      period_start: components["schemas"]["Timestamp"];
      period_end: components["schemas"]["Timestamp"];
      event_count: number;
      events_hash: string;
      previous_digest_hash: string | null;
      created_at: components["schemas"]["Timestamp"];
      key_id: string;
      /** @description Base64 of the DER ECDSA P-256 / SHA-256 signature. */
      signature: string;
    };
    DigestList: {
      digests: components["schemas"]["Digest"][];
      /** @description The signing key's public key, PEM (SPKI). */
      public_key: string;
    };
    /** @description A mail domain of the institution, and whether it proved it controls it. */
    Domain: {
      id: components["schemas"]["Id"];
      /** @description Lower case, in its ASCII (IDNA) form: `xn--bcher-kva.de` for bücher.de. */
      domain: string;
      /**
       * @description `pending` until verified; `failed` when not verified within 7 days of being added (remove it and add it again).
       * @enum {string}
       */
      state: "pending" | "verified" | "failed";
      /** @description The DNS record that proves the institution controls the domain. */
      verification: {
        /** @constant */
        record_type: "TXT";
        /** @description `_institution-admin-challenge.<domain>` */
        record_name: string;
        /** @description The value to publish there: a random token of this domain. */
        record_value: string;
      };
      created_at: components["schemas"]["Timestamp"];
      verified_at: components["schemas"]["Timestamp"] | null;
      /** @description When a verification last looked the record up. */
      last_checked_at: components["schemas"]["Timestamp"] | null;
      /** @description Why the last verification did not verify; null once verified. */
      last_error: string | null;
    };
    DomainList: {
      domains: components["schemas"]["Domain"][];
    };
    DomainShown: {
      domain: components["schemas"]["Domain"];
    };
    /** @description Stored settings merged over the defaults (allow_student_enrollment true, require_verification true, auto_finalize false, email_notifications true). */
    EffectiveSettings: {
      allow_student_enrollment: boolean;
      require_verification: boolean;
      auto_finalize: boolean;
      email_notifications: boolean;
    };
    /** @description A single message. */
    Error: {
      error: string;
    };
    /** @description Event-specific data; values taken from a request are cut to 64 characters. Keys by event type: institution_created: institution_id, name; institution_updated: institution_id, changes, institution_name; institution_deleted: institution_name; insufficient_privileges: action, required_role, institution_id, institution_name; unauthorized_institution_access: attempted_institution_id, action; rate_limit_exceeded: email, institution_id, limit, scope; token_validation_failure: reason; security_events_exported: event_count, export_id, format, filters; invitation_created: invitation_id, institution_id, email, role, institution_name; invitation_revoked: invitation_id, institution_id, email, reason, institution_name; invitation_resent: invitation_id, institution_id, email, institution_name; invitation_accepted: invitation_id, institution_id, email, role, institution_name; cohort_created: institution_id, cohort_id, name, institution_name; webhook_created: webhook_id, url; webhook_deleted: webhook_id, url; webhook_disabled: webhook_id, url, failing_since; administrator_removed: institution_id, user_id, email, self, institution_name; administrator_role_changed: institution_id, user_id, email, from, to, source, scim_connection, institution_name; institution_transferred: institution_id, from_user_id, to_user_id, to_email, institution_name; account_created: user_id, email, institution_id, invitation_id, institution_name; cohort_deleted: institution_id, cohort_id, name, institution_name; scim_connected: institution_id, scim_connection, institution_name; scim_token_rotated: institution_id, scim_connection, institution_name; scim_role_mappings_changed: institution_id, scim_connection, role_mappings, institution_name; scim_disconnected: institution_id, scim_connection, institution_name; administrator_provisioned: institution_id, user_id, email, role, source, scim_connection, sso_connection, institution_name; administrator_deprovisioned: institution_id, user_id, email, reason, scim_connection, institution_name; domain_added: institution_id, domain_id, domain, institution_name; domain_verified: institution_id, domain_id, domain, institution_name; domain_verification_failed: institution_id, domain_id, domain, reason, state, institution_name; domain_removed: institution_id, domain_id, domain, institution_name; sso_connected: institution_id, sso_connection, type, provider_name, institution_name; sso_updated: institution_id, sso_connection, provider_name, changes, institution_name; sso_disconnected: institution_id, sso_connection, provider_name, institution_name; sso_sign_in: provider_name, institution_id, jit, institution_name; sso_sign_in_refused: provider_name, reason; api_key_created: institution_id, api_key_id, name, scopes, expires_at, institution_name; api_key_revoked: institution_id, api_key_id, name, institution_name; sign_in: method; sign_in_failed: method, reason, risk_level, cognito_event_id; password_reset: method; password_changed: cognito_event_id; mfa_enabled: factor; mfa_disabled: factor; signed_out_everywhere: scope. Any type: api_key (`{id, name}` of the institution API key that acted; then `user` is null). */
    EventDetails: {
      [key: string]: unknown;
    };
    /** @enum {string} */
    EventType:
      | "institution_created"
      | "institution_updated"
      | "institution_deleted"
      | "insufficient_privileges"
      | "unauthorized_institution_access"
      | "rate_limit_exceeded"
      | "token_validation_failure"
      | "security_events_exported"
      | "invitation_created"
      | "invitation_revoked"
      | "invitation_resent"
      | "invitation_accepted"
      | "cohort_created"
      | "webhook_created"
      | "webhook_deleted"
      | "webhook_disabled"
      | "administrator_removed"
      | "administrator_role_changed"
      | "institution_transferred"
      | "account_created"
      | "cohort_deleted"
      | "scim_connected"
      | "scim_token_rotated"
      | "scim_role_mappings_changed"
      | "scim_disconnected"
      | "administrator_provisioned"
      | "administrator_deprovisioned"
      | "domain_added"
      | "domain_verified"
      | "domain_verification_failed"
      | "domain_removed"
      | "sso_connected"
      | "sso_updated"
      | "sso_disconnected"
      | "sso_sign_in"
      | "sso_sign_in_refused"
      | "api_key_created"
      | "api_key_revoked"
      | "sign_in"
      | "sign_in_failed"
      | "password_reset"
      | "password_changed"
      | "mfa_enabled"
      | "mfa_disabled"
      | "signed_out_everywhere";
    Export: {
      id: components["schemas"]["Id"];
      /** @enum {string} */
      status: "running" | "succeeded" | "failed";
      /** @enum {string} */
      format: "csv" | "jsonl";
      filters: components["schemas"]["ExportFilters"];
      created_at: components["schemas"]["Timestamp"];
      /** @description Rows written so far; all of them once succeeded. */
      row_count: number;
      completed_at: components["schemas"]["Timestamp"] | null;
      /**
       * Format: uri
       * @description Succeeded only: a presigned S3 link, valid 15 minutes.
       */
      download_url?: string;
      /** @description When `download_url` stops working. */
      expires_at?: components["schemas"]["Timestamp"];
      /** @description When the file is deleted (7 days after the export). */
      file_expires_at?: components["schemas"]["Timestamp"];
      /** @description Failed only: why. */
      reason?: string;
    };
    ExportFilters: {
      event_type: string | null;
      user_id: string | null;
      /** @description The actor's e-mail, lower-cased; present only when the export was asked for one. */
      user_email?: string;
      from: components["schemas"]["Timestamp"] | null;
      to: components["schemas"]["Timestamp"] | null;
    };
    ExportShown: {
      export: components["schemas"]["Export"];
    };
    /** @description Written by API Gateway itself, before or instead of the function: 401 `Unauthorized`, 413 `Request Entity Too Large` (over 10 MB), 500 `Internal Server Error` (the function failed), 503 `Service Unavailable` (it timed out). */
    GatewayMessage: {
      message: string;
    };
    /**
     * @description An opaque id assigned by the service (time-ordered, 26 characters).
     * @example 01M84M2ES7DTY37NE05PPBJBQG
     */
    Id: string;
    Institution: {
      id: components["schemas"]["Id"];
      name: string;
      registration_number: string | null;
      address: string | null;
      contact_email: string | null;
      contact_phone: string | null;
      settings: components["schemas"]["Settings"];
      account_id: string;
      super_admin_id: string;
      created_at: components["schemas"]["Timestamp"];
      updated_at: components["schemas"]["Timestamp"];
    };
    InstitutionList: {
      institutions: components["schemas"]["InstitutionListItem"][];
    };
    InstitutionListItem: {
      id: components["schemas"]["Id"];
      name: string;
      registration_number: string | null;
      contact_email: string | null;
      /** @description The caller's role in the institution. */
      role: components["schemas"]["Role"];
      /** @description True when the caller is the institution's super admin. */
      is_super_admin: boolean;
      created_at: components["schemas"]["Timestamp"];
    };
    InstitutionShown: {
      institution: components["schemas"]["Institution"];
      /** @description The caller's role in the institution. */
      role: components["schemas"]["Role"];
      is_super_admin: boolean;
      settings: components["schemas"]["EffectiveSettings"];
    };
    InstitutionWritten: {
      institution: components["schemas"]["Institution"];
      message: string;
    };
    InvitationAccepted: {
      institution: {
        id: components["schemas"]["Id"];
        name: string;
      };
      role: components["schemas"]["Role"];
      message: string;
    };
    InvitationIssued: {
      invitation: components["schemas"]["IssuedInvitation"];
      message: string;
    };
    InvitationList: {
      invitations: components["schemas"]["InvitationListItem"][];
      meta: components["schemas"]["PageMeta"];
    };
    InvitationListItem: {
      id: components["schemas"]["Id"];
      email: string;
      role: components["schemas"]["Role"];
      token_preview: components["schemas"]["TokenPreview"];
      sent_at: components["schemas"]["Timestamp"];
      expires_at: components["schemas"]["Timestamp"];
      used_at: components["schemas"]["Timestamp"] | null;
      /** @description E-mail of the administrator who created it, or `API key '<name>'` for an API key's. */
      created_by: string;
      /** @enum {string} */
      status: "active" | "used" | "revoked" | "expired";
    };
    InvitationOpened: {
      institution: {
        name: string;
      };
      role: components["schemas"]["Role"];
      invited_by: {
        email: string;
        name: string | null;
      };
      expires_at: components["schemas"]["Timestamp"];
      /** @description The invited address: the new account's e-mail and user name. */
      email: string;
      /** @description A user with this e-mail exists: sign in and accept, rather than register. */
      has_account: boolean;
    };
    InvitationPreview: {
      institution: {
        name: string;
      };
      role: components["schemas"]["Role"];
      invited_by: {
        email: string;
        name: string | null;
      };
      expires_at: components["schemas"]["Timestamp"];
    };
    InvitationRegistered: {
      institution: {
        id: components["schemas"]["Id"];
        name: string;
      };
      role: components["schemas"]["Role"];
      /** @constant */
      message: "Account created";
    };
    InvitationResent: {
      invitation: components["schemas"]["ResentInvitation"];
      message: string;
    };
    IssuedInvitation: {
      id: components["schemas"]["Id"];
      email: string;
      role: components["schemas"]["Role"];
      token_preview: components["schemas"]["TokenPreview"];
      expires_at: components["schemas"]["Timestamp"];
    };
    ListedEvent: {
      id: components["schemas"]["Id"];
      event_type: components["schemas"]["EventType"];
      user_email: string | null;
      ip_address: string;
      details: components["schemas"]["EventDetails"];
      created_at: components["schemas"]["Timestamp"];
      /** @description One line of human-readable text. */
      description: string;
    };
    Message: {
      message: string;
    };
    MfaSetting: {
      /** @description The caller's second sign-in step as the user pool now holds it. */
      mfa: {
        /** @description Whether the authenticator app (TOTP) is the second sign-in step. */
        totp: boolean;
      };
      message: string;
    };
    PageMeta: {
      /** @description Items on this page. */
      count: number;
      limit: number;
      /** @description Pass as `cursor` for the next page; null on the last page. */
      next_cursor: string | null;
    };
    ResentInvitation: {
      id: components["schemas"]["Id"];
      email: string;
      role: components["schemas"]["Role"];
      token_preview: components["schemas"]["TokenPreview"];
      expires_at: components["schemas"]["Timestamp"];
      sent_at: components["schemas"]["Timestamp"];
    };
    /** @enum {string} */
    Role: "cohort_super_admin" | "cohort_admin";
    /** @description An institution's directory connection (SCIM 2.0). Never the token. */
    ScimConnection: {
      /** @description The SCIM 2.0 service's base URL: the directory's Tenant URL (Entra ID) or SCIM connector base URL (Okta). */
      base_url: string;
      token_preview: string;
      created_at: components["schemas"]["Timestamp"];
      rotated_at: components["schemas"]["Timestamp"] | null;
      /** @description When the directory last changed something. */
      last_used_at: components["schemas"]["Timestamp"] | null;
      /** @description Group displayName → role; a user's highest mapped role applies, `cohort_admin` when none maps. */
      role_mappings: {
        [key: string]: components["schemas"]["Role"];
      };
    };
    /** @description A new connection or a rotated token: the token is shown this once. */
    ScimConnectionIssued: {
      base_url: string;
      /** @description `scim_` + 32 random bytes (base64url): shown this once, stored only as a hash. */
      token: string;
      token_preview: string;
      created_at: components["schemas"]["Timestamp"];
      rotated_at: components["schemas"]["Timestamp"] | null;
    };
    ScimConnectionShown: {
      scim: components["schemas"]["ScimConnection"];
    };
    ScimConnectionWritten: {
      scim: components["schemas"]["ScimConnectionIssued"];
    };
    /** @description RFC 7644 §3.12. */
    ScimError: {
      schemas: "urn:ietf:params:scim:api:messages:2.0:Error"[];
      status: string;
      scimType?: string;
      detail: string;
    };
    /** @description A SCIM resource (RFC 7643): its attributes as the service's `/Schemas` define them, `id`, `schemas` and `meta`. */
    ScimResource: {
      schemas: string[];
      id?: string;
    };
    SecurityEvent: {
      id: components["schemas"]["Id"];
      event_type: components["schemas"]["EventType"];
      /** @description The actor as it was when the event happened. */
      user: {
        id: string | null;
        email: string | null;
        name: string | null;
      };
      ip_address: string;
      details: components["schemas"]["EventDetails"];
      created_at: components["schemas"]["Timestamp"];
      description: string;
    };
    SecurityEventList: {
      events: components["schemas"]["ListedEvent"][];
      meta: components["schemas"]["PageMeta"];
    };
    /** @description The settings stored for the institution: only the keys ever set. */
    Settings: {
      allow_student_enrollment?: boolean;
      require_verification?: boolean;
      auto_finalize?: boolean;
      email_notifications?: boolean;
    };
    /** @description The institution's single sign-on connection. The OIDC client secret is write-only. */
    SsoConnection: {
      id: components["schemas"]["Id"];
      /** @enum {string} */
      type: "saml" | "oidc";
      /** @description The identity provider's name in the user pool (`identity_provider` of the managed login). */
      provider_name: string;
      /** @description What the IdP's administrator pastes there: SAML's entity ID and ACS URL, or OIDC's redirect URI. */
      sp:
        | {
            /** @description SP entity ID (audience): `urn:amazon:cognito:sp:<user pool id>`. */
            entity_id: string;
            /** @description Assertion consumer service (reply) URL: `<pool domain>/saml2/idpresponse`. */
            acs_url: string;
          }
        | {
            /** @description The redirect URI to register with the OIDC client: `<pool domain>/oauth2/idpresponse`. */
            redirect_uri: string;
          };
      /** @description The identity provider as checked when saved. */
      idp:
        | {
            /** @description The IdP's entity ID, from its metadata. */
            entity_id: string;
            /** @description Where the metadata was read; null when it was given as XML. */
            metadata_url: string | null;
          }
        | {
            issuer: string;
            client_id: string;
          };
      /** @description The IdP's attribute (SAML) or claim (OIDC) names for e-mail, name and groups. */
      attribute_mapping: {
        email: string;
        name: string;
        groups: string;
      };
      /** @description IdP group → role, for membership on first sign-in. */
      role_mappings: {
        [key: string]: components["schemas"]["Role"];
      };
      /** @description Membership on first sign-in: the highest mapped role of the person's groups, else `default_role`. */
      jit: {
        enabled: boolean;
        default_role: components["schemas"]["Role"];
      };
      /** @description People on the institution's verified domains sign in through the IdP only. */
      require_sso: boolean;
      created_at: components["schemas"]["Timestamp"];
      updated_at: components["schemas"]["Timestamp"];
    };
    SsoConnectionShown: {
      sso: components["schemas"]["SsoConnection"];
    };
    /** @description The institution whose verified domain the e-mail is on and that has a connection, or null. */
    SsoDiscovery: {
      sso: {
        /** @description Pass as `identity_provider` to the pool's managed login. */
        provider_name: string;
        institution: {
          name: string;
        };
      } | null;
    };
    /**
     * Format: date-time
     * @description ISO 8601, UTC, with milliseconds.
     * @example 2026-11-23T16:33:19.655Z
     */
    Timestamp: string;
    /** @description The first 8 characters of the invitation token and `...`; the full token is only ever in the e-mail. */
    TokenPreview: string;
    /** @description Every validation failure of the record, each a full message (`Name can't be blank`, `<Field> contains invalid characters`). */
    ValidationErrors: {
      errors: string[];
    };
    Webhook: {
      id: components["schemas"]["Id"];
      /** Format: uri */
      url: string;
      /**
       * @description Disabled after its receiver failed every attempt for 24 hours.
       * @enum {string}
       */
      status: "enabled" | "disabled";
      created_at: components["schemas"]["Timestamp"];
      /** @description Since when every attempt has failed; null while it answers. */
      failing_since: components["schemas"]["Timestamp"] | null;
      disabled_at: components["schemas"]["Timestamp"] | null;
    };
    WebhookCreated: {
      webhook: {
        id: components["schemas"]["Id"];
        /** Format: uri */
        url: string;
        created_at: components["schemas"]["Timestamp"];
        /** @description Verifies the deliveries' `webhook-signature` (Standard Webhooks). Shown only here: keep it. */
        secret: string;
      };
    };
    WebhookDeliveries: {
      deliveries: components["schemas"]["WebhookDelivery"][];
    };
    WebhookDelivery: {
      event_id: components["schemas"]["Id"];
      event_type: components["schemas"]["EventType"];
      /**
       * @description Pending: a retry is scheduled at `next_attempt_at`.
       * @enum {string}
       */
      status: "pending" | "delivered" | "failed";
      attempts: number;
      first_attempt_at: components["schemas"]["Timestamp"];
      last_attempt_at: components["schemas"]["Timestamp"];
      last_status_code: number | null;
      last_error: string | null;
      next_attempt_at: components["schemas"]["Timestamp"] | null;
    };
    WebhookList: {
      webhooks: components["schemas"]["Webhook"][];
    };
  };
  responses: {
    /** @description A malformed request: a body that is not JSON, a missing root key, a bad parameter. */
    BadRequest: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description No token, or one that is not a valid Cognito ID token of this pool (missing, expired, wrongly signed, wrong issuer or audience, an access token). Answered before the function runs. */
    Unauthorized: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": {
          /** @constant */
          message: "Unauthorized";
        };
      };
    };
    /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
    Forbidden: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
    NotFound: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description A write kept losing races with concurrent ones; nothing was changed. Retry. */
    Conflict: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description A write kept losing races with concurrent ones, or a request with the same `Idempotency-Key` is still running; nothing was changed. Retry. */
    IdempotentConflict: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description `If-Match` does not name the institution's current version: someone changed it since you read it. Nothing was changed; read it again. */
    PreconditionFailed: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The body is over 64 KiB (or over API Gateway's 10 MB, answered by the gateway). */
    PayloadTooLarge: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayMessage"];
      };
    };
    /** @description Something unexpected; the details are in the log with the request id, never in the response. */
    InternalError: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayMessage"];
      };
    };
    /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
    TooManyRequests: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        "Retry-After": components["headers"]["RetryAfter"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The invitation e-mail could not be sent; no active invitation is left behind. */
    BadGateway: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"];
      };
    };
    /** @description The database could not be reached in time (or the function timed out); nothing was changed. */
    ServiceUnavailable: {
      headers: {
        "Cache-Control": components["headers"]["CacheControl"];
        "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
        [name: string]: unknown;
      };
      content: {
        "application/json": components["schemas"]["Error"] | components["schemas"]["GatewayMessage"];
      };
    };
  };
  parameters: {
    /**
     * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
     * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
     */
    IdempotencyKey: string;
    /**
     * @description Change only if the institution is still at this version: the `ETag` of your last read (or `*`). Otherwise 412 and nothing changes. Without it the write applies whatever the version.
     * @example "3"
     */
    IfMatch: string;
  };
  requestBodies: never;
  headers: {
    /** @description Every response: nothing here belongs in a shared cache. */
    CacheControl: string;
    /** @description Every response. */
    XContentTypeOptions: "nosniff";
    /**
     * @description Seconds until a new request can succeed.
     * @example 600
     */
    RetryAfter: string;
    /**
     * @description The file name carries the export's time, UTC.
     * @example attachment; filename="security_events_20261123_163327.csv"
     */
    ContentDisposition: string;
    /**
     * @description The institution's current version, a strong entity tag. Send it back as `If-Match` on PATCH, PUT or DELETE to change only what you read.
     * @example "3"
     */
    ETag: string;
    /** @description Present when more events matched than one export holds (10,000 rows, or about 6 MB). */
    XExportTruncated: "true";
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listInstitutions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The institutions. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institutions": [
           *         {
           *           "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *           "name": "Acme College",
           *           "registration_number": "AC-1",
           *           "contact_email": "desk@acme.test",
           *           "role": "cohort_super_admin",
           *           "is_super_admin": true,
           *           "created_at": "2026-11-23T16:33:19.655Z"
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["InstitutionList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  createInstitution: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "institution": {
         *         "name": "Acme College",
         *         "registration_number": "AC-1",
         *         "contact_email": "desk@acme.test",
         *         "settings": {
         *           "auto_finalize": true
         *         }
         *       }
         *     }
         */
        "application/json": {
          institution: {
            name: string;
            registration_number?: string | null;
            address?: string | null;
            contact_email?: string | null;
            contact_phone?: string | null;
            settings?: {
              allow_student_enrollment?: boolean;
              require_verification?: boolean;
              auto_finalize?: boolean;
              email_notifications?: boolean;
            };
          };
        };
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *         "name": "Acme College",
           *         "registration_number": "AC-1",
           *         "address": "1 Main St",
           *         "contact_email": "desk@acme.test",
           *         "contact_phone": "+1 555 0100",
           *         "settings": {
           *           "auto_finalize": true
           *         },
           *         "account_id": "acme",
           *         "super_admin_id": "b225f876-4988-446b-bd3c-7c506f33d77c",
           *         "created_at": "2026-11-23T16:33:19.655Z",
           *         "updated_at": "2026-11-23T16:33:19.655Z"
           *       },
           *       "message": "Institution created successfully"
           *     }
           */
          "application/json": components["schemas"]["InstitutionWritten"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  showInstitution: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The institution. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *         "name": "Acme College",
           *         "registration_number": "AC-1",
           *         "address": "1 Main St",
           *         "contact_email": "desk@acme.test",
           *         "contact_phone": "+1 555 0100",
           *         "settings": {
           *           "auto_finalize": true
           *         },
           *         "account_id": "acme",
           *         "super_admin_id": "b225f876-4988-446b-bd3c-7c506f33d77c",
           *         "created_at": "2026-11-23T16:33:19.655Z",
           *         "updated_at": "2026-11-23T16:33:19.655Z"
           *       },
           *       "role": "cohort_super_admin",
           *       "is_super_admin": true,
           *       "settings": {
           *         "allow_student_enrollment": true,
           *         "require_verification": true,
           *         "auto_finalize": true,
           *         "email_notifications": true
           *       }
           *     }
           */
          "application/json": components["schemas"]["InstitutionShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  replaceInstitution: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change only if the institution is still at this version: the `ETag` of your last read (or `*`). Otherwise 412 and nothing changes. Without it the write applies whatever the version.
         * @example "3"
         */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "institution": {
         *         "address": "2 Main St",
         *         "settings": {
         *           "auto_finalize": false
         *         }
         *       }
         *     }
         */
        "application/json": {
          institution: {
            name?: string;
            registration_number?: string | null;
            address?: string | null;
            contact_email?: string | null;
            contact_phone?: string | null;
            settings?: {
              allow_student_enrollment?: boolean;
              require_verification?: boolean;
              auto_finalize?: boolean;
              email_notifications?: boolean;
            };
          };
        };
      };
    };
    responses: {
      /** @description Updated. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *         "name": "Acme College",
           *         "registration_number": "AC-1",
           *         "address": "2 Main St",
           *         "contact_email": "desk@acme.test",
           *         "contact_phone": "+1 555 0100",
           *         "settings": {
           *           "auto_finalize": true
           *         },
           *         "account_id": "acme",
           *         "super_admin_id": "b225f876-4988-446b-bd3c-7c506f33d77c",
           *         "created_at": "2026-11-23T16:33:19.655Z",
           *         "updated_at": "2026-11-23T16:33:22.112Z"
           *       },
           *       "message": "Institution updated successfully"
           *     }
           */
          "application/json": components["schemas"]["InstitutionWritten"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  deleteInstitution: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change only if the institution is still at this version: the `ETag` of your last read (or `*`). Otherwise 412 and nothing changes. Without it the write applies whatever the version.
         * @example "3"
         */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Institution 'Beta Institute' deleted successfully"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description A write kept losing races with concurrent ones; nothing was changed. Retry. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      /** @description The invitation e-mail could not be sent; no active invitation is left behind. */
      502: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  updateInstitution: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change only if the institution is still at this version: the `ETag` of your last read (or `*`). Otherwise 412 and nothing changes. Without it the write applies whatever the version.
         * @example "3"
         */
        "If-Match"?: components["parameters"]["IfMatch"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "institution": {
         *         "address": "2 Main St",
         *         "settings": {
         *           "auto_finalize": false
         *         }
         *       }
         *     }
         */
        "application/json": {
          institution: {
            name?: string;
            registration_number?: string | null;
            address?: string | null;
            contact_email?: string | null;
            contact_phone?: string | null;
            settings?: {
              allow_student_enrollment?: boolean;
              require_verification?: boolean;
              auto_finalize?: boolean;
              email_notifications?: boolean;
            };
          };
        };
      };
    };
    responses: {
      /** @description Updated. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          ETag: components["headers"]["ETag"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *         "name": "Acme College",
           *         "registration_number": "AC-1",
           *         "address": "2 Main St",
           *         "contact_email": "desk@acme.test",
           *         "contact_phone": "+1 555 0100",
           *         "settings": {
           *           "auto_finalize": true
           *         },
           *         "account_id": "acme",
           *         "super_admin_id": "b225f876-4988-446b-bd3c-7c506f33d77c",
           *         "created_at": "2026-11-23T16:33:19.655Z",
           *         "updated_at": "2026-11-23T16:33:22.112Z"
           *       },
           *       "message": "Institution updated successfully"
           *     }
           */
          "application/json": components["schemas"]["InstitutionWritten"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      412: components["responses"]["PreconditionFailed"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listCohorts: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The cohorts. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "cohorts": [
           *         {
           *           "id": "01M84M2HAMHH0EA3AKCTQAJP1B",
           *           "name": "2026",
           *           "created_at": "2026-11-23T16:33:22.260Z"
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["CohortList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  createCohort: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "cohort": {
         *         "name": "2026"
         *       }
         *     }
         */
        "application/json": {
          cohort: {
            name: string;
          };
        };
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "cohort": {
           *         "id": "01M84M2HAMHH0EA3AKCTQAJP1B",
           *         "name": "2026",
           *         "created_at": "2026-11-23T16:33:22.260Z"
           *       }
           *     }
           */
          "application/json": components["schemas"]["CohortCreated"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  deleteCohort: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
        /** @description The cohort's id. */
        cohort_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Cohort '2026' deleted"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listAdministrators: {
    parameters: {
      query?: {
        /** @description Page size. */
        limit?: number;
        /** @description `meta.next_cursor` of the previous page. */
        cursor?: string;
      };
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of administrators. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "administrators": [
           *         {
           *           "user_id": "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10",
           *           "email": "ada@acme.test",
           *           "name": "Ada Admin",
           *           "account_id": "acme",
           *           "role": "cohort_admin",
           *           "is_super_admin": false,
           *           "added_at": "2026-11-23T16:40:02.514Z",
           *           "invitation_id": "01M84M2G0ZJ5WQ6B3X8T4RY2KD",
           *           "managed_by": null
           *         },
           *         {
           *           "user_id": "8f3b2c1a-4d5e-4f60-9a7b-1c2d3e4f5a6b",
           *           "email": "olive@acme.test",
           *           "name": "Olive Owner",
           *           "account_id": "acme",
           *           "role": "cohort_super_admin",
           *           "is_super_admin": true,
           *           "added_at": "2026-11-23T16:33:19.655Z",
           *           "invitation_id": null,
           *           "managed_by": null
           *         }
           *       ],
           *       "meta": {
           *         "count": 2,
           *         "limit": 50,
           *         "next_cursor": null
           *       }
           *     }
           */
          "application/json": components["schemas"]["AdministratorList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  removeAdministrator: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
        /** @description The administrator's user id. */
        user_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Administrator removed",
           *       "revoked_invitations": 1
           *     }
           */
          "application/json": components["schemas"]["AdministratorRemoved"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  changeAdministratorRole: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
        /** @description The administrator's user id. */
        user_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "role": "cohort_super_admin"
         *     }
         */
        "application/json": {
          /** @enum {string} */
          role: "cohort_super_admin" | "cohort_admin";
        };
      };
    };
    responses: {
      /** @description Changed. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "administrator": {
           *         "user_id": "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10",
           *         "email": "ada@acme.test",
           *         "name": "Ada Admin",
           *         "account_id": "acme",
           *         "role": "cohort_super_admin",
           *         "is_super_admin": false,
           *         "added_at": "2026-11-23T16:40:02.514Z",
           *         "invitation_id": "01M84M2G0ZJ5WQ6B3X8T4RY2KD",
           *         "managed_by": null
           *       },
           *       "message": "Role updated"
           *     }
           */
          "application/json": components["schemas"]["AdministratorUpdated"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  transferInstitution: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "user_id": "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10"
         *     }
         */
        "application/json": {
          user_id: string;
        };
      };
    };
    responses: {
      /** @description Transferred. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *         "name": "Acme College",
           *         "registration_number": "AC-1",
           *         "address": "2 Main St",
           *         "contact_email": "desk@acme.test",
           *         "contact_phone": "+1 555 0100",
           *         "settings": {
           *           "auto_finalize": true
           *         },
           *         "account_id": "acme",
           *         "super_admin_id": "3c9a5e1d-7b42-4f0e-9a61-2d8b7c4e5f10",
           *         "created_at": "2026-11-23T16:33:19.655Z",
           *         "updated_at": "2026-11-23T16:41:07.930Z"
           *       },
           *       "message": "Institution transferred to ada@acme.test"
           *     }
           */
          "application/json": components["schemas"]["InstitutionWritten"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listInvitations: {
    parameters: {
      query: {
        /** @description The institution. */
        institution_id: string;
        /** @description `true` lists used invitations; any other value or none, active ones. */
        show_used?: string;
        /** @description Page size. */
        limit?: number;
        /** @description `meta.next_cursor` of the previous page. */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of invitations. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "invitations": [
           *         {
           *           "id": "01M84M2KAZP8VD5B0EW6YAWVH4",
           *           "email": "ada@acme.test",
           *           "role": "cohort_admin",
           *           "token_preview": "MuxqSrod...",
           *           "sent_at": "2026-11-23T16:33:24.319Z",
           *           "expires_at": "2026-11-30T16:33:24.319Z",
           *           "used_at": null,
           *           "created_by": "olive@acme.test",
           *           "status": "active"
           *         },
           *         {
           *           "id": "01M84M2K5MBZXTFR4XDKR8WZ9A",
           *           "email": "ada@acme.test",
           *           "role": "cohort_admin",
           *           "token_preview": "P5gLlt77...",
           *           "sent_at": "2026-11-23T16:33:24.148Z",
           *           "expires_at": "2026-11-30T16:33:24.148Z",
           *           "used_at": null,
           *           "created_by": "olive@acme.test",
           *           "status": "active"
           *         }
           *       ],
           *       "meta": {
           *         "count": 2,
           *         "limit": 50,
           *         "next_cursor": null
           *       }
           *     }
           */
          "application/json": components["schemas"]["InvitationList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  createInvitation: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "institution_id": "01M84M2ES7DTY37NE05PPBJBQG",
         *       "email": "ada@acme.test",
         *       "role": "cohort_admin"
         *     }
         */
        "application/json": {
          institution_id: string;
          email: string;
          /** @enum {string} */
          role: "cohort_super_admin" | "cohort_admin";
        };
      };
    };
    responses: {
      /** @description Invited; the e-mail is sent. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "invitation": {
           *         "id": "01M84M2JRR02A4753J81QXQWGQ",
           *         "email": "ada@acme.test",
           *         "role": "cohort_admin",
           *         "token_preview": "IUEGYARY...",
           *         "expires_at": "2026-11-30T16:33:23.736Z"
           *       },
           *       "message": "Invitation sent to ada@acme.test"
           *     }
           */
          "application/json": components["schemas"]["InvitationIssued"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      /** @description The invitation e-mail could not be sent; no active invitation is left behind. */
      502: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  revokeInvitation: {
    parameters: {
      query?: {
        /** @description The institution: in the query or as `institution_id` in a JSON body (the body's wins). Without either, the institution is not found (404). */
        institution_id?: string;
      };
      header?: never;
      path: {
        /** @description The invitation's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "institution_id": "01M84M2ES7DTY37NE05PPBJBQG"
         *     }
         */
        "application/json": {
          institution_id: string;
        };
      };
    };
    responses: {
      /** @description Revoked. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Invitation revoked"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  resendInvitation: {
    parameters: {
      query?: {
        /** @description The institution: in the query or as `institution_id` in a JSON body (the body's wins). Without either, the institution is not found (404). */
        institution_id?: string;
      };
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The invitation's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "institution_id": "01M84M2ES7DTY37NE05PPBJBQG"
         *     }
         */
        "application/json": {
          institution_id: string;
        };
      };
    };
    responses: {
      /** @description Resent. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "invitation": {
           *         "id": "01M84M2JRR02A4753J81QXQWGQ",
           *         "email": "ada@acme.test",
           *         "role": "cohort_admin",
           *         "token_preview": "65UByWi9...",
           *         "expires_at": "2026-11-30T16:33:24.707Z",
           *         "sent_at": "2026-11-23T16:33:24.707Z"
           *       },
           *       "message": "Invitation resent to ada@acme.test"
           *     }
           */
          "application/json": components["schemas"]["InvitationResent"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      /** @description The invitation e-mail could not be sent; no active invitation is left behind. */
      502: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  acceptInvitation: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          token: string;
        };
      };
    };
    responses: {
      /** @description Accepted. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *         "name": "Acme College"
           *       },
           *       "role": "cohort_admin",
           *       "message": "Invitation accepted"
           *     }
           */
          "application/json": components["schemas"]["InvitationAccepted"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description A write kept losing races with concurrent ones, or a request with the same `Idempotency-Key` is still running; nothing was changed. Retry. Or the invitation was already accepted by the one asking: nothing is recorded. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] | components["schemas"]["AlreadyAccepted"];
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  previewInvitation: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          token: string;
        };
      };
    };
    responses: {
      /** @description The invitation. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "name": "Acme College"
           *       },
           *       "role": "cohort_admin",
           *       "invited_by": {
           *         "email": "olive@acme.test",
           *         "name": "Olive Owner"
           *       },
           *       "expires_at": "2026-11-30T16:33:21.118Z"
           *     }
           */
          "application/json": components["schemas"]["InvitationPreview"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description A write kept losing races with concurrent ones, or a request with the same `Idempotency-Key` is still running; nothing was changed. Retry. Or the invitation was already accepted by the one asking: nothing is recorded. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] | components["schemas"]["AlreadyAccepted"];
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  openInvitation: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          token: string;
        };
      };
    };
    responses: {
      /** @description The invitation. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "name": "Acme College"
           *       },
           *       "role": "cohort_admin",
           *       "invited_by": {
           *         "email": "olive@acme.test",
           *         "name": "Olive Owner"
           *       },
           *       "expires_at": "2026-11-30T16:33:21.118Z",
           *       "email": "ada@acme.test",
           *       "has_account": false
           *     }
           */
          "application/json": components["schemas"]["InvitationOpened"];
        };
      };
      400: components["responses"]["BadRequest"];
      /** @description A write kept losing races with concurrent ones; nothing was changed. Retry. Or the invitation was already accepted by the one asking: nothing is recorded. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] | components["schemas"]["AlreadyAccepted"];
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      /** @description The request is valid, but the current state refuses it. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  registerFromInvitation: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          token: string;
          name: string;
          /** @description The new account's password: at least 12 characters, with a lowercase and an uppercase letter, a digit and a symbol (the user pool's policy). */
          password: string;
        };
      };
    };
    responses: {
      /** @description Account created. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "institution": {
           *         "id": "01M84M2ES7DTY37NE05PPBJBQG",
           *         "name": "Acme College"
           *       },
           *       "role": "cohort_admin",
           *       "message": "Account created"
           *     }
           */
          "application/json": components["schemas"]["InvitationRegistered"];
        };
      };
      400: components["responses"]["BadRequest"];
      /** @description A write kept losing races with concurrent ones; nothing was changed. Retry. Or the invitation was already accepted by the one asking: nothing is recorded. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"] | components["schemas"]["AlreadyAccepted"];
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid (`{errors}`: every message, once), or the current state refuses it (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listSecurityEvents: {
    parameters: {
      query?: {
        /** @description Events of this user (equality). */
        user_id?: string;
        /** @description Events of the user with this e-mail, as the list shows it (case-insensitive). Kept from the events a page reads (no index of its own): a page may hold fewer than `limit` events and still have a `next_cursor`. */
        user_email?: string;
        /** @description Events of this type (equality). */
        event_type?: string;
        /** @description Events at or after this instant: ISO 8601 date or date-time; without an offset, UTC. */
        from?: string;
        /** @description Events at or before this instant, as `from`. */
        to?: string;
        /** @description Page size. */
        limit?: number;
        /** @description `meta.next_cursor` of the previous page, with the same filters. */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of events. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "events": [
           *         {
           *           "user_email": "ada@acme.test",
           *           "event_type": "invitation_accepted",
           *           "created_at": "2026-11-23T16:33:26.511Z",
           *           "description": "ada@acme.test accepted an invitation as cohort_admin",
           *           "details": {
           *             "invitation_id": "01M84M2JRR02A4753J81QXQWGQ",
           *             "role": "cohort_admin",
           *             "email": "ada@acme.test",
           *             "institution_id": "01M84M2ES7DTY37NE05PPBJBQG"
           *           },
           *           "id": "01M84M2NFFBM80AC7DEF0GZDHA",
           *           "ip_address": "127.0.0.1"
           *         },
           *         {
           *           "user_email": "ada@acme.test",
           *           "event_type": "token_validation_failure",
           *           "created_at": "2026-11-23T16:33:25.919Z",
           *           "description": "ada@acme.test presented an invalid invitation token (unknown)",
           *           "details": {
           *             "reason": "unknown"
           *           },
           *           "id": "01M84M2MWZPPRWS11BK2CV8M6Q",
           *           "ip_address": "127.0.0.1"
           *         },
           *         {
           *           "user_email": "olive@acme.test",
           *           "event_type": "invitation_revoked",
           *           "created_at": "2026-11-23T16:33:25.203Z",
           *           "description": "olive@acme.test revoked the invitation for bob@acme.test",
           *           "details": {
           *             "invitation_id": "01M84M2KXSK6XPCPBTTV3Y8DA6",
           *             "email": "bob@acme.test",
           *             "institution_id": "01M84M2ES7DTY37NE05PPBJBQG"
           *           },
           *           "id": "01M84M2M6KA0K6BSHFHNARDVE6",
           *           "ip_address": "127.0.0.1"
           *         }
           *       ],
           *       "meta": {
           *         "count": 3,
           *         "limit": 3,
           *         "next_cursor": "MjAyNi0xMS0yM1QxNjozMzoyNS4yMDNaIzAxTTg0TTJNNktBMEs2QlNIRkhOQVJEVkU2"
           *       }
           *     }
           */
          "application/json": components["schemas"]["SecurityEventList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  exportSecurityEvents: {
    parameters: {
      query?: {
        /** @description One type, or several separated by commas. */
        event_type?: string;
        /** @description Events of the user with this e-mail (case-insensitive). */
        user_email?: string;
        /** @description Events at or after this instant: ISO 8601 date or date-time; without an offset, UTC. */
        from?: string;
        /** @description Events at or before this instant, as `from`. */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The CSV file. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Content-Disposition": components["headers"]["ContentDisposition"];
          "X-Export-Truncated": components["headers"]["XExportTruncated"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example id,event_type,created_at,user_id,user_email,ip_address,description,details
           *     01M84M2HTCWMKJZ6C5HZPNP2SM,institution_created,2026-11-23T16:33:22.764Z,b225f876-4988-446b-bd3c-7c506f33d77c,olive@acme.test,127.0.0.1,olive@acme.test created institution 'Beta Institute',"{""institution_id"":""01M84M2HTC4RVNX6Y27RW9DZGD"",""name"":""Beta Institute""}"
           *     01M84M2ES7CJDHJ7M5RKKRXNCG,institution_created,2026-11-23T16:33:19.655Z,b225f876-4988-446b-bd3c-7c506f33d77c,olive@acme.test,127.0.0.1,olive@acme.test created institution 'Acme College',"{""institution_id"":""01M84M2ES7DTY37NE05PPBJBQG"",""name"":""Acme College""}"
           */
          "text/csv": string;
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  securityAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The alerts. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "summary": {
           *         "unauthorized_institution_access": 1,
           *         "rate_limit_exceeded": 1,
           *         "token_validation_failure": 1
           *       },
           *       "alerts": [],
           *       "time_range": {
           *         "from": "2026-11-23T15:33:27.285Z",
           *         "to": "2026-11-23T16:33:27.285Z"
           *       },
           *       "series": [
           *         {
           *           "minute": "2026-11-23T15:34:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:35:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:36:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:37:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:38:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:39:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:40:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:41:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:42:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:43:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:44:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:45:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:46:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:47:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:48:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:49:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:50:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:51:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:52:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:53:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:54:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:55:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:56:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:57:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:58:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T15:59:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:00:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:01:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:02:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:03:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:04:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:05:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:06:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:07:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:08:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:09:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:10:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:11:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:12:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:13:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:14:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:15:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:16:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:17:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:18:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:19:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:20:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:21:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:22:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:23:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:24:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:25:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:26:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:27:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:28:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:29:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:30:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:31:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         },
           *         {
           *           "minute": "2026-11-23T16:32:00.000Z",
           *           "unauthorized_institution_access": 1,
           *           "rate_limit_exceeded": 1,
           *           "token_validation_failure": 1
           *         },
           *         {
           *           "minute": "2026-11-23T16:33:00.000Z",
           *           "unauthorized_institution_access": 0,
           *           "rate_limit_exceeded": 0,
           *           "token_validation_failure": 0
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["Alerts"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listSecurityEventDigests: {
    parameters: {
      query?: {
        /** @description Digests of the periods from the one holding this instant (ISO 8601). */
        from?: string;
        /** @description Digests of the periods that start at or before this instant (ISO 8601). */
        to?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The digests and the public key. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "digests": [
           *         {
           *           "account_id": "acme",
           *           "sequence": 1,
           *           "period_start": "2026-11-23T16:00:00.000Z",
           *           "period_end": "2026-11-23T17:00:00.000Z",
           *           "event_count": 1,
           *           "events_hash": "3f1d4b1e2f8c36d0b6b5a5e7a0c6a4f1a2b3c4d5e6f708192a3b4c5d6e7f8091",
           *           "previous_digest_hash": null,
           *           "created_at": "2026-11-23T17:05:00.412Z",
           *           "key_id": "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab",
           *           "signature": "MEUCIQDl4Yk8y8w3pFj6b5YVb0E9i0z2o3m4n5b6v7c8x9z0aQIgV8cV7b6n5m4l3k2j1h0g9f8d7s6a5p4o3i2u1y0t9r8="
           *         }
           *       ],
           *       "public_key": "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEm7cX0c1ZP1xj5qk2yQ8u2Kz0mHqf3Q1vJp5m6Y3t5u0oN2JrGm2f9Q8s0T1b3u4v5w6x7y8z9A0B1C2D3E4F5G==\n-----END PUBLIC KEY-----\n"
           *     }
           */
          "application/json": components["schemas"]["DigestList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  startSecurityEventExport: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "format": "csv",
         *       "from": "2024-06-01T00:00:00Z"
         *     }
         */
        "application/json": {
          /** @enum {string} */
          format: "csv" | "jsonl";
          /** @default null */
          event_type?: string | null;
          /** @default null */
          user_id?: string | null;
          /** @default null */
          user_email?: string | null;
          /** @default null */
          from?: string | null;
          /** @default null */
          to?: string | null;
        };
      };
    };
    responses: {
      /** @description Started. */
      202: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "export": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0A",
           *         "status": "running",
           *         "format": "csv",
           *         "filters": {
           *           "event_type": null,
           *           "user_id": null,
           *           "from": "2024-06-01T00:00:00.000Z",
           *           "to": null
           *         },
           *         "created_at": "2024-06-01T08:00:00.000Z",
           *         "row_count": 0,
           *         "completed_at": null
           *       }
           *     }
           */
          "application/json": components["schemas"]["ExportShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The `Idempotency-Key` was used with another request. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  showSecurityEventExport: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The export's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The export. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "export": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0A",
           *         "status": "succeeded",
           *         "format": "csv",
           *         "filters": {
           *           "event_type": null,
           *           "user_id": null,
           *           "from": "2024-06-01T00:00:00.000Z",
           *           "to": null
           *         },
           *         "created_at": "2024-06-01T08:00:00.000Z",
           *         "row_count": 1234,
           *         "completed_at": "2024-06-01T08:00:04.000Z"
           *       }
           *     }
           */
          "application/json": components["schemas"]["ExportShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  showSecurityEvent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The event's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The event. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "01M84M2NFFBM80AC7DEF0GZDHA",
           *       "event_type": "invitation_accepted",
           *       "user": {
           *         "id": "bdc594e8-3596-4c4d-bc42-165a70801f32",
           *         "email": "ada@acme.test",
           *         "name": "Ada Admin"
           *       },
           *       "ip_address": "127.0.0.1",
           *       "details": {
           *         "invitation_id": "01M84M2JRR02A4753J81QXQWGQ",
           *         "role": "cohort_admin",
           *         "email": "ada@acme.test",
           *         "institution_id": "01M84M2ES7DTY37NE05PPBJBQG"
           *       },
           *       "created_at": "2026-11-23T16:33:26.511Z",
           *       "description": "ada@acme.test accepted an invitation as cohort_admin"
           *     }
           */
          "application/json": components["schemas"]["SecurityEvent"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The webhooks. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "webhooks": [
           *         {
           *           "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0C",
           *           "url": "https://siem.example.com/hooks/institution-admin",
           *           "status": "enabled",
           *           "created_at": "2024-06-01T08:00:00.000Z",
           *           "failing_since": null,
           *           "disabled_at": null
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["WebhookList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "webhook": {
         *         "url": "https://siem.example.com/hooks/institution-admin"
         *       }
         *     }
         */
        "application/json": {
          webhook: {
            url: string;
          };
        };
      };
    };
    responses: {
      /** @description Created; the secret is in this answer only. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "webhook": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0C",
           *         "url": "https://siem.example.com/hooks/institution-admin",
           *         "created_at": "2024-06-01T08:00:00.000Z",
           *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
           *       }
           *     }
           */
          "application/json": components["schemas"]["WebhookCreated"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The webhook's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Webhook deleted"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The webhook's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deliveries, newest event first. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "deliveries": [
           *         {
           *           "event_id": "01JD3Z8Q9X4T7V2N5M8K1C6B0B",
           *           "event_type": "institution_created",
           *           "status": "delivered",
           *           "attempts": 1,
           *           "first_attempt_at": "2024-06-01T08:00:01.000Z",
           *           "last_attempt_at": "2024-06-01T08:00:01.000Z",
           *           "last_status_code": 204,
           *           "last_error": null,
           *           "next_attempt_at": null
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["WebhookDeliveries"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  setMfa: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "mfa": {
         *         "totp": true
         *       }
         *     }
         */
        "application/json": {
          mfa: {
            totp: boolean;
          };
        };
      };
    };
    responses: {
      /** @description The second step as the user pool now holds it. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "mfa": {
           *         "totp": true
           *       },
           *       "message": "Authenticator app turned on: sign-ins ask for its code"
           *     }
           */
          "application/json": components["schemas"]["MfaSetting"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid (`{errors}`: every message, once), or the current state refuses it (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  signOutEverywhere: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every session of the caller is signed out. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Signed out everywhere: every session must sign in again"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The `Idempotency-Key` was used with another request. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  showDirectoryConnection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connection. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "scim": {
           *         "base_url": "https://admin.acme.test/api/scim/v2",
           *         "token_preview": "scim_Jx4vQ0b...",
           *         "created_at": "2026-11-23T16:40:02.514Z",
           *         "rotated_at": null,
           *         "last_used_at": "2026-11-24T09:12:44.031Z",
           *         "role_mappings": {
           *           "Campus admins": "cohort_super_admin",
           *           "Staff": "cohort_admin"
           *         }
           *       }
           *     }
           */
          "application/json": components["schemas"]["ScimConnectionShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  connectDirectory: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rotated: a new token; the old one no longer works. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "scim": {
           *         "base_url": "https://admin.acme.test/api/scim/v2",
           *         "token": "scim_Jx4vQ0b8m1Zr5tYk2PqW9sLc7HdE3fGa6NuV0iXoB_A",
           *         "token_preview": "scim_Jx4vQ0b...",
           *         "created_at": "2026-11-23T16:40:02.514Z",
           *         "rotated_at": null
           *       }
           *     }
           */
          "application/json": components["schemas"]["ScimConnectionWritten"];
        };
      };
      /** @description Connected (or, 200, rotated). */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "scim": {
           *         "base_url": "https://admin.acme.test/api/scim/v2",
           *         "token": "scim_Jx4vQ0b8m1Zr5tYk2PqW9sLc7HdE3fGa6NuV0iXoB_A",
           *         "token_preview": "scim_Jx4vQ0b...",
           *         "created_at": "2026-11-23T16:40:02.514Z",
           *         "rotated_at": null
           *       }
           *     }
           */
          "application/json": components["schemas"]["ScimConnectionWritten"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The `Idempotency-Key` was used with another request. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  disconnectDirectory: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Disconnected. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Directory disconnected"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  mapDirectoryGroups: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "role_mappings": {
         *         "Campus admins": "cohort_super_admin",
         *         "Staff": "cohort_admin"
         *       }
         *     }
         */
        "application/json": {
          role_mappings: {
            [key: string]: "cohort_super_admin" | "cohort_admin";
          };
        };
      };
    };
    responses: {
      /** @description Mapped. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "scim": {
           *         "base_url": "https://admin.acme.test/api/scim/v2",
           *         "token_preview": "scim_Jx4vQ0b...",
           *         "created_at": "2026-11-23T16:40:02.514Z",
           *         "rotated_at": null,
           *         "last_used_at": "2026-11-24T09:12:44.031Z",
           *         "role_mappings": {
           *           "Campus admins": "cohort_super_admin",
           *           "Staff": "cohort_admin"
           *         }
           *       }
           *     }
           */
          "application/json": components["schemas"]["ScimConnectionShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  scimListServiceProviderConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimListResourceTypes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimReadResourceTypesById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimListSchemas: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimReadSchemasById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimListUsers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimCreateUsers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/scim+json": Record<string, never>;
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimListUsersTrailingSlash: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Empty: the list, as without the slash. A deeper path names no resource: 404. */
        "proxy+": string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimReadUsersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimReplaceUsersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/scim+json": Record<string, never>;
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimDeleteUsersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimUpdateUsersById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/scim+json": Record<string, never>;
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimListGroups: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimCreateGroups: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/scim+json": Record<string, never>;
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimListGroupsTrailingSlash: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Empty: the list, as without the slash. A deeper path names no resource: 404. */
        "proxy+": string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimReadGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimReplaceGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/scim+json": Record<string, never>;
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimDeleteGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted. */
      204: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  scimUpdateGroupsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/scim+json": Record<string, never>;
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description A SCIM resource, or a ListResponse. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimResource"];
          "application/json": components["schemas"]["ScimResource"];
        };
      };
      /** @description invalidFilter, invalidSyntax, invalidPath, invalidValue, noTarget (RFC 7644 §3.12). */
      400: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No token, or one that is unknown, rotated or revoked: API Gateway's answer before any handler, `{"message":"Unauthorized"}`. */
      401: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            message?: string;
          };
        };
      };
      /** @description The institution's 95-seat limit. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description No such resource in this directory. */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description uniqueness: a taken userName or displayName, or the institution's super admin. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description A body over 64 KiB, or a resource over 16 KiB. */
      413: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description Unexpected. */
      500: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
      /** @description The database could not be reached in time. */
      503: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/scim+json": components["schemas"]["ScimError"];
          "application/json": components["schemas"]["ScimError"];
        };
      };
    };
  };
  listDomains: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domains. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "domains": [
           *         {
           *           "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0D",
           *           "domain": "acme.edu",
           *           "state": "pending",
           *           "verification": {
           *             "record_type": "TXT",
           *             "record_name": "_institution-admin-challenge.acme.edu",
           *             "record_value": "n3N0yTj2mQ4cZ8l5w3sXkq1PpB7vYd9eRu6oHf0…"
           *           },
           *           "created_at": "2026-11-23T16:33:19.655Z",
           *           "verified_at": null,
           *           "last_checked_at": null,
           *           "last_error": null
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["DomainList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  addDomain: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "domain": "acme.edu"
         *     }
         */
        "application/json": {
          /** @description A mail domain of the institution, e.g. `acme.edu` or `bücher.de`. */
          domain: string;
        };
      };
    };
    responses: {
      /** @description Added, pending. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "domain": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0D",
           *         "domain": "acme.edu",
           *         "state": "pending",
           *         "verification": {
           *           "record_type": "TXT",
           *           "record_name": "_institution-admin-challenge.acme.edu",
           *           "record_value": "n3N0yTj2mQ4cZ8l5w3sXkq1PpB7vYd9eRu6oHf0…"
           *         },
           *         "created_at": "2026-11-23T16:33:19.655Z",
           *         "verified_at": null,
           *         "last_checked_at": null,
           *         "last_error": null
           *       }
           *     }
           */
          "application/json": components["schemas"]["DomainShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  verifyDomain: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
        /** @description The domain's id. */
        domain_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain after the lookup. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "domain": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0D",
           *         "domain": "acme.edu",
           *         "state": "verified",
           *         "verification": {
           *           "record_type": "TXT",
           *           "record_name": "_institution-admin-challenge.acme.edu",
           *           "record_value": "n3N0yTj2mQ4cZ8l5w3sXkq1PpB7vYd9eRu6oHf0…"
           *         },
           *         "created_at": "2026-11-23T16:33:19.655Z",
           *         "verified_at": "2026-11-23T17:02:41.120Z",
           *         "last_checked_at": "2026-11-23T17:02:41.120Z",
           *         "last_error": null
           *       }
           *     }
           */
          "application/json": components["schemas"]["DomainShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The `Idempotency-Key` was used with another request. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  removeDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
        /** @description The domain's id. */
        domain_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Domain removed"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  showSso: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The connection. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "sso": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0E",
           *         "type": "saml",
           *         "provider_name": "acme-college-m8k1c6b0e7",
           *         "sp": {
           *           "entity_id": "urn:amazon:cognito:sp:us-east-1_AbCdEfGhI",
           *           "acs_url": "https://institution-admin.auth.us-east-1.amazoncognito.com/saml2/idpresponse"
           *         },
           *         "idp": {
           *           "entity_id": "https://sts.windows.net/0d2b…/",
           *           "metadata_url": "https://login.microsoftonline.com/0d2b…/federationmetadata/2007-06/federationmetadata.xml"
           *         },
           *         "attribute_mapping": {
           *           "email": "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
           *           "name": "http://schemas.microsoft.com/identity/claims/displayname",
           *           "groups": "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"
           *         },
           *         "role_mappings": {
           *           "Campus admins": "cohort_super_admin",
           *           "Staff": "cohort_admin"
           *         },
           *         "jit": {
           *           "enabled": true,
           *           "default_role": "cohort_admin"
           *         },
           *         "require_sso": false,
           *         "created_at": "2026-11-23T16:40:02.311Z",
           *         "updated_at": "2026-11-23T16:40:02.311Z"
           *       }
           *     }
           */
          "application/json": components["schemas"]["SsoConnectionShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  connectSso: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "type": "saml",
         *       "metadata_url": "https://login.microsoftonline.com/0d2b…/federationmetadata/2007-06/federationmetadata.xml",
         *       "jit": {
         *         "enabled": true,
         *         "default_role": "cohort_admin"
         *       }
         *     }
         */
        "application/json": {
          /** @enum {string} */
          type: "saml" | "oidc";
          metadata_url?: string;
          metadata_xml?: string;
          issuer?: string;
          client_id?: string;
          client_secret?: string;
          attribute_mapping?: {
            email?: string;
            name?: string;
            groups?: string;
          };
          /** @description IdP group name → role. Any group name (1–256 characters, one line) is data, `__proto__` included. */
          role_mappings?: {
            [key: string]: "cohort_super_admin" | "cohort_admin";
          };
          jit?: {
            enabled?: boolean;
            /** @enum {string} */
            default_role?: "cohort_super_admin" | "cohort_admin";
          };
          require_sso?: boolean;
        };
      };
    };
    responses: {
      /** @description Connected. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "sso": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0E",
           *         "type": "saml",
           *         "provider_name": "acme-college-m8k1c6b0e7",
           *         "sp": {
           *           "entity_id": "urn:amazon:cognito:sp:us-east-1_AbCdEfGhI",
           *           "acs_url": "https://institution-admin.auth.us-east-1.amazoncognito.com/saml2/idpresponse"
           *         },
           *         "idp": {
           *           "entity_id": "https://sts.windows.net/0d2b…/",
           *           "metadata_url": "https://login.microsoftonline.com/0d2b…/federationmetadata/2007-06/federationmetadata.xml"
           *         },
           *         "attribute_mapping": {
           *           "email": "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
           *           "name": "http://schemas.microsoft.com/identity/claims/displayname",
           *           "groups": "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"
           *         },
           *         "role_mappings": {
           *           "Campus admins": "cohort_super_admin",
           *           "Staff": "cohort_admin"
           *         },
           *         "jit": {
           *           "enabled": true,
           *           "default_role": "cohort_admin"
           *         },
           *         "require_sso": false,
           *         "created_at": "2026-11-23T16:40:02.311Z",
           *         "updated_at": "2026-11-23T16:40:02.311Z"
           *       }
           *     }
           */
          "application/json": components["schemas"]["SsoConnectionShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      /** @description The invitation e-mail could not be sent; no active invitation is left behind. */
      502: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  disconnectSso: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Disconnected. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "Single sign-on disconnected"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description A write kept losing races with concurrent ones; nothing was changed. Retry. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      /** @description The invitation e-mail could not be sent; no active invitation is left behind. */
      502: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  updateSso: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "require_sso": true,
         *       "role_mappings": {
         *         "Staff": "cohort_admin"
         *       }
         *     }
         */
        "application/json": {
          /** @enum {string} */
          type?: "saml" | "oidc";
          metadata_url?: string;
          metadata_xml?: string;
          issuer?: string;
          client_id?: string;
          client_secret?: string;
          attribute_mapping?: {
            email?: string;
            name?: string;
            groups?: string;
          };
          /** @description IdP group name → role. Any group name (1–256 characters, one line) is data, `__proto__` included. */
          role_mappings?: {
            [key: string]: "cohort_super_admin" | "cohort_admin";
          };
          jit?: {
            enabled?: boolean;
            /** @enum {string} */
            default_role?: "cohort_super_admin" | "cohort_admin";
          };
          require_sso?: boolean;
        };
      };
    };
    responses: {
      /** @description Changed. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "sso": {
           *         "id": "01JD3Z8Q9X4T7V2N5M8K1C6B0E",
           *         "type": "saml",
           *         "provider_name": "acme-college-m8k1c6b0e7",
           *         "sp": {
           *           "entity_id": "urn:amazon:cognito:sp:us-east-1_AbCdEfGhI",
           *           "acs_url": "https://institution-admin.auth.us-east-1.amazoncognito.com/saml2/idpresponse"
           *         },
           *         "idp": {
           *           "entity_id": "https://sts.windows.net/0d2b…/",
           *           "metadata_url": "https://login.microsoftonline.com/0d2b…/federationmetadata/2007-06/federationmetadata.xml"
           *         },
           *         "attribute_mapping": {
           *           "email": "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
           *           "name": "http://schemas.microsoft.com/identity/claims/displayname",
           *           "groups": "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"
           *         },
           *         "role_mappings": {
           *           "Campus admins": "cohort_super_admin",
           *           "Staff": "cohort_admin"
           *         },
           *         "jit": {
           *           "enabled": true,
           *           "default_role": "cohort_admin"
           *         },
           *         "require_sso": false,
           *         "created_at": "2026-11-23T16:40:02.311Z",
           *         "updated_at": "2026-11-23T16:40:02.311Z"
           *       }
           *     }
           */
          "application/json": components["schemas"]["SsoConnectionShown"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description A write kept losing races with concurrent ones; nothing was changed. Retry. */
      409: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid: every message, once. */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      /** @description The invitation e-mail could not be sent; no active invitation is left behind. */
      502: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  discoverSso: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "email": "ada@acme.edu"
         *     }
         */
        "application/json": {
          email: string;
        };
      };
    };
    responses: {
      /** @description The address's institution and provider, or null. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "sso": {
           *         "provider_name": "acme-college-m8k1c6b0e7",
           *         "institution": {
           *           "name": "Acme College"
           *         }
           *       }
           *     }
           */
          "application/json": components["schemas"]["SsoDiscovery"];
        };
      };
      400: components["responses"]["BadRequest"];
      413: components["responses"]["PayloadTooLarge"];
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  listApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The keys. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "api_keys": [
           *         {
           *           "id": "01M84M9Q3W6ZK1R2TXY5B8C0DE",
           *           "name": "SIS sync",
           *           "scopes": [
           *             "cohorts:write",
           *             "invitations:write"
           *           ],
           *           "key_preview": "iak_8sKq...",
           *           "created_at": "2026-11-23T16:41:10.208Z",
           *           "created_by": "owner@acme.test",
           *           "expires_at": "2027-06-30T00:00:00.000Z",
           *           "last_used_at": null
           *         }
           *       ]
           *     }
           */
          "application/json": components["schemas"]["ApiKeyList"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Makes a retry safe: a request with the same key, from the same caller, to the same route, within 24 hours gets the first one's response (status, headers and body) and changes nothing again. The same key with another request is 422; while the first one runs, 409. 1 to 255 printable ASCII characters (400 otherwise); a UUID is a good choice. Responses are kept for 2xx and for 4xx other than 409 and 429; after a 409, 429 or 5xx the same key acts again.
         * @example 5f0c7f7e-7a52-4a4e-9d0b-6a1c2b3d4e5f
         */
        "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
      };
      path: {
        /** @description The institution's id. */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "SIS sync",
         *       "scopes": [
         *         "cohorts:write",
         *         "invitations:write"
         *       ],
         *       "expires_at": "2027-06-30T00:00:00.000Z"
         *     }
         */
        "application/json": {
          /** @description What the key is for, as the list and the trail name it: 1 to 64 characters, one line. */
          name: string;
          /** @description The key's whole grant; a scope given twice counts once. */
          scopes: (
            | "institution:read"
            | "institution:write"
            | "cohorts:read"
            | "cohorts:write"
            | "administrators:read"
            | "administrators:write"
            | "invitations:read"
            | "invitations:write"
          )[];
          expires_at?: string | null;
        };
      };
    };
    responses: {
      /** @description Made: the key is shown this once. */
      201: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "api_key": {
           *         "id": "01M84M9Q3W6ZK1R2TXY5B8C0DE",
           *         "name": "SIS sync",
           *         "scopes": [
           *           "cohorts:write",
           *           "invitations:write"
           *         ],
           *         "key_preview": "iak_8sKq...",
           *         "created_at": "2026-11-23T16:41:10.208Z",
           *         "created_by": "owner@acme.test",
           *         "expires_at": "2027-06-30T00:00:00.000Z",
           *         "last_used_at": null
           *       },
           *       "key": "iak_8sKqP2vN0xT5mYb7cR1wZ4hL9dF3gJ6aE0uQ_iVo-Xs"
           *     }
           */
          "application/json": components["schemas"]["ApiKeyCreated"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["IdempotentConflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description The record is invalid (`{errors}`: every message, once), or the current state refuses it (`{error}`). Or the `Idempotency-Key` was used with another request (`{error}`). */
      422: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["ValidationErrors"] | components["schemas"]["Error"];
        };
      };
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The institution's id. */
        id: string;
        /** @description The key's id. */
        key_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "message": "API key 'SIS sync' revoked"
           *     }
           */
          "application/json": components["schemas"]["Message"];
        };
      };
      400: components["responses"]["BadRequest"];
      401: components["responses"]["Unauthorized"];
      /** @description The caller lacks the role the operation needs; recorded as `insufficient_privileges`. */
      403: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Not found among what the caller may see (an unknown, malformed or invisible id is the same). */
      404: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      409: components["responses"]["Conflict"];
      413: components["responses"]["PayloadTooLarge"];
      /** @description Over a bound: on invitations or their e-mails, on institutions created per day, or on refused requests (more than 30 in a minute, until it ends); logged as `rate_limit_exceeded` with its `scope`. */
      429: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          "Retry-After": components["headers"]["RetryAfter"];
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      500: components["responses"]["InternalError"];
      503: components["responses"]["ServiceUnavailable"];
    };
  };
  getApiDocument: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            openapi: "3.1.0";
          };
        };
      };
      500: components["responses"]["InternalError"];
    };
  };
  getApiReference: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The HTML page. */
      200: {
        headers: {
          "Cache-Control": components["headers"]["CacheControl"];
          "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
          [name: string]: unknown;
        };
        content: {
          "text/html": string;
        };
      };
      500: components["responses"]["InternalError"];
    };
  };
}
