/**
 * A trail people can read (docs/contract/events.md, issue 41 item 4): every event type of the catalogue has a description
 * that names institutions by name and people by e-mail (and a person's own events by name and e-mail), never by
 * an id alone; one line, with nothing unfilled. The one exception is named: an institution the actor cannot see is
 * named by the id they tried, since its name would tell them more. Recorded events keep their words: these are
 * the words of events recorded from now on.
 */
import { expect, describe as group, it } from "vitest";
import { auditEvent, describe } from "../../shared/audit.js";
import type { Caller } from "../../shared/caller.js";
import { EVENT_TYPES, type EventType } from "../../shared/constants.js";
import { DETAIL_KEYS } from "../../shared/event-details.js";

const INSTITUTION_ID = "01JD3Z8Q9X4T7V2N5M8K1C6B0A";
const USER_ID = "5b1b3a0e-1111-4000-8000-000000000001";
const OTHER_USER_ID = "5b1b3a0e-2222-4000-8000-000000000002";
const ACTOR = "olive@acme.test";
const ACTOR_NAME = "Olive Owner";

/** A plausible value of every detail key, as the service records them. */
const SAMPLE: Record<string, unknown> = {
  institution_id: INSTITUTION_ID,
  institution_name: "Acme College",
  name: "Spring cohort",
  changes: ["name", "city"],
  action: "update_institution",
  required_role: "super_admin",
  attempted_institution_id: INSTITUTION_ID,
  email: "ann@acme.test",
  limit: 3,
  scope: "pending",
  reason: "expired",
  event_count: 12,
  filters: { event_type: null, from: null, to: null },
  invitation_id: "01JD3Z8Q9X4T7V2N5M8K1C6B0B",
  role: "cohort_admin",
  cohort_id: "01JD3Z8Q9X4T7V2N5M8K1C6B0C",
  webhook_id: "01JD3Z8Q9X4T7V2N5M8K1C6B0D",
  url: "https://siem.example.com/hook",
  failing_since: "2026-11-01T00:00:00.000Z",
  user_id: USER_ID,
  self: false,
  from: "cohort_admin",
  to: "cohort_super_admin",
  from_user_id: USER_ID,
  to_user_id: OTHER_USER_ID,
  to_email: "tom@acme.test",
  scim_connection: "01JD3Z8Q9X4T7V2N5M8K1C6B0E",
  role_mappings: { "Campus Admins": "cohort_admin" },
  method: "password",
  factor: "totp",
  cognito_event_id: "9f5c0c2e-3333-4000-8000-000000000003",
  source: "scim",
  domain_id: "01JD3Z8Q9X4T7V2N5M8K1C6B0F",
  domain: "acme.test",
  state: "pending",
  sso_connection: "01JD3Z8Q9X4T7V2N5M8K1C6B0G",
  type: "saml",
  provider_name: "acme-saml",
  jit: "provisioned",
  api_key_id: "01JD3Z8Q9X4T7V2N5M8K1C6B0H",
  scopes: ["cohorts:read"],
  expires_at: null,
};
const REASONS: Partial<Record<EventType, string>> = {
  sign_in_failed: "wrong_password",
  administrator_deprovisioned: "deactivated",
  invitation_revoked: "administrator_removed",
  domain_verification_failed: "not_found",
  sso_sign_in_refused: "email_outside_domains",
};

function detailsOf(type: EventType): Record<string, unknown> {
  const details = Object.fromEntries((DETAIL_KEYS[type] as readonly string[]).map((k) => [k, SAMPLE[k]]));
  if (REASONS[type]) details.reason = REASONS[type];
  if (type === "signed_out_everywhere") details.scope = "all_sessions";
  if (type === "institution_deleted") details.institution_name = "Acme College";
  return details;
}

/** A person's own events (docs/contract/people.md): the actor is the person, named by name and e-mail. */
const OWN: readonly EventType[] = [
  "sign_in",
  "sign_in_failed",
  "password_reset",
  "password_changed",
  "mfa_enabled",
  "mfa_disabled",
  "signed_out_everywhere",
];

group("the catalogue's descriptions", () => {
  it.each([...EVENT_TYPES])("%s: one line, every value filled, institutions by name and people by e-mail", (type) => {
    const details = detailsOf(type);
    const text = describe(type, details, ACTOR, ACTOR_NAME);
    expect(text.trim().length).toBeGreaterThan(10);
    expect(text).not.toMatch(/[\r\n]/);
    expect(text).not.toMatch(/undefined|null|\[object|''|\(\)/);
    // The service disables a webhook, and an IdP's assertion is refused before anyone signs in: no person acts.
    if (type !== "webhook_disabled" && type !== "sso_sign_in_refused") expect(text).toContain(ACTOR);
    const keys = DETAIL_KEYS[type] as readonly string[];
    if (type === "unauthorized_institution_access") {
      // The one id that stays: the actor cannot see the institution, so its name is not theirs to read.
      expect(text).toContain("cannot see");
    } else if (keys.includes("institution_name")) {
      expect(text).toContain("'Acme College'");
      expect(text, "an institution by its id").not.toContain(INSTITUTION_ID);
    }
    // People the event concerns, by e-mail: never by their user id alone.
    // (A created account's person is its actor, named as the actor.)
    if (keys.includes("email") && keys.includes("user_id") && type !== "account_created") {
      expect(text).toContain("ann@acme.test");
      expect(text, "a person by their id").not.toContain(USER_ID);
    }
    if (keys.includes("to_email")) {
      expect(text).toContain("tom@acme.test");
      expect(text).not.toContain(OTHER_USER_ID);
    }
    if (OWN.includes(type)) expect(text).toContain(`${ACTOR_NAME} (${ACTOR})`);
  });

  it("names what it can when a detail is missing (an event recorded before names were): the id, never an empty name", () => {
    const text = describe("administrator_role_changed", { institution_id: INSTITUTION_ID, user_id: USER_ID, from: "a", to: "b" }, ACTOR);
    expect(text).toBe(`${ACTOR} changed the role of ${USER_ID} in institution ${INSTITUTION_ID} from a to b`);
  });

  it("the audit door names the institution an event concerns, for the types that name one, and only those", () => {
    const actor: Caller = {
      id: USER_ID,
      email: ACTOR,
      name: ACTOR_NAME,
      accountId: "acct",
      isCohortSuperAdmin: true,
      emailVerified: true,
      ip: "127.0.0.1",
    };
    const institution = { name: "Acme College" };
    const cohort = auditEvent(actor, "cohort_created", { institution_id: INSTITUTION_ID, cohort_id: "c", name: "n" }, { institution });
    expect(cohort.details).toEqual({ institution_id: INSTITUTION_ID, cohort_id: "c", name: "n", institution_name: "Acme College" });
    const bound = auditEvent(actor, "rate_limit_exceeded", { limit: 1, scope: "refused_requests" }, { institution });
    expect(bound.details).toEqual({ limit: 1, scope: "refused_requests" });
  });

  it("the catalogue has a readable description for every type, people's own events included", () => {
    expect(EVENT_TYPES.length).toBeGreaterThanOrEqual(34);
    for (const type of OWN) expect(EVENT_TYPES).toContain(type);
  });
});
