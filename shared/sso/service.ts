/**
 * The SSO connection's use cases (docs/sso.md), in the institution routes' check order: look up among
 * visible (404 + `unauthorized_institution_access`) → the institution's super admin (403 +
 * `insufficient_privileges`, action `manage_sso`) → body (422) → the IdP's document fetched and checked now
 * (422 saying what is wrong) → the pool's side (its identity provider, the app client's list) under the
 * connection's lease → the change and its event, in the actor's and the owner's trails, in one transaction.
 * Nothing is stored on a refusal; when the pool refuses, what was begun is undone.
 */
import { randomUUID } from "node:crypto";
import { auditEvent, type EventDetails, type EventType } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { Conflict, NotFound, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { requireSuperAdminOf, requireVisible, type Visible } from "../institutions/service.js";
import type { Message } from "../results.js";
import { RETRY, withRetries } from "../retry.js";
import { webhookConfig } from "../webhooks/config.js";
import { urlRefusal } from "../webhooks/guard.js";
import { fetchDocument, urlProblem } from "./fetch.js";
import { parseIdpMetadata } from "./metadata.js";
import { type Connection, DEFAULT_MAPPINGS, LEASE_MS, providerNameOf, SSO_GROUPS_ATTRIBUTE } from "./model.js";
import { checkDiscovery, discoveryUrl } from "./oidc.js";
import { deleteProvider, listOnClient, PoolRefused, type ProviderSpec, putProvider, serviceProvider, updateProvider } from "./pool.js";
import * as repo from "./repository.js";
import type { SsoConnectionShown, SsoConnectionView } from "./results.js";
import { type ConnectionInput, connectionInput, type Source } from "./schema.js";

export const ACTION = "manage_sso";
export const SSO_MESSAGES = {
  onlySuperAdmin: "Only the institution's super admin can manage its single sign-on",
  none: "No SSO connection",
  exists: "The institution has an SSO connection already: change it with PATCH, or disconnect it first",
  busy: "The SSO connection is being changed, please retry",
  disconnected: "Single sign-on disconnected",
} as const;

/** The local stack alone reaches an IdP on loopback over http (its setting, as for webhooks). */
const guard = { allowLoopback: webhookConfig.allowLoopbackHttp } as const;
const MAX_METADATA_BYTES = 1024 * 1024;
const MAX_DISCOVERY_BYTES = 256 * 1024;
const endpointOk = (url: string) => urlRefusal(url, guard) === undefined;

/** The connection as the API shows it: never the client secret (the item has none). */
export function toView(c: Connection): SsoConnectionView {
  const sp = serviceProvider();
  return {
    id: c.id,
    type: c.type,
    provider_name: c.provider_name,
    sp: c.type === "saml" ? { entity_id: sp.entity_id, acs_url: sp.acs_url } : { redirect_uri: sp.redirect_uri },
    idp:
      c.type === "saml"
        ? { entity_id: c.saml?.idp.entity_id ?? "", metadata_url: c.saml?.metadata_url ?? null }
        : { issuer: c.oidc?.idp.issuer ?? "", client_id: c.oidc?.client_id ?? "" },
    attribute_mapping: c.attribute_mapping,
    // Own properties only, built from the stored list: a group called `__proto__` is a key like any other.
    role_mappings: Object.fromEntries(c.role_mappings.map((m) => [m.group, m.role])),
    jit: c.jit,
    require_sso: c.require_sso,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

const event = <T extends EventType>(caller: Caller, visible: Visible, type: T, details: EventDetails[T], now: Date) =>
  auditEvent(caller, type, details, { now, owner: visible.institution.account_id, institution: visible.institution });

/** The institution visible to its super admin, and its connection, read side by side. */
async function lookUp(caller: Caller, institutionId: string | undefined) {
  const [visible, connection] = await Promise.all([
    requireVisible(caller, institutionId),
    isId(institutionId) ? repo.getConnection(institutionId) : undefined,
  ]);
  await requireSuperAdminOf(caller, visible, ACTION, SSO_MESSAGES.onlySuperAdmin);
  return { visible, connection };
}

/** What the IdP's document says, fetched and checked now; 422 with every problem otherwise. */
async function checkIdp(source: Source): Promise<Pick<Connection, "saml" | "oidc">> {
  if (source.type === "saml") {
    let xml = source.metadata_xml;
    if (source.metadata_url !== undefined) {
      const fetched = await fetchDocument(source.metadata_url, {
        field: "Metadata url",
        accept: "application/samlmetadata+xml, application/xml, text/xml",
        maxBytes: MAX_METADATA_BYTES,
        guard,
      });
      if (fetched.kind === "refused") throw new ValidationFailed([fetched.message]);
      xml = fetched.body;
    }
    const parsed = await parseIdpMetadata(xml ?? "", endpointOk);
    if ("errors" in parsed) throw new ValidationFailed(parsed.errors);
    // At most what a sign-in needs: a few endpoints and certificates (a rollover has two).
    const idp = { ...parsed.idp, sso: parsed.idp.sso.slice(0, 4), certificates: parsed.idp.certificates.slice(0, 4) };
    return { saml: { metadata_url: source.metadata_url ?? null, idp } };
  }
  const problem = urlProblem(source.issuer, "Issuer", guard);
  if (problem !== undefined) throw new ValidationFailed([problem]);
  const fetched = await fetchDocument(discoveryUrl(source.issuer), {
    field: "Issuer",
    accept: "application/json",
    maxBytes: MAX_DISCOVERY_BYTES,
    guard,
  });
  if (fetched.kind === "refused") throw new ValidationFailed([fetched.message]);
  const checked = checkDiscovery(source.issuer, fetched.body, endpointOk);
  if ("errors" in checked) throw new ValidationFailed(checked.errors);
  return { oidc: { client_id: source.client_id, idp: checked.idp } };
}

/** The pool's provider for `c`; `details` only when the IdP (or its secret) is being set. */
function providerSpec(
  c: Connection,
  source: Source | undefined,
  secret: string | undefined,
): Omit<ProviderSpec, "details"> & { details?: Record<string, string> } {
  // The pool's attributes: the groups to a custom one (`custom:sso_groups`), which the sign-in triggers read for JIT's role.
  const mapping = { email: c.attribute_mapping.email, name: c.attribute_mapping.name, [SSO_GROUPS_ATTRIBUTE]: c.attribute_mapping.groups };
  if (c.type === "saml") {
    const details =
      source?.type === "saml"
        ? {
            ...(source.metadata_url !== undefined ? { MetadataURL: source.metadata_url } : { MetadataFile: source.metadata_xml }),
            IDPSignout: "false",
          }
        : undefined;
    return { name: c.provider_name, type: "SAML", mapping, ...(details && { details }) };
  }
  const oidc = c.oidc as NonNullable<Connection["oidc"]>;
  const details =
    secret !== undefined
      ? {
          client_id: oidc.client_id,
          client_secret: secret,
          oidc_issuer: oidc.idp.issuer,
          authorize_scopes: "openid email profile",
          attributes_request_method: "GET",
        }
      : undefined;
  return { name: c.provider_name, type: "OIDC", mapping, ...(details && { details }) };
}

/** The pool's refusal of the input, said as the body's: 422. */
function asValidation(err: unknown): unknown {
  return err instanceof PoolRefused ? new ValidationFailed([err.message]) : err;
}

/** `POST …/sso`: checks the IdP, makes its identity provider in the pool and lists it for the console → 201. */
export async function connect(caller: Caller, institutionId: string | undefined, body: unknown): Promise<SsoConnectionShown> {
  const { visible, connection } = await lookUp(caller, institutionId);
  const { institution } = visible;
  if (connection?.status === "active") throw new Conflict(SSO_MESSAGES.exists);
  if (connection && repo.leased(connection, clock().getTime())) throw new Conflict(SSO_MESSAGES.busy);
  const input = connectionInput(body, undefined);
  const source = input.source as Source;
  const idp = await checkIdp(source);
  const now = clock();
  const at = now.toISOString();
  const owner = randomUUID();
  const defaults = DEFAULT_MAPPINGS[input.type];
  const c: Connection = {
    id: newId(now.getTime()),
    institution_id: institution.id,
    account_id: institution.account_id,
    type: input.type,
    provider_name: providerNameOf(institution),
    status: "pending",
    lease_owner: owner,
    lease_until: now.getTime() + LEASE_MS,
    ...idp,
    attribute_mapping: { ...defaults, ...input.attribute_mapping },
    role_mappings: input.role_mappings ?? [],
    jit: { enabled: input.jit?.enabled ?? false, default_role: input.jit?.default_role ?? "cohort_admin" },
    require_sso: input.require_sso ?? false,
    created_at: at,
    updated_at: at,
    version: (connection?.version ?? 0) + 1,
  };
  // A connection left pending by an attempt whose lease ran out is taken over (its version read).
  const claimed = await repo.claimConnection(c, connection);
  if (claimed.kind !== "ok") throw new Conflict(SSO_MESSAGES.busy);
  const spec = providerSpec(c, source, source.type === "oidc" ? source.client_secret : undefined);
  try {
    await putProvider({ ...spec, details: spec.details ?? {} });
    await listOnClient(c.provider_name, true);
  } catch (err) {
    // Undone, best effort: nothing of this attempt stays in the pool or the table.
    await listOnClient(c.provider_name, false).catch(() => undefined);
    await deleteProvider(c.provider_name).catch(() => undefined);
    await repo.release(c, owner);
    throw asValidation(err);
  }
  const after: Connection = { ...c, status: "active", version: c.version + 1 };
  const details = { institution_id: institution.id, sso_connection: c.id, type: c.type, provider_name: c.provider_name };
  await commit(() => repo.commitConnection(after, owner, event(caller, visible, "sso_connected", details, now)));
  return { sso: toView(after) };
}

/** Commits under the lease: retried on a transaction conflict; the lease lost (it ran out, someone took it) is 409. */
async function commit(write: () => Promise<{ kind: string }>): Promise<void> {
  await withRetries(SSO_MESSAGES.busy, async () => {
    const result = await write();
    if (result.kind === "lost") throw new Conflict(SSO_MESSAGES.busy);
    return result.kind === "ok" ? undefined : RETRY;
  });
}

/** `GET …/sso` → 200, or 404 when there is none (one being made is none yet). */
export async function showConnection(caller: Caller, institutionId: string | undefined): Promise<SsoConnectionShown> {
  const { connection } = await lookUp(caller, institutionId);
  if (connection?.status !== "active") throw new NotFound(SSO_MESSAGES.none);
  return { sso: toView(connection) };
}

/** The fields of `after` that differ from `before`, as the event's `changes` names them. */
function changed(before: Connection, after: Connection, secret: boolean): string[] {
  const same = (k: keyof Connection) => JSON.stringify(before[k]) === JSON.stringify(after[k]);
  return [
    ...(!same("saml") || !same("oidc") ? ["idp"] : []),
    ...(secret ? ["client_secret"] : []),
    ...(["attribute_mapping", "role_mappings", "jit", "require_sso"] as const).filter((k) => !same(k)),
  ];
}

/** The connection with a PATCH applied (the IdP already checked, when it changes). */
function applied(c: Connection, input: ConnectionInput, idp: Pick<Connection, "saml" | "oidc"> | undefined, at: string): Connection {
  return {
    ...c,
    ...idp,
    attribute_mapping: { ...c.attribute_mapping, ...input.attribute_mapping },
    role_mappings: input.role_mappings ?? c.role_mappings,
    jit: { ...c.jit, ...input.jit },
    require_sso: input.require_sso ?? c.require_sso,
    updated_at: at,
  };
}

/**
 * `PATCH …/sso` (the fields of POST but `type`, each optional) → 200. A new IdP (metadata, issuer or client id)
 * is checked as on POST; a change the pool holds (the IdP, the client secret, the e-mail and name attributes)
 * is written there first, under the lease; the others only here. Recorded as `sso_updated` with what changed.
 */
export async function updateConnection(caller: Caller, institutionId: string | undefined, body: unknown): Promise<SsoConnectionShown> {
  const { visible, connection } = await lookUp(caller, institutionId);
  if (connection?.status !== "active") throw new NotFound(SSO_MESSAGES.none);
  const input = connectionInput(body, connection);
  let source = input.source;
  if (source?.type === "oidc") {
    // An issuer or client id left out stays as it is.
    source = {
      ...source,
      issuer: source.issuer || (connection.oidc?.idp.issuer ?? ""),
      client_id: source.client_id || (connection.oidc?.client_id ?? ""),
    };
  }
  const idp = source ? await checkIdp(source) : undefined;
  const secret = source?.type === "oidc" ? source.client_secret : input.clientSecret;
  return withRetries(SSO_MESSAGES.busy, async () => {
    const current = (await repo.getConnection(connection.institution_id)) ?? connection;
    if (current.status !== "active") throw new NotFound(SSO_MESSAGES.none);
    const now = clock();
    if (repo.leased(current, now.getTime())) throw new Conflict(SSO_MESSAGES.busy);
    const after = applied(current, input, idp, now.toISOString());
    const changes = changed(current, after, secret !== undefined);
    if (changes.length === 0) return { sso: toView(current) };
    const details = { institution_id: current.institution_id, sso_connection: current.id, provider_name: current.provider_name, changes };
    const e = event(caller, visible, "sso_updated", details, now);
    const poolSide =
      changes.some((c) => c === "idp" || c === "client_secret") ||
      after.attribute_mapping.email !== current.attribute_mapping.email ||
      after.attribute_mapping.name !== current.attribute_mapping.name ||
      after.attribute_mapping.groups !== current.attribute_mapping.groups;
    if (!poolSide) {
      const result = await repo.storeSettings(current, after, e);
      return result.kind === "ok" ? { sso: toView({ ...after, version: current.version + 1 }) } : RETRY;
    }
    const owner = randomUUID();
    const leasedNow = await repo.lease(current, owner, now.getTime(), LEASE_MS);
    if (leasedNow.kind === "busy") throw new Conflict(SSO_MESSAGES.busy);
    if (leasedNow.kind !== "ok") return RETRY;
    const held = { ...after, lease_owner: owner, version: current.version + 2 };
    try {
      await updateProvider(providerSpec(held, source, secret));
    } catch (err) {
      await repo.release({ ...current, status: "active" }, owner);
      throw asValidation(err);
    }
    await commit(() => repo.commitConnection(held, owner, e));
    return { sso: toView(held) };
  });
}

/** `DELETE …/sso` → 200: the app client's list first, then the pool's provider, then the connection with its event. */
export async function disconnect(caller: Caller, institutionId: string | undefined): Promise<Message> {
  const { visible, connection } = await lookUp(caller, institutionId);
  if (connection?.status !== "active") throw new NotFound(SSO_MESSAGES.none);
  const now = clock();
  const owner = randomUUID();
  const leasedNow = await repo.lease(connection, owner, now.getTime(), LEASE_MS);
  if (leasedNow.kind !== "ok") throw new Conflict(SSO_MESSAGES.busy);
  try {
    await listOnClient(connection.provider_name, false);
    await deleteProvider(connection.provider_name);
  } catch (err) {
    await repo.release(connection, owner);
    throw asValidation(err);
  }
  const details = { institution_id: connection.institution_id, sso_connection: connection.id, provider_name: connection.provider_name };
  await commit(() => repo.deleteConnection(connection, owner, event(caller, visible, "sso_disconnected", details, now)));
  return { message: SSO_MESSAGES.disconnected };
}
