/**
 * cognito-local, started as its own bin does, with the gaps to real Cognito that the service relies on closed,
 * each the smallest change to cognito-local's own pluggable parts (DESIGN.md §14, §20):
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
 * - GlobalSignOut (a person's own access token) and AdminUserGlobalSignOut (the service's route, DESIGN.md §20):
 *   every refresh token of the user stops working, as in Cognito. cognito-local has neither target.
 * - AdminSetUserMFAPreference (the service's MFA route): as cognito-local's SetUserMFAPreference, for a user
 *   named by the pool's id and user name instead of an access token. cognito-local lacks it.
 * - GetTokensFromRefreshToken (how Amplify refreshes): the REFRESH_TOKEN_AUTH flow cognito-local has, under
 *   the name Amplify calls.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
// Node 24 runs these TypeScript modules as they are (they hold only erasable types and import nothing of ours).
import { subscriptionEvent } from "../../shared/people/activity-log.ts";
import { textOf } from "../../shared/pool-mail.ts";
import { localFunctionName, POOL_ACTIVITY_HANDLER } from "../../shared/pool-triggers.ts";

// Resolved from cognito-local's own directory: its modules and its dependencies (jsonwebtoken), as it sees them.
const require = createRequire(createRequire(import.meta.url).resolve("cognito-local/package.json"));
const lib = (path) => require(`./lib/${path}`);

const { ConsoleMessageSender } = lib("services/messageDelivery/consoleMessageSender");
const { Targets } = lib("targets/targets");
const { NotAuthorizedError, InvalidParameterError, InvalidPasswordError, CodeMismatchError, UserNotFoundError } = lib("errors");

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

require("./lib/bin/start.js");
