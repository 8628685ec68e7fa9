/**
 * The domain takes what its use cases return from its valibot response schemas (`shared/<feature>/results.ts`,
 * `v.InferOutput` of `shared/<feature>/responses.ts`), and the API document is generated from the same schemas;
 * the console and the tests use the document's generated types (shared/openapi/api-types.ts, a leaf). This file
 * holds the two ends together at compile time (`npm run typecheck`): a conversion or a generated client type that
 * drifts from the schemas fails here.
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as administrators from "../../shared/administrators/results.js";
import type * as domains from "../../shared/domains/results.js";
import type * as exports from "../../shared/exports/results.js";
import type * as institutions from "../../shared/institutions/results.js";
import type * as invitations from "../../shared/invitations/results.js";
import type { components } from "../../shared/openapi/api-types.js";
import type * as people from "../../shared/people/results.js";
import type { Message } from "../../shared/results.js";
import type * as scim from "../../shared/scim/results.js";
import type * as events from "../../shared/security-events/results.js";
import type * as sso from "../../shared/sso/results.js";
import type * as webhooks from "../../shared/webhooks/results.js";

type S = components["schemas"];

describe("the use cases' results are the document's schemas", () => {
  it("institutions and cohorts", () => {
    expectTypeOf<institutions.InstitutionList>().toEqualTypeOf<S["InstitutionList"]>();
    expectTypeOf<institutions.InstitutionShown>().toEqualTypeOf<S["InstitutionShown"]>();
    expectTypeOf<institutions.InstitutionWritten>().toEqualTypeOf<S["InstitutionWritten"]>();
    expectTypeOf<institutions.CohortList>().toEqualTypeOf<S["CohortList"]>();
    expectTypeOf<institutions.CohortCreated>().toEqualTypeOf<S["CohortCreated"]>();
    expectTypeOf<Message>().toEqualTypeOf<S["Message"]>();
  });

  it("invitations", () => {
    expectTypeOf<invitations.InvitationIssued>().toEqualTypeOf<S["InvitationIssued"]>();
    expectTypeOf<invitations.InvitationResent>().toEqualTypeOf<S["InvitationResent"]>();
    expectTypeOf<invitations.InvitationList>().toEqualTypeOf<S["InvitationList"]>();
    expectTypeOf<invitations.InvitationPreview>().toEqualTypeOf<S["InvitationPreview"]>();
    expectTypeOf<invitations.InvitationAccepted>().toEqualTypeOf<S["InvitationAccepted"]>();
    expectTypeOf<invitations.InvitationOpened>().toEqualTypeOf<S["InvitationOpened"]>();
    expectTypeOf<invitations.InvitationRegistered>().toEqualTypeOf<S["InvitationRegistered"]>();
  });

  it("administrators", () => {
    expectTypeOf<administrators.AdministratorView>().toEqualTypeOf<S["Administrator"]>();
    expectTypeOf<administrators.AdministratorList>().toEqualTypeOf<S["AdministratorList"]>();
    expectTypeOf<administrators.AdministratorUpdated>().toEqualTypeOf<S["AdministratorUpdated"]>();
    expectTypeOf<administrators.AdministratorRemoved>().toEqualTypeOf<S["AdministratorRemoved"]>();
  });

  it("security events", () => {
    expectTypeOf<events.SecurityEventList>().toEqualTypeOf<S["SecurityEventList"]>();
    expectTypeOf<events.SecurityEventView>().toEqualTypeOf<S["SecurityEvent"]>();
    expectTypeOf<events.Alerts>().toEqualTypeOf<S["Alerts"]>();
    expectTypeOf<events.DigestList>().toEqualTypeOf<S["DigestList"]>();
  });

  it("full exports, webhooks and the directory connection", () => {
    expectTypeOf<exports.ExportShown>().toEqualTypeOf<S["ExportShown"]>();
    expectTypeOf<webhooks.WebhookList>().toEqualTypeOf<S["WebhookList"]>();
    expectTypeOf<webhooks.WebhookCreated>().toEqualTypeOf<S["WebhookCreated"]>();
    expectTypeOf<webhooks.WebhookDeliveries>().toEqualTypeOf<S["WebhookDeliveries"]>();
    expectTypeOf<scim.ScimConnectionShown>().toEqualTypeOf<S["ScimConnectionShown"]>();
    expectTypeOf<scim.ScimConnectionWritten>().toEqualTypeOf<S["ScimConnectionWritten"]>();
  });

  it("the caller's own account", () => {
    expectTypeOf<people.MfaSetting>().toEqualTypeOf<S["MfaSetting"]>();
  });

  it("verified domains, the SSO connection and discovery", () => {
    expectTypeOf<domains.DomainList>().toEqualTypeOf<S["DomainList"]>();
    expectTypeOf<domains.DomainShown>().toEqualTypeOf<S["DomainShown"]>();
    expectTypeOf<sso.SsoConnectionShown>().toEqualTypeOf<S["SsoConnectionShown"]>();
    expectTypeOf<sso.SsoDiscovery>().toEqualTypeOf<S["SsoDiscovery"]>();
  });
});
