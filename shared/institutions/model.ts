/** Institution records as stored and the views the contract returns. */
import type { Role } from "../roles.js";
import type { InstitutionView } from "./results.js";
import { SETTINGS_DEFAULTS, type Settings } from "./schema.js";

/**
 * The institution item (without its keys): the record the contract shows (`InstitutionView`, from its schema in
 * responses.ts) and the bookkeeping beside it. `members` mirrors the access records: user id → role.
 */
export type Institution = InstitutionView & {
  /** Optimistic-concurrency version: every change to the item or its members bumps it. */
  version: number;
  members: Record<string, Role>;
  cohort_count?: number;
  /** The directory connection (docs/scim.md), while there is one: its administrators are not changed by hand. */
  scim_connection_id?: string;
};

/**
 * Administrators one institution can hold (its super admin included). Update and delete rewrite or delete
 * every member's access record in the transaction that carries the change and its event, so that no list
 * ever shows a stale or deleted institution; a DynamoDB transaction holds at most 100 items: 100 − the
 * institution − 2 registration-number guards − 2 audit items (event, alert counter) = 95.
 */
export const MAX_MEMBERS = 95;

/**
 * The role of `userId` in `i`, from the members map's own properties only: a user id such as
 * `constructor` or `__proto__` names a built-in property of every object, never a member.
 */
export const memberRole = (i: Pick<Institution, "members">, userId: string): Role | undefined =>
  Object.hasOwn(i.members, userId) ? i.members[userId] : undefined;

/** True when the institution has no room for another administrator. */
export const isFull = (i: Pick<Institution, "members">): boolean => Object.keys(i.members).length >= MAX_MEMBERS;

/** The refusal of a new administrator for a full institution (invitation create 422 `{errors}`, accept 422 `{error}`). */
export const INSTITUTION_FULL = `Institution has reached its limit of ${MAX_MEMBERS} administrators`;

/**
 * The refusal of a change that, with every member's access record and its events in two trails, would not fit
 * one transaction (an institution at its limit, changed by someone of another account): 422, nothing written.
 */
export const TOO_MANY_FOR_CHANGE = "Institution has too many administrators for this change; remove an administrator first";

/** What an access record carries of its institution, so listing needs no second read. */
export type InstitutionSummary = Pick<
  InstitutionView,
  "id" | "name" | "registration_number" | "contact_email" | "super_admin_id" | "created_at"
>;

export const WRITABLE_FIELDS = ["name", "registration_number", "address", "contact_email", "contact_phone", "settings"] as const;

/** The institution record of the contract: the stored fields, without keys and bookkeeping. */
export function toRecord(i: Institution): InstitutionView {
  return {
    id: i.id,
    name: i.name,
    registration_number: i.registration_number,
    address: i.address,
    contact_email: i.contact_email,
    contact_phone: i.contact_phone,
    settings: i.settings,
    account_id: i.account_id,
    super_admin_id: i.super_admin_id,
    created_at: i.created_at,
    updated_at: i.updated_at,
  };
}

export function toSummary(i: Institution): InstitutionSummary {
  return {
    id: i.id,
    name: i.name,
    registration_number: i.registration_number,
    contact_email: i.contact_email,
    super_admin_id: i.super_admin_id,
    created_at: i.created_at,
  };
}

/** Stored settings merged over the defaults. */
export function effectiveSettings(settings: Settings): Required<Settings> {
  return { ...SETTINGS_DEFAULTS, ...settings };
}
