/**
 * What the directory does to access (docs/scim.md): from the directory's users and groups as they will be, the
 * role each e-mail should hold; compared with what the directory has granted, the changes, taken through the
 * membership door (shared/membership/) with an event each (actor: the directory, `user` null), and the
 * directory's own grant items beside them:
 * - an active user with an e-mail makes that person an administrator, with the highest role its groups map
 *   to (`cohort_admin` when none maps); several users with one e-mail give it while any is active;
 * - access the directory gave goes when no active user has that e-mail any more, as docs/contract/administrators.md's removal: the access
 *   record, the member marker, the seat, and the active invitations that person sent ("removal is final");
 * - the institution's super admin is out of reach: a request that would provision it, change its role or
 *   remove it is refused (409), and the 95-seat limit holds (403).
 */
import type { Caller } from "../caller.js";
import { MAX_MEMBERS } from "../institutions/model.js";
import { MembershipChange } from "../membership/membership.js";
import type { MembershipRefusal } from "../membership/model.js";
import type { Role } from "../roles.js";
import type { TooLarge, TxItems } from "../tx.js";
import type { PoolUser } from "../users.js";
import type { Connection, Resource } from "./model.js";
import { emailOf, fold, isObject, nameOf, ScimError } from "./protocol.js";
import type { DirectoryState } from "./repository.js";
import { deleteGrant, putGrant } from "./repository.js";

const RANK: Record<Role, number> = { cohort_admin: 1, cohort_super_admin: 2 };
const higher = (a: Role, b: Role): Role => (RANK[a] >= RANK[b] ? a : b);

export const SUPER_ADMIN_OUT_OF_REACH = "The institution's super admin is managed by hand, never through the directory";
export const SEATS_FULL = `Institution has reached its limit of ${MAX_MEMBERS} administrators`;

/** More changes at once than one transaction holds (a mapping change that reaches most of a full institution). */
export const TOO_MANY_CHANGES = "Too many administrators change at once; change the groups or mappings in smaller steps";

/** How the directory hears a refusal of the membership door: nothing was changed. */
export function directoryRefusal(refusal: MembershipRefusal | TooLarge): ScimError {
  if (refusal.kind === "owner_out_of_reach") return new ScimError(409, SUPER_ADMIN_OUT_OF_REACH, "uniqueness");
  if (refusal.kind === "institution_full") return new ScimError(403, SEATS_FULL);
  return new ScimError(403, TOO_MANY_CHANGES);
}

export type DeprovisionReason = "deactivated" | "deleted" | "email_changed";

/** The directory as an actor: no user; its connection names it (docs/scim.md). */
export function directoryActor(connection: Pick<Connection, "id" | "account_id">, ip: string): Caller {
  return {
    id: `scim:${connection.id}`,
    email: "",
    name: null,
    accountId: connection.account_id,
    isCohortSuperAdmin: false,
    emailVerified: false,
    ip,
    directory: connection.id,
  };
}

/** The role each e-mail should hold, with the name to give a new pool user. */
export function desiredAccess(users: readonly Resource[], groups: readonly Resource[], mappings: Record<string, Role>) {
  const mapped = new Map<string, Role>(Object.entries(mappings).map(([name, role]) => [fold(name), role]));
  const roleOfUser = new Map<string, Role>();
  for (const g of groups) {
    const name = typeof g.attributes.displayName === "string" ? fold(g.attributes.displayName) : undefined;
    const role = name === undefined ? undefined : mapped.get(name);
    if (!role) continue;
    const members = Array.isArray(g.attributes.members) ? g.attributes.members : [];
    for (const m of members) {
      if (!isObject(m) || typeof m.value !== "string") continue;
      roleOfUser.set(m.value, higher(roleOfUser.get(m.value) ?? "cohort_admin", role));
    }
  }
  const out = new Map<string, { role: Role; name: string | undefined }>();
  for (const u of users) {
    if (u.attributes.active === false) continue;
    const email = emailOf(u.attributes);
    if (!email) continue;
    const role = roleOfUser.get(u.id) ?? "cohort_admin";
    const had = out.get(email);
    out.set(email, { role: had ? higher(had.role, role) : role, name: had?.name ?? nameOf(u.attributes) });
  }
  return out;
}

/** Finds (or makes) the user-pool user a new grant goes to. */
export type Resolve = (email: string, name: string | undefined) => Promise<PoolUser>;

/** The access changes of one directory write, through the membership door, and the directory's grants that go with them. */
export interface Plan {
  readonly kind: "ok";
  readonly change: MembershipChange;
  readonly grants: TxItems;
}

/**
 * The membership change and the grant items that bring access in line with `after` (the directory's users and
 * groups once the request's own change is made), besides that change. Reads only for a removal (the person's
 * access record and the invitations they sent) and a new grant (`resolve`: the user pool). A refusal (the owner,
 * the seat limit) or `retry` (a change since the read) writes nothing.
 */
export async function planAccess(
  state: DirectoryState,
  after: { users: readonly Resource[]; groups: readonly Resource[]; mappings: Record<string, Role> },
  ctx: { actor: Caller; now: Date; reason: DeprovisionReason; resolve: Resolve | undefined },
): Promise<Plan | MembershipRefusal | { readonly kind: "retry" }> {
  const { institution: inst, connection } = state;
  const desired = desiredAccess(after.users, after.groups, after.mappings);
  const change = new MembershipChange(inst, { actor: ctx.actor, now: ctx.now });
  const source = { via: "directory", connection: connection.id } as const;
  const grants: TxItems = {};

  // Removals first: they free seats for the grants of the same request.
  for (const [email, grant] of state.grants) {
    if (desired.has(email)) continue;
    grants[`grant ${email}`] = deleteGrant(connection.id, email);
    if (change.roleOf(grant.user_id) === undefined) continue;
    const step = await change.remove(grant.user_id);
    if (step.kind !== "ok") return step;
    change.record("administrator_deprovisioned", {
      institution_id: inst.id,
      user_id: grant.user_id,
      email,
      reason: ctx.reason,
      scim_connection: connection.id,
    });
  }

  for (const [email, want] of desired) {
    const grant = state.grants.get(email);
    if (grant) {
      if (grant.role === want.role) continue;
      grants[`grant ${email}`] = putGrant(connection.id, { ...grant, role: want.role });
      const from = change.roleOf(grant.user_id);
      if (!from || from === want.role) continue;
      const step = change.changeRole(grant.user_id, want.role, source);
      if (step.kind !== "ok") return step;
      change.record("administrator_role_changed", {
        institution_id: inst.id,
        user_id: grant.user_id,
        email,
        from,
        to: want.role,
        source: "scim",
        scim_connection: connection.id,
      });
      continue;
    }
    if (!ctx.resolve) throw new Error("a new grant needs the user pool");
    const pool = await ctx.resolve(email, want.name);
    const person = { user_id: pool.user_id, email, name: pool.name ?? want.name ?? null, account_id: pool.account_id ?? inst.account_id };
    // Invited by hand before: the directory takes the administrator over (`grant` on a seat that exists).
    const step = change.grant(person, want.role, source);
    if (step.kind !== "ok") return step;
    grants[`grant ${email}`] = putGrant(connection.id, { email, user_id: pool.user_id, role: want.role });
    change.record("administrator_provisioned", {
      institution_id: inst.id,
      user_id: pool.user_id,
      email,
      role: want.role,
      source: "scim",
      scim_connection: connection.id,
    });
  }
  return { kind: "ok", change, grants };
}
