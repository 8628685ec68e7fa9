/**
 * cognito-local, started as its own bin does, with three gaps to real Cognito closed for the console
 * (DESIGN.md §14), each the smallest change to cognito-local's own pluggable parts:
 *
 * - Codes by mail: cognito-local's bin only prints a code (ForgotPassword, …) in its log. Each code mail also
 *   goes to the local SES (LOCAL_SES_ENDPOINT), so a person reads it on the same local mail page as the
 *   invitations, as a person in AWS reads Cognito's mail.
 * - GlobalSignOut (Amplify's `signOut({global: true})`): every refresh token of the user stops working, as in
 *   Cognito. cognito-local has no such target.
 * - GetTokensFromRefreshToken (how Amplify refreshes): the REFRESH_TOKEN_AUTH flow cognito-local has, under
 *   the name Amplify calls.
 */
import { createRequire } from "node:module";

// Resolved from cognito-local's own directory: its modules and its dependencies (jsonwebtoken), as it sees them.
const require = createRequire(createRequire(import.meta.url).resolve("cognito-local/package.json"));
const lib = (path) => require(`./lib/${path}`);

const { ConsoleMessageSender } = lib("services/messageDelivery/consoleMessageSender");
const { Targets } = lib("targets/targets");
const { NotAuthorizedError, InvalidParameterError } = lib("errors");

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

require("./lib/bin/start.js");
