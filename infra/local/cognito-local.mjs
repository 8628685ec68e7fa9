/**
 * cognito-local, started as its own bin does, with three gaps to real Cognito closed for the console
 * (docs/joining.md), each the smallest change to cognito-local's own pluggable parts:
 *
 * - Codes by mail: cognito-local's bin only prints a code (ForgotPassword, …) in its log. Each code mail also
 *   goes to the local SES (LOCAL_SES_ENDPOINT), so a person reads it on the same local mail page as the
 *   invitations, as a person in AWS reads Cognito's mail.
 * - GlobalSignOut (Amplify's `signOut({global: true})`): every refresh token of the user stops working, as in
 *   Cognito. cognito-local has no such target.
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
 *   server is started here as cognito-local's bin and `createDefaultServer` start it, with its services at hand.
 */
import { createRequire } from "node:module";
import { installFederation, installPreAuthentication, LINKS } from "./cognito-federation.mjs";
import { installManagedLogin } from "./cognito-managed-login.mjs";

// Resolved from cognito-local's own directory: its modules and its dependencies (jsonwebtoken), as it sees them.
const require = createRequire(createRequire(import.meta.url).resolve("cognito-local/package.json"));
const lib = (path) => require(`./lib/${path}`);

const { ConsoleMessageSender } = lib("services/messageDelivery/consoleMessageSender");
const { Targets } = lib("targets/targets");
const { NotAuthorizedError, InvalidParameterError, CognitoError, ResourceNotFoundError } = lib("errors");

const sesEndpoint = process.env.LOCAL_SES_ENDPOINT;
const from = process.env.MAIL_FROM || "no-reply@institution-admin.local";

/** What each kind of code is for, in the mail's words. */
const SUBJECTS = {
  ForgotPassword: "Your password reset code",
  ResendCode: "Your verification code",
  UpdateUserAttribute: "Your verification code",
  VerifyUserAttribute: "Your verification code",
  SignUp: "Your verification code",
  Authentication: "Your sign-in code",
};

const sendEmail = ConsoleMessageSender.prototype.sendEmail;
ConsoleMessageSender.prototype.sendEmail = async function (ctx, user, destination, message) {
  await sendEmail.call(this, ctx, user, destination, message);
  if (!sesEndpoint || !destination) return;
  const source = message.__source ?? "";
  const subject = message.emailSubject || SUBJECTS[source] || "Your code for Institution Admin";
  const text =
    message.emailMessage ||
    `Your code is ${message.__code}\n\nEnter it on the page that asked for it. If you did not ask for a code, ignore this mail: nothing changes without it.\n`;
  try {
    const res = await fetch(`${sesEndpoint}/v2/email/outbound-emails`, {
      method: "POST",
      // The local SES wants some credential, as the SDK would send; any will do.
      headers: { "content-type": "application/json", authorization: "AWS4-HMAC-SHA256 Credential=local/local/local/ses/aws4_request" },
      body: JSON.stringify({
        FromEmailAddress: from,
        Destination: { ToAddresses: [destination] },
        Content: { Simple: { Subject: { Data: subject }, Body: { Text: { Data: text } } } },
      }),
    });
    if (!res.ok) console.error(`local SES answered ${res.status} to a code mail: ${await res.text()}`);
  } catch (err) {
    console.error(`local SES unreachable for a code mail: ${err}`);
  }
};

// Which code it is: MessagesService.deliver names the source; the sender sees only the message.
const { MessagesService } = lib("services/messages");
const create = MessagesService.prototype.create;
MessagesService.prototype.create = async function (ctx, source, ...rest) {
  const message = await create.call(this, ctx, source, ...rest);
  return { ...message, __source: source };
};
// The console sender prints every field but __code; keep __source out of its box too.
const sendToConsole = ConsoleMessageSender.prototype.sendToConsole;
ConsoleMessageSender.prototype.sendToConsole = function (ctx, user, destination, { __source: _source, ...message }) {
  return sendToConsole.call(this, ctx, user, destination, message);
};

const jwt = require("jsonwebtoken");

Targets.GlobalSignOut =
  ({ cognito }) =>
  async (ctx, req) => {
    const token = jwt.decode(req.AccessToken);
    if (!token || typeof token.client_id !== "string" || typeof token.sub !== "string") throw new InvalidParameterError();
    const userPool = await cognito.getUserPoolForClientId(ctx, token.client_id);
    const user = await userPool.getUserByUsername(ctx, token.sub);
    if (!user) throw new NotAuthorizedError();
    await userPool.saveUser(ctx, { ...user, RefreshTokens: [] });
    return {};
  };

Targets.GetTokensFromRefreshToken = (services) => {
  const initiateAuth = Targets.InitiateAuth(services);
  return async (ctx, req) => {
    const out = await initiateAuth(ctx, {
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
const { DateClock, TriggersService, LambdaService } = lib("services");
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
  { level: process.env.DEBUG ? "debug" : "info" },
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
