/**
 * What the directory does to access (DESIGN.md §15): from the directory's users and groups as they will be, the
 * role each e-mail should hold; compared with what the directory has granted, the changes, written in one
 * transaction with the directory's own change and an event each (actor: the directory, `user` null):
 * - an active user with an e-mail makes that person an administrator, with the highest role its groups map
 *   to (`cohort_admin` when none maps); several users with one e-mail give it while any is active;
 * - access the directory gave goes when no active user has that e-mail any more, as §9's removal: the access
 *   record, the member marker, the seat, and the active invitations that person sent;
 * - the institution's super admin is never provisioned (409), and the 95-seat limit holds.
 */
import { type AuditEvent, auditEvent } from "../audit.js";
import type { Caller } from "../caller.js";
import { config } from "../config.js";
import { type Institution, MAX_MEMBERS, memberRole } from "../institutions/model.js";
import { grantAccessItems, type Member } from "../institutions/repository.js";
import type { Invitation } from "../invitations/model.js";
import { activeInvitationsSentBy, revocationItems } from "../invitations/repository.js";
import type { Role } from "../roles.js";
import { keys } from "../tables.js";
import { returnOldOnFailure, type TxItem, type TxItems } from "../tx.js";
import type { Connection, Resource } from "./model.js";
import { emailOf, fold, isObject, nameOf, ScimError } from "./protocol.js";
import type { DirectoryState } from "./repository.js";
import { connectionStep, deleteGrant, putGrant } from "./repository.js";

const RANK: Record<Role, number> = { cohort_admin: 1, cohort_super_admin: 2 };
const higher = (a: Role, b: Role): Role => (RANK[a] >= RANK[b] ? a : b);

export const SUPER_ADMIN_OUT_OF_REACH = "The institution's super admin is managed by hand, never through the directory";
export const SEATS_FULL = `Institution has reached its limit of ${MAX_MEMBERS} administrators`;

export type DeprovisionReason = "deactivated" | "deleted" | "email_changed";

/** The directory as an actor: no user; its connection names it (DESIGN.md §15). */
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

/** The person a grant goes to, as the user pool holds (or now makes) them. */
export type { PoolUser } from "../users.js";

import type { PoolUser } from "../users.js";

export type Resolve = (email: string, name: string | undefined) => Promise<PoolUser>;

interface Plan {
  readonly items: TxItems;
  readonly events: AuditEvent[];
}

/**
 * The transaction items and events that bring access in line with `after` (the directory's users and groups once
 * the request's own change is made), besides that change. Reads only for a removal (the invitations the person
 * sent) and a new grant (`resolve`: the user pool). Throws the 409 / 403 refusals.
 */
export async function planAccess(
  state: DirectoryState,
  after: { users: readonly Resource[]; groups: readonly Resource[]; mappings: Record<string, Role> },
  ctx: { actor: Caller; now: Date; reason: DeprovisionReason; resolve: Resolve | undefined },
): Promise<Plan> {
  const { institution: inst, connection } = state;
  const desired = desiredAccess(after.users, after.groups, after.mappings);
  const items: TxItems = {};
  const events: AuditEvent[] = [];
  const sets: string[] = [];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  let seats = Object.keys(inst.members).length;
  let n = 0;
  const at = ctx.now.toISOString();
  const event = <
    T extends "administrator_provisioned" | "administrator_deprovisioned" | "administrator_role_changed" | "invitation_revoked",
  >(
    type: T,
    details: Parameters<typeof auditEvent<T>>[2],
  ) => events.push(auditEvent(ctx.actor, type, details, { now: ctx.now }));
  const seat = (userId: string, role: Role | undefined) => {
    n++;
    names[`#u${n}`] = userId;
    if (role) {
      sets.push(`#members.#u${n} = :r${n}`);
      values[`:r${n}`] = role;
    } else removes.push(`#members.#u${n}`);
  };

  // Removals first: they free seats for the grants of the same request.
  for (const [email, grant] of state.grants) {
    if (desired.has(email)) continue;
    items[`grant ${email}`] = deleteGrant(connection.id, email);
    if (!memberRole(inst, grant.user_id) || grant.user_id === inst.super_admin_id) continue;
    seat(grant.user_id, undefined);
    seats--;
    items[`access ${grant.user_id}`] = { Delete: { TableName: tableOf(), Key: keys.access(grant.user_id, inst.id) } };
    items[`marker ${grant.user_id}`] = { Delete: { TableName: tableOf(), Key: keys.memberEmail(inst.id, email) } };
    const sent: Invitation[] = await activeInvitationsSentBy(inst.id, grant.user_id, ctx.now);
    for (const inv of sent) {
      Object.assign(items, revocationItems(inv, { revokedBy: ctx.actor.id, reason: "administrator_removed", at }));
      event("invitation_revoked", { invitation_id: inv.id, institution_id: inst.id, email: inv.email, reason: "administrator_removed" });
    }
    event("administrator_deprovisioned", {
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
      items[`grant ${email}`] = putGrant(connection.id, { ...grant, role: want.role });
      const from = memberRole(inst, grant.user_id);
      if (!from || from === want.role) continue;
      seat(grant.user_id, want.role);
      items[`access ${grant.user_id}`] = roleUpdate(inst, grant.user_id, want.role, connection.id);
      event("administrator_role_changed", {
        institution_id: inst.id,
        user_id: grant.user_id,
        from,
        to: want.role,
        source: "scim",
        scim_connection: connection.id,
      });
      continue;
    }
    if (!ctx.resolve) throw new Error("a new grant needs the user pool");
    const person = await ctx.resolve(email, want.name);
    if (person.user_id === inst.super_admin_id) throw new ScimError(409, SUPER_ADMIN_OUT_OF_REACH, "uniqueness");
    items[`grant ${email}`] = putGrant(connection.id, { email, user_id: person.user_id, role: want.role });
    const had = memberRole(inst, person.user_id);
    if (had) {
      // Invited by hand before: the directory takes the administrator over.
      seat(person.user_id, want.role);
      items[`access ${person.user_id}`] = roleUpdate(inst, person.user_id, want.role, connection.id);
    } else {
      if (seats >= MAX_MEMBERS) throw new ScimError(403, SEATS_FULL);
      seats++;
      seat(person.user_id, want.role);
      const member: Member = {
        user_id: person.user_id,
        email,
        name: person.name ?? want.name ?? null,
        user_account_id: person.account_id ?? inst.account_id,
        role: want.role,
        added_at: at,
        invitation_id: null,
      };
      const { access, marker } = grantAccessItems(inst, member);
      const put = access.Put as NonNullable<TxItem["Put"]>;
      items[`access ${person.user_id}`] = { Put: { ...put, Item: { ...put.Item, managed_by: "scim", scim_connection: connection.id } } };
      items[`marker ${person.user_id}`] = marker;
    }
    event("administrator_provisioned", {
      institution_id: inst.id,
      user_id: person.user_id,
      email,
      role: want.role,
      scim_connection: connection.id,
    });
  }

  if (n > 0) items.institution = institutionStep(inst, sets, removes, names, values);
  return { items, events };
}

const tableOf = () => config.tables.main;

/**
 * The directory's role on an existing access, and the access its own: `scim_connection` too, since an access is
 * the directory's only with both (a hand-made one taken over would otherwise stay removable by hand).
 */
function roleUpdate(inst: Institution, userId: string, role: Role, connectionId: string): TxItem {
  return {
    Update: {
      TableName: tableOf(),
      Key: keys.access(userId, inst.id),
      UpdateExpression: "SET #role = :role, #managed = :scim, #connection = :connection",
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: { "#role": "role", "#managed": "managed_by", "#connection": "scim_connection" },
      ExpressionAttributeValues: { ":role": role, ":scim": "scim", ":connection": connectionId },
    },
  };
}

/** Every seat change of the request in one update of the institution, at the version read. */
function institutionStep(
  inst: Institution,
  sets: string[],
  removes: string[],
  names: Record<string, string>,
  values: Record<string, unknown>,
): TxItem {
  const set = [...sets, "#version = :next"].join(", ");
  return {
    Update: {
      TableName: tableOf(),
      Key: keys.institution(inst.id),
      UpdateExpression: `SET ${set}${removes.length ? ` REMOVE ${removes.join(", ")}` : ""}`,
      ConditionExpression: "#version = :version",
      ExpressionAttributeNames: { "#version": "version", "#members": "members", ...names },
      ExpressionAttributeValues: { ":version": inst.version, ":next": inst.version + 1, ...values },
      ...returnOldOnFailure,
    },
  };
}

/** The connection's step of every directory write: version bumped, `last_used_at` now. */
export const usedConnection = (c: Connection, now: Date) => ({ connection: connectionStep(c, { last_used_at: now.toISOString() }) });
