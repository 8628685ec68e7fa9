/**
 * The design's promise for the institution endpoints, at the SDK: no Scan; show reads the one record,
 * list reads what it lists; create writes the institution and its event in one transaction.
 */
import { describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { dynamo } from "../../shared/clients.js";
import { createInstitution, listInstitutions, showInstitution } from "../../shared/institutions/service.js";
import { uniq } from "../support/api.js";
import { expectWithinDesign, requestCounter } from "../support/requests.js";

const counted = requestCounter(dynamo);

describe("request budget", () => {
  const caller: Caller = {
    id: uniq("user"),
    email: "budget@example.com",
    name: "Budget",
    accountId: uniq("acct"),
    isCohortSuperAdmin: true,
    emailVerified: true,
    ip: "127.0.0.1",
  };

  it("create is one transaction; show reads its record; list reads what it lists", async () => {
    const create = await counted(() => createInstitution(caller, { institution: { name: "Budget U", registration_number: uniq("B") } }));
    expectWithinDesign(create.requests, { maxItemsRead: 0, change: true });
    const show = await counted(() => showInstitution(caller, create.result.institution.id));
    expect(show.result.institution.id).toBe(create.result.institution.id);
    expectWithinDesign(show.requests, { maxItemsRead: 1, change: false });
    for (let i = 0; i < 2; i++) await createInstitution(caller, { institution: { name: uniq("Budget U") } });
    const list = await counted(() => listInstitutions(caller));
    expect(list.result.institutions).toHaveLength(3);
    expectWithinDesign(list.requests, { maxItemsRead: 3, change: false });
  });
});
