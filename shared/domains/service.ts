/**
 * Verified-domain use cases (docs/sso.md), in the institution routes' check order: look up among visible
 * (404 + `unauthorized_institution_access`) → for writes, the institution's super admin (403 +
 * `insufficient_privileges`, action `manage_domains`) → body (422) → the change and its event, in the actor's
 * and the owner's trails, in one transaction.
 */
import { randomBytes } from "node:crypto";
import { auditEvent, type EventDetails, type EventType } from "../audit.js";
import type { Caller } from "../caller.js";
import { now as clock } from "../clock.js";
import { BadRequest, Conflict, NotFound, ValidationFailed } from "../errors.js";
import { isId, newId } from "../ids.js";
import { getInstitution } from "../institutions/repository.js";
import { requireSuperAdminOf, requireVisible, type Visible } from "../institutions/service.js";
import type { Message } from "../results.js";
import { RETRY, withRetries } from "../retry.js";
import { parseOrFail } from "../validation.js";
import { lookupTxt } from "./dns.js";
import { challengeName, type DomainRecord, effectiveState, MAX_DOMAINS, PENDING_DAYS } from "./model.js";
import * as repo from "./repository.js";
import type { DomainList, DomainShown, DomainView } from "./results.js";
import { domainInput } from "./schema.js";

export const ACTION = "manage_domains";
export const DOMAIN_MESSAGES = {
  onlySuperAdmin: "Only the institution's super admin can manage its domains",
  notFound: "Domain not found",
  taken: "Domain is verified by another institution",
  duplicate: "Domain has already been added",
  tooMany: `An institution has at most ${MAX_DOMAINS} domains`,
  removed: "Domain removed",
  busy: "The domains were changed concurrently, please retry",
  missing: "param is missing or the value is empty: domain",
} as const;

/** Why a verification did not verify, as `last_error` says it. */
const FAILURE_TEXT = {
  not_found: (d: string) => `No TXT record found at ${challengeName(d)}`,
  mismatch: (d: string) => `The TXT records at ${challengeName(d)} do not hold this domain's value`,
  lookup_failed: (code: string) => `The DNS lookup failed (${code}); try again later`,
  verified_elsewhere: () => DOMAIN_MESSAGES.taken,
  expired: () => `Not verified within ${PENDING_DAYS} days; remove the domain and add it again`,
} as const;

/** A domain as the API shows it, its state as of `now`. */
export function toView(d: DomainRecord, now: Date): DomainView {
  const state = effectiveState(d, now);
  return {
    id: d.id,
    domain: d.domain,
    state,
    verification: { record_type: "TXT", record_name: challengeName(d.domain), record_value: d.token },
    created_at: d.created_at,
    verified_at: d.verified_at,
    last_checked_at: d.last_checked_at,
    last_error: state === "failed" && d.state === "pending" ? FAILURE_TEXT.expired() : d.last_error,
  };
}

const event = <T extends EventType>(caller: Caller, visible: Visible, type: T, details: EventDetails[T], now: Date) =>
  auditEvent(caller, type, details, { now, owner: visible.institution.account_id, institution: visible.institution });

/** The institution, visible to the caller and (for writes) administered by it. */
async function institutionFor(caller: Caller, institutionId: string | undefined, write: boolean): Promise<Visible> {
  const visible = await requireVisible(caller, institutionId);
  if (write) await requireSuperAdminOf(caller, visible, ACTION, DOMAIN_MESSAGES.onlySuperAdmin);
  return visible;
}

/** `GET …/domains`: every domain of the institution, oldest first. One GetItem and one Query. */
export async function listDomains(caller: Caller, institutionId: string | undefined): Promise<DomainList> {
  const [visible, read] = await Promise.all([
    requireVisible(caller, institutionId),
    isId(institutionId) ? repo.readDomains(institutionId) : undefined,
  ]);
  const now = clock();
  return { domains: visible && read ? read.domains.map((d) => toView(d, now)) : [] };
}

/** `POST …/domains` body `{domain}` → 201 `{domain}`, pending, with the TXT record to publish. */
export async function addDomain(caller: Caller, institutionId: string | undefined, body: unknown): Promise<DomainShown> {
  const visible = await institutionFor(caller, institutionId, true);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadRequest(DOMAIN_MESSAGES.missing);
  const { domain } = parseOrFail(domainInput, body);
  const { institution } = visible;
  return withRetries(DOMAIN_MESSAGES.busy, async () => {
    const { head, domains } = await repo.readDomains(institution.id);
    if (domains.some((d) => d.domain === domain)) throw new ValidationFailed([DOMAIN_MESSAGES.duplicate]);
    if ((head?.count ?? domains.length) >= MAX_DOMAINS) throw new ValidationFailed([DOMAIN_MESSAGES.tooMany]);
    const now = clock();
    const record: DomainRecord = {
      id: newId(now.getTime()),
      institution_id: institution.id,
      account_id: institution.account_id,
      domain,
      state: "pending",
      token: randomBytes(32).toString("base64url"),
      created_at: now.toISOString(),
      verified_at: null,
      last_checked_at: null,
      last_error: null,
      version: 1,
    };
    const e = event(caller, visible, "domain_added", { institution_id: institution.id, domain_id: record.id, domain }, now);
    const result = await repo.insertDomain(record, head, e);
    return result.kind === "ok" ? { domain: toView(record, now) } : RETRY;
  });
}

async function domainOf(visible: Visible, domainId: string | undefined): Promise<DomainRecord> {
  const d = isId(domainId) ? await repo.getDomain(visible.institution.id, domainId) : undefined;
  if (!d) throw new NotFound(DOMAIN_MESSAGES.notFound);
  return d;
}

/**
 * `POST …/domains/:domain_id/verify`: looks the TXT record up now. Found with the domain's value → `verified`
 * (and the guard taken: 409 when another institution holds it); otherwise it stays `pending` with
 * `last_checked_at` and `last_error`, recorded as `domain_verification_failed`. A domain past its 7 days is
 * `failed` (written and recorded once); a verified or failed domain is answered as it is, without a lookup.
 */
export async function verifyDomain(caller: Caller, institutionId: string | undefined, domainId: string | undefined): Promise<DomainShown> {
  const visible = await institutionFor(caller, institutionId, true);
  const { institution } = visible;
  return withRetries(DOMAIN_MESSAGES.busy, async () => {
    const d = await domainOf(visible, domainId);
    const now = clock();
    if (d.state !== "pending") return { domain: toView(d, now) };
    const details = { institution_id: institution.id, domain_id: d.id, domain: d.domain };
    /** Writes the attempt that did not verify (its state, time and reason) with its event; the answer's domain. */
    const failed = async (reason: FailureReason, text: string): Promise<DomainShown | typeof RETRY> => {
      const state = reason === "expired" ? "failed" : "pending";
      const after: DomainRecord = { ...d, state, last_checked_at: now.toISOString(), last_error: text };
      const e = event(caller, visible, "domain_verification_failed", { ...details, reason, state }, now);
      const result = await repo.storeCheck(d, after, e);
      return result.kind === "ok" ? { domain: toView({ ...after, version: d.version + 1 }, now) } : RETRY;
    };
    /** 409, once the refusal is on the domain (its `last_error`) and in the trail. */
    const taken = async (): Promise<typeof RETRY> => {
      if ((await failed("verified_elsewhere", FAILURE_TEXT.verified_elsewhere())) === RETRY) return RETRY;
      throw new Conflict(DOMAIN_MESSAGES.taken);
    };
    if (effectiveState(d, now) === "failed") return failed("expired", FAILURE_TEXT.expired());
    // Another institution's guard refuses before DNS is asked; the guard of an institution deleted since is stale.
    const guard = await repo.getGuard(d.domain);
    let stale: string | undefined;
    if (guard && guard.institution_id !== institution.id) {
      if (await getInstitution(guard.institution_id)) return taken();
      stale = guard.institution_id;
    }
    const found = await lookupTxt(challengeName(d.domain));
    if (found.kind === "not_found") return failed("not_found", FAILURE_TEXT.not_found(d.domain));
    if (found.kind === "failed") return failed("lookup_failed", FAILURE_TEXT.lookup_failed(found.code));
    if (!found.values.includes(d.token)) return failed("mismatch", FAILURE_TEXT.mismatch(d.domain));
    const at = now.toISOString();
    const after: DomainRecord = { ...d, state: "verified", verified_at: at, last_checked_at: at, last_error: null };
    const result = await repo.storeVerified(d, after, event(caller, visible, "domain_verified", details, now), stale);
    // Another institution verified it between our read and our write: the guard's condition decided.
    if (result.kind === "taken") return taken();
    return result.kind === "ok" ? { domain: toView({ ...after, version: d.version + 1 }, now) } : RETRY;
  });
}

type FailureReason = EventDetails["domain_verification_failed"]["reason"];

/** `DELETE …/domains/:domain_id` → 200; a verified domain's guard goes with it, so another institution may verify it. */
export async function deleteDomain(caller: Caller, institutionId: string | undefined, domainId: string | undefined): Promise<Message> {
  const visible = await institutionFor(caller, institutionId, true);
  const { institution } = visible;
  return withRetries(DOMAIN_MESSAGES.busy, async () => {
    const { head, domains } = await repo.readDomains(institution.id);
    const d = isId(domainId) ? domains.find((x) => x.id === domainId) : undefined;
    if (!d) throw new NotFound(DOMAIN_MESSAGES.notFound);
    if (!head) return RETRY;
    const guard = d.state === "verified" ? await repo.getGuard(d.domain) : undefined;
    const now = clock();
    const e = event(caller, visible, "domain_removed", { institution_id: institution.id, domain_id: d.id, domain: d.domain }, now);
    const result = await repo.removeDomain(d, head, guard?.domain_id === d.id, e);
    return result.kind === "ok" ? { message: DOMAIN_MESSAGES.removed } : RETRY;
  });
}
