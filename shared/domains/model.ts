/** A verified domain as stored (docs/sso.md), and the guard that gives a domain to one institution. */

export type DomainState = "pending" | "verified" | "failed";

export interface DomainRecord {
  id: string;
  institution_id: string;
  account_id: string;
  /** The ASCII (IDNA) form, lower case. */
  domain: string;
  /** What the state was at the last write; a `pending` one past its deadline shows as `failed` (`effectiveState`). */
  state: DomainState;
  /** The TXT record's value to publish: a fresh random token. */
  token: string;
  created_at: string;
  verified_at: string | null;
  last_checked_at: string | null;
  last_error: string | null;
  version: number;
}

/** The institution's domain head: how many domains it has, and a version every add and removal bumps. */
export interface DomainHead {
  count: number;
  version: number;
}

/** The service-wide guard of a verified domain. */
export interface DomainGuard {
  domain: string;
  institution_id: string;
  domain_id: string;
  account_id: string;
  verified_at: string;
}

/** The name the TXT record is published at. */
export const challengeName = (domain: string) => `_institution-admin-challenge.${domain}`;

/** A domain pending this long has failed. */
export const PENDING_DAYS = 7;
/** Domains an institution may have, whatever their states. */
export const MAX_DOMAINS = 20;

export const deadlineOf = (d: Pick<DomainRecord, "created_at">): number => Date.parse(d.created_at) + PENDING_DAYS * 86_400_000;

/** The state at `now`: a pending domain past its deadline has failed, whether or not that was written yet. */
export const effectiveState = (d: Pick<DomainRecord, "state" | "created_at">, now: Date): DomainState =>
  d.state === "pending" && now.getTime() >= deadlineOf(d) ? "failed" : d.state;
