/**
 * The caller's own routes (docs/contract/people.md): who may call them and what they refuse.
 * Any user, and nobody else: no token, a bad one or an access token is the gateway's 401 before anything runs. Each
 * acts on the caller alone: nothing in the body or the query names another person (a `user_id` sent is ignored),
 * and a user with no account attribute acts in their personal account. The body's refusals, the deployment's
 * rule (TOTP cannot be turned off where MFA is required), and an `Idempotency-Key` replay that records once.
 */
import {
  AssociateSoftwareTokenCommand,
  type CognitoIdentityProviderClient,
  InitiateAuthCommand,
  VerifySoftwareTokenCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient, issueIdToken } from "../../infra/local/cognito.js";
import type { Caller } from "../../shared/caller.js";
import { setMfa } from "../../shared/people/service.js";
import { paths } from "../../shared/routes.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { idClaims, signJwt } from "../support/jwt.js";
import { claimsOf, eventsOf } from "./helpers.js";

const MFA = `${paths.me}/mfa`;
const EVERYWHERE = `${paths.me}/sign_out_everywhere`;
const UNAUTHORIZED = { status: 401, body: { message: "Unauthorized" } };
const PASSWORD = "Me-Routes-Test-9!";

let cognito: CognitoIdentityProviderClient;
beforeAll(() => {
  cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
});
afterAll(() => cognito.destroy());

const auth = (email: string) =>
  cognito.send(
    new InitiateAuthCommand({
      ClientId: stack.userPoolClientId,
      AuthFlow: "USER_PASSWORD_AUTH",
      AuthParameters: { USERNAME: email, PASSWORD: PASSWORD },
    }),
  );

/** Turns TOTP on for `email` as the console does: associate and verify with the person's access token. */
async function withTotp(email: string): Promise<string> {
  const accessToken = (await auth(email)).AuthenticationResult?.AccessToken;
  const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
  const secret = SecretCode ?? "";
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code }));
  return secret;
}

describe("PUT /me/mfa and POST /me/sign_out_everywhere: who may call them", () => {
  it("nobody without a valid ID token: no token, a garbage one, another pool's, an access token → the gateway's 401", async () => {
    const email = uniqEmail("access");
    await token(email, { password: PASSWORD });
    const accessToken = (await auth(email)).AuthenticationResult?.AccessToken ?? "";
    const forged = signJwt(idClaims({ iss: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other" }));
    for (const [method, path, body] of [
      ["PUT", MFA, { mfa: { totp: false } }],
      ["POST", EVERYWHERE, undefined],
    ] as const) {
      expect(await call(method, path, { body })).toMatchObject(UNAUTHORIZED);
      expect(await call(method, path, { token: "not-a-token", body })).toMatchObject(UNAUTHORIZED);
      expect(await call(method, path, { token: forged, body })).toMatchObject(UNAUTHORIZED);
      expect(await call(method, path, { token: accessToken, body })).toMatchObject(UNAUTHORIZED);
    }
  });

  it("any user: without the cohort-super-admin status, without an institution, without an account attribute (their personal account)", async () => {
    const plain = await token(uniqEmail("plain"), { account: uniq("acct") });
    expect((await call("PUT", MFA, { token: plain, body: { mfa: { totp: false } } })).status).toBe(200);
    expect((await call("POST", EVERYWHERE, { token: plain })).status).toBe(200);
    expect((await eventsOf(plain)).map((e) => e.event_type)).toEqual(expect.arrayContaining(["mfa_disabled", "signed_out_everywhere"]));

    // No custom:account_id: the API's personal account `user:<sub>`, where the pool's own events go too.
    const email = uniqEmail("noaccount");
    const sub = String(claimsOf(await token(email, { password: PASSWORD })).sub);
    const personal = signJwt(idClaims({ sub, email, "custom:account_id": undefined }));
    expect((await call("POST", EVERYWHERE, { token: personal })).status).toBe(200);
    const mine = await eventsOf(personal);
    expect(mine.find((e) => e.event_type === "signed_out_everywhere")).toMatchObject({ account_id: `user:${sub}`, user_id: sub });
  });

  it("acts on the caller alone: a user_id in the body or the query names nobody else", async () => {
    const accountA = uniq("acct");
    const emailA = uniqEmail("a");
    const emailB = uniqEmail("b");
    const a = await issueIdToken(stack, emailA, { account: accountA, password: PASSWORD });
    const b = await issueIdToken(stack, emailB, { account: uniq("acct"), password: PASSWORD });
    const subB = String(claimsOf(b).sub);
    const refreshB = (await auth(emailB)).AuthenticationResult?.RefreshToken;
    await withTotp(emailB);
    const res = await call("PUT", MFA, {
      token: a,
      body: { mfa: { totp: false, user_id: subB }, user_id: subB },
      query: { user_id: subB },
    });
    expect(res.status, res.text).toBe(200);
    // B still has the app: their sign-in asks for its code; A's trail has the event, B's has none.
    expect((await auth(emailB)).ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
    expect((await eventsOf(a)).filter((e) => e.event_type === "mfa_disabled")).toHaveLength(1);
    expect((await eventsOf(b)).filter((e) => e.event_type === "mfa_disabled")).toEqual([]);

    // Signing out everywhere revokes the caller's sessions, not B's.
    const sessionA = await auth(emailA);
    expect((await call("POST", EVERYWHERE, { token: a, body: { user_id: subB }, query: { user_id: subB } })).status).toBe(200);
    const refresh = (t: string | undefined) =>
      cognito.send(
        new InitiateAuthCommand({
          ClientId: stack.userPoolClientId,
          AuthFlow: "REFRESH_TOKEN_AUTH",
          AuthParameters: { REFRESH_TOKEN: t ?? "" },
        }),
      );
    await expect(refresh(sessionA.AuthenticationResult?.RefreshToken)).rejects.toThrow();
    expect((await refresh(refreshB)).AuthenticationResult?.IdToken).toBeTruthy();
    expect((await eventsOf(b)).filter((e) => e.event_type === "signed_out_everywhere")).toEqual([]);
  });
});

describe("refusals", () => {
  it("PUT /me/mfa: no mfa object → 400; totp not a boolean → 422; nothing recorded", async () => {
    const tok = await token(uniqEmail("body"), { account: uniq("acct") });
    for (const body of [undefined, {}, { mfa: "on" }, { mfa: null }, { totp: true }, [{ mfa: { totp: true } }]]) {
      const res = await call("PUT", MFA, { token: tok, body });
      expect({ status: res.status, body: res.body }, JSON.stringify(body)).toEqual({
        status: 400,
        body: { error: "param is missing or the value is empty: mfa" },
      });
    }
    for (const totp of ["true", 1, null, "", {}]) {
      const res = await call("PUT", MFA, { token: tok, body: { mfa: { totp } } });
      expect({ status: res.status, body: res.body }, JSON.stringify(totp)).toEqual({
        status: 422,
        body: { errors: ["Totp must be true or false"] },
      });
    }
    const malformed = await call("PUT", MFA, { token: tok, rawBody: "{", headers: { "content-type": "application/json" } });
    expect({ status: malformed.status, body: malformed.body }).toEqual({ status: 400, body: { error: "Malformed JSON body" } });
    expect((await eventsOf(tok)).filter((e) => e.event_type.startsWith("mfa_"))).toEqual([]);
  });

  it("PUT /me/mfa: turning TOTP off where the deployment requires a second step is refused before the pool is asked", async () => {
    const caller: Caller = {
      id: "5b1b3a0e-0000-4000-8000-00000000abcd",
      email: uniqEmail("required"),
      name: null,
      accountId: uniq("acct"),
      isCohortSuperAdmin: false,
      emailVerified: true,
      ip: "127.0.0.1",
    };
    // The user does not exist in the pool: had the pool been asked, it would have failed otherwise.
    await expect(setMfa(caller, { mfa: { totp: false } }, "required")).rejects.toMatchObject({
      status: 422,
      message: "A second sign-in step is required here: the authenticator app cannot be turned off",
    });
  });

  it("POST /me/sign_out_everywhere with an Idempotency-Key: the replay answers the same and records nothing more", async () => {
    const tok = await token(uniqEmail("replay"), { account: uniq("acct") });
    const key = uniq("key");
    const first = await call("POST", EVERYWHERE, { token: tok, headers: { "idempotency-key": key } });
    const again = await call("POST", EVERYWHERE, { token: tok, headers: { "idempotency-key": key } });
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect((await eventsOf(tok)).filter((e) => e.event_type === "signed_out_everywhere")).toHaveLength(1);
  });
});
