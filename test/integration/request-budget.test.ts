/**
 * The performance contract of the institution endpoints, counted at the SDK: show, list and create each
 * make exactly one DynamoDB request; nothing makes a Scan.
 */
import { describe, expect, it } from "vitest";
import type { Caller } from "../../shared/caller.js";
import { dynamo } from "../../shared/clients.js";
import { createInstitution, listInstitutions, showInstitution } from "../../shared/institutions/service.js";
import { uniq } from "../support/api.js";
import { requestCounter } from "../support/requests.js";

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

  it("create is one transaction, show one read, list one query", async () => {
    const create = await counted(() => createInstitution(caller, { institution: { name: "Budget U", registration_number: uniq("B") } }));
    expect(create.requests).toEqual(["TransactWriteItemsCommand"]);
    const show = await counted(() => showInstitution(caller, create.result.institution.id));
    expect(show.requests).toEqual(["GetItemCommand"]);
    expect(show.result.institution.id).toBe(create.result.institution.id);
    const list = await counted(() => listInstitutions(caller));
    expect(list.requests).toEqual(["QueryCommand"]);
    expect(list.result.institutions).toHaveLength(1);
  });
});
