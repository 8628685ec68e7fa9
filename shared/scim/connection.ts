/**
 * The directory connection's use cases (docs/contract/scim.md#the-connection), in the institution routes' check order: look up among
 * visible (404 + `unauthorized_institution_access`) → the institution's super admin (403 +
 * `insufficient_privileges`, action `manage_directory`) → body (400) → the change and its event, in the
 * actor's and the owner's trails, in one transaction.
 */

import { auditEvent, type EventDetails, type EventType } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { BadRequest, Conflict, NotFound, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { requireSuperAdminOf, requireVisible, type Visible } from "../institutions/service.js";
import { RETRY, withRetries } from "../retry.js";
import { isRole, type Role } from "../roles.js";
import { SCIM_BASE_PATH } from "../routes.js";
import { MAIL, readSettings } from "../settings.js";
import type { Connection } from "./model.js";
import { directoryActor, planAccess, SUPER_ADMIN_OUT_OF_REACH, TOO_MANY_CHANGES } from "./provision.js";
import * as repo from "./repository.js";
import type { ScimConnectionShown, ScimConnectionView, ScimConnectionWritten } from "./results.js";
import { hashToken, newToken, tokenPreview } from "./token.js";

export const ACTION = "manage_directory";
export const ONLY_SUPER_ADMIN = "Only the institution's super admin can manage its directory connection";
export const NO_CONNECTION = "No directory connection";
export const INVALID_MAPPINGS = "param is missing or the value is empty: role_mappings";
/** Group names a connection maps at most, and their length in code points. */
const MAX_MAPPINGS = 50;
const MAX_GROUP_NAME = 256;

/** The connection as the API shows it: never the token. */
export function toView(c: Connection): ScimConnectionView {
  return {
    base_url: baseUrl(),
    token_preview: c.token_preview,
    created_at: c.created_at,
    rotated_at: c.rotated_at,
    last_used_at: c.last_used_at,
    role_mappings: c.role_mappings,
  };
}

/** The SCIM service's base URL: the API's origin (the console's, deployed) and the SCIM base path. */
function baseUrl(): string {
  return `${(readSettings(MAIL(), ["APP_BASE_URL"]).APP_BASE_URL ?? "").replace(/\/+$/, "")}${SCIM_BASE_PATH}`;
}

/** The institution visible to its super admin, and its connection, read side by side (one round trip). */
async function lookUp(caller: Caller, institutionId: string | undefined) {
  const [visible, connection] = await Promise.all([
    requireVisible(caller, institutionId),
    isId(institutionId) ? repo.getConnection(institutionId) : undefined,
  ]);
  await requireSuperAdminOf(caller, visible, ACTION, ONLY_SUPER_ADMIN);
  return { visible, connection };
}

const event = <T extends EventType>(caller: Caller, visible: Visible, type: T, details: EventDetails[T], now: Date) =>
  auditEvent(caller, type, details, { now, owner: visible.institution.account_id, institution: visible.institution });

/**
 * Connects the institution's directory (201), or rotates its token (200): a new token, shown this once; the
 * old one stops working in the same transaction.
 */
/** `created` tells the handler 201 from 200; the body is the rest. */
export async function connectDirectory(
  caller: Caller,
  institutionId: string | undefined,
): Promise<ScimConnectionWritten & { created: boolean }> {
  return withRetries("The connection was changed concurrently, please retry", async () => {
    const { visible, connection } = await lookUp(caller, institutionId);
    const { institution } = visible;
    const now = clock();
    const at = now.toISOString();
    const token = newToken();
    const hash = hashToken(token);
    if (!connection) {
      const c: Connection = {
        id: newId(now.getTime()),
        institution_id: institution.id,
        account_id: institution.account_id,
        token_hash: hash,
        token_preview: tokenPreview(token),
        created_at: at,
        rotated_at: null,
        last_used_at: null,
        role_mappings: Object.create(null),
        version: 1,
      };
      const e = event(caller, visible, "scim_connected", { institution_id: institution.id, scim_connection: c.id }, now);
      if ((await repo.insertConnection(c, hash, e)).kind !== "ok") return RETRY;
      return { created: true, scim: { base_url: baseUrl(), token, token_preview: c.token_preview, created_at: at, rotated_at: null } };
    }
    const e = event(caller, visible, "scim_token_rotated", { institution_id: institution.id, scim_connection: connection.id }, now);
    if ((await repo.rotateToken(connection, { hash, preview: tokenPreview(token), at }, e)).kind !== "ok") return RETRY;
    return {
      created: false,
      scim: { base_url: baseUrl(), token, token_preview: tokenPreview(token), created_at: connection.created_at, rotated_at: at },
    };
  });
}

export async function showConnection(caller: Caller, institutionId: string | undefined): Promise<ScimConnectionShown> {
  const { connection } = await lookUp(caller, institutionId);
  if (!connection) throw new NotFound(NO_CONNECTION);
  return { scim: toView(connection) };
}

/** `{role_mappings: {"<group displayName>": role}}`: 400 when missing or a role is not one of the two, 422 for names. */
function parseMappings(body: unknown): Record<string, Role> {
  const raw =
    typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).role_mappings : undefined;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new BadRequest(INVALID_MAPPINGS);
  const entries = Object.entries(raw);
  if (!entries.every(([, role]) => isRole(role))) throw new BadRequest("Invalid role specified");
  const errors: string[] = [];
  if (entries.length > MAX_MAPPINGS) errors.push(`Role mappings are at most ${MAX_MAPPINGS}`);
  const bad = entries.some(([name]) => name.trim() === "" || [...name].length > MAX_GROUP_NAME || /[\p{Cc}\p{Cf}]/u.test(name));
  if (bad) errors.push(`Group names are 1 to ${MAX_GROUP_NAME} characters, on one line`);
  if (errors.length > 0) throw new ValidationFailed(errors);
  // Null-prototype: a group may be called `__proto__` or `constructor` like anything else (docs/code-structure.md).
  const mappings: Record<string, Role> = Object.create(null);
  for (const [name, role] of entries) mappings[name.trim()] = role as Role;
  return mappings;
}

/**
 * Sets the role mappings, which take effect at once: every administrator the directory gave access gets the
 * role its groups now map to, in the same transaction (`administrator_role_changed`, source `scim`, actor the
 * directory).
 */
export async function updateMappings(caller: Caller, institutionId: string | undefined, body: unknown): Promise<ScimConnectionShown> {
  return withRetries("The connection was changed concurrently, please retry", async () => {
    const { visible, connection } = await lookUp(caller, institutionId);
    const mappings = parseMappings(body);
    if (!connection) throw new NotFound(NO_CONNECTION);
    const state = await repo.readState(visible.institution.id, connection.id);
    if (!state) return RETRY;
    const now = clock();
    const plan = await planAccess(
      state,
      { users: state.users, groups: state.groups, mappings },
      { actor: directoryActor(connection, caller.ip), now, reason: "deactivated", resolve: undefined },
    );
    if (plan.kind === "retry") return RETRY;
    // Mappings that would change the owner's role are refused, as the directory's own request would be.
    if (plan.kind === "owner_out_of_reach") throw new Conflict(SUPER_ADMIN_OUT_OF_REACH);
    if (plan.kind !== "ok") throw new Error("a mapping change grants no new seat");
    const details = {
      institution_id: visible.institution.id,
      scim_connection: connection.id,
      role_mappings: repo.storedMappings(mappings),
    };
    const e = event(caller, visible, "scim_role_mappings_changed", details, now);
    const written = await repo.storeMappings(state, mappings, plan, e);
    if (written.kind === "too_large") throw new ValidationFailed([TOO_MANY_CHANGES]);
    if (written.kind !== "ok") return RETRY;
    return { scim: toView({ ...state.connection, role_mappings: mappings }) };
  });
}

/** Ends the connection: its token stops working; the administrators it gave stay, manageable by hand again. */
export async function disconnectDirectory(caller: Caller, institutionId: string | undefined) {
  return withRetries("The connection was changed concurrently, please retry", async () => {
    const { visible, connection } = await lookUp(caller, institutionId);
    if (!connection) throw new NotFound(NO_CONNECTION);
    const now = clock();
    const e = event(caller, visible, "scim_disconnected", { institution_id: visible.institution.id, scim_connection: connection.id }, now);
    if ((await repo.removeConnection(connection, e)).kind !== "ok") return RETRY;
    return { message: "Directory disconnected" };
  });
}
