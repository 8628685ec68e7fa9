/**
 * The pool's mail is the service's mail (docs/console-sign-in.md#the-pools-mail, issue 41 item 3): every mail the user pool sends, read on
 * the local mail page (the local SES's store) as a person reads it. cognito-local runs the pool's CustomMessage
 * trigger (functions/pool/custom-message.ts, the module the stack deploys) and its stand-in puts the result on
 * the mail page: a directory-created person's temporary password (what it is, for which institution, the console's
 * link, and it works), a reset code (and it works), a verification code. None is cognito-local's own words.
 */
import {
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  GetUserAttributeVerificationCodeCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { type SentMail, sentMail, stack, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution } from "../support/flows.js";
import { connect, entraUser, scim } from "../support/scim.js";

const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
afterAll(() => cognito.destroy());

/** The console's sign-in link, as mail carries it: the console's origin (APP_BASE_URL; locally the gateway's). */
const CONSOLE_LINK = `${stack.apiUrl}/`;
const PASSWORD = "Pool-Mail-Test-9!";

/** Waits for the newest mail to `to` whose subject matches. */
async function mailTo(to: string, subject: RegExp): Promise<SentMail> {
  let found: SentMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await sentMail(to)).filter((m) => subject.test(m.subject)).at(-1);
        return found;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBeDefined();
  return found as SentMail;
}

/** What cognito-local's own words were: a mail in them is not the service's. */
const COGNITO_LOCAL_WORDS = /Your code is|Enter it on the page that asked for it\. If you did not ask for a code/;

let domain: string;
let owner: string;
beforeAll(async () => {
  domain = `${uniq("d")}.test`;
  owner = await token(uniqEmail("owner", domain), { superAdmin: true, name: "Olive Owner" });
});

describe("the pool's mail, on the local mail page, in the service's words", () => {
  it("a person the directory (SCIM) created: the temporary password, for which institution, with the console's link, and it signs in", async () => {
    const name = `Acme College ${uniq("n")}`;
    const inst = await createInstitution(owner, { name });
    const { token: dir } = await connect(owner, inst.id);
    const email = uniqEmail("dir", domain);
    expect((await scim(dir, "POST", "/Users", entraUser(email))).status).toBe(201);

    const mail = await mailTo(email, /account/i);
    const text = mail.body.text ?? "";
    expect(mail.subject).toBe(`Your Institution Admin account for ${name}`);
    expect(text).toContain(`The directory of ${name} gave you access to it in Institution Admin`);
    expect(text).toContain("Your temporary password: ");
    expect(text).toContain(`Sign in at ${CONSOLE_LINK} with your e-mail address ${email}`);
    expect(text).toContain("works for 3 days");
    expect(text).not.toMatch(COGNITO_LOCAL_WORDS);
    expect(mail.body.html).toContain(`<a href="${CONSOLE_LINK}">`);
    // The placeholders are filled: the code where the message held {####}, the user name where it held {username}.
    expect(text).not.toMatch(/\{####\}|\{username\}/);

    // The temporary password is what it says: it signs in, and the pool asks for a password of the person's own.
    const temporary = /Your temporary password: (\S+)/.exec(text)?.[1] ?? "";
    expect(temporary).not.toBe("");
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: stack.userPoolClientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: email, PASSWORD: temporary },
      }),
    );
    expect(auth.ChallengeName).toBe("NEW_PASSWORD_REQUIRED");
    const done = await cognito.send(
      new RespondToAuthChallengeCommand({
        ClientId: stack.userPoolClientId,
        ChallengeName: "NEW_PASSWORD_REQUIRED",
        Session: auth.Session,
        ChallengeResponses: { USERNAME: email, NEW_PASSWORD: PASSWORD },
      }),
    );
    expect(done.AuthenticationResult?.IdToken).toBeTruthy();
  });

  it("a forgotten password: the reset code, with the console's link, and it resets the password", async () => {
    const email = uniqEmail("forgot", domain);
    await token(email, { password: PASSWORD, name: "Fay Forgetful" });
    await cognito.send(new ForgotPasswordCommand({ ClientId: stack.userPoolClientId, Username: email }));

    const mail = await mailTo(email, /reset/i);
    const text = mail.body.text ?? "";
    expect(mail.subject).toBe("Your password reset code");
    expect(text).toMatch(/^Hello Fay Forgetful,/);
    expect(text).toContain(`Someone asked to reset the password of the Institution Admin account ${email}.`);
    expect(text).toContain(CONSOLE_LINK);
    expect(text).toContain("If you did not ask, ignore this mail");
    expect(text).not.toMatch(COGNITO_LOCAL_WORDS);
    const code = /Your password reset code: (\S+)/.exec(text)?.[1] ?? "";
    expect(code).toMatch(/^\d{6}$/);

    await cognito.send(
      new ConfirmForgotPasswordCommand({
        ClientId: stack.userPoolClientId,
        Username: email,
        ConfirmationCode: code,
        Password: "Reset-Pool-Mail-8!",
      }),
    );
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: stack.userPoolClientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: email, PASSWORD: "Reset-Pool-Mail-8!" },
      }),
    );
    expect(auth.AuthenticationResult?.IdToken).toBeTruthy();
  });

  it("a verification code for the person's e-mail address, with the console's link", async () => {
    const email = uniqEmail("verify", domain);
    await token(email, { password: PASSWORD });
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: stack.userPoolClientId,
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: { USERNAME: email, PASSWORD: PASSWORD },
      }),
    );
    await cognito.send(
      new GetUserAttributeVerificationCodeCommand({ AccessToken: auth.AuthenticationResult?.AccessToken, AttributeName: "email" }),
    );

    const mail = await mailTo(email, /verification/i);
    const text = mail.body.text ?? "";
    expect(mail.subject).toBe("Your verification code");
    expect(text).toMatch(/^Hello,/);
    expect(text).toContain(`Confirm that the e-mail address ${email} is yours, for your Institution Admin account.`);
    expect(text).toMatch(/Your verification code: \d{6}/);
    expect(text).toContain(CONSOLE_LINK);
    expect(text).not.toMatch(COGNITO_LOCAL_WORDS);
  });
});
