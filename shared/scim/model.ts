/** The stored shapes of SCIM directory provisioning (docs/scim.md); keys in shared/tables.ts (`scimKeys`). */
import type { Role } from "../roles.js";

/** One institution's directory connection, `INST#<id>` / `SCIM`. */
export interface Connection {
  id: string;
  institution_id: string;
  account_id: string;
  /** SHA-256 (hex) of the bearer token: the token itself is never stored. */
  token_hash: string;
  token_preview: string;
  created_at: string;
  rotated_at: string | null;
  last_used_at: string | null;
  /** Group displayName → role, as the super admin set it. */
  role_mappings: Record<string, Role>;
  /** Every write of the directory or of the connection bumps it: they serialise on it. */
  version: number;
}

/** What the token's lookup item holds: the authorizer's context. */
export interface TokenTarget {
  institution_id: string;
  connection_id: string;
  account_id: string;
}

/** A SCIM resource as stored in the connection's partition (`USER#` / `GROUP#`). */
export interface Resource {
  id: string;
  type: "User" | "Group";
  /** Every attribute the directory sent (canonical names), without id, meta and password; at most 16 KiB. */
  attributes: Record<string, unknown>;
  created: string;
  last_modified: string;
  version: number;
}

/** What the directory has granted, per e-mail (`GRANT#<email>`): the pool user and the role it holds through SCIM. */
export interface Grant {
  email: string;
  user_id: string;
  role: Role;
}

export const DIRECTORY_MANAGED = "Managed by the institution's directory";
