/** What the invitation use cases return (the API's response bodies; see shared/results.ts). */
import type { PageMeta, Timestamp } from "../results.js";
import type { Role } from "../roles.js";
import type { InvitationStatus } from "./model.js";

export interface IssuedInvitation {
  id: string;
  email: string;
  role: Role;
  /** The first 8 characters of the token and `...`. */
  token_preview: string;
  expires_at: Timestamp;
}

export interface InvitationIssued {
  invitation: IssuedInvitation;
  message: string;
}

export interface ResentInvitation extends IssuedInvitation {
  sent_at: Timestamp;
}

export interface InvitationResent {
  invitation: ResentInvitation;
  message: string;
}

export interface InvitationListItem {
  id: string;
  email: string;
  role: Role;
  token_preview: string;
  sent_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_by: string;
  status: InvitationStatus;
}

export interface InvitationList {
  invitations: InvitationListItem[];
  meta: PageMeta;
}

export interface InvitationPreview {
  institution: { name: string };
  role: Role;
  invited_by: { email: string; name: string | null };
  expires_at: Timestamp;
}

export interface InvitationAccepted {
  institution: { id: string; name: string };
  role: Role;
  message: string;
}

/** What open shows a visitor holding the token (DESIGN.md §14): preview's fields, the address and whether it has an account. */
export interface InvitationOpened extends InvitationPreview {
  email: string;
  has_account: boolean;
}

export interface InvitationRegistered {
  institution: { id: string; name: string };
  role: Role;
  message: "Account created";
}
