/**
 * A person's own events in their trail (docs/contract/people.md, issue 41 item 4), each produced locally as the deployed
 * pool produces it: a sign-in by the PostAuthentication trigger, a password reset by PostConfirmation (cognito-local
 * invokes the same modules), a failed sign-in and a password change by the user-activity export (the Cognito
 * stand-in hands the same records to the same subscriber module), MFA on and off and sign-out everywhere by the
 * service's routes. Each is read back through the API, as the account's auditor reads the trail: in the person's
 * account, by the person, named by name and e-mail.
 */
import {
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  VerifySoftwareTokenCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { asFunction } from "../../infra/local/function-scope.js";
import { recordActivity } from "../../shared/people/activity.js";
import { subscriptionEvent } from "../../shared/people/activity-log.js";
import { paths } from "../../shared/routes.js";
import { call, sentMail, stack, token, uniq, uniqEmail } from "../support/api.js";
import { allEvents, type ListedEvent } from "../support/flows.js";
import { claimsOf } from "./helpers.js";

const ME = paths.me;
const PASSWORD = "People-Events-9!";

let cognito: CognitoIdentityProviderClient;
let account: string;
let auditor: string;
let domain: string;
beforeAll(async () => {
  cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  account = uniq("acct");
  domain = `${uniq("d")}.test`;
  auditor = await token(uniqEmail("auditor", domain), { superAdmin: true, account, name: "Ada Auditor" });
});
afterAll(() => cognito.destroy());

interface Person {
  readonly email: string;
  readonly name: string;
  readonly sub: string;
  /** An ID token (the sign-in that made it is a `sign_in` of its own). */
  readonly token: string;
}

/** A person of the test's account, with a password of their own. */
async function person(label: string): Promise<Person> {
  const email = uniqEmail(label, domain);
  const name = `${label.charAt(0).toUpperCase()}${label.slice(1)} Person`;
  const idToken = await token(email, { account, name, password: PASSWORD });
  return { email, name, sub: String(claimsOf(idToken).sub), token: idToken };
}

const passwordAuth = (email: string, password: string) =>
  cognito.send(
    new InitiateAuthCommand({
      ClientId: stack.userPoolClientId,
      AuthFlow: "USER_PASSWORD_AUTH",
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );

/** The person's events of `type` in the account's trail, as the auditor lists them (newest first). */
const trail = (p: Person, type: string): Promise<ListedEvent[]> => allEvents(auditor, { user_id: p.sub, event_type: type });

/** The account's trail holds the person's event of `type` (the export and the triggers have answered before the call returned). */
async function oneEvent(p: Person, type: string): Promise<ListedEvent> {
  const events = await trail(p, type);
  expect(events, type).toHaveLength(1);
  const e = events[0] as ListedEvent;
  expect(e.user_email).toBe(p.email);
  expect(e.description).toContain(`${p.name} (${p.email})`);
  return e;
}

const totpCode = (secret: string, offsetSteps = 0): string =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });

describe("a person's own events, in their account's trail", () => {
  it("sign-in: the PostAuthentication trigger records each completed sign-in", async () => {
    const p = await person("signer");
    const first = await oneEvent(p, "sign_in"); // the sign-in that gave the token
    expect(first.details).toEqual({ method: "password" });
    expect(first.description).toBe(`${p.name} (${p.email}) signed in with their password`);
    expect((await passwordAuth(p.email, PASSWORD)).AuthenticationResult?.IdToken).toBeTruthy();
    expect(await trail(p, "sign_in")).toHaveLength(2);
    // Only in the person's account: an auditor elsewhere sees nothing of it.
    const stranger = await token(uniqEmail("stranger"), { superAdmin: true, account: uniq("acct") });
    expect(await allEvents(stranger, { user_id: p.sub })).toEqual([]);
  });

  it("failed sign-in: the activity export reports the wrong password, which no trigger sees", async () => {
    const p = await person("failer");
    await expect(passwordAuth(p.email, "Not-The-Password-1!")).rejects.toThrow();
    const e = await oneEvent(p, "sign_in_failed");
    expect(e.details).toMatchObject({ method: "password", reason: "wrong_password", cognito_event_id: expect.any(String) });
    expect(e.description).toBe(`A sign-in as ${p.name} (${p.email}) failed: wrong password`);
    // An address nobody signs in with has no trail to go to: nothing is recorded, and nothing fails.
    await expect(passwordAuth(uniqEmail("nobody", domain), "Not-The-Password-1!")).rejects.toThrow();
  });

  it("the export is delivered at least once: the same record twice is one event", async () => {
    const p = await person("redelivered");
    const record = {
      eventSource: "USER_AUTH_EVENTS",
      logLevel: "INFO",
      userPoolId: stack.userPoolId,
      message: {
        eventId: `redelivered-${uniq("e")}`,
        eventType: "SignIn",
        eventResponse: "Fail",
        eventTimestamp: String(Date.now()),
        userSub: p.sub,
        userName: p.sub,
        challenges: [{ challengeName: "Password", challengeResponse: "Failure" }],
        riskLevel: "LOW",
        ipAddress: "192.0.2.10",
      },
    };
    const delivery = subscriptionEvent([{ id: "1", timestamp: Date.now(), message: JSON.stringify(record) }], "/aws/vendedlogs/test");
    const run = () => asFunction("pool/activity", () => recordActivity(delivery.awslogs.data));
    expect(await run()).toMatchObject({ recorded: 1 });
    expect(await run()).toMatchObject({ recorded: 0, already: 1 });
    const e = await oneEvent(p, "sign_in_failed");
    expect(e.ip_address).toBe("192.0.2.10");
    expect(e.details).toMatchObject({ reason: "wrong_password", risk_level: "low", cognito_event_id: record.message.eventId });
  });

  it("password reset: the PostConfirmation trigger records it once the mailed code set the new password", async () => {
    const p = await person("resetter");
    await cognito.send(new ForgotPasswordCommand({ ClientId: stack.userPoolClientId, Username: p.email }));
    let code = "";
    await expect
      .poll(async () => {
        const mail = (await sentMail(p.email)).filter((m) => /reset/i.test(m.subject)).at(-1);
        code = /Your password reset code: (\d{6})/.exec(mail?.body.text ?? "")?.[1] ?? "";
        return code;
      })
      .toMatch(/^\d{6}$/);
    expect(await trail(p, "password_reset")).toEqual([]); // a code asked for is no reset
    await cognito.send(
      new ConfirmForgotPasswordCommand({
        ClientId: stack.userPoolClientId,
        Username: p.email,
        ConfirmationCode: code,
        Password: "Reset-People-8!",
      }),
    );
    const e = await oneEvent(p, "password_reset");
    expect(e.details).toEqual({ method: "email_code" });
  });

  it("password change: the activity export reports it (no trigger runs for it)", async () => {
    const p = await person("changer");
    const auth = await passwordAuth(p.email, PASSWORD);
    await cognito.send(
      new ChangePasswordCommand({
        AccessToken: auth.AuthenticationResult?.AccessToken,
        PreviousPassword: PASSWORD,
        ProposedPassword: "Changed-People-7!",
      }),
    );
    const e = await oneEvent(p, "password_changed");
    expect(e.details).toEqual({ cognito_event_id: expect.any(String) });
    expect(e.description).toBe(`${p.name} (${p.email}) changed their password`);
  });

  it("MFA on and off through PUT /me/mfa: the pool changes, then mfa_enabled / mfa_disabled; a wrong code is a failed sign-in", async () => {
    const p = await person("mfa");
    // Before an authenticator app is set up, turning it on is refused, and nothing is recorded.
    const early = await call("PUT", `${ME}/mfa`, { token: p.token, body: { mfa: { totp: true } } });
    expect(early.status).toBe(422);
    expect(early.body.error).toMatch(/^Set up the authenticator app first/);
    expect(await trail(p, "mfa_enabled")).toEqual([]);

    // The console's steps with the person's own access token, then the service's route.
    const auth = await passwordAuth(p.email, PASSWORD);
    const accessToken = auth.AuthenticationResult?.AccessToken;
    const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    const secret = SecretCode ?? "";
    await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: totpCode(secret) }));
    const on = await call("PUT", `${ME}/mfa`, { token: p.token, body: { mfa: { totp: true } } });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual({ mfa: { totp: true }, message: "Authenticator app turned on: sign-ins ask for its code" });
    const enabled = await oneEvent(p, "mfa_enabled");
    expect(enabled.details).toEqual({ factor: "totp" });

    // The next sign-in asks for the code: a wrong one is a failed sign-in (wrong code), the right one a sign-in.
    const signIns = (await trail(p, "sign_in")).length;
    const challenge = await passwordAuth(p.email, PASSWORD);
    expect(challenge.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
    const wrong = totpCode(secret, 10);
    await expect(
      cognito.send(
        new RespondToAuthChallengeCommand({
          ClientId: stack.userPoolClientId,
          ChallengeName: "SOFTWARE_TOKEN_MFA",
          Session: challenge.Session,
          ChallengeResponses: { USERNAME: p.email, SOFTWARE_TOKEN_MFA_CODE: wrong },
        }),
      ),
    ).rejects.toThrow();
    expect((await oneEvent(p, "sign_in_failed")).details).toMatchObject({ reason: "wrong_code" });
    const done = await cognito.send(
      new RespondToAuthChallengeCommand({
        ClientId: stack.userPoolClientId,
        ChallengeName: "SOFTWARE_TOKEN_MFA",
        Session: challenge.Session,
        ChallengeResponses: { USERNAME: p.email, SOFTWARE_TOKEN_MFA_CODE: totpCode(secret) },
      }),
    );
    expect(done.AuthenticationResult?.IdToken).toBeTruthy();
    expect(await trail(p, "sign_in")).toHaveLength(signIns + 1);

    const off = await call("PUT", `${ME}/mfa`, { token: p.token, body: { mfa: { totp: false } } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ mfa: { totp: false }, message: "Authenticator app turned off: the password alone signs you in" });
    const disabled = await oneEvent(p, "mfa_disabled");
    expect(disabled.description).toBe(`${p.name} (${p.email}) turned off their authenticator app (TOTP): the password alone signs them in`);
    expect((await passwordAuth(p.email, PASSWORD)).AuthenticationResult?.IdToken).toBeTruthy();
  });

  it("sign-out everywhere through POST /me/sign_out_everywhere: every refresh token refused, then signed_out_everywhere", async () => {
    const p = await person("everywhere");
    const sessions = await Promise.all([passwordAuth(p.email, PASSWORD), passwordAuth(p.email, PASSWORD)]);
    const refresh = (t: string | undefined) =>
      cognito.send(
        new InitiateAuthCommand({
          ClientId: stack.userPoolClientId,
          AuthFlow: "REFRESH_TOKEN_AUTH",
          AuthParameters: { REFRESH_TOKEN: t ?? "" },
        }),
      );
    expect((await refresh(sessions[0].AuthenticationResult?.RefreshToken)).AuthenticationResult?.IdToken).toBeTruthy();

    const out = await call("POST", `${ME}/sign_out_everywhere`, { token: p.token });
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ message: "Signed out everywhere: every session must sign in again" });
    for (const s of sessions) await expect(refresh(s.AuthenticationResult?.RefreshToken)).rejects.toThrow();
    const e = await oneEvent(p, "signed_out_everywhere");
    expect(e.details).toEqual({ scope: "all_sessions" });
    expect(e.description).toBe(`${p.name} (${p.email}) signed out everywhere: every session of theirs must sign in again`);
  });
});
