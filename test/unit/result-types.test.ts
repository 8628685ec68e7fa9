/**
 * The domain declares what its use cases return (`shared/<feature>/results.ts`) without importing the API
 * document's generated types (shared/openapi/api-types.ts, a leaf for the console and tests). This file holds the
 * two together at compile time (`npm run typecheck`): a result that drifts from its documented schema fails here.
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as administrators from "../../shared/administrators/results.js";
import type * as institutions from "../../shared/institutions/results.js";
import type * as invitations from "../../shared/invitations/results.js";
import type { components } from "../../shared/openapi/api-types.js";
import type { Message } from "../../shared/results.js";
import type * as events from "../../shared/security-events/results.js";

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
  });
});
