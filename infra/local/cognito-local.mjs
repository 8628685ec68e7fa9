/**
 * cognito-local, started as its own bin does, with the gaps to real Cognito that the service relies on closed,
 * each the smallest change to cognito-local's own pluggable parts (docs/local-stack.md):
 *
 * - The pool's mail on the local mail page. cognito-local runs the pool's CustomMessage trigger (the module the
 *   stack deploys, shared/pool-triggers.ts) and then only prints the message in its log; here the trigger's
 *   subject and message, the code in place, also go to the local SES (LOCAL_SES_ENDPOINT), as Cognito sends them
 *   through SES in AWS. The words are the trigger's alone: a message it did not write is not sent.
 * - The user-activity export (Plus plan): what Cognito writes to the export's log group, and the log group's
 *   subscription hands to the activity function, for what no trigger sees: a failed sign-in (the password, or
 *   the second step's code) and a password change. Each record goes to the same function
 *   (functions/pool/activity.ts) at the gateway's Lambda endpoint (LOCAL_LAMBDA_ENDPOINT), wrapped as a
 *   CloudWatch Logs subscription event. In AWS it arrives seconds later; here before the call returns, and a
 *   record that cannot be delivered never fails the person's call (it is logged). Successful sign-ins and
 *   completed resets are not sent: their triggers record them, and the activity function leaves them out.
 * - GlobalSignOut (a person's own access token) and AdminUserGlobalSignOut (the service's route, docs/contract/people.md):
 *   every refresh token of the user stops working, as in Cognito. cognito-local has neither target.
 * - AdminSetUserMFAPreference (the service's MFA route): as cognito-local's SetUserMFAPreference, for a user
 *   named by the pool's id and user name instead of an access token. cognito-local lacks it.
 * - GetTokensFromRefreshToken (how Amplify refreshes): the REFRESH_TOKEN_AUTH flow cognito-local has, under
 *   the name Amplify calls.
 * - Identity providers (docs/sso.md): cognito-local has no federation. Create, Update, Delete, Describe and
 *   ListIdentityProviders keep each provider (its type, details, client secret included, and attribute mapping) in
 *   the pool's own store, with Cognito's checks (a name taken, the name's form, the type), so an SSO connection's
 *   calls succeed as in AWS and the local federation stand-in can read the providers later; UpdateUserPoolClient
 *   refuses a supported provider that does not exist, as Cognito does.
 * - Linking a federated identity (AdminLinkProviderForUser), and the pre authentication trigger cognito-local does not
 *   run (require SSO): infra/local/cognito-federation.mjs.
 * - The pool's managed login (`/oauth2/authorize` with an identity provider, `/saml2/idpresponse`,
 *   `/oauth2/idpresponse`, `/oauth2/token`, `/logout`) on this server: infra/local/cognito-managed-login.mjs. So the
 *   server is started here as cognito-local's bin and `createDefaultServer` would, with its services at hand.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
// Node 24 runs these TypeScript modules as they are (they hold only erasable types and import nothing of ours).
import { subscriptionEvent } from "../../shared/people/activity-log.ts";
import { textOf } from "../../shared/pool-mail.ts";
import { localFunctionName, POOL_ACTIVITY_HANDLER } from "../../shared/pool-triggers.ts";
import { installFederation, installPreAuthentication, LINKS } from "./cognito-federation.mjs";
import { installManagedLogin } from "./cognito-managed-login.mjs";

// Resolved from cognito-local's own directory: its modules and its dependencies (jsonwebtoken), as it sees them.
const require = createRequire(createRequire(import.meta.url).resolve("cognito-local/package.json"));
const lib = (path) => require(`./lib/${path}`);

const { ConsoleMessageSender } = lib("services/messageDelivery/consoleMessageSender");
const { Targets } = lib("targets/targets");
const {
  NotAuthorizedError,
  InvalidParameterError,
  InvalidPasswordError,
  CodeMismatchError,
  UserNotFoundError,
  CognitoError,
  ResourceNotFoundError,
} = lib("errors");

const sesEndpoint = process.env.LOCAL_SES_ENDPOINT;
const lambdaEndpoint = process.env.LOCAL_LAMBDA_ENDPOINT;
const from = process.env.MAIL_FROM || "no-reply@institution-admin.local";

// ---- the pool's mail, in the CustomMessage trigger's words ------------------------------------------------

const sendEmail = ConsoleMessageSender.prototype.sendEmail;
ConsoleMessageSender.prototype.sendEmail = async function (ctx, user, destination, message) {
  await sendEmail.call(this, ctx, user, destination, message);
  if (!sesEndpoint || !destination) return;
  if (!message.emailSubject || !message.emailMessage) {
    console.error(`the CustomMessage trigger wrote no mail to ${destination}: nothing sent (see the gateway's log)`);
    return;
  }
  try {
    const res = await fetch(`${sesEndpoint}/v2/email/outbound-emails`, {
      method: "POST",
      // The local SES wants some credential, as the SDK would send; any will do.
      headers: { "content-type": "application/json", authorization: "AWS4-HMAC-SHA256 Credential=local/local/local/ses/aws4_request" },
      body: JSON.stringify({
        FromEmailAddress: from,
        Destination: { ToAddresses: [destination] },
        Content: {
          Simple: {
            Subject: { Data: message.emailSubject },
            // Cognito sends the message as the mail's HTML; the text part is what a reader shows of it.
            Body: { Html: { Data: message.emailMessage }, Text: { Data: textOf(message.emailMessage) } },
          },
        },
      }),
    });
    if (!res.ok) console.error(`local SES answered ${res.status} to a pool mail: ${await res.text()}`);
  } catch (err) {
    console.error(`local SES unreachable for a pool mail: ${err}`);
  }
};

// ---- the user-activity export ------------------------------------------------------------------------------

const attribute = (user, name) => user.Attributes?.find((a) => a.Name === name)?.Value;

/** One record to the activity function, as the export's log subscription delivers it. Never throws. */
async function deliverActivity(record) {
  if (!lambdaEndpoint) return;
  const now = Date.now();
  const message = JSON.stringify({
    eventSource: "USER_AUTH_EVENTS",
    logLevel: "INFO",
    userPoolId: record.userPoolId,
    message: { eventId: randomUUID(), eventTimestamp: String(now), ...record },
  });
  const event = subscriptionEvent(
    [{ id: `${now}${Math.floor(Math.random() * 1e9)}`, timestamp: now, message }],
    `/aws/vendedlogs/cognito/local/${record.userPoolId}/user-activity`,
  );
  try {
    const res = await fetch(`${lambdaEndpoint}/2015-03-31/functions/${localFunctionName(POOL_ACTIVITY_HANDLER)}/invocations`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-amz-invocation-type": "RequestResponse" },
      body: JSON.stringify(event),
      signal: AbortSignal.timeout(15_000),
    });
    const answer = await res.text();
    if (!res.ok || res.headers.get("x-amz-function-error"))
      console.error(`the activity function failed on a ${record.eventType} record: ${answer}`);
  } catch (err) {
    console.error(`the activity function is unreachable for a ${record.eventType} record: ${err}`);
  }
}

/** The record of `user`'s `eventType` in the pool of `clientId`; nothing for a name the pool does not know. */
async function reportActivity(services, ctx, clientId, username, eventType, eventResponse, challenges) {
  try {
    const userPool = await services.cognito.getUserPoolForClientId(ctx, clientId);
    const user = username ? await userPool.getUserByUsername(ctx, username) : null;
    if (!user) return;
    await deliverActivity({
      eventType,
      eventResponse,
      userSub: attribute(user, "sub"),
      userName: user.Username,
      userPoolId: userPool.options.Id,
      clientId,
      challenges: Object.entries(challenges).map(([challengeName, challengeResponse]) => ({ challengeName, challengeResponse })),
    });
  } catch (err) {
    console.error(`activity record of ${eventType} not sent: ${err}`);
  }
}

const initiateAuth = Targets.InitiateAuth;
Targets.InitiateAuth = (services) => {
  const run = initiateAuth(services);
  return async (ctx, req) => {
    try {
      return await run(ctx, req);
    } catch (err) {
      // cognito-local refuses a wrong password with InvalidPasswordException (Cognito: NotAuthorizedException).
      if (req.AuthFlow === "USER_PASSWORD_AUTH" && (err instanceof InvalidPasswordError || err instanceof NotAuthorizedError)) {
        await reportActivity(services, ctx, req.ClientId, req.AuthParameters?.USERNAME, "SignIn", "Fail", { Password: "Failure" });
      }
      throw err;
    }
  };
};

const respondToAuthChallenge = Targets.RespondToAuthChallenge;
Targets.RespondToAuthChallenge = (services) => {
  const run = respondToAuthChallenge(services);
  return async (ctx, req) => {
    try {
      return await run(ctx, req);
    } catch (err) {
      if (err instanceof CodeMismatchError && /_MFA$/.test(String(req.ChallengeName))) {
        const challenges = { Password: "Success", Mfa: "Failure" };
        await reportActivity(services, ctx, req.ClientId, req.ChallengeResponses?.USERNAME, "SignIn", "Fail", challenges);
      }
      throw err;
    }
  };
};

const jwt = require("jsonwebtoken");

const changePassword = Targets.ChangePassword;
Targets.ChangePassword = (services) => {
  const run = changePassword(services);
  return async (ctx, req) => {
    const out = await run(ctx, req);
    const token = jwt.decode(req.AccessToken);
    if (token && typeof token.client_id === "string") {
      await reportActivity(services, ctx, token.client_id, token.username ?? token.sub, "PasswordChange", "Pass", {});
    }
    return out;
  };
};

// ---- targets cognito-local lacks ---------------------------------------------------------------------------

const signOutUser = async (userPool, ctx, user) => userPool.saveUser(ctx, { ...user, RefreshTokens: [] });

Targets.GlobalSignOut =
  ({ cognito }) =>
  async (ctx, req) => {
    const token = jwt.decode(req.AccessToken);
    if (!token || typeof token.client_id !== "string" || typeof token.sub !== "string") throw new InvalidParameterError();
    const userPool = await cognito.getUserPoolForClientId(ctx, token.client_id);
    const user = await userPool.getUserByUsername(ctx, token.sub);
    if (!user) throw new NotAuthorizedError();
    await signOutUser(userPool, ctx, user);
    return {};
  };

Targets.AdminUserGlobalSignOut =
  ({ cognito }) =>
  async (ctx, req) => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
    const user = await userPool.getUserByUsername(ctx, req.Username);
    if (!user) throw new UserNotFoundError();
    await signOutUser(userPool, ctx, user);
    return {};
  };

/** cognito-local's SetUserMFAPreference, for a user named by pool and user name: the same checks, the same result. */
Targets.AdminSetUserMFAPreference =
  ({ cognito }) =>
  async (ctx, req) => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
    const user = await userPool.getUserByUsername(ctx, req.Username);
    if (!user) throw new UserNotFoundError();
    const sms = req.SMSMfaSettings;
    const software = req.SoftwareTokenMfaSettings;
    if (software?.Enabled && !user.SoftwareTokenMfaConfiguration?.Verified) {
      throw new InvalidParameterError("User has not verified software token mfa");
    }
    const methods = new Set(user.UserMFASettingList ?? []);
    if (sms) sms.Enabled ? methods.add("SMS_MFA") : methods.delete("SMS_MFA");
    if (software) software.Enabled ? methods.add("SOFTWARE_TOKEN_MFA") : methods.delete("SOFTWARE_TOKEN_MFA");
    const preferred = sms?.PreferredMfa ? "SMS_MFA" : software?.PreferredMfa ? "SOFTWARE_TOKEN_MFA" : undefined;
    if (preferred && !methods.has(preferred)) throw new InvalidParameterError(`Cannot set ${preferred} as preferred: it is not enabled`);
    await userPool.saveUser(ctx, { ...user, UserMFASettingList: [...methods], PreferredMfaSetting: preferred });
    return {};
  };

Targets.GetTokensFromRefreshToken = (services) => {
  const initiate = Targets.InitiateAuth(services);
  return async (ctx, req) => {
    const out = await initiate(ctx, {
      AuthFlow: "REFRESH_TOKEN_AUTH",
      ClientId: req.ClientId,
      AuthParameters: { REFRESH_TOKEN: req.RefreshToken },
    });
    return { AuthenticationResult: out.AuthenticationResult };
  };
};

// --- identity providers (docs/sso.md) ---------------------------------------------------------------

const PROVIDERS = "IdentityProviders";
/** Cognito's rule for a SAML or OIDC provider's name: 1 to 32 characters, no leading underscore or space. */
const PROVIDER_NAME = /^[^_\p{Z}][\p{L}\p{M}\p{S}\p{N}\p{P}][^_\p{Z}]{0,30}$/u;
const RESERVED = new Set(["cognito", "google", "facebook", "loginwithamazon", "signinwithapple"]);

const providerOf = (poolId, p) => ({
  UserPoolId: poolId,
  ProviderName: p.ProviderName,
  ProviderType: p.ProviderType,
  ProviderDetails: p.ProviderDetails,
  AttributeMapping: p.AttributeMapping,
  IdpIdentifiers: p.IdpIdentifiers,
  CreationDate: p.CreationDate,
  LastModifiedDate: p.LastModifiedDate,
});

/** The pool's provider named `name` (own properties only), from the whole map: StormDB cannot read below a missing key. */
async function storedProvider(ctx, userPool, name) {
  const all = (await userPool.dataStore.get(ctx, PROVIDERS)) ?? {};
  const found = Object.hasOwn(all, name) ? all[name] : undefined;
  return found && typeof found === "object" ? found : undefined;
}

Targets.CreateIdentityProvider =
  ({ cognito, clock }) =>
  async (ctx, req) => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
    const name = String(req.ProviderName ?? "");
    if (!PROVIDER_NAME.test(name) || RESERVED.has(name.toLowerCase())) throw new InvalidParameterError(`Invalid provider name ${name}`);
    if (req.ProviderType !== "SAML" && req.ProviderType !== "OIDC") throw new InvalidParameterError("Only SAML and OIDC are stood in for");
    const details = req.ProviderDetails ?? {};
    if (req.ProviderType === "SAML" && !details.MetadataURL && !details.MetadataFile)
      throw new InvalidParameterError("SAML needs MetadataURL or MetadataFile");
    if (req.ProviderType === "OIDC" && (!details.client_id || !details.oidc_issuer || !details.authorize_scopes))
      throw new InvalidParameterError("OIDC needs client_id, oidc_issuer and authorize_scopes");
    if (await storedProvider(ctx, userPool, name)) {
      throw new CognitoError("DuplicateProviderException", `A provider with the name ${name} already exists in this user pool.`);
    }
    const now = clock.get();
    const provider = {
      ProviderName: name,
      ProviderType: req.ProviderType,
      ProviderDetails: details,
      AttributeMapping: req.AttributeMapping ?? {},
      IdpIdentifiers: req.IdpIdentifiers ?? [],
      CreationDate: now,
      LastModifiedDate: now,
    };
    await userPool.dataStore.set(ctx, [PROVIDERS, name], provider);
    return { IdentityProvider: providerOf(req.UserPoolId, provider) };
  };

Targets.UpdateIdentityProvider =
  ({ cognito, clock }) =>
  async (ctx, req) => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
    const found = await storedProvider(ctx, userPool, String(req.ProviderName ?? ""));
    if (!found) throw new ResourceNotFoundError(`Identity provider ${req.ProviderName} does not exist.`);
    const provider = {
      ...found,
      ...(req.ProviderDetails && { ProviderDetails: { ...found.ProviderDetails, ...req.ProviderDetails } }),
      ...(req.AttributeMapping && { AttributeMapping: req.AttributeMapping }),
      ...(req.IdpIdentifiers && { IdpIdentifiers: req.IdpIdentifiers }),
      LastModifiedDate: clock.get(),
    };
    await userPool.dataStore.set(ctx, [PROVIDERS, provider.ProviderName], provider);
    return { IdentityProvider: providerOf(req.UserPoolId, provider) };
  };

Targets.DeleteIdentityProvider =
  ({ cognito }) =>
  async (ctx, req) => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
    const name = String(req.ProviderName ?? "");
    if (!(await storedProvider(ctx, userPool, name))) throw new ResourceNotFoundError(`Identity provider ${name} does not exist.`);
    await userPool.dataStore.delete(ctx, [PROVIDERS, name]);
    return {};
  };

Targets.DescribeIdentityProvider =
  ({ cognito }) =>
  async (ctx, req) => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
    const found = await storedProvider(ctx, userPool, String(req.ProviderName ?? ""));
    if (!found) throw new ResourceNotFoundError(`Identity provider ${req.ProviderName} does not exist.`);
    return { IdentityProvider: providerOf(req.UserPoolId, found) };
  };

Targets.ListIdentityProviders =
  ({ cognito }) =>
  async (ctx, req) => {
    const userPool = await cognito.getUserPool(ctx, req.UserPoolId);
    const all = Object.values((await userPool.dataStore.get(ctx, PROVIDERS)) ?? {});
    return {
      Providers: all.map((p) => ({
        ProviderName: p.ProviderName,
        ProviderType: p.ProviderType,
        CreationDate: p.CreationDate,
        LastModifiedDate: p.LastModifiedDate,
      })),
    };
  };

// Cognito refuses an app client that lists a provider the pool does not have.
const updateUserPoolClient = Targets.UpdateUserPoolClient;
Targets.UpdateUserPoolClient = (services) => {
  const update = updateUserPoolClient(services);
  return async (ctx, req) => {
    if (Array.isArray(req.SupportedIdentityProviders)) {
      const userPool = await services.cognito.getUserPool(ctx, req.UserPoolId);
      for (const name of req.SupportedIdentityProviders) {
        if (name !== "COGNITO" && !(await storedProvider(ctx, userPool, String(name)))) {
          throw new InvalidParameterError(`The provider ${name} does not exist for User Pool ${req.UserPoolId}`);
        }
      }
    }
    return update(ctx, req);
  };
};

installFederation(Targets, { InvalidParameterError, ResourceNotFoundError, CognitoError }, storedProvider);
installPreAuthentication(Targets, lib("errors"), {
  Lambda: require("aws-sdk").Lambda,
  attributesToRecord: lib("services/userPoolService").attributesToRecord,
});

// ---- the server: cognito-local's bin and createDefaultServer, with the managed login's routes added -------------

const pino = require("pino");
const pretty = require("pino-pretty");
const AWS = require("aws-sdk");
const { DateClock, TriggersService, LambdaService, MessagesService } = lib("services");
const { CognitoServiceFactoryImpl } = lib("services/cognitoService");
const { CryptoService } = lib("services/crypto");
const { StormDBDataStoreFactory } = lib("services/dataStore/stormDb");
const { MessageDeliveryService } = lib("services/messageDelivery/messageDelivery");
const { otp } = lib("services/otp");
const { JwtTokenGenerator } = lib("services/tokenGenerator");
const { UserPoolServiceFactoryImpl } = lib("services/userPoolService");
const { loadConfig } = lib("server/config");
const { Router } = lib("server/Router");
const { createServer } = lib("server/server");
const { attachOAuth2Routes } = lib("oauth2/routes");
const { AuthorizationCodeStore } = lib("oauth2/authorizationCodeStore");

const logger = pino(
  { level: "info" },
  pretty({
    colorize: true,
    ignore: "pid,name,hostname",
    singleLine: true,
    messageFormat: (log, key) => `${log.reqId ?? "NONE"} ${log.target ?? "NONE"} ${log[key]}`,
  }),
);
try {
  const ctx = { logger };
  const config = await loadConfig(ctx, new StormDBDataStoreFactory(".cognito"));
  const clock = new DateClock();
  const dataStoreFactory = new StormDBDataStoreFactory(".cognito/db");
  const cognitoFactory = new CognitoServiceFactoryImpl(
    ".cognito/db",
    dataStoreFactory,
    new UserPoolServiceFactoryImpl(clock, dataStoreFactory),
  );
  const cognitoClient = await cognitoFactory.create(ctx, config.UserPoolDefaults);
  const triggers = new TriggersService(
    clock,
    cognitoClient,
    new LambdaService(config.TriggerFunctions, new AWS.Lambda(config.LambdaClient)),
    new CryptoService(config.KMSConfig),
  );
  const services = {
    clock,
    cognito: cognitoClient,
    config,
    messages: new MessagesService(triggers, new MessageDeliveryService(new ConsoleMessageSender())),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
    triggers,
  };
  // Without `services`, createServer leaves its OAuth routes out: the managed login adds them behind its own.
  const server = createServer(Router(services), logger, config.ServerConfig);
  installManagedLogin(server.application, services, {
    domain: process.env.COGNITO_DOMAIN || config.TokenConfig.IssuerDomain,
    storedProvider,
    linksKey: LINKS,
    attachOAuth2Routes,
    AuthorizationCodeStore,
  });
  const listening = await server.start();
  const address = listening.address();
  logger.info(`Cognito Local running on http://${typeof address === "string" ? address : `${address.address}:${address.port}`}`);
} catch (err) {
  logger.error(err);
  process.exit(1);
}
