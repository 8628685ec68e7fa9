/** What the administrator use cases return (the API's response bodies; see shared/results.ts). */
import type { PageMeta, Timestamp } from "../results.js";
import type { Role } from "../roles.js";

export interface AdministratorView {
  user_id: string;
  email: string;
  name: string | null;
  account_id: string;
  role: Role;
  is_super_admin: boolean;
  added_at: Timestamp;
  /** The invitation that granted the access; null for the institution's creator. */
  invitation_id: string | null;
  /** `scim` for an administrator the institution's directory provisioned (DESIGN.md §15). */
  managed_by: "scim" | null;
}

export interface AdministratorList {
  administrators: AdministratorView[];
  meta: PageMeta;
}

export interface AdministratorUpdated {
  administrator: AdministratorView;
  message: string;
}

export interface AdministratorRemoved {
  message: string;
  revoked_invitations: number;
}
