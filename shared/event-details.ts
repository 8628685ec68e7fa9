/**
 * The `details` of each event type: the one statement of what an event may carry. `auditEvent` is typed by
 * it, the API document lists it (`EventDetails`), and the hostile tests' whitelist of stored details is
 * `DETAIL_KEYS`. No imports with side effects: the console and the tests may load it.
 */

import type { Scope } from "./api-keys/scopes.js";
import type { EventType } from "./constants.js";
import type { Role } from "./roles.js";

/** A value cut from a request (`requestValue` in audit.ts): at most 64 code points, or null when absent. */
type RequestValue = string | null;

export interface EventDetails {
  institution_created: { institution_id: string; name: string };
  institution_updated: { institution_id: string; changes: string[]; institution_name?: string };
  institution_deleted: { institution_name: string };
  insufficient_privileges: {
    action: string;
    required_role: "super_admin" | "cohort_super_admin";
    institution_id?: string;
    institution_name?: string;
  };
  unauthorized_institution_access: { attempted_institution_id: RequestValue; action?: "manage_invitations" | "manage_administrators" };
  /**
   * A mail bound names the e-mail and the institution; the account-wide bounds (`institution_daily`,
   * `refused_requests`: docs/security.md) name neither.
   */
  rate_limit_exceeded:
    | {
        email: string;
        institution_id: string;
        limit: number;
        scope:
          | "pending"
          | "resend"
          | "institution_hourly"
          | "recipient_daily"
          | "mailbox_daily"
          | "mailbox_daily_ceiling"
          | "account_hourly";
      }
    | { limit: number; scope: "institution_daily" | "refused_requests" };
  token_validation_failure: { reason: "unknown" | "expired" | "used" | "revoked" | "email_mismatch" | "email_unverified" };
  /** The CSV export's (`event_count`), or a full export's when it starts (`export_id`, `format`; docs/events-out.md). */
  security_events_exported: {
    event_count?: number;
    export_id?: string;
    format?: "csv" | "jsonl";
    filters: { event_type: string | null; user_id?: string | null; user_email?: string; from: string | null; to: string | null };
  };
  invitation_created: { invitation_id: string; institution_id: string; email: string; role: Role; institution_name?: string };
  invitation_revoked: { invitation_id: string; institution_id: string; email: string; reason?: string; institution_name?: string };
  invitation_resent: { invitation_id: string; institution_id: string; email: string; institution_name?: string };
  invitation_accepted: { invitation_id: string; institution_id: string; email: string; role: Role; institution_name?: string };
  cohort_created: { institution_id: string; cohort_id: string; name: string; institution_name?: string };
  webhook_created: { webhook_id: string; url: string };
  webhook_deleted: { webhook_id: string; url: string };
  webhook_disabled: { webhook_id: string; url: string; failing_since: string };
  administrator_removed: { institution_id: string; user_id: string; email: string; self: boolean; institution_name?: string };
  /** `source: "scim"` and `scim_connection` when the directory changed it (docs/scim.md). */
  administrator_role_changed: {
    institution_id: string;
    user_id: string;
    /** The administrator whose role changed. */
    email?: string;
    from: Role;
    to: Role;
    source?: "scim";
    scim_connection?: string;
    institution_name?: string;
  };
  institution_transferred: {
    institution_id: string;
    from_user_id: string;
    to_user_id: string;
    to_email?: string;
    institution_name?: string;
  };
  /** A person joined from an invitation (docs/joining.md): the user-pool user made for them. */
  account_created: { user_id: string; email: string; institution_id: string; invitation_id: string; institution_name?: string };
  cohort_deleted: { institution_id: string; cohort_id: string; name: string; institution_name?: string };
  scim_connected: { institution_id: string; scim_connection: string; institution_name?: string };
  scim_token_rotated: { institution_id: string; scim_connection: string; institution_name?: string };
  /**
   * The mappings as a list of `{group, role}`, not a map: a group name is data (`__proto__` included), and a DynamoDB
   * map cannot hold every key (docs/code-structure.md); a group name is then a recorded value too, cut as any other.
   */
  scim_role_mappings_changed: {
    institution_id: string;
    scim_connection: string;
    role_mappings: { group: string; role: Role }[];
    institution_name?: string;
  };
  scim_disconnected: { institution_id: string; scim_connection: string; institution_name?: string };
  /**
   * Who got access, with which role: from the directory (actor `user` null, `scim_connection`; `source: "scim"`), or
   * on their first sign-in with the institution's SSO (the person is the actor; `source: "sso"`, `sso_connection`).
   */
  administrator_provisioned:
    | {
        institution_id: string;
        user_id: string;
        email: string;
        role: Role;
        source?: "scim";
        scim_connection: string;
        institution_name?: string;
      }
    | {
        institution_id: string;
        user_id: string;
        email: string;
        role: Role;
        source: "sso";
        sso_connection: string;
        institution_name?: string;
      };
  administrator_deprovisioned: {
    institution_id: string;
    user_id: string;
    email: string;
    reason: "deactivated" | "deleted" | "email_changed";
    scim_connection: string;
    institution_name?: string;
  };
  /** Verified domains (docs/sso.md): `domain` is the ASCII form. */
  domain_added: { institution_id: string; domain_id: string; domain: string; institution_name?: string };
  domain_verified: { institution_id: string; domain_id: string; domain: string; institution_name?: string };
  /**
   * A verification that did not verify: the record not found, holding another value, the lookup failing, the
   * domain verified by another institution (the domain stays `pending`), or 7 days gone by (`failed`).
   */
  domain_verification_failed: {
    institution_id: string;
    domain_id: string;
    domain: string;
    reason: "not_found" | "mismatch" | "lookup_failed" | "verified_elsewhere" | "expired";
    state: "pending" | "failed";
    institution_name?: string;
  };
  domain_removed: { institution_id: string; domain_id: string; domain: string; institution_name?: string };
  /** The SSO connection (docs/sso.md): never its client secret. `changes` names the fields a PATCH changed. */
  sso_connected: {
    institution_id: string;
    sso_connection: string;
    type: "saml" | "oidc";
    provider_name: string;
    institution_name?: string;
  };
  sso_updated: { institution_id: string; sso_connection: string; provider_name: string; changes: string[]; institution_name?: string };
  sso_disconnected: { institution_id: string; sso_connection: string; provider_name: string; institution_name?: string };
  /**
   * A federated sign-in with the institution's IdP (docs/sso.md), the person as actor. `jit` when membership on
   * first sign-in acted: `provisioned` (with `administrator_provisioned`), or `seat_limit` (signed in without access).
   */
  sso_sign_in: { provider_name: string; institution_id: string; jit?: "provisioned" | "seat_limit"; institution_name?: string };
  /**
   * A federated sign-in the service refused, in the IdP's institution's account: `email_outside_domains` (the IdP
   * asserted an e-mail that is not on the institution's verified domains), `no_email`, `not_connected`.
   */
  sso_sign_in_refused: { provider_name: string; reason: "email_outside_domains" | "no_email" | "not_connected" };
  /** An institution API key made (docs/api-keys.md): never the key, nor its hash. */
  api_key_created: {
    institution_id: string;
    api_key_id: string;
    name: string;
    scopes: Scope[];
    expires_at: string | null;
    institution_name?: string;
  };
  api_key_revoked: { institution_id: string; api_key_id: string; name: string; institution_name?: string };
  // A person's own events (docs/contract/people.md), in their account's trail; the actor is the person.
  /** The pool's PostAuthentication trigger: signed in with the password (and the second step, where asked). */
  sign_in: { method: "password" };
  /**
   * The pool's user-activity export (no trigger sees a failure): the password or the second step's code was
   * wrong, or the pool's threat protection blocked it. `cognito_event_id` is the export's id of the attempt.
   */
  sign_in_failed: {
    method: "password";
    reason: "wrong_password" | "wrong_code" | "blocked";
    risk_level?: string;
    cognito_event_id: string;
  };
  /** The pool's PostConfirmation trigger: a forgotten password replaced with the code mailed to the person. */
  password_reset: { method: "email_code" };
  /** The pool's user-activity export: the person changed their password, knowing the old one. */
  password_changed: { cognito_event_id: string };
  /** `PUT /me/mfa`: the authenticator app (TOTP) as the second sign-in step, on or off. */
  mfa_enabled: { factor: "totp" };
  mfa_disabled: { factor: "totp" };
  /** `POST /me/sign_out_everywhere`: every refresh token of the person revoked. */
  signed_out_everywhere: { scope: "all_sessions" };
}

/** Compile-time: the types given details here are exactly the contract's list (constants.ts). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const DETAILS_COVER_EVENT_TYPES: Same<keyof EventDetails, EventType> = true;

/** Every key each event type's details may carry, optional ones included; a type added above must be named here. */
/** Every key of every member of a union (`keyof` alone gives only the keys all members share). */
type KeysOfUnion<U> = U extends unknown ? keyof U : never;

export const DETAIL_KEYS: { readonly [T in keyof EventDetails]-?: readonly KeysOfUnion<EventDetails[T]>[] } = {
  institution_created: ["institution_id", "name"],
  institution_updated: ["institution_id", "changes", "institution_name"],
  institution_deleted: ["institution_name"],
  insufficient_privileges: ["action", "required_role", "institution_id", "institution_name"],
  unauthorized_institution_access: ["attempted_institution_id", "action"],
  rate_limit_exceeded: ["email", "institution_id", "limit", "scope"],
  token_validation_failure: ["reason"],
  security_events_exported: ["event_count", "export_id", "format", "filters"],
  invitation_created: ["invitation_id", "institution_id", "email", "role", "institution_name"],
  invitation_revoked: ["invitation_id", "institution_id", "email", "reason", "institution_name"],
  invitation_resent: ["invitation_id", "institution_id", "email", "institution_name"],
  invitation_accepted: ["invitation_id", "institution_id", "email", "role", "institution_name"],
  cohort_created: ["institution_id", "cohort_id", "name", "institution_name"],
  webhook_created: ["webhook_id", "url"],
  webhook_deleted: ["webhook_id", "url"],
  webhook_disabled: ["webhook_id", "url", "failing_since"],
  administrator_removed: ["institution_id", "user_id", "email", "self", "institution_name"],
  administrator_role_changed: ["institution_id", "user_id", "email", "from", "to", "source", "scim_connection", "institution_name"],
  institution_transferred: ["institution_id", "from_user_id", "to_user_id", "to_email", "institution_name"],
  account_created: ["user_id", "email", "institution_id", "invitation_id", "institution_name"],
  cohort_deleted: ["institution_id", "cohort_id", "name", "institution_name"],
  scim_connected: ["institution_id", "scim_connection", "institution_name"],
  scim_token_rotated: ["institution_id", "scim_connection", "institution_name"],
  scim_role_mappings_changed: ["institution_id", "scim_connection", "role_mappings", "institution_name"],
  scim_disconnected: ["institution_id", "scim_connection", "institution_name"],
  administrator_provisioned: [
    "institution_id",
    "user_id",
    "email",
    "role",
    "source",
    "scim_connection",
    "sso_connection",
    "institution_name",
  ],
  administrator_deprovisioned: ["institution_id", "user_id", "email", "reason", "scim_connection", "institution_name"],
  domain_added: ["institution_id", "domain_id", "domain", "institution_name"],
  domain_verified: ["institution_id", "domain_id", "domain", "institution_name"],
  domain_verification_failed: ["institution_id", "domain_id", "domain", "reason", "state", "institution_name"],
  domain_removed: ["institution_id", "domain_id", "domain", "institution_name"],
  sso_connected: ["institution_id", "sso_connection", "type", "provider_name", "institution_name"],
  sso_updated: ["institution_id", "sso_connection", "provider_name", "changes", "institution_name"],
  sso_disconnected: ["institution_id", "sso_connection", "provider_name", "institution_name"],
  sso_sign_in: ["provider_name", "institution_id", "jit", "institution_name"],
  sso_sign_in_refused: ["provider_name", "reason"],
  api_key_created: ["institution_id", "api_key_id", "name", "scopes", "expires_at", "institution_name"],
  api_key_revoked: ["institution_id", "api_key_id", "name", "institution_name"],
  sign_in: ["method"],
  sign_in_failed: ["method", "reason", "risk_level", "cognito_event_id"],
  password_reset: ["method"],
  password_changed: ["cognito_event_id"],
  mfa_enabled: ["factor"],
  mfa_disabled: ["factor"],
  signed_out_everywhere: ["scope"],
};

/**
 * Keys any event may carry besides its type's, about its actor: `api_key` `{id, name}` when an institution API
 * key caused it (docs/api-keys.md; shared/audit.ts adds it).
 */
export const ACTOR_DETAIL_KEYS = ["api_key"] as const;

/** The keys of `security_events_exported`'s `filters`. */
export const EXPORT_FILTER_KEYS = ["event_type", "user_id", "user_email", "from", "to"] as const;
