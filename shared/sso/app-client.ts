/**
 * The console's app client (docs/sso.md, "The redeploy rule"). Its supported identity providers belong to the
 * service, which lists each institution's provider at run time (pool.ts); any CloudFormation update of an
 * `AWS::Cognito::UserPoolClient` would reset them to the template's. So the stack does not declare the client:
 * a custom resource (functions/sso/app-client.ts) creates it with every provider the pool has, and on each update
 * writes the stack's settings while keeping the providers the client lists now. The local stack applies the same
 * OAuth settings to its client (infra/local/stack.ts).
 *
 * Each function takes its Cognito client: the custom resource's (shared/cognito.ts), or the local stack's.
 */
import {
  type CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  DescribeUserPoolClientCommand,
  ListIdentityProvidersCommand,
  type ListIdentityProvidersCommandOutput,
  UpdateUserPoolClientCommand,
  type UpdateUserPoolClientCommandInput,
  type UserPoolClientType,
} from "@aws-sdk/client-cognito-identity-provider";

/** The client's fields UpdateUserPoolClient takes: all of them, or it resets the ones left out. */
export const CLIENT_FIELDS = [
  "ClientName",
  "RefreshTokenValidity",
  "AccessTokenValidity",
  "IdTokenValidity",
  "TokenValidityUnits",
  "ReadAttributes",
  "WriteAttributes",
  "ExplicitAuthFlows",
  "SupportedIdentityProviders",
  "CallbackURLs",
  "LogoutURLs",
  "DefaultRedirectURI",
  "AllowedOAuthFlows",
  "AllowedOAuthScopes",
  "AllowedOAuthFlowsUserPoolClient",
  "AnalyticsConfiguration",
  "PreventUserExistenceErrors",
  "EnableTokenRevocation",
  "EnablePropagateAdditionalUserContextData",
  "AuthSessionValidity",
  "RefreshTokenRotation",
] as const satisfies readonly (keyof UpdateUserPoolClientCommandInput)[];

/** What the stack says of the client: every field but the pool, the id and the providers, which are the service's. */
export type ClientSettings = Omit<UpdateUserPoolClientCommandInput, "UserPoolId" | "ClientId" | "SupportedIdentityProviders">;

/** The pool's own sign-in: the managed login's password form. */
export const COGNITO_PROVIDER = "COGNITO";
/**
 * The rule `clientProviders` keeps, named among the custom resource's properties (infra/app-client.ts): a new rule
 * is a changed property, so the deployment that brings it updates the client once, which rewrites its list by it.
 */
export const PROVIDERS_RULE = "institutions-only";
/** Where the managed login sends the console back with the code, on the console's origin. */
export const CALLBACK_PATH = "/sso/callback";
export const OAUTH_SCOPES = ["openid", "email", "profile"] as const;

/**
 * The console's OAuth: the authorization-code grant only (a public client, so the console proves the code with
 * PKCE), scopes `openid email profile`, back to `<console>/sso/callback`, and `<console>/` after signing out.
 */
export function consoleOAuth(consoleOrigins: readonly string[]) {
  const origins = [...new Set(consoleOrigins.map((o) => o.replace(/\/+$/, "")))];
  return {
    AllowedOAuthFlowsUserPoolClient: true,
    AllowedOAuthFlows: ["code"],
    AllowedOAuthScopes: [...OAUTH_SCOPES],
    CallbackURLs: origins.map((o) => `${o}${CALLBACK_PATH}`),
    LogoutURLs: origins.map((o) => `${o}/`),
  } satisfies ClientSettings;
}

/** The client as Cognito describes it, in UpdateUserPoolClient's fields. */
function wholeClient(client: UserPoolClientType): ClientSettings & Pick<UpdateUserPoolClientCommandInput, "SupportedIdentityProviders"> {
  const input: Record<string, unknown> = {};
  for (const field of CLIENT_FIELDS) if (client[field] !== undefined) input[field] = client[field];
  return input;
}

/**
 * The client's supported providers for the institutions' `providers` (docs/sso.md, "The console's app client"): those
 * alone, once each, so the managed login has no password form, where a linked person's password sign-in would pass for
 * a federated one. The console's password sign-in is the user-pool API's, which this list does not govern. `COGNITO`
 * alone while no institution is connected: an OAuth client needs one provider to list.
 */
export function clientProviders(providers: readonly string[]): string[] {
  const institutions = [...new Set(providers.filter((p) => p !== COGNITO_PROVIDER))];
  return institutions.length > 0 ? institutions : [COGNITO_PROVIDER];
}

/** Every identity provider of the pool (the service made each, for an institution's connection). */
export async function poolProviders(cognito: CognitoIdentityProviderClient, poolId: string): Promise<string[]> {
  const names: string[] = [];
  let NextToken: string | undefined;
  do {
    const page: ListIdentityProvidersCommandOutput = await cognito.send(
      new ListIdentityProvidersCommand({ UserPoolId: poolId, MaxResults: 60, ...(NextToken && { NextToken }) }),
    );
    for (const p of page.Providers ?? []) if (p.ProviderName) names.push(p.ProviderName);
    NextToken = page.NextToken;
  } while (NextToken);
  return names;
}

/** The client `clientId` of the pool. */
export async function describeClient(
  cognito: CognitoIdentityProviderClient,
  poolId: string,
  clientId: string,
): Promise<UserPoolClientType> {
  const out = await cognito.send(new DescribeUserPoolClientCommand({ UserPoolId: poolId, ClientId: clientId }));
  if (!out.UserPoolClient) throw new Error(`The user pool described no app client ${clientId}`);
  return out.UserPoolClient;
}

/**
 * Creates the client with `settings`, listing every provider the pool has (`clientProviders`): a new client (a first
 * deployment, or one that replaces an older client) disconnects no institution. Its id.
 */
export async function createAppClient(cognito: CognitoIdentityProviderClient, poolId: string, settings: ClientSettings): Promise<string> {
  const providers = clientProviders(await poolProviders(cognito, poolId));
  const out = await cognito.send(
    new CreateUserPoolClientCommand({
      ...settings,
      ClientName: settings.ClientName ?? "console",
      UserPoolId: poolId,
      GenerateSecret: false,
      SupportedIdentityProviders: providers,
    }),
  );
  const id = out.UserPoolClient?.ClientId;
  if (!id) throw new Error("CreateUserPoolClient answered without the client's id");
  return id;
}

/**
 * Writes `settings` over the client, read whole and written back whole, keeping the institutions' providers it lists
 * now (the caller holds the client's lock, so no connection lists one meanwhile). The providers it lists.
 */
export async function updateAppClient(
  cognito: CognitoIdentityProviderClient,
  poolId: string,
  clientId: string,
  settings: ClientSettings,
): Promise<string[]> {
  const current = wholeClient(await describeClient(cognito, poolId, clientId));
  const providers = clientProviders(current.SupportedIdentityProviders ?? []);
  await cognito.send(
    new UpdateUserPoolClientCommand({
      ...current,
      ...settings,
      UserPoolId: poolId,
      ClientId: clientId,
      SupportedIdentityProviders: providers,
    }),
  );
  return providers;
}

/** Deletes the client (gone already is fine). */
export async function deleteAppClient(cognito: CognitoIdentityProviderClient, poolId: string, clientId: string): Promise<void> {
  try {
    await cognito.send(new DeleteUserPoolClientCommand({ UserPoolId: poolId, ClientId: clientId }));
  } catch (err) {
    if ((err as Error).name !== "ResourceNotFoundException") throw err;
  }
}
