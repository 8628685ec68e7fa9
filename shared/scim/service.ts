/**
 * The SCIM service's use cases (RFC 7644 docs/contract/README.md) over one connection's users and groups: look up (one round trip:
 * the institution, the connection and the connection's partition), check, build the resource as it will be,
 * then the access it grants (provision.ts), all in one transaction with the events. Filters run over that one
 * read (an institution's directory is small: at most 95 administrators).
 *
 * Filters are protocol.ts's (`scim2-parse-filter`, case-insensitive), the PATCH semantics `scim-patch`'s, given no
 * path that names `__proto__`, `constructor` or `prototype` (it would walk into Object.prototype: docs/code-structure.md).
 */

import { type ScimPatchOperation, scimPatch } from "scim-patch";
import { now as clock } from "../clock.js";
import { newId } from "../ids.js";
import { RETRY, withRetries } from "../retry.js";
import { findOrCreatePoolUser } from "../users.js";
import type { Directory } from "./http.js";
import type { Resource } from "./model.js";
import {
  canonical,
  emailOf,
  fold,
  isObject,
  MAX_COUNT,
  MAX_RESOURCE_BYTES,
  notFound,
  parseFilter,
  project,
  requireProjection,
  requireSafePath,
  ScimError,
  type ScimType,
  URN,
} from "./protocol.js";
import { type DeprovisionReason, directoryActor, directoryRefusal, planAccess, type Resolve } from "./provision.js";
import { type DirectoryState, readState, writeDirectory } from "./repository.js";

type Json = Record<string, unknown>;
type Kind = "User" | "Group";
type Query = Readonly<Record<string, string | undefined>>;

const endpoint = (kind: Kind) => (kind === "User" ? "Users" : "Groups");

/** The resource as the RFC returns it: schemas, id, its attributes, a user's groups, meta. */
function toScim(r: Resource, base: string, groups: readonly Resource[] = []): Json {
  const schemas = r.type === "User" ? [URN.user, ...(URN.enterprise in r.attributes ? [URN.enterprise] : [])] : [URN.group];
  const memberOf =
    r.type === "User"
      ? groups
          .filter((g) => Array.isArray(g.attributes.members) && g.attributes.members.some((m) => isObject(m) && m.value === r.id))
          .map((g) => ({ value: g.id, $ref: `${base}/Groups/${g.id}`, display: g.attributes.displayName, type: "direct" }))
      : [];
  return {
    schemas,
    id: r.id,
    ...r.attributes,
    ...(memberOf.length > 0 && { groups: memberOf }),
    meta: {
      resourceType: r.type,
      created: r.created,
      lastModified: r.last_modified,
      location: `${base}/${endpoint(r.type)}/${r.id}`,
      version: `W/"${r.version}"`,
    },
  };
}

async function load(dir: Directory): Promise<DirectoryState> {
  const state = await readState(dir.institution_id, dir.connection_id);
  // The token was good a moment ago; the connection has since been rotated away or ended.
  if (!state) throw new ScimError(401, "The connection's token is no longer valid");
  return state;
}

const resourcesOf = (state: DirectoryState, kind: Kind) => (kind === "User" ? state.users : state.groups);

function find(state: DirectoryState, kind: Kind, id: string | undefined): Resource {
  const r = id === undefined ? undefined : resourcesOf(state, kind).find((x) => x.id === id);
  if (!r || id === undefined) throw notFound(id ?? "");
  return r;
}

function integer(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?\d{1,9}$/.test(raw.trim())) throw new ScimError(400, `${name} must be an integer`, "invalidValue");
  return Number(raw.trim());
}

/** GET /Users, /Groups: `filter`, `attributes`/`excludedAttributes`, `startIndex` (1-based) and `count` (≤ 200). */
export async function listResources(dir: Directory, kind: Kind, query: Query): Promise<Json> {
  const startIndex = Math.max(1, integer(query.startIndex, "startIndex", 1));
  const count = Math.min(MAX_COUNT, Math.max(0, integer(query.count, "count", 100)));
  const test = query.filter !== undefined && query.filter.trim() !== "" ? parseFilter(query.filter) : undefined;
  requireProjection(query.attributes, query.excludedAttributes);
  const state = await load(dir);
  const all = resourcesOf(state, kind)
    .slice()
    .sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id))
    .map((r) => toScim(r, dir.baseUrl, state.groups));
  const matched = test ? all.filter(test) : all;
  const page = matched.slice(startIndex - 1, startIndex - 1 + count);
  return {
    schemas: [URN.list],
    totalResults: matched.length,
    startIndex,
    itemsPerPage: page.length,
    Resources: page.map((r) => project(r, query.attributes, query.excludedAttributes)),
  };
}

export async function showResource(dir: Directory, kind: Kind, id: string | undefined, query: Query): Promise<Json> {
  requireProjection(query.attributes, query.excludedAttributes);
  const state = await load(dir);
  return project(toScim(find(state, kind, id), dir.baseUrl, state.groups), query.attributes, query.excludedAttributes);
}

/** The attributes of a body as stored: canonical names; no id, meta, schemas, password or a user's (read-only) groups. */
function attributesOf(kind: Kind, body: unknown): Json {
  if (!isObject(body)) throw new ScimError(400, "The body must be a JSON object", "invalidSyntax");
  const { id: _id, meta: _meta, schemas: _schemas, password: _password, ...rest } = canonical(body);
  if (kind === "User") delete rest.groups;
  const key = kind === "User" ? "userName" : "displayName";
  const name = rest[key];
  if (typeof name !== "string" || name.trim() === "" || name.length > 256) {
    throw new ScimError(400, `${key} is required: a string of 1 to 256 characters`, "invalidValue");
  }
  if ("active" in rest && typeof rest.active !== "boolean") throw new ScimError(400, "active must be a boolean", "invalidValue");
  if (kind === "Group" && "members" in rest) {
    const members = rest.members;
    if (!Array.isArray(members) || !members.every((m) => isObject(m) && typeof m.value === "string")) {
      throw new ScimError(400, "members must be a list of {value}", "invalidValue");
    }
  }
  if (Buffer.byteLength(JSON.stringify(rest), "utf8") > MAX_RESOURCE_BYTES) {
    throw new ScimError(413, `A resource holds at most ${MAX_RESOURCE_BYTES / 1024} KiB of attributes`);
  }
  return rest;
}

/** userName (users) or displayName (groups) is unique in the connection, case-insensitively. */
function requireUnique(state: DirectoryState, kind: Kind, attributes: Json, self?: string): void {
  const key = kind === "User" ? "userName" : "displayName";
  const wanted = fold(String(attributes[key]));
  const taken = resourcesOf(state, kind).some(
    (r) => r.id !== self && typeof r.attributes[key] === "string" && fold(r.attributes[key]) === wanted,
  );
  if (taken) throw new ScimError(409, `${key} is already taken in this directory`, "uniqueness");
}

/** Why a user's change takes its access away, when it does. */
function reasonFor(before: Json | undefined, after: Json | undefined): DeprovisionReason {
  if (!after) return "deleted";
  if (after.active === false && before?.active !== false) return "deactivated";
  return before && emailOf(before) !== emailOf(after) ? "email_changed" : "deactivated";
}

/**
 * Finds or makes pool users for new grants. The Cognito client is a static import although few requests use
 * it: imported dynamically, esbuild kept all of Cognito and wrapped what it shares with the rest of the
 * function, measured 74 KiB larger and about 10 ms more import CPU than loading the client (docs/cold-starts.md).
 */
const poolResolver =
  (institution: { readonly account_id: string; readonly name: string }): Resolve =>
  async (email, name) =>
    findOrCreatePoolUser(email, name, institution.account_id, institution);

interface Change {
  readonly users: readonly Resource[];
  readonly groups: readonly Resource[];
  readonly put?: Resource;
  readonly removed?: Resource;
  readonly reason: DeprovisionReason;
}

/**
 * One directory write: `change` builds the resource as it will be from a fresh read; the access it grants or
 * takes follows, through the membership door, in the same transaction (scim/repository.ts `writeDirectory`).
 * Another write of the connection or of the institution's members in between makes it run again; a refusal of
 * the membership door (the owner, the seat limit) changes nothing.
 */
function write(dir: Directory, change: (state: DirectoryState, now: Date) => Change): Promise<Resource | undefined> {
  return withRetries("The directory was changed concurrently, please retry", async () => {
    const state = await load(dir);
    const now = clock();
    const c = change(state, now);
    const actor = directoryActor(state.connection, dir.ip);
    const plan = await planAccess(
      state,
      { users: c.users, groups: c.groups, mappings: state.connection.role_mappings },
      { actor, now, reason: c.reason, resolve: poolResolver(state.institution) },
    );
    if (plan.kind === "retry") return RETRY;
    if (plan.kind !== "ok") throw directoryRefusal(plan);
    const written = await writeDirectory(state, now, { put: c.put, removed: c.removed }, plan);
    if (written.kind === "too_large") throw directoryRefusal(written);
    if (written.kind !== "ok") return RETRY;
    return c.put;
  });
}

const replaced = (list: readonly Resource[], r: Resource) => [...list.filter((x) => x.id !== r.id), r];

function withChange(state: DirectoryState, r: Resource, reason: DeprovisionReason): Change {
  return r.type === "User"
    ? { users: replaced(state.users, r), groups: state.groups, put: r, reason }
    : { users: state.users, groups: replaced(state.groups, r), put: r, reason };
}

/** POST: 201 with the resource; 409 `uniqueness` for a taken userName / displayName. */
export async function createResource(dir: Directory, kind: Kind, body: unknown): Promise<Json> {
  const attributes = attributesOf(kind, body);
  let groups: readonly Resource[] = [];
  const r = await write(dir, (state, now) => {
    requireUnique(state, kind, attributes);
    groups = state.groups;
    const at = now.toISOString();
    return withChange(
      state,
      { id: newId(now.getTime()), type: kind, attributes, created: at, last_modified: at, version: 1 },
      "deactivated",
    );
  });
  return toScim(r as Resource, dir.baseUrl, groups);
}

/** PUT: the whole resource replaced (id and created kept). */
export async function replaceResource(dir: Directory, kind: Kind, id: string | undefined, body: unknown): Promise<Json> {
  const attributes = attributesOf(kind, body);
  let groups: readonly Resource[] = [];
  const r = await write(dir, (state, now) => {
    const before = find(state, kind, id);
    requireUnique(state, kind, attributes, before.id);
    groups = state.groups;
    const after: Resource = { ...before, attributes, last_modified: now.toISOString(), version: before.version + 1 };
    return withChange(state, after, reasonFor(before.attributes, attributes));
  });
  return toScim(r as Resource, dir.baseUrl, groups);
}

const PATCH_OPS = new Set(["add", "replace", "remove"]);

/** The PatchOp body's operations, with `op` lower-cased (Entra ID sends `Replace`). */
function operationsOf(body: unknown): ScimPatchOperation[] {
  if (!isObject(body)) throw new ScimError(400, "The body must be a PatchOp", "invalidSyntax");
  const schemas = body.schemas;
  if (Array.isArray(schemas) && !schemas.some((s) => typeof s === "string" && s.toLowerCase() === URN.patch.toLowerCase())) {
    throw new ScimError(400, `schemas must name ${URN.patch}`, "invalidSyntax");
  }
  const key = Object.keys(body).find((k) => k.toLowerCase() === "operations");
  const ops = key === undefined ? undefined : body[key];
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > 1000)
    throw new ScimError(400, "Operations must list 1 to 1000 operations", "invalidSyntax");
  return ops.map((raw) => {
    if (!isObject(raw) || typeof raw.op !== "string" || !PATCH_OPS.has(raw.op.toLowerCase())) {
      throw new ScimError(400, "Each operation's op is add, replace or remove", "invalidSyntax");
    }
    if (raw.path !== undefined && (typeof raw.path !== "string" || raw.path.length > 1000))
      throw new ScimError(400, "path must be a string", "invalidPath");
    if (typeof raw.path === "string") requireSafePath(raw.path);
    // scim-patch walks a value's keys as paths (`{"name.givenName": …}`, RFC 7644 §3.5.2.1) wherever it merges one.
    if (isObject(raw.value)) for (const key of Object.keys(raw.value)) requireSafePath(key);
    return { ...raw, op: raw.op.toLowerCase() } as unknown as ScimPatchOperation;
  });
}

/** Whether an operation's path is a group's `members` (plain or under the core Group URN). */
const isMembers = (path: unknown) =>
  typeof path === "string" && path.trim().toLowerCase().replace(`${URN.group.toLowerCase()}:`, "") === "members";
/** A member as a bare id (`"id"`, Entra ID's validator) is the member `{value: id}`. */
const asMembers = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]).map((m) => (typeof m === "string" ? { value: m } : m));

/**
 * A group's member operations as Entra ID sends them: a member added as a bare id (`"value": "id"` or `["id"]`)
 * is `{value: id}`; a removal by value (`[{value: id}]`) removes the members with those ids, whatever else they
 * hold (scim-patch would remove only a member equal to the value in every sub-attribute).
 */
function memberOperations(ops: readonly ScimPatchOperation[], members: unknown): ScimPatchOperation[] {
  return ops.flatMap((op): ScimPatchOperation[] => {
    const value = (op as { value?: unknown }).value;
    if (op.op !== "remove" && op.path === undefined && isObject(value)) {
      const key = Object.keys(value).find(isMembers);
      return key === undefined ? [op] : [{ ...op, value: { ...value, [key]: asMembers(value[key]) } } as ScimPatchOperation];
    }
    if (!isMembers(op.path) || value === undefined) return [op];
    if (op.op !== "remove") return [{ ...op, value: asMembers(value) } as ScimPatchOperation];
    const ids = new Set<unknown>(asMembers(value).flatMap((m) => (isObject(m) && typeof m.value === "string" ? [m.value] : [])));
    // Nothing to remove from a group without members.
    if (!Array.isArray(members)) return [];
    return [{ ...op, value: members.filter((m) => isObject(m) && ids.has(m.value)) } as ScimPatchOperation];
  });
}

function scimTypeOf(err: unknown): ScimType {
  const code = (err as { scimCode?: string }).scimCode;
  return code === "noTarget" || code === "invalidPath" || code === "invalidValue" ? code : "invalidSyntax";
}

/** PATCH: add, replace and remove, with or without `path`, value filters in paths (`members[value eq "…"]`). */
export async function patchResource(dir: Directory, kind: Kind, id: string | undefined, body: unknown): Promise<Json> {
  const operations = operationsOf(body);
  let groups: readonly Resource[] = [];
  const r = await write(dir, (state, now) => {
    const before = find(state, kind, id);
    const doc = { schemas: [kind === "User" ? URN.user : URN.group], id: before.id, ...structuredClone(before.attributes) };
    let patched: Json;
    try {
      const ops = kind === "Group" ? memberOperations(operations, before.attributes.members) : operations;
      patched = scimPatch(doc as never, ops, { mutateDocument: true, treatMissingAsAdd: true }) as Json;
    } catch (err) {
      if (err instanceof ScimError) throw err;
      throw new ScimError(
        400,
        err instanceof Error && err.message ? err.message.slice(0, 300) : "The patch cannot be applied",
        scimTypeOf(err),
      );
    }
    const attributes = attributesOf(kind, patched);
    requireUnique(state, kind, attributes, before.id);
    groups = state.groups;
    const after: Resource = { ...before, attributes, last_modified: now.toISOString(), version: before.version + 1 };
    return withChange(state, after, reasonFor(before.attributes, attributes));
  });
  return toScim(r as Resource, dir.baseUrl, groups);
}

/** DELETE: 204; the access a user gave goes with it. */
export async function deleteResource(dir: Directory, kind: Kind, id: string | undefined): Promise<void> {
  await write(dir, (state) => {
    const r = find(state, kind, id);
    return kind === "User"
      ? { users: state.users.filter((u) => u.id !== r.id), groups: state.groups, removed: r, reason: "deleted" }
      : { users: state.users, groups: state.groups.filter((g) => g.id !== r.id), removed: r, reason: "deleted" };
  });
}
