/**
 * Cognito's protocol through Amplify (`aws-amplify/auth` v6): sign-in with every challenge the pool can send,
 * recovery, and the signed-in user's own account. Imported lazily (sign-in, a refresh, sign-out, Your
 * account): Amplify is about 40 kB gzipped that the first page of a signed-in visit does not need.
 *
 * Sign-in uses USER_PASSWORD_AUTH, locally and in AWS: cognito-local has no SRP, and one flow in both places
 * means the flow tests run is the one people use (the password goes to Cognito over TLS either way; the
 * pool's threat protection sees both flows). Amplify keeps its tokens in sessionStorage (docs/security.md); the
 * console keeps a copy of the ID and access tokens for the API (session.ts), so its first page reads them
 * without loading Amplify.
 */
import { Amplify } from "aws-amplify";
import {
  signIn as amplifySignIn,
  signOut as amplifySignOut,
  type ConfirmSignInOutput,
  confirmResetPassword,
  confirmSignIn,
  fetchAuthSession,
  fetchMFAPreference,
  fetchUserAttributes,
  resetPassword,
  setUpTOTP,
  updatePassword,
  updateUserAttributes,
  verifyTOTPSetup,
} from "aws-amplify/auth";
import { cognitoUserPoolsTokenProvider } from "aws-amplify/auth/cognito";
import { sessionStorage as amplifySessionStorage } from "aws-amplify/utils";
import { type ConsoleConfig, getConfig, loadConfig } from "../config";
import { claims, setSession, type Tokens } from "./session";

/** The name authenticator apps show for the console's entry. */
const ISSUER = "Institution Admin";

let configured: string | undefined;

/** Configures Amplify once, from `/config.json`. */
async function ready(): Promise<ConsoleConfig> {
  const config = await loadConfig();
  if (configured !== config.userPoolClientId) {
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: config.userPoolId,
          userPoolClientId: config.userPoolClientId,
          // cognito-local locally; Cognito's regional endpoint deployed (the same URL Amplify would derive).
          userPoolEndpoint: config.cognitoEndpoint,
          loginWith: { email: true },
        },
      },
    });
    // This tab only (docs/security.md), as the console's own copy.
    cognitoUserPoolsTokenProvider.setKeyValueStorage(amplifySessionStorage);
    configured = config.userPoolClientId;
  }
  return config;
}

/** What the sign-in page shows next. */
export type Step =
  | { readonly kind: "signed-in" }
  | { readonly kind: "new-password" }
  | { readonly kind: "totp-setup"; readonly secret: string; readonly uri: string }
  | { readonly kind: "totp-code" }
  | { readonly kind: "email-code"; readonly destination?: string | undefined }
  | { readonly kind: "sms-code"; readonly destination?: string | undefined }
  | { readonly kind: "select-mfa"; readonly options: readonly MfaChoice[] }
  | { readonly kind: "select-mfa-setup"; readonly options: readonly MfaChoice[] }
  | { readonly kind: "email-setup" }
  | { readonly kind: "reset-password" }
  /** A step this console cannot complete: what to do instead. */
  | { readonly kind: "unsupported"; readonly what: string; readonly todo: string };

export type MfaChoice = "TOTP" | "EMAIL" | "SMS";

/** The tokens Amplify holds, copied into the console's session (`via`: how it began, when it begins now). */
async function keepTokens(forceRefresh = false, via?: Tokens["via"]): Promise<Tokens> {
  const { tokens } = await fetchAuthSession({ forceRefresh });
  if (!tokens?.idToken) throw new CognitoError("NoTokens", "Cognito returned no ID token");
  const kept = { idToken: tokens.idToken.toString(), accessToken: tokens.accessToken.toString(), via };
  setSession(kept);
  return kept;
}

type CognitoTokens = Parameters<typeof cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokens>[0]["tokens"];

/**
 * Takes the tokens of a single sign-on (the managed login's code exchange, auth/sso.ts) as the console's
 * session, so that the API calls, the refresh and sign-out work as after a password sign-in.
 */
export async function adoptTokens(tokens: { idToken: string; accessToken: string; refreshToken?: string | undefined }): Promise<void> {
  await ready();
  const jwt = (raw: string) => ({ payload: claims(raw), toString: () => raw });
  const access = jwt(tokens.accessToken);
  // Through the token provider's own orchestrator, as Amplify's signInWithRedirect stores its tokens: Amplify
  // writes its storage keys itself, so no key format (`CognitoIdentityServiceProvider.<client>.<user>.…`) is
  // spelled here to break with an Amplify release, and its refresh and sign-out find what they expect.
  await cognitoUserPoolsTokenProvider.tokenOrchestrator.setTokens({
    tokens: {
      accessToken: access,
      idToken: jwt(tokens.idToken),
      refreshToken: tokens.refreshToken,
      clockDrift: typeof access.payload.iat === "number" ? access.payload.iat * 1000 - Date.now() : 0,
      username: typeof access.payload.username === "string" ? access.payload.username : String(access.payload.sub ?? "user"),
    } as CognitoTokens,
  });
  await keepTokens(false, "sso");
}

async function next(out: ConfirmSignInOutput, email: string): Promise<Step> {
  const step = out.nextStep;
  switch (step.signInStep) {
    case "DONE":
      await keepTokens();
      return { kind: "signed-in" };
    case "CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED":
      return { kind: "new-password" };
    case "CONTINUE_SIGN_IN_WITH_TOTP_SETUP":
      return {
        kind: "totp-setup",
        secret: step.totpSetupDetails.sharedSecret,
        uri: step.totpSetupDetails.getSetupUri(ISSUER, email).toString(),
      };
    case "CONFIRM_SIGN_IN_WITH_TOTP_CODE":
      return { kind: "totp-code" };
    case "CONFIRM_SIGN_IN_WITH_EMAIL_CODE":
      return { kind: "email-code", destination: step.codeDeliveryDetails?.destination };
    case "CONFIRM_SIGN_IN_WITH_SMS_CODE":
      return { kind: "sms-code", destination: step.codeDeliveryDetails?.destination };
    case "CONTINUE_SIGN_IN_WITH_MFA_SELECTION":
      return { kind: "select-mfa", options: step.allowedMFATypes ?? ["TOTP"] };
    case "CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION":
      return { kind: "select-mfa-setup", options: step.allowedMFATypes ?? ["TOTP"] };
    case "CONTINUE_SIGN_IN_WITH_EMAIL_SETUP":
      return { kind: "email-setup" };
    case "RESET_PASSWORD":
      return { kind: "reset-password" };
    case "CONFIRM_SIGN_UP":
      return {
        kind: "unsupported",
        what: "Your account is not confirmed yet.",
        todo: "Open the link in your invitation e-mail to create your account, or ask the administrator who invited you.",
      };
    default:
      return {
        kind: "unsupported",
        what: `Sign-in asks for a step this console does not offer (${step.signInStep}).`,
        todo: "Ask your administrator to check the user pool's sign-in settings; the console signs in with a password, TOTP and e-mail codes.",
      };
  }
}

/** Signs in with e-mail and password; what comes next is one of the pool's challenges or signed in. */
export async function signIn(email: string, password: string): Promise<Step> {
  await ready();
  // Tokens Amplify still holds from an earlier session (expired, or this tab's session was cleared) would
  // make it refuse a new sign-in: they are dropped (and revoked) first.
  await amplifySignOut().catch(() => {});
  const out = await amplifySignIn({ username: email, password, options: { authFlowType: "USER_PASSWORD_AUTH" } });
  return next(out, email);
}

/** Answers the current challenge: a new password, a code, or a choice of MFA ("TOTP", "EMAIL"). */
export async function answer(response: string, email: string): Promise<Step> {
  await ready();
  return next(await confirmSignIn({ challengeResponse: response }), email);
}

/** Sends a password reset code to the e-mail address (if it has an account; the answer does not say). */
export async function forgotPassword(email: string): Promise<void> {
  await ready();
  try {
    await resetPassword({ username: email });
  } catch (err) {
    // The deployed pool hides whether an account exists; cognito-local says so. Either way the page asks for
    // the code, so nobody learns from it who has an account.
    if ((err as Error).name !== "UserNotFoundException") throw err;
  }
}

/** Sets the new password with the mailed code, then signs in with it. */
export async function resetWithCode(email: string, code: string, newPassword: string): Promise<Step> {
  await ready();
  await confirmResetPassword({ username: email, confirmationCode: code, newPassword });
  return signIn(email, newPassword);
}

/** New ID and access tokens from the refresh token Amplify holds. */
export async function refresh(): Promise<Tokens> {
  await ready();
  return keepTokens(true);
}

/** Signs out here (revoking this session's refresh token), or everywhere (every refresh token of the user). */
export async function signOut(global = false): Promise<void> {
  await ready();
  // Amplify's global sign-out drops this browser's tokens even when Cognito could not be told; a refresh
  // first proves Cognito is reachable and the access token GlobalSignOut needs is valid, or throws.
  if (global) await keepTokens(true);
  await amplifySignOut({ global });
}

// --- Your account --------------------------------------------------------------------------------------

export interface Account {
  readonly name: string;
  readonly email: string;
  readonly accountId: string;
  readonly totp: "on" | "off";
}

export async function loadAccount(): Promise<Account> {
  await ready();
  const [attributes, mfa] = await Promise.all([fetchUserAttributes(), fetchMFAPreference()]);
  return {
    name: attributes.name ?? "",
    email: attributes.email ?? "",
    accountId: attributes["custom:account_id"] ?? "",
    totp: mfa.enabled?.includes("TOTP") ? "on" : "off",
  };
}

/** Changes the display name, then refreshes the tokens so the console shows it at once. */
export async function changeName(name: string): Promise<void> {
  await ready();
  await updateUserAttributes({ userAttributes: { name } });
  await keepTokens(true);
}

export async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  await ready();
  await updatePassword({ oldPassword, newPassword });
}

/** A new TOTP secret for this user, to scan; it is active only once a code from it is verified. */
export async function startTotp(email: string): Promise<{ secret: string; uri: string }> {
  await ready();
  const details = await setUpTOTP();
  return { secret: details.sharedSecret, uri: details.getSetupUri(ISSUER, email).toString() };
}

/**
 * Verifies the first code of the app just set up. The service then makes it the second step (`PUT /me/mfa`, which
 * records it in the person's trail): the console does not set the preference with Cognito itself.
 */
export async function confirmTotp(code: string): Promise<void> {
  await ready();
  await verifyTOTPSetup({ code });
}

/** The configuration as loaded (for the MFA setting). */
export const consoleConfig = (): ConsoleConfig => getConfig();

// --- errors ----------------------------------------------------------------------------------------------

/** A Cognito error: `name` is its exception type (NotAuthorizedException, …), as Amplify reports it. */
export class CognitoError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/**
 * Where an error arose: the password; a first sign-in's new password; a sign-in code (`code`: by e-mail or
 * text message; `totp`: from an authenticator app); the password reset with its e-mailed code; the account page.
 */
export type Stage = "password" | "new-password" | "code" | "totp" | "reset" | "account";

/**
 * Cognito's exceptions in words a person can act on; anything else keeps Cognito's own message. At the
 * password step an InvalidPasswordException means a wrong password (cognito-local answers so where Cognito
 * says NotAuthorizedException); elsewhere it means the pool's policy refused the new one.
 */
export function signInMessage(err: unknown, stage: Stage = "password"): string {
  const e = err as { name?: string; message?: string };
  if (stage === "password" && e.name === "InvalidPasswordException") return "Incorrect e-mail address or password.";
  switch (e.name) {
    case "NotAuthorizedException":
      if (stage === "account") return "Your current password is not correct.";
      if (stage === "code" || stage === "totp") return "That sign-in step has expired. Start again from your password.";
      return /disabled/i.test(e.message ?? "") ? "This user is disabled. Ask an administrator." : "Incorrect e-mail address or password.";
    case "UserNotFoundException":
      return "Incorrect e-mail address or password.";
    case "PasswordResetRequiredException":
      return "Your password must be reset: use “Forgot password?” to get a code by e-mail.";
    case "UserNotConfirmedException":
      return "This user is not confirmed yet. Open the link in your invitation e-mail, or ask an administrator.";
    case "InvalidPasswordException":
      return e.message
        ? `The new password is not accepted: ${e.message.replace(/^Password does not conform to policy: /, "")}`
        : "The new password is not accepted.";
    case "TooManyRequestsException":
    case "LimitExceededException":
    case "TooManyFailedAttemptsException":
      return "Too many attempts. Wait a minute and try again.";
    case "CodeMismatchException":
    case "EnableSoftwareTokenMFAException":
      // Only an authenticator app's code changes every 30 seconds; a mailed code stays until it expires or a
      // new one replaces it.
      if (stage === "reset") {
        return "That code is not right. Enter the code from the newest password-reset e-mail (asking again replaces the code) and try again.";
      }
      if (stage === "code") return "That code is not right. Check the code we sent and try again.";
      return "That code is not right. Check the code (it changes every 30 seconds) and try again.";
    case "ExpiredCodeException":
      return stage === "reset"
        ? "That code has expired (a reset code is valid for one hour). Ask for a new one."
        : "That code has expired. Ask for a new one.";
    case "EmptyConfirmResetPasswordConfirmationCode":
    case "EmptyConfirmSignInChallengeResponse":
    case "EmptyVerifyTOTPSetupCode":
      return "Enter the code.";
    case "EmptySignInUsername":
    case "EmptySignInPassword":
      return "Enter your e-mail address and password.";
    case "NetworkError":
    case "TypeError":
      return "The sign-in service cannot be reached. Check your connection and try again.";
    default:
      return e.message || "Sign-in failed.";
  }
}
