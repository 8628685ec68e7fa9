/**
 * Lists whose contract has no pagination return every item, also past DynamoDB's 1 MB Query page (where a
 * single Query silently stops). The rows are seeded directly, shaped as the repositories write them, and
 * made long enough (255-character names) that each list spans two pages or more; the lists are read over
 * HTTP with real tokens.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { newId } from "../../shared/ids.js";
import { paths } from "../../shared/routes.js";
import { keys } from "../../shared/tables.js";
import { token, uniq, uniqEmail } from "../support/api.js";
import { apiClient, ok } from "../support/client.js";
import { putItems } from "../support/seed.js";
import { userIdOf } from "./helpers.js";

const N = 4_000;
const longName = (label: string, i: number) => `${label} ${String(i).padStart(5, "0")} `.padEnd(255, "x");

/** True when one Query of this key condition does not hold every item (the case under test). */
async function spansPages(pk: string, prefix: string): Promise<boolean> {
  const out = await db.send(
    new QueryCommand({
      TableName: config.tables.main,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": pk, ":prefix": prefix },
      Select: "COUNT",
    }),
  );
  return out.LastEvaluatedKey !== undefined && (out.Count ?? 0) < N;
}

describe("lists past one DynamoDB page", () => {
  it(`GET /institutions returns all ${N} institutions a user has access to`, async () => {
    const email = uniqEmail("many");
    const tok = await token(email);
    const user = await userIdOf(tok);
    const created = new Date().toISOString();
    const ids = Array.from({ length: N }, () => newId());
    await putItems(
      config.tables.main,
      ids.map((id, i) => ({
        ...keys.access(user, id),
        account_id: `acct-${uniq("many")}`,
        user_id: user,
        institution_id: id,
        role: "cohort_admin",
        institution: {
          id,
          name: longName("College", i),
          registration_number: null,
          contact_email: null,
          super_admin_id: "someone",
          created_at: created,
        },
      })),
    );
    expect(await spansPages(keys.access(user, "x").pk, "INST#")).toBe(true);

    const listed = ok(await apiClient(tok).GET(paths.institutions)).institutions;
    expect(listed).toHaveLength(N);
    expect(new Set(listed.map((i) => i.id))).toEqual(new Set(ids));
    expect(listed.map((i) => i.name)).toEqual(ids.map((_, i) => longName("College", i)));
  }, 60_000);

  it(`GET /institutions/:id/cohorts returns all ${N} cohorts`, async () => {
    const owner = await token(uniqEmail("owner"), { superAdmin: true });
    const api = apiClient(owner);
    const institutionId = ok(await api.POST(paths.institutions, { body: { institution: { name: uniq("Many Cohorts") } } }), 201).institution
      .id;
    const start = Date.now();
    const cohorts = Array.from({ length: N }, (_, i) => {
      const id = newId();
      return {
        ...keys.cohort(institutionId, id),
        id,
        institution_id: institutionId,
        name: longName("Cohort", i),
        created_at: new Date(start + i).toISOString(),
      };
    });
    await putItems(config.tables.main, cohorts);
    expect(await spansPages(keys.institution(institutionId).pk, keys.cohortPrefix)).toBe(true);

    const list = ok(await api.GET(`${paths.institutions}/{id}/cohorts`, { params: { path: { id: institutionId } } }));
    expect(list.cohorts.map((c) => c.id)).toEqual(cohorts.map((c) => c.id));
  }, 60_000);
});
