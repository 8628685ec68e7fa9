/**
 * The console app client's custom resource (docs/sso.md, "The redeploy rule"; infra/app-client.ts), its handler
 * module run as CloudFormation's custom-resource framework invokes it, against the local Cognito: a new client lists
 * every provider the pool has; an update writes the stack's settings and keeps the providers the service listed at
 * run time, waiting for the service's lock on the client; a delete deletes it. The list never holds `COGNITO` beside an
 * institution's provider (no password form at the managed login), and `COGNITO` alone while the pool has none. Each
 * client here is a client of its own in the local pool, which other files' connections share, so providers are checked
 * by inclusion; the pool without providers is a pool of its own.
 */
import {
  CreateIdentityProviderCommand,
  CreateUserPoolCommand,
  DeleteUserPoolCommand,
  UpdateUserPoolClientCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from "aws-lambda";
import { afterAll, describe, expect, it } from "vitest";
import { handler } from "../../functions/sso/app-client.js";
import { consoleClientSettings } from "../../infra/app-client.js";
import { cognitoClient } from "../../infra/local/cognito.js";
import { asFunction } from "../../infra/local/function-scope.js";
import { createAppClient, describeClient, updateAppClient } from "../../shared/sso/app-client.js";
import { lockClient, unlockClient } from "../../shared/sso/repository.js";
import { stack, uniq } from "../support/api.js";
import { samlMetadata } from "../support/sso.js";

const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
afterAll(() => cognito.destroy());
const poolId = stack.userPoolId;

const props = (hours: number, origin: string) => ({
  ServiceToken: "arn:aws:lambda:local:123456789012:function:framework",
  UserPoolId: poolId,
  Client: JSON.stringify(consoleClientSettings(hours, [origin])),
});
const base = {
  ServiceToken: "arn:aws:lambda:local:123456789012:function:framework",
  ResponseURL: "https://cloudformation.example/response",
  StackId: "arn:aws:cloudformation:local:123456789012:stack/test/1",
  RequestId: "8a3f2c1e-0000-4000-8000-000000000000",
  LogicalResourceId: "ConsoleAppClient",
  ResourceType: "Custom::ConsoleAppClient",
};
const run = (event: CdkCustomResourceEvent): Promise<CdkCustomResourceResponse> => asFunction("sso/app-client", () => handler(event));
const create = (hours: number, origin: string) =>
  run({ ...base, RequestType: "Create", ResourceProperties: props(hours, origin) } as CdkCustomResourceEvent);
const update = (id: string, hours: number, origin: string, before = props(12, "https://old.example")) =>
  run({
    ...base,
    RequestType: "Update",
    PhysicalResourceId: id,
    ResourceProperties: props(hours, origin),
    OldResourceProperties: before,
  } as CdkCustomResourceEvent);

/** A provider in the pool, as a connection makes it. */
async function provider(pool = poolId): Promise<string> {
  const name = uniq("idp").slice(0, 32);
  await cognito.send(
    new CreateIdentityProviderCommand({
      UserPoolId: pool,
      ProviderName: name,
      ProviderType: "SAML",
      ProviderDetails: { MetadataFile: samlMetadata({ entityId: `https://${name}.example/`, ssoUrl: `https://${name}.example/sso` }) },
    }),
  );
  return name;
}

/** Lists `names` on the client, added to its list (the client read whole and written back whole, as pool.ts does). */
async function listOn(clientId: string, names: string[], pool = poolId) {
  const c = await describeClient(cognito, pool, clientId);
  const { UserPoolId: _p, ClientId: _c, ClientSecret: _s, CreationDate: _cd, LastModifiedDate: _lm, ...fields } = c;
  await cognito.send(
    new UpdateUserPoolClientCommand({
      ...fields,
      UserPoolId: pool,
      ClientId: clientId,
      SupportedIdentityProviders: [...(c.SupportedIdentityProviders ?? []), ...names],
    }),
  );
}
const listAsTheService = (clientId: string, name: string) => listOn(clientId, [name]);

describe("the console app client's custom resource", () => {
  it("creates the client with the stack's OAuth and every provider the pool has: a replaced client disconnects nobody", async () => {
    const before = await provider();
    const out = await create(12, "https://console.example");
    const id = String(out.PhysicalResourceId);
    expect(out.Data).toEqual({ ClientId: id });
    const c = await describeClient(cognito, poolId, id);
    expect(c.SupportedIdentityProviders).toContain(before);
    expect(c.SupportedIdentityProviders).not.toContain("COGNITO");
    expect(c).toMatchObject({
      AllowedOAuthFlows: ["code"],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ["openid", "email", "profile"],
      CallbackURLs: ["https://console.example/sso/callback"],
      LogoutURLs: ["https://console.example/"],
      ExplicitAuthFlows: expect.arrayContaining(["ALLOW_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]),
      RefreshTokenValidity: 720,
      WriteAttributes: ["name"],
    });
    expect(c.ClientSecret).toBeUndefined();
  });

  it("on an update writes the stack's settings and keeps the providers the service listed since", async () => {
    const id = String((await create(12, "https://console.example")).PhysicalResourceId);
    const listed = await provider();
    await listAsTheService(id, listed);
    const out = await update(id, 8, "https://console.example.org", props(12, "https://console.example"));
    expect(out.PhysicalResourceId).toBe(id);
    const c = await describeClient(cognito, poolId, id);
    expect(c.SupportedIdentityProviders).toContain(listed);
    expect(c.SupportedIdentityProviders).not.toContain("COGNITO");
    expect(c.RefreshTokenValidity).toBe(8 * 60);
    expect(c.CallbackURLs).toEqual(["https://console.example.org/sso/callback"]);
  });

  it("waits for the service's lock on the client: a connection listed while the deployment waited is kept", async () => {
    const id = String((await create(12, "https://console.example")).PhysicalResourceId);
    const listed = await provider();
    // A connection holds the lock (shared/sso/client-lock.ts) while the deployment's update starts.
    const now = Date.now();
    expect(await lockClient(id, "a-connection", now, now + 20_000)).toBe(true);
    const deployment = update(id, 6, "https://console.example");
    await listAsTheService(id, listed);
    // The deployment has written nothing while the connection held the lock.
    expect((await describeClient(cognito, poolId, id)).RefreshTokenValidity).toBe(720);
    await unlockClient(id, "a-connection");
    await deployment;
    const c = await describeClient(cognito, poolId, id);
    expect(c.RefreshTokenValidity).toBe(6 * 60);
    expect(c.SupportedIdentityProviders).toContain(listed);
  });

  it("in a pool without providers lists COGNITO alone; once an institution is listed, an update takes COGNITO off", async () => {
    // A pool of its own, so none of the run's providers are in it; the module's calls are made directly, since the
    // function's grants name the stack's pool alone (the IAM check of this run would refuse them on another).
    const created = await cognito.send(new CreateUserPoolCommand({ PoolName: uniq("bare-pool") }));
    const pool = String(created.UserPool?.Id);
    const settings = consoleClientSettings(12, ["https://console.example"]);
    try {
      const id = await createAppClient(cognito, pool, settings);
      expect((await describeClient(cognito, pool, id)).SupportedIdentityProviders).toEqual(["COGNITO"]);
      // A client listing COGNITO beside an institution (as made before this rule): the deployment's update drops it.
      const name = await provider(pool);
      await listOn(id, [name], pool);
      expect((await describeClient(cognito, pool, id)).SupportedIdentityProviders).toEqual(["COGNITO", name]);
      expect(await updateAppClient(cognito, pool, id, settings)).toEqual([name]);
      expect((await describeClient(cognito, pool, id)).SupportedIdentityProviders).toEqual([name]);
    } finally {
      await cognito.send(new DeleteUserPoolCommand({ UserPoolId: pool }));
    }
  });

  it("deletes the client; a delete after a failed create (no client id) touches nothing", async () => {
    const id = String((await create(12, "https://console.example")).PhysicalResourceId);
    const del = (physical: string) =>
      run({
        ...base,
        RequestType: "Delete",
        PhysicalResourceId: physical,
        ResourceProperties: props(12, "https://x.example"),
      } as CdkCustomResourceEvent);
    expect(await del(base.RequestId)).toEqual({ PhysicalResourceId: base.RequestId });
    await del(id);
    await expect(describeClient(cognito, poolId, id)).rejects.toThrow();
    // Gone already is fine: CloudFormation may ask again.
    await del(id);
  });
});
