/**
 * A federated sign-in (docs/sso.md), as the user pool's triggers see it (functions/sso/): which institution's IdP
 * the pool's provider is, whether that IdP may speak for the e-mail it asserted (trust), and what the sign-in gives
 * (membership on first sign-in, through the membership door). The pool's own calls (linking, the account attribute)
 * are behind `FederationPool` (shared/sso/federation.ts) so this module is judged with any pool.
 *
 * - **Trust.** An IdP speaks only for its institution's verified domains: the e-mail's domain must be verified by
 *   that institution (its guard, `DOMAINGUARD#<domain>`, names it). Otherwise the sign-in is refused and recorded
 *   (`sso_sign_in_refused` in the institution's account, the IdP as actor: no user) and nothing is granted.
 * - **JIT.** With `jit.enabled`, a person with no seat gets one: the highest role `role_mappings` gives their groups,
 *   else `default_role`, within the seat limit (at the limit: signed in without access, and recorded). A seat held
 *   already (the owner's included) is never touched.
 * - Every federated sign-in is recorded: `sso_sign_in` by the person, in their account and the institution's.
 */
import { auditEvent, commitWithEvents } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { domainOfEmail } from "../domains/form.js";
import { getGuard } from "../domains/repository.js";
import type { Institution } from "../institutions/model.js";
import { getInstitution } from "../institutions/repository.js";
import { commitMembership, MembershipChange } from "../membership/membership.js";
import type { Role } from "../roles.js";
import type { Connection, RoleMapping } from "./model.js";
import { getConnection, institutionOfProvider } from "./repository.js";

export type RefusalReason = "email_outside_domains" | "no_email" | "not_connected";

export type Trust =
  | { readonly kind: "trusted"; readonly institution: Institution; readonly connection: Connection; readonly email: string }
  | { readonly kind: "refused"; readonly reason: RefusalReason; readonly message: string };

/** What the person reads on the managed login's error page (Cognito puts the trigger's message in it). */
export const REFUSED_MESSAGES: Readonly<Record<RefusalReason, string>> = {
  email_outside_domains:
    "Your identity provider cannot sign you in with this e-mail address: it is not on your institution's verified domains",
  no_email: "Your identity provider sent no e-mail address",
  not_connected: "This single sign-on is not connected to an institution",
};

const RANK: Record<Role, number> = { cohort_admin: 1, cohort_super_admin: 2 };

/** The pool's provider of a federated user name, `<provider>_<subject>` (ours hold no `_`: providerNameOf). */
export function providerOfUserName(userName: string): string | undefined {
  const at = userName.indexOf("_");
  return at > 0 ? userName.slice(0, at) : undefined;
}

/**
 * The groups an IdP asserted, as the pool keeps a mapped attribute: SAML's multi-valued attributes arrive as
 * `[a, b]`, an OIDC array claim as JSON, a single value as itself. Names are data (`__proto__` included).
 */
export function groupsOf(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  const text = value.trim();
  if (text.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.filter((g): g is string => typeof g === "string");
    } catch {
      // Cognito's rendering of a SAML multi-valued attribute: `[a, b]`, not JSON.
    }
    return text
      .slice(1, text.endsWith("]") ? -1 : undefined)
      .split(",")
      .map((g) => g.trim())
      .filter(Boolean);
  }
  return [text];
}

/** The highest role `mappings` gives any of `groups` (exact names), else `fallback`. */
export function roleFor(groups: readonly string[], mappings: readonly RoleMapping[], fallback: Role): Role {
  const held = new Set(groups);
  let best: Role | undefined;
  for (const m of mappings) if (held.has(m.group) && (best === undefined || RANK[m.role] > RANK[best])) best = m.role;
  return best ?? fallback;
}

/** The IdP as an actor (a refusal names no user): its connection names it, in the institution's account. */
function idpActor(institution: Institution, connection: Connection | undefined, provider: string, ip: string): Caller {
  return {
    id: `sso:${connection?.id ?? provider}`,
    email: "",
    name: null,
    accountId: institution.account_id,
    isCohortSuperAdmin: false,
    emailVerified: false,
    ip,
    directory: connection?.id ?? provider,
  };
}

/**
 * Whether the pool's provider `provider` may sign someone in with `email`. A refusal is recorded in the
 * institution's account (when the provider is an institution's), and the caller throws its message.
 */
export async function judge(provider: string, rawEmail: string | undefined, ip = "0.0.0.0"): Promise<Trust> {
  const institutionId = await institutionOfProvider(provider);
  const [institution, connection] = institutionId
    ? await Promise.all([getInstitution(institutionId), getConnection(institutionId)])
    : [undefined, undefined];
  const refuse = async (reason: RefusalReason): Promise<Trust> => {
    if (institution) {
      const actor = idpActor(institution, connection, provider, ip);
      await commitWithEvents([auditEvent(actor, "sso_sign_in_refused", { provider_name: provider, reason }, { now: clock() })]);
    }
    return { kind: "refused", reason, message: REFUSED_MESSAGES[reason] };
  };
  if (!institution || connection?.status !== "active" || connection.provider_name !== provider) return refuse("not_connected");
  const email = rawEmail?.trim().toLowerCase();
  if (!email) return refuse("no_email");
  const domain = email.length <= 320 ? domainOfEmail(email) : undefined;
  const guard = domain ? await getGuard(domain) : undefined;
  if (guard?.institution_id !== institution.id) return refuse("email_outside_domains");
  return { kind: "trusted", institution, connection, email };
}

/** The person signing in, as the pool knows them now. */
export interface SigningIn {
  readonly sub: string;
  readonly email: string;
  readonly name: string | null;
  /** Their own account (`custom:account_id`), when the pool has one for them. */
  readonly accountId: string | undefined;
  readonly groups: readonly string[];
  readonly ip: string;
}

export type SignedIn = { readonly jit?: "provisioned" | "seat_limit"; readonly role?: Role };

/**
 * Records a trusted federated sign-in, with membership on first sign-in when the connection has it: through the
 * membership door, at the institution's version read (a lost race reads again). A seat held already is never
 * touched; at the seat limit the sign-in is recorded without access.
 */
export async function signIn(trust: Extract<Trust, { kind: "trusted" }>, person: SigningIn): Promise<SignedIn> {
  const { connection } = trust;
  let institution = trust.institution;
  const actor: Caller = {
    id: person.sub,
    email: person.email,
    name: person.name,
    accountId: person.accountId ?? institution.account_id,
    isCohortSuperAdmin: false,
    emailVerified: true,
    ip: person.ip,
  };
  const base = { provider_name: connection.provider_name, institution_id: institution.id };
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = clock();
    const change = new MembershipChange(institution, { actor, now, owner: institution.account_id });
    let outcome: SignedIn = {};
    if (connection.jit.enabled && change.roleOf(person.sub) === undefined) {
      const role = roleFor(person.groups, connection.role_mappings, connection.jit.default_role);
      const step = change.grant({ user_id: person.sub, email: person.email, name: person.name, account_id: actor.accountId }, role, {
        via: "sso",
        connection: connection.id,
      });
      if (step.kind === "ok") {
        change.record("administrator_provisioned", {
          institution_id: institution.id,
          user_id: person.sub,
          email: person.email,
          role,
          source: "sso",
          sso_connection: connection.id,
        });
        outcome = { jit: "provisioned", role };
      } else if (step.kind === "institution_full") outcome = { jit: "seat_limit" };
    }
    change.record("sso_sign_in", { ...base, ...(outcome.jit && { jit: outcome.jit }) });
    const result = await commitMembership(change);
    if (result.kind === "ok") return outcome;
    const fresh = await getInstitution(institution.id);
    if (!fresh) return {};
    institution = fresh;
  }
  throw new Error("the sign-in's membership change lost too many races");
}
