/**
 * Home-realm discovery (docs/sso.md): `POST /sso/discover` body `{email}`, public. The e-mail's domain, its
 * guard (who verified it), then that institution and its connection side by side: at most three GetItems in
 * two round trips. It refuses nothing and records nothing; an address that is not one, or a domain nobody
 * verified or without a connection, answers `{sso: null}` alike.
 */

import { domainOfEmail } from "../domains/form.js";
import { getGuard } from "../domains/repository.js";
import { BadRequest } from "../errors.js";
import { getInstitution } from "../institutions/repository.js";
import { getConnection } from "./repository.js";
import type { SsoDiscovery } from "./results.js";

export const MISSING_EMAIL = "param is missing or the value is empty: email";

export async function discover(body: unknown): Promise<SsoDiscovery> {
  const email = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).email : undefined;
  if (typeof email !== "string") throw new BadRequest(MISSING_EMAIL);
  const domain = email.length <= 320 ? domainOfEmail(email.trim().toLowerCase()) : undefined;
  const guard = domain ? await getGuard(domain, false) : undefined;
  if (!guard) return { sso: null };
  const [institution, connection] = await Promise.all([getInstitution(guard.institution_id), getConnection(guard.institution_id, false)]);
  if (!institution || connection?.status !== "active") return { sso: null };
  return { sso: { provider_name: connection.provider_name, institution: { name: institution.name } } };
}
