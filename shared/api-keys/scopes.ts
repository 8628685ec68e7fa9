/**
 * What an institution API key may do (docs/api-keys.md): its scopes are its whole grant. No imports, so the
 * console's bundle and the route table take them alone. Each route of `shared/routes.ts` names the one scope
 * that opens it to a key; a route that names none is never for keys.
 */

/** Every scope, in the order the console shows them. */
export const SCOPES = [
  "institution:read",
  "institution:write",
  "cohorts:read",
  "cohorts:write",
  "administrators:read",
  "administrators:write",
  "invitations:read",
  "invitations:write",
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: unknown): value is Scope => typeof value === "string" && (SCOPES as readonly string[]).includes(value);

/** What each scope opens, in the console's words. */
export const SCOPE_LABELS: Readonly<Record<Scope, string>> = {
  "institution:read": "Read the institution",
  "institution:write": "Update the institution",
  "cohorts:read": "List cohorts",
  "cohorts:write": "Create and delete cohorts",
  "administrators:read": "List administrators",
  "administrators:write": "Change roles and remove administrators",
  "invitations:read": "List invitations",
  "invitations:write": "Invite cohort admins, revoke and resend invitations",
};

/** The prefix of every key: the edge sends `Authorization: Bearer iak_…` to the machines' API (docs/api-keys.md). */
export const KEY_PREFIX = "iak_";

/**
 * The edge's one question (docs/api-keys.md): does the request carry a key? Asked of the raw `Authorization` header by
 * the CloudFront function that sends it to the machines' API (infra/machine-api.ts, which embeds this pattern), and
 * by the local gateway, which plays that edge. People's requests are sent on unchanged.
 */
export const KEY_BEARER = /^[ \t]*bearer[ \t]+iak_/i;

/** The 403 of a route outside the key's scopes. */
export const lacksScope = (scope: Scope): string => `API key lacks the scope ${scope}`;

/** The 403 of a route no key may call (deleting or transferring the institution, SSO, SCIM, keys, the trail). */
export const NOT_FOR_KEYS = "API keys cannot call this route";
