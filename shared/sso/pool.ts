/**
 * The user pool's side of an SSO connection (docs/sso.md): in AWS the pool does the protocol, so the
 * institution's identity provider is made in it (`CreateIdentityProvider`, SAML or OIDC, with its attribute
 * mapping) and listed among the console app client's supported providers. Locally the same calls go to the
 * local Cognito, whose stand-ins keep the providers (infra/local/cognito-local.mjs).
 *
 * `UpdateUserPoolClient` sets every field it is given and resets the others, so the list is changed by reading
 * the client whole (`DescribeUserPoolClient`) and writing it back whole, under a lock (client-lock.ts) that makes
 * two connections at once wait for each other instead of losing one's entry.
 */
import {
  CreateIdentityProviderCommand,
  DeleteIdentityProviderCommand,
  DescribeUserPoolClientCommand,
  UpdateIdentityProviderCommand,
  UpdateUserPoolClientCommand,
  type UpdateUserPoolClientCommandInput,
} from "@aws-sdk/client-cognito-identity-provider";
import { cognitoClient, cognitoError } from "../cognito.js";
import { BadGateway } from "../errors.js";
import { need, readSettings, USERS } from "../settings.js";
import { CLIENT_FIELDS, clientProviders } from "./app-client.js";
import { underClientLock } from "./client-lock.js";

const settings = readSettings(USERS(), ["USER_POOL_ID", "USER_POOL_CLIENT_ID", "COGNITO_DOMAIN"]);

const cognito = cognitoClient({ connectionTimeout: 1_000, requestTimeout: 8_000 });

const poolId = () => need(settings.USER_POOL_ID, "USER_POOL_ID");
const clientId = () => need(settings.USER_POOL_CLIENT_ID, "USER_POOL_CLIENT_ID");

/** What Cognito's documentation gives an IdP's administrator to paste (docs/sso.md). */
export function serviceProvider() {
  const domain = need(settings.COGNITO_DOMAIN, "COGNITO_DOMAIN").replace(/\/+$/, "");
  return {
    entity_id: `urn:amazon:cognito:sp:${poolId()}`,
    acs_url: `${domain}/saml2/idpresponse`,
    redirect_uri: `${domain}/oauth2/idpresponse`,
  };
}

export interface ProviderSpec {
  readonly name: string;
  readonly type: "SAML" | "OIDC";
  readonly details: Record<string, string>;
  /** Pool attribute → IdP attribute or claim. */
  readonly mapping: Record<string, string>;
}

/** The pool refused what it was given (a 4xx of Cognito's): the connection's problem, said to the caller as 422. */
export class PoolRefused extends Error {
  override readonly name = "PoolRefused";
}

const named = cognitoError;

/** A Cognito error for the caller: its refusals of the input are 422s, anything else the pool's failure (502). */
function translated(err: unknown): Error {
  if (named(err, "InvalidParameterException", "UnsupportedIdentityProviderException")) {
    return new PoolRefused(`The user pool refused the identity provider: ${(err as Error).message.slice(0, 200)}`);
  }
  return new BadGateway("The user pool could not be updated, please retry");
}

/** Makes the provider, or (`exists`: left by an attempt that did not finish) writes it over with `spec`. */
export async function putProvider(spec: ProviderSpec): Promise<void> {
  const input = {
    UserPoolId: poolId(),
    ProviderName: spec.name,
    ProviderDetails: spec.details,
    AttributeMapping: spec.mapping,
  };
  try {
    await cognito.send(new CreateIdentityProviderCommand({ ...input, ProviderType: spec.type }));
  } catch (err) {
    if (!named(err, "DuplicateProviderException")) throw translated(err);
    await updateProvider(spec);
  }
}

/** Writes the provider's details (when given) and mapping. */
export async function updateProvider(spec: Omit<ProviderSpec, "details"> & { details?: Record<string, string> }): Promise<void> {
  try {
    await cognito.send(
      new UpdateIdentityProviderCommand({
        UserPoolId: poolId(),
        ProviderName: spec.name,
        ...(spec.details && { ProviderDetails: spec.details }),
        AttributeMapping: spec.mapping,
      }),
    );
  } catch (err) {
    throw translated(err);
  }
}

/** Deletes the provider (gone already is fine). */
export async function deleteProvider(name: string): Promise<void> {
  try {
    await cognito.send(new DeleteIdentityProviderCommand({ UserPoolId: poolId(), ProviderName: name }));
  } catch (err) {
    if (!named(err, "ResourceNotFoundException")) throw translated(err);
  }
}

/**
 * Lists `name` among the console app client's supported providers (`present`), or takes it off: the client read
 * and written back whole, under the lock; read again after, so a write that did not take shows as a 502.
 * The list is the institutions' providers alone (`clientProviders`: `COGNITO` only while there is none).
 */
export async function listOnClient(name: string, present: boolean): Promise<void> {
  const ids = { UserPoolId: poolId(), ClientId: clientId() };
  const listed = async () => {
    const out = await cognito.send(new DescribeUserPoolClientCommand(ids));
    if (!out.UserPoolClient) throw new BadGateway("The user pool could not be updated, please retry");
    return out.UserPoolClient;
  };
  try {
    await underClientLock(ids.ClientId, async () => {
      const client = await listed();
      const before = client.SupportedIdentityProviders ?? [];
      const providers = clientProviders(present ? [...before, name] : before.filter((p) => p !== name));
      if (providers.length === before.length && providers.every((p) => before.includes(p))) return;
      const input: UpdateUserPoolClientCommandInput = { ...ids };
      for (const field of CLIENT_FIELDS) if (client[field] !== undefined) Object.assign(input, { [field]: client[field] });
      input.SupportedIdentityProviders = providers;
      await cognito.send(new UpdateUserPoolClientCommand(input));
      const after = (await listed()).SupportedIdentityProviders ?? [];
      if (after.includes(name) !== present) throw new BadGateway("The user pool could not be updated, please retry");
    });
  } catch (err) {
    if (err instanceof BadGateway) throw err;
    throw translated(err);
  }
}
