/**
 * Issue 30 in a real browser (Debian's Chromium) against the run's local stack: the sign-in challenges and
 * recovery the console completes through Amplify, and Your account (docs/console-sign-in.md).
 *
 * - TOTP: a user turns it on in Your account, then signs in with a code the test computes from the secret
 *   (RFC 6238, `otpauth`); cognito-local plays the SOFTWARE_TOKEN_MFA challenge itself.
 * - Recovery: the code arrives on the local mail page (the local SES store), as a person reads it.
 * - Sign out everywhere: the refresh tokens of this browser and of another session are refused afterwards,
 *   by a direct InitiateAuth REFRESH_TOKEN_AUTH call.
 * - MFA_SETUP (a first sign-in where MFA is required): cognito-local has no Session-based MFA_SETUP, so for
 *   that flow only Cognito is stood in at the network layer (Playwright's `page.route` on the Cognito
 *   endpoint answers InitiateAuth with the challenge, AssociateSoftwareToken and VerifySoftwareToken with a
 *   Session, and RespondToAuthChallenge with real tokens of the local pool). Everything else reaches
 *   cognito-local.
 */

import * as OTPAuth from "otpauth";
import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { sentMail, stack, uniqEmail } from "../support/api.js";
import {
  consoleUrl,
  heading,
  newAccount,
  newPerson,
  type Person,
  photographAndCheck,
  reactCommits,
  screenshot,
  seedInstitution,
  seedInvitation,
  signInTokens,
  strongPassword,
  submitSignIn,
  useBrowser,
} from "./support.js";

const { browse } = useBrowser();

/** The current RFC 6238 code for a base32 secret, as an authenticator app shows it. */
const totpCode = (secret: string): string =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.replace(/\s/g, "")), digits: 6, period: 30 }).generate();

/** Cognito's JSON API, called directly (as another client of the pool would). */
async function cognito(action: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(stack.cognitoEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const refreshWith = (refreshToken: string) =>
  cognito("InitiateAuth", {
    ClientId: stack.userPoolClientId,
    AuthFlow: "REFRESH_TOKEN_AUTH",
    AuthParameters: { REFRESH_TOKEN: refreshToken },
  });

async function signOutFromMenu(page: Page, person: Person): Promise<void> {
  await page.getByRole("button", { name: new RegExp(person.email) }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await heading(page, "Sign in");
}

/**
 * Types `text` into the focused field one key at a time, as a person does, and returns the React commits the
 * keystrokes made. A commit that leaves work pending is one React counts toward "Maximum update depth
 * exceeded" (#185): a burst of keystrokes on a busy machine, each pre-empting the work the one before left,
 * once ran that count past its limit of 50 (the page's top bar measured itself again at every keystroke, two
 * more commits each: web/src/components/SignedOutBar.tsx). The page is quiet first (no response on its way),
 * so what the keystrokes commit is all there is.
 */
async function typeAndWatch(page: Page, text: string): Promise<{ commits: number; pendingAfterFirst: number }> {
  await page.waitForLoadState("networkidle");
  const from = (await reactCommits(page)).length;
  await page.keyboard.type(text);
  const commits = await reactCommits(page, from);
  // The first keystroke into a field may start something once (the field's state on first input).
  return { commits: commits.length, pendingAfterFirst: commits.slice(1).filter((c) => c.pending).length };
}

describe("typing on the pages nobody is signed in to", () => {
  it("each keystroke in the sign-in and join forms is one commit that leaves nothing pending", async () => {
    const { domain, owner } = await newAccount("typing");
    const page = await browse();
    await page.goto(consoleUrl("/institutions"));
    await heading(page, "Sign in");
    const email = uniqEmail("tess", domain);
    await page.getByLabel("E-mail address").focus();
    const typed = await typeAndWatch(page, email);
    // The hook saw the keystrokes (a positive control), one commit each at most, none leaving work behind.
    expect(typed.commits).toBeGreaterThanOrEqual(email.length);
    expect(typed.commits).toBeLessThanOrEqual(email.length + 2);
    expect(typed.pendingAfterFirst).toBe(0);

    // The join form of an invitee without an account: its own page, its own fields.
    const institution = await seedInstitution(owner.token);
    const link = await seedInvitation(owner.token, institution.id, uniqEmail("ivo", domain));
    await page.goto(link);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await page.getByTestId("invitation-preview").waitFor();
    await page.getByLabel("Your name").focus();
    const name = await typeAndWatch(page, "Ivo Invitee");
    expect(name.commits).toBeGreaterThanOrEqual("Ivo Invitee".length);
    expect(name.commits).toBeLessThanOrEqual("Ivo Invitee".length + 2);
    expect(name.pendingAfterFirst).toBe(0);
  });
});

describe("joining from an invitation", () => {
  it("an invitee without an account opens the mail's link, creates the account, lands on the institution, signs out and in again", async () => {
    const { domain, owner } = await newAccount("join");
    const institution = await seedInstitution(owner.token);
    const invitee = { email: uniqEmail("ivy", domain), name: "Ivy Invitee", password: strongPassword("Ivy") };
    // The link as the mail on the local mail page carries it.
    const link = await seedInvitation(owner.token, institution.id, invitee.email);

    const page = await browse();
    await page.goto(link);
    await heading(page, "Your invitation");
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await page.getByTestId("invitation-preview").getByText(institution.name, { exact: false }).waitFor();
    await photographAndCheck(page, "37-join-create-account", "join: create your account");

    // A password the pool's policy refuses is refused at its field, before anything is sent.
    await page.getByLabel("Your name").fill(invitee.name);
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Repeat the password").fill("short");
    await page.getByRole("button", { name: "Create account and accept" }).click();
    await page
      .getByText(/Password is too short/)
      .first()
      .waitFor();
    await page.getByLabel("Password", { exact: true }).fill(invitee.password);
    await page.getByLabel("Repeat the password").fill(invitee.password);
    await page.getByRole("button", { name: "Create account and accept" }).click();
    await heading(page, institution.name);
    await page.getByText(`You are now Cohort admin of ${institution.name}.`, { exact: true }).waitFor();
    await photographAndCheck(page, "38-join-landed", "join: landed on the institution");

    await signOutFromMenu(page, invitee);
    await submitSignIn(page, invitee.email, invitee.password);
    await heading(page, institution.name);

    // Reopening the accepted link says so, signed out as signed in.
    await signOutFromMenu(page, invitee);
    await page.goto(link);
    await page.getByText("You have already accepted this invitation").first().waitFor();
    await photographAndCheck(page, "39-join-already-accepted", "join: already accepted");
  });
});

describe("signing in and your account", () => {
  it("turns TOTP on in Your account; the next sign-in asks for a code, computed here from the secret", async () => {
    const { owner } = await newAccount("totp");
    const page = await browse(owner);
    await page.goto(consoleUrl("/account"));
    await heading(page, "Your account");
    await page.getByTestId("totp-status").getByText("Off").waitFor();
    await page.getByText("Roles explained").or(page.getByText("What “super admin” means here")).first().waitFor();
    await photographAndCheck(page, "30-account", "your account");

    await page.getByRole("button", { name: "Set up authenticator app" }).click();
    await page.getByTestId("totp-qr").waitFor();
    const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await photographAndCheck(page, "31-account-totp-setup", "TOTP setup");
    // A wrong code first: refused, TOTP stays off.
    const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, "0");
    await page.getByLabel("Code from your app").fill(wrong);
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page
      .getByText(/That code is not right/)
      .first()
      .waitFor();
    await page.getByLabel("Code from your app").fill(totpCode(secret));
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.getByTestId("totp-status").getByText("On").waitFor();

    await signOutFromMenu(page, owner);
    await submitSignIn(page, owner.email, owner.password);
    await heading(page, "Enter your authenticator code");
    await photographAndCheck(page, "32-sign-in-totp", "TOTP code");
    await page.getByLabel("Code from your app").fill(wrong);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    // A wrong code is refused; the same challenge takes the right one.
    await page
      .getByText(/That code is not right/)
      .first()
      .waitFor();
    await page.getByLabel("Code from your app").fill(totpCode(secret));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    // Signed in where the person signed out: Your account.
    await heading(page, "Your account");

    // The password alone no longer signs in: Cognito asks for the code.
    const direct = await cognito("InitiateAuth", {
      ClientId: stack.userPoolClientId,
      AuthFlow: "USER_PASSWORD_AUTH",
      AuthParameters: { USERNAME: owner.email, PASSWORD: owner.password },
    });
    expect(direct.body.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");

    // And turned off again (MFA is optional here, as in dev): the password alone signs in.
    await page.getByTestId("totp-status").getByText("On").waitFor();
    await page.getByRole("button", { name: "Turn off" }).click();
    await page.getByTestId("totp-status").getByText("Off").waitFor();
    expect((await signInTokens(owner.email, owner.password)).idToken).toBeTruthy();
  });

  it("resets a forgotten password with the code from the local mail page, and signs in with the new one", async () => {
    const { domain } = await newAccount("forgot");
    const person = await newPerson("fay", domain);
    const page = await browse();
    await page.goto(consoleUrl("/"));
    await heading(page, "Sign in");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await heading(page, "Reset your password");
    await photographAndCheck(page, "33-forgot-password", "forgot password");
    await page.getByLabel("E-mail address").fill(person.email);
    await page.getByRole("button", { name: "Send code" }).click();
    await heading(page, "Choose a new password");

    // The code is on the local mail page (the local SES), as invitations are.
    const mail = await expect
      .poll(async () => (await sentMail(person.email)).find((m) => /password reset code/i.test(m.subject)), { timeout: 20_000 })
      .toBeDefined()
      .then(async () => (await sentMail(person.email)).filter((m) => /password reset code/i.test(m.subject)).at(-1));
    const code = /\b(\d{6})\b/.exec(mail?.body.text ?? "")?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);

    const fresh = strongPassword("Fay");
    const wrong = code === "000000" ? "111111" : "000000";
    await page.getByLabel("Code from the e-mail").fill(wrong);
    await page.getByLabel("New password", { exact: true }).fill(fresh);
    await page.getByLabel("Repeat the new password").fill(fresh);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page
      .getByText(/That code is not right/)
      .first()
      .waitFor();
    await photographAndCheck(page, "34-forgot-password-code", "reset with code");
    await page.getByLabel("Code from the e-mail").fill(code);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await heading(page, "Institutions");

    // The new password works, the old one does not.
    expect((await signInTokens(person.email, fresh)).idToken).toBeTruthy();
    await expect(signInTokens(person.email, person.password)).rejects.toThrow();
  });

  it("signs out everywhere: this browser's refresh token and another session's are refused afterwards", async () => {
    const { owner } = await newAccount("everywhere");
    const elsewhere = await signInTokens(owner.email, owner.password);
    const page = await browse();
    await page.goto(consoleUrl("/"));
    await submitSignIn(page, owner.email, owner.password);
    await heading(page, "Institutions");
    // Amplify names its keys after the user; find this browser's refresh token by its suffix.
    const stored = await page.evaluate(() => {
      const ss = (
        globalThis as unknown as { sessionStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null } }
      ).sessionStorage;
      for (let i = 0; i < ss.length; i++) {
        const key = ss.key(i) ?? "";
        if (key.startsWith("CognitoIdentityServiceProvider.") && key.endsWith(".refreshToken")) return ss.getItem(key);
      }
      return null;
    });
    expect(stored).toBeTruthy();
    const mine = stored ?? "";
    // Both work before.
    expect((await refreshWith(mine)).status).toBe(200);
    expect((await refreshWith(elsewhere.refreshToken ?? "")).status).toBe(200);

    await page.goto(consoleUrl("/account"));
    await heading(page, "Your account");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await heading(page, "Sign in");
    await screenshot(page, "35-signed-out-everywhere");

    for (const token of [mine, elsewhere.refreshToken ?? ""]) {
      const refused = await refreshWith(token);
      expect(refused.status).toBe(400);
      expect(String(refused.body.__type)).toMatch(/NotAuthorizedException/);
    }
  });

  it("sets up TOTP at a first sign-in where MFA is required (MFA_SETUP; Cognito stood in at the network layer)", async () => {
    const { owner } = await newAccount("mfasetup");
    // Real tokens of the local pool, which the stood-in Cognito hands out at the end.
    const tokens = await signInTokens(owner.email, owner.password);
    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    const seen: { action: string; body: Record<string, unknown> }[] = [];
    const page = await browse();
    // Only the four calls of the MFA_SETUP flow are answered here; any other reaches cognito-local.
    await page.route(`${stack.cognitoEndpoint}/**`, async (route: Route) => {
      const action = (route.request().headers()["x-amz-target"] ?? "").split(".").pop() ?? "";
      const body = (route.request().postDataJSON() ?? {}) as Record<string, unknown>;
      const answer = (json: unknown, status = 200) =>
        route.fulfill({
          status,
          contentType: "application/x-amz-json-1.1",
          headers: { "access-control-allow-origin": "*" },
          body: JSON.stringify(json),
        });
      if (route.request().method() === "OPTIONS") return route.continue();
      const auth = body.AuthParameters as Record<string, string> | undefined;
      if (action === "InitiateAuth" && body.AuthFlow === "USER_PASSWORD_AUTH") {
        seen.push({ action, body: { ...body, AuthParameters: { USERNAME: auth?.USERNAME } } });
        return answer({
          ChallengeName: "MFA_SETUP",
          Session: "session-1",
          ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: owner.email },
        });
      }
      if (action === "AssociateSoftwareToken") {
        seen.push({ action, body });
        return answer({ SecretCode: secret, Session: "session-2" });
      }
      if (action === "VerifySoftwareToken") {
        seen.push({ action, body });
        const ok = body.Session === "session-2" && body.UserCode === totpCode(secret);
        return ok
          ? answer({ Status: "SUCCESS", Session: "session-3" })
          : answer({ __type: "CodeMismatchException", message: "Invalid code" }, 400);
      }
      if (action === "RespondToAuthChallenge" && body.ChallengeName === "MFA_SETUP") {
        seen.push({ action, body });
        return answer({
          ChallengeParameters: {},
          AuthenticationResult: {
            IdToken: tokens.idToken,
            AccessToken: tokens.accessToken,
            RefreshToken: tokens.refreshToken,
            ExpiresIn: 3600,
            TokenType: "Bearer",
          },
        });
      }
      return route.continue();
    });

    await page.goto(consoleUrl("/"));
    await submitSignIn(page, owner.email, owner.password);
    await heading(page, "Set up an authenticator app");
    await page.getByTestId("totp-qr").waitFor();
    expect(((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "")).toBe(secret);
    await photographAndCheck(page, "36-sign-in-mfa-setup", "MFA setup");
    await page.getByLabel("Code from your app").fill(totpCode(secret));
    await page.getByRole("button", { name: "Verify and sign in" }).click();
    await heading(page, "Institutions");

    // The flow as Cognito's protocol has it: each step carries the previous step's Session.
    expect(seen.map((s) => s.action)).toEqual(["InitiateAuth", "AssociateSoftwareToken", "VerifySoftwareToken", "RespondToAuthChallenge"]);
    expect(seen[1]?.body.Session).toBe("session-1");
    expect(seen[2]?.body.Session).toBe("session-2");
    expect(seen[3]?.body.Session).toBe("session-3");
    expect(seen[3]?.body.ChallengeResponses).toMatchObject({ USERNAME: owner.email });
  });
});
