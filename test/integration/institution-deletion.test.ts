/**
 * Deleting an institution takes what it leaves beside it (docs/sso.md, docs/api-keys.md): its verified domains
 * and the service-wide guards they hold (the domain is free for another institution at once), its SSO connection
 * with its provider's item, the pool's identity provider and its place on the console app client's list, and its
 * API keys (the key answers 401). In the contract's check order, nothing touched on a refusal; when the table's
 * change is refused after the provider was taken off the client's list, it is listed again (shared/sso/release.ts).
 * Over HTTP through the gateway, the pool's side in the local Cognito, the TXT records on the loopback DNS server.
 */

import { createHash } from "node:crypto";
import { DescribeIdentityProviderCommand, DescribeUserPoolClientCommand } from "@aws-sdk/client-cognito-identity-provider";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { getKeyTarget, readKeys } from "../../shared/api-keys/repository.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { getGuard, readDomains } from "../../shared/domains/repository.js";
import { paths } from "../../shared/routes.js";
import { getConnection, institutionOfProvider } from "../../shared/sso/repository.js";
import { domainKeys } from "../../shared/tables.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { makeKey } from "../support/api-keys.js";
import { createInstitution } from "../support/flows.js";
import { challengeOf, type IdpServer, idpServer, publishTxt, samlMetadata } from "../support/sso.js";

const INST = paths.institutions;
const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
let owner: string;
let other: string;
let idp: IdpServer;

beforeAll(async () => {
  [owner, other, idp] = await Promise.all([
    token(uniqEmail("del-owner"), { superAdmin: true, account: uniq("acct") }),
    token(uniqEmail("del-other"), { superAdmin: true, account: uniq("acct") }),
    idpServer(),
  ]);
});
afterAll(async () => {
  await idp?.close();
  cognito.destroy();
});

async function poolHas(name: string): Promise<boolean> {
  try {
    await cognito.send(new DescribeIdentityProviderCommand({ UserPoolId: stack.userPoolId, ProviderName: name }));
    return true;
  } catch (err) {
    if ((err as Error).name === "ResourceNotFoundException") return false;
    throw err;
  }
}
async function listed(name: string): Promise<boolean> {
  const out = await cognito.send(new DescribeUserPoolClientCommand({ UserPoolId: stack.userPoolId, ClientId: stack.userPoolClientId }));
  return (out.UserPoolClient?.SupportedIdentityProviders ?? []).includes(name);
}

/** Adds `domain` to the institution and verifies it (as its super admin `tok`); the domain's id. */
async function verifiedDomain(tok: string, institutionId: string, domain: string): Promise<string> {
  const added = await call("POST", `${INST}/${institutionId}/domains`, { token: tok, body: { domain } });
  expect(added.status, added.text).toBe(201);
  await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
  const verified = await call("POST", `${INST}/${institutionId}/domains/${added.body.domain.id}/verify`, { token: tok });
  expect(verified.body.domain?.state, verified.text).toBe("verified");
  return added.body.domain.id;
}

/** An institution with a verified and a pending domain, a SAML connection and an API key. */
async function furnished() {
  const inst = await createInstitution(owner, { name: uniq("Leaving College") });
  const domain = `${uniq("leaving")}.test`;
  await verifiedDomain(owner, inst.id, domain);
  const pending = await call("POST", `${INST}/${inst.id}/domains`, { token: owner, body: { domain: `${uniq("pending")}.test` } });
  expect(pending.status).toBe(201);
  const path = `/${uniq("saml")}/metadata.xml`;
  idp.serve(path, samlMetadata({ entityId: `${idp.url}/${uniq("entity")}`, ssoUrl: `${idp.url}/sso` }));
  const sso = await call("POST", `${INST}/${inst.id}/sso`, { token: owner, body: { type: "saml", metadata_url: `${idp.url}${path}` } });
  expect(sso.status, sso.text).toBe(201);
  const key = await makeKey(owner, inst.id, ["institution:read"]);
  const provider = sso.body.sso.provider_name as string;
  expect([await poolHas(provider), await listed(provider)]).toEqual([true, true]);
  return { inst, domain, provider, key };
}

const keyHash = (key: string) => createHash("sha256").update(key).digest("hex");

/** Everything the institution left beside it, as stored now. */
async function remnants(f: Awaited<ReturnType<typeof furnished>>) {
  const [domains, guard, connection, providerOf, keys, lookup, inPool, onClient] = await Promise.all([
    readDomains(f.inst.id),
    getGuard(f.domain),
    getConnection(f.inst.id),
    institutionOfProvider(f.provider),
    readKeys(f.inst.id),
    getKeyTarget(keyHash(f.key.key)),
    poolHas(f.provider),
    listed(f.provider),
  ]);
  return {
    domains: domains.domains.length + (domains.head ? 1 : 0),
    guard: guard !== undefined,
    connection: connection !== undefined,
    providerItem: providerOf !== undefined,
    keys: keys.keys.length + keys.version,
    lookup: lookup !== undefined,
    inPool,
    onClient,
  };
}

describe("deleting an institution", () => {
  it("takes its domains and guards, its SSO connection and the pool's provider, and its API keys with it", async () => {
    const f = await furnished();
    expect(await remnants(f)).toEqual({
      domains: 3,
      guard: true,
      connection: true,
      providerItem: true,
      keys: 2,
      lookup: true,
      inPool: true,
      onClient: true,
    });
    const res = await call("DELETE", `${INST}/${f.inst.id}`, { token: owner });
    expect(res.status, res.text).toBe(200);
    expect(await remnants(f)).toEqual({
      domains: 0,
      guard: false,
      connection: false,
      providerItem: false,
      keys: 0,
      lookup: false,
      inPool: false,
      onClient: false,
    });
    // The key no longer opens anything; the domain is free for another institution at once.
    expect((await call("GET", `${INST}/${f.inst.id}`, { token: f.key.key, clockOffsetMs: 61_000 })).status).toBe(401);
    const next = await createInstitution(other);
    await verifiedDomain(other, next.id, f.domain);
    expect((await getGuard(f.domain))?.institution_id).toBe(next.id);
    // One event, in the owner's trail.
    const trail = await call("GET", paths.securityEvents, { token: owner, query: { event_type: "institution_deleted", limit: 200 } });
    expect(
      trail.body.events.filter((e: { details: { institution_name: string } }) => e.details.institution_name === f.inst.name),
    ).toHaveLength(1);
  });

  it("touches nothing when refused: not visible (404), not its super admin (403), a cohort (422)", async () => {
    const f = await furnished();
    const before = await remnants(f);
    expect((await call("DELETE", `${INST}/${f.inst.id}`, { token: other })).status).toBe(404);
    const cohort = await call("POST", `${INST}/${f.inst.id}/cohorts`, { token: owner, body: { cohort: { name: "Year 1" } } });
    expect(cohort.status, cohort.text).toBe(201);
    const refused = await call("DELETE", `${INST}/${f.inst.id}`, { token: owner });
    expect([refused.status, refused.body]).toEqual([422, { error: "Cannot delete institution with existing cohorts" }]);
    expect(await remnants(f)).toEqual(before);
  });

  it("answers 409 while the connection is being changed, and touches nothing", async () => {
    const f = await furnished();
    const before = await remnants(f);
    // A change of the connection holds its lease (shared/sso/repository.ts): written as one would.
    await db.send(
      new UpdateCommand({
        TableName: config.tables.main,
        Key: { pk: `INST#${f.inst.id}`, sk: "SSO" },
        UpdateExpression: "SET lease_owner = :o, lease_until = :u",
        ExpressionAttributeValues: { ":o": "another-change", ":u": Date.now() + 60_000 },
      }),
    );
    const res = await call("DELETE", `${INST}/${f.inst.id}`, { token: owner });
    expect(res.status, res.text).toBe(409);
    expect(await remnants(f)).toEqual(before);
  });

  it("lists the provider again when the table's change is refused after it was taken off the client's list", async () => {
    const f = await furnished();
    const before = await remnants(f);
    // Stands in for what no request can make happen between the reads and the transaction: the guard no longer
    // names this institution's domain, so each attempt's transaction is refused (and retried, then 409).
    await db.send(
      new UpdateCommand({
        TableName: config.tables.main,
        Key: domainKeys.guard(f.domain),
        UpdateExpression: "SET domain_id = :other",
        ExpressionAttributeValues: { ":other": "01ARZ3NDEKTSV4RRFFQ69G5FAV" },
      }),
    );
    const res = await call("DELETE", `${INST}/${f.inst.id}`, { token: owner });
    expect(res.status, res.text).toBe(409);
    // The connection's lease was given back, the provider listed again: SSO still works for the institution.
    expect(await remnants(f)).toEqual(before);
    const connection = await getConnection(f.inst.id);
    expect(connection?.lease_owner).toBeUndefined();
    expect(connection?.status).toBe("active");
  });
});
