/** What a membership is, as stored and as the membership door (shared/membership/) takes and refuses it. */
import type { InstitutionSummary } from "../institutions/model.js";
import type { Role } from "../roles.js";

/** Who a member is, as the access record keeps it (from the verified claims, or the user pool, when access was granted). */
export interface Member {
  user_id: string;
  /** Lower-cased; empty when the token carried none. */
  email: string;
  name: string | null;
  /** The member's own account (the institution's may differ). */
  user_account_id: string;
  role: Role;
  added_at: string;
  /** The invitation that granted the access; null for the institution's creator and the directory's grants. */
  invitation_id: string | null;
}

/**
 * Stored access record: one user's role in one institution, with that institution's summary and who the
 * user is. `account_id` is the institution's account. Records written before the member fields existed
 * lack them (and so are not in the administrators index).
 */
export interface AccessRecord extends Partial<Omit<Member, "user_id" | "role">> {
  account_id: string;
  user_id: string;
  institution_id: string;
  role: Role;
  institution: InstitutionSummary;
  /** How many invitations this member has sent to the institution (what a removal is conditioned on). */
  invitations_sent?: number;
  /** `scim` when the directory `scim_connection` gave the access (docs/scim.md). */
  managed_by?: "scim";
  scim_connection?: string;
}

/** The person a grant goes to: who they are, as their verified claims or the user pool say. */
export interface Person {
  readonly user_id: string;
  readonly email: string;
  readonly name: string | null;
  /** Their own account. */
  readonly account_id: string;
}

/**
 * Through which door access comes or changes; it decides what the access record says of its origin and which
 * refusals apply:
 * - `invitation`: accepting `invitation`, sent by `inviter`, who must still hold a seat when it commits;
 * - `directory`: the institution's SCIM `connection`, which then manages the access (`managed_by: "scim"`);
 * - `hand`: the administrators routes (the institution's super admin, or the member leaving).
 * - `sso`: the institution's SSO `connection`, on a person's first sign-in (docs/sso.md, JIT): a new seat only,
 *   never a change of one that exists, so out of reach of the owner as the directory is.
 */
export type Source =
  | { readonly via: "invitation"; readonly invitation: string; readonly inviter: string }
  | { readonly via: "directory"; readonly connection: string }
  | { readonly via: "sso"; readonly connection: string }
  | { readonly via: "hand" };

/** The institution's super admin (its owner): its seat changes by a transfer alone, through no door of this module. */
export type OwnerOutOfReach = { readonly kind: "owner_out_of_reach" };
/** A new seat in an institution at its limit (`MAX_MEMBERS`). */
export type InstitutionFull = { readonly kind: "institution_full" };
/** What the door refuses, before anything is written. */
export type MembershipRefusal = OwnerOutOfReach | InstitutionFull;
