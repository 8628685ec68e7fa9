/**
 * The local Cognito: the user pool the stack needs, and ID tokens for any user on demand.
 *
 * cognito-local invokes the pool's triggers over the Lambda Invoke API, at the gateway's Lambda endpoint
 * (lambda.ts): the modules the stack deploys (shared/pool-triggers.ts), PreTokenGeneration's answer with the `name`
 * claim added that cognito-local leaves out of its ID tokens (real Cognito has it).
 */

import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  type AttributeType,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  InitiateAuthCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  SetUserPoolMfaConfigCommand,
  UpdateUserPoolClientCommand,
  UsernameExistsException,
} from "@aws-sdk/client-cognito-identity-provider";
import { SUPER_ADMIN_GROUP } from "../../shared/caller.js";
import { PASSWORD_POLICY } from "../../shared/password-policy.js";
import { localFunctionName, POOL_TRIGGERS } from "../../shared/pool-triggers.js";
import { clientProviders, consoleOAuth, describeClient } from "../../shared/sso/app-client.js";

export const POOL_NAME = "institution-admin";
export const CLIENT_NAME = "institution-admin-local";

/** What talking to the local pool takes; a subset of the stack info. */
export interface CognitoTarget {
  readonly cognitoEndpoint: string;
  readonly region: string;
  readonly userPoolId: string;
  readonly userPoolClientId: string;
}

export function cognitoClient(endpoint: string, region: string): CognitoIdentityProviderClient {
  return new CognitoIdentityProviderClient({ endpoint, region, credentials: { accessKeyId: "local", secretAccessKey: "local" } });
}

/**
 * Writes cognito-local's `.cognito/config.json` under `dataDir`: the issuer it signs tokens with, and the
 * triggers it invokes at `triggerEndpoint` (the gateway's Lambda endpoint, lambda.ts): every trigger of the pool
 * (shared/pool-triggers.ts, the modules the stack deploys). cognito-local reads it at start, so call this before
 * each start. What cognito-local 5.3 calls of them: CustomMessage, PostAuthentication, PostConfirmation as Cognito
 * does; PreTokenGeneration on every token it issues (its own flows only: the SSO module answers a federated
 * `TokenGeneration_HostedAuth` alone, and leaves these as they are); PreSignUp on SignUp only, which the service
 * never calls (AdminCreateUser makes its users; the module acts on `PreSignUp_ExternalProvider` alone); never
 * PreAuthentication (listed all the same, as the deployed pool lists it).
 */
export function writeCognitoConfig(dataDir: string, opts: { issuerDomain: string; triggerEndpoint: string }): void {
  const dir = join(dataDir, ".cognito");
  mkdirSync(dir, { recursive: true });
  const pool = Object.fromEntries(Object.entries(POOL_TRIGGERS).map(([trigger, handler]) => [trigger, localFunctionName(handler)]));
  const config = {
    TokenConfig: { IssuerDomain: opts.issuerDomain },
    LambdaClient: { endpoint: opts.triggerEndpoint, region: "local", credentials: { accessKeyId: "local", secretAccessKey: "local" } },
    TriggerFunctions: pool,
  };
  writeFileSync(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * Finds the pool and app client by name, creating what is missing, so a persistent cognito-local keeps its
 * users across runs. Pool: e-mail as user name, custom attribute `account_id`, group `cohort_super_admin`. The
 * app client's OAuth settings are set on every start (the console's origin may have moved); its supported identity
 * providers are left as the SSO connections made them.
 */
export async function ensureUserPool(
  endpoint: string,
  region: string,
  consoleOrigin: string,
): Promise<{ userPoolId: string; userPoolClientId: string }> {
  const cognito = cognitoClient(endpoint, region);
  try {
    const pools = await cognito.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    let userPoolId = pools.UserPools?.find((p) => p.Name === POOL_NAME)?.Id;
    if (!userPoolId) {
      const created = await cognito.send(
        new CreateUserPoolCommand({
          PoolName: POOL_NAME,
          UsernameAttributes: ["email"],
          AutoVerifiedAttributes: ["email"],
          Schema: [
            { Name: "account_id", AttributeDataType: "String", Mutable: true },
            { Name: "sso_groups", AttributeDataType: "String", Mutable: true },
          ],
          // The deployed pool's policy (cognito-local stores it but does not enforce it; the join route does).
          Policies: {
            PasswordPolicy: {
              MinimumLength: PASSWORD_POLICY.minLength,
              RequireLowercase: PASSWORD_POLICY.requireLowercase,
              RequireUppercase: PASSWORD_POLICY.requireUppercase,
              RequireNumbers: PASSWORD_POLICY.requireDigits,
              RequireSymbols: PASSWORD_POLICY.requireSymbols,
            },
          },
        }),
      );
      userPoolId = created.UserPool?.Id;
      if (!userPoolId) throw new Error("cognito-local returned no user pool id");
    }
    // As dev's pool (docs/joining.md): MFA optional, by TOTP, so a user who turned TOTP on is asked for a code.
    // Set on every start, so a pool kept from an earlier run gets it too.
    await cognito.send(
      new SetUserPoolMfaConfigCommand({
        UserPoolId: userPoolId,
        MfaConfiguration: "OPTIONAL",
        SoftwareTokenMfaConfiguration: { Enabled: true },
      }),
    );
    try {
      await cognito.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: SUPER_ADMIN_GROUP }));
    } catch (err) {
      if ((err as Error).name !== "GroupExistsException") throw err;
    }
    const clients = await cognito.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
    let userPoolClientId = clients.UserPoolClients?.find((c) => c.ClientName === CLIENT_NAME)?.ClientId;
    if (!userPoolClientId) {
      const created = await cognito.send(
        new CreateUserPoolClientCommand({
          UserPoolId: userPoolId,
          ClientName: CLIENT_NAME,
          GenerateSecret: false,
          ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
        }),
      );
      userPoolClientId = created.UserPoolClient?.ClientId;
      if (!userPoolClientId) throw new Error("cognito-local returned no app client id");
    }
    // cognito-local's update keeps every field it is not given (Cognito's resets them; shared/sso/pool.ts writes whole).
    // The providers by the deployed client's rule, so a pool kept from an earlier run loses a `COGNITO` listed beside them.
    const listed = (await describeClient(cognito, userPoolId, userPoolClientId)).SupportedIdentityProviders ?? [];
    await cognito.send(
      new UpdateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientId: userPoolClientId,
        ...consoleOAuth([consoleOrigin]),
        SupportedIdentityProviders: clientProviders(listed),
      }),
    );
    return { userPoolId, userPoolClientId };
  } finally {
    cognito.destroy();
  }
}

export interface TokenOptions {
  /** Member of `cohort_super_admin` (true) or not (false, the default: membership is removed). */
  readonly superAdmin?: boolean;
  /** `custom:account_id`; default `defaultAccount(email)`. */
  readonly account?: string;
  /** `name`; when left out, a new user has none and an existing one keeps theirs. */
  readonly name?: string;
  /**
   * The user's permanent password from now on, so a person can sign in to the console with it; default a
   * fresh random one (the token is then all the caller gets).
   */
  readonly password?: string;
}

/** The account a user gets when none is given: `acct-<e-mail domain>`, so colleagues share one. */
export function defaultAccount(email: string): string {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return `acct-${domain || "default"}`;
}

function normalizeEmail(email: string): string {
  const username = email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+$/.test(username)) throw new Error(`not an e-mail address: "${email}"`);
  return username;
}

/**
 * Creates `username` in the local pool, or updates its attributes, to match `opts`; then sets its password
 * (`permanent` false: the user must choose a new one at the next sign-in) and its group membership.
 */
async function upsertUser(
  cognito: CognitoIdentityProviderClient,
  target: CognitoTarget,
  username: string,
  opts: Omit<TokenOptions, "password">,
  password: { value: string; permanent: boolean },
): Promise<void> {
  const { userPoolId: UserPoolId } = target;
  const attributes: AttributeType[] = [{ Name: "custom:account_id", Value: opts.account ?? defaultAccount(username) }];
  if (opts.name !== undefined) attributes.push({ Name: "name", Value: opts.name });
  try {
    await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId,
        Username: username,
        MessageAction: "SUPPRESS",
        UserAttributes: [{ Name: "email", Value: username }, { Name: "email_verified", Value: "true" }, ...attributes],
      }),
    );
  } catch (err) {
    if (!(err instanceof UsernameExistsException) && (err as Error).name !== "UsernameExistsException") throw err;
    await cognito.send(new AdminUpdateUserAttributesCommand({ UserPoolId, Username: username, UserAttributes: attributes }));
  }
  await cognito.send(
    new AdminSetUserPasswordCommand({ UserPoolId, Username: username, Password: password.value, Permanent: password.permanent }),
  );
  const group = { UserPoolId, Username: username, GroupName: SUPER_ADMIN_GROUP };
  await cognito.send(opts.superAdmin ? new AdminAddUserToGroupCommand(group) : new AdminRemoveUserFromGroupCommand(group));
}

/**
 * Creates or updates `email` in the local pool to match `opts`, signs in with USER_PASSWORD_AUTH and returns
 * the ID token. Each call sets a new random password unless `opts.password` names one.
 */
export async function issueIdToken(target: CognitoTarget, email: string, opts: TokenOptions = {}): Promise<string> {
  const username = normalizeEmail(email);
  const password = opts.password ?? `${randomBytes(18).toString("base64url")}aA1!`;
  const cognito = cognitoClient(target.cognitoEndpoint, target.region);
  try {
    await upsertUser(cognito, target, username, opts, { value: password, permanent: true });
  } finally {
    cognito.destroy();
  }
  return signIn(target, username, password);
}

/** Signs `username` in with USER_PASSWORD_AUTH (as the console does locally) and returns the ID token. */
export async function signIn(target: CognitoTarget, username: string, password: string): Promise<string> {
  const cognito = cognitoClient(target.cognitoEndpoint, target.region);
  try {
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: target.userPoolClientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: username, PASSWORD: password },
      }),
    );
    const token = auth.AuthenticationResult?.IdToken;
    if (!token) throw new Error(`cognito-local returned no ID token for ${username} (challenge: ${auth.ChallengeName ?? "none"})`);
    return token;
  } finally {
    cognito.destroy();
  }
}

/**
 * Creates or updates `email` with a temporary password, as an administrator creates a user in Cognito: the
 * first sign-in answers NEW_PASSWORD_REQUIRED and the user must choose a password of their own.
 */
export async function createUserWithTemporaryPassword(
  target: CognitoTarget,
  email: string,
  temporaryPassword: string,
  opts: Omit<TokenOptions, "password"> = {},
): Promise<void> {
  const cognito = cognitoClient(target.cognitoEndpoint, target.region);
  try {
    await upsertUser(cognito, target, normalizeEmail(email), opts, { value: temporaryPassword, permanent: false });
  } finally {
    cognito.destroy();
  }
}
