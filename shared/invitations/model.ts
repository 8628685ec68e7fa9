/** Invitation records as stored and the views the contract returns. */
import type { Role } from "../roles.js";

/** The invitation item (without its keys). Absent optional fields are simply not stored, so conditions can test them. */
export interface Invitation {
  id: string;
  institution_id: string;
  /** Trimmed, lower-cased. */
  email: string;
  role: Role;
  /** SHA-256 of the current token; the token itself is never stored. */
  token_hash: string;
  token_preview: string;
  sent_at: string;
  expires_at: string;
  created_at: string;
  /** Inviter's e-mail (the list's `created_by`) and user id. */
  created_by: string;
  created_by_id: string;
  /** Inviter's name claim when it invited (absent on invitations made before it was kept). */
  created_by_name?: string | null;
  /** Number of the pending-limit slot this invitation holds while active. */
  slot: number;
  used_at?: string;
  used_by?: string;
  revoked_at?: string;
  revoked_by?: string;
  /** Why it was revoked when it was not a user's revoke (`email_delivery_failed`). */
  revoke_reason?: string;
}

/** What the token item points to. */
export interface TokenRef {
  invitation_id: string;
  institution_id: string;
}

/** One pending-limit slot as stored: the invitation holding it and when that invitation expires. */
export interface Slot {
  n: number;
  invitation_id: string;
  expires_at: string;
}

export type InvitationStatus = "active" | "used" | "revoked" | "expired";

/** Revoked and used win over expired: they say what happened, expiry only what did not. */
export function statusOf(inv: Pick<Invitation, "used_at" | "revoked_at" | "expires_at">, now: Date): InvitationStatus {
  if (inv.revoked_at) return "revoked";
  if (inv.used_at) return "used";
  if (inv.expires_at <= now.toISOString()) return "expired";
  return "active";
}

/** A slot blocks a new invitation while its holder has not expired (used and revoked holders delete the slot). */
export const slotHeld = (slot: Slot, now: Date): boolean => slot.expires_at > now.toISOString();

/** An item of the list response. */
export function toListItem(inv: Invitation, now: Date) {
  return {
    id: inv.id,
    email: inv.email,
    role: inv.role,
    token_preview: inv.token_preview,
    sent_at: inv.sent_at,
    expires_at: inv.expires_at,
    used_at: inv.used_at ?? null,
    // An API key's invitation (docs/api-keys.md) names the key, which has no e-mail.
    created_by: inv.created_by || (inv.created_by_name ?? ""),
    status: statusOf(inv, now),
  };
}

/** The invitation in the create and resend responses. */
export function toIssued(inv: Invitation) {
  return { id: inv.id, email: inv.email, role: inv.role, token_preview: inv.token_preview, expires_at: inv.expires_at };
}

const RANK: Record<Role, number> = { cohort_admin: 1, cohort_super_admin: 2 };

/** The stronger of two roles; accepting an invitation never lowers a role the user already has. */
export function strongerRole(current: Role | undefined, invited: Role): Role {
  return current !== undefined && RANK[current] >= RANK[invited] ? current : invited;
}
