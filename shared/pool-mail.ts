/**
 * The words of every mail the user pool sends (docs/console-sign-in.md#the-pools-mail: the pool's mail is the service's mail): what it
 * is, for which institution when that is known, and the console's link. The CustomMessage trigger
 * (functions/pool/custom-message.ts) hands them to Cognito, which puts the code where the message holds
 * `codeParameter` and the user name where it holds `usernameParameter`, then sends the mail (through the
 * stack's SES identity with `-c poolMail=ses`). Locally cognito-local runs the same trigger and its stand-in
 * puts the result on the local mail page. No imports: pure words.
 *
 * Cognito takes HTML in `emailMessage` and sends it as the mail's HTML body, so the words are HTML with every
 * value escaped. A code-bearing message must hold the code parameter exactly once (cognito-local replaces only
 * the first), and a temporary-password message the user-name parameter too: Cognito refuses the message
 * otherwise.
 */

/** What the pool sends, by the trigger source's suffix (`CustomMessage_<source>`). */
export type PoolMailKind = "temporary_password" | "reset_code" | "verification_code" | "sign_in_code";

const KINDS: Readonly<Record<string, PoolMailKind>> = {
  CustomMessage_AdminCreateUser: "temporary_password",
  CustomMessage_ForgotPassword: "reset_code",
  CustomMessage_SignUp: "verification_code",
  CustomMessage_ResendCode: "verification_code",
  CustomMessage_UpdateUserAttribute: "verification_code",
  CustomMessage_VerifyUserAttribute: "verification_code",
  CustomMessage_Authentication: "sign_in_code",
};

/** The kind of mail a CustomMessage trigger source asks for; undefined for one the service does not write. */
export const poolMailKind = (triggerSource: string): PoolMailKind | undefined => KINDS[triggerSource];

/** Days a temporary password works: the pool's `tempPasswordValidity` (infra/identity.ts). */
export const TEMPORARY_PASSWORD_DAYS = 3;

/**
 * What AdminCreateUser's `ClientMetadata` may say about why the user was made, for the mail's words: the
 * directory (SCIM) of an institution sets both (shared/users.ts `findOrCreatePoolUser`).
 */
export interface PoolMailMetadata {
  readonly institution_name?: string;
  /** `directory`: an institution's directory (SCIM) made the user. */
  readonly source?: string;
}

export interface PoolMailInput {
  readonly triggerSource: string;
  /** Cognito's placeholders, from the trigger's event (`{####}`, `{username}`). */
  readonly codeParameter: string;
  readonly usernameParameter: string;
  /** The user's `email` and `name` attributes. */
  readonly email: string | undefined;
  readonly name: string | undefined;
  readonly metadata?: PoolMailMetadata | undefined;
  /** The console's origin, without a trailing slash. */
  readonly appBaseUrl: string;
}

export interface PoolMail {
  readonly kind: PoolMailKind;
  /** One line, at most 140 characters (Cognito's limit). */
  readonly subject: string;
  readonly html: string;
}

/** The product's name as people see it in mail. */
export const PRODUCT = "Institution Admin";

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A value from an attribute or metadata as one line (no control or format characters), at most `max` code points. */
function oneLine(s: string | undefined, max = 128): string {
  const clean = (s ?? "").replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, " ").trim();
  const points = [...clean];
  return points.length > max ? `${points.slice(0, max - 1).join("")}…` : clean;
}

const paragraph = (html: string) => `<p>${html}</p>`;

/** The mail of `input`, or undefined for a trigger source the service does not write (Cognito then uses its own). */
export function poolMail(input: PoolMailInput): PoolMail | undefined {
  const kind = poolMailKind(input.triggerSource);
  if (kind === undefined) return undefined;
  const email = oneLine(input.email, 254);
  const name = oneLine(input.name);
  const institution = oneLine(input.metadata?.institution_name);
  const link = `${input.appBaseUrl}/`;
  const signInLink = `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`;
  const greeting = paragraph(name ? `Hello ${escapeHtml(name)},` : "Hello,");
  const code = (label: string) => paragraph(`${label}: <strong>${input.codeParameter}</strong>`);
  const account = email ? ` ${escapeHtml(email)}` : "";
  const footer = paragraph(`${PRODUCT} is where your institution's administrators manage it: ${signInLink}`);
  const subject = (s: string) => oneLine(s, 140);

  switch (kind) {
    case "temporary_password": {
      const why =
        institution && input.metadata?.source === "directory"
          ? `The directory of <strong>${escapeHtml(institution)}</strong> gave you access to it in ${PRODUCT}, so an account was made for you.`
          : institution
            ? `You were given access to <strong>${escapeHtml(institution)}</strong> in ${PRODUCT}, so an account was made for you.`
            : `An administrator made an account for you in ${PRODUCT}.`;
      return {
        kind,
        subject: subject(institution ? `Your ${PRODUCT} account for ${institution}` : `Your ${PRODUCT} account`),
        html: [
          greeting,
          paragraph(why),
          code("Your temporary password"),
          paragraph(
            `Sign in at ${signInLink} with your e-mail address${account} and this temporary password; you then choose a password of your own. ` +
              `The temporary password works for ${TEMPORARY_PASSWORD_DAYS} days.`,
          ),
          paragraph(`Your user name, if you are asked for one: ${input.usernameParameter}`),
          paragraph("If you did not expect this mail, you can ignore it: nobody can use the account without this password."),
        ].join("\n"),
      };
    }
    case "reset_code":
      return {
        kind,
        subject: subject("Your password reset code"),
        html: [
          greeting,
          paragraph(`Someone asked to reset the password of the ${PRODUCT} account${account}.`),
          code("Your password reset code"),
          paragraph(
            `Enter it on the page that asked for it (sign-in → <em>Forgot password?</em> at ${signInLink}), with your new password. It works for one hour.`,
          ),
          paragraph("If you did not ask, ignore this mail: your password stays as it is."),
        ].join("\n"),
      };
    case "verification_code":
      return {
        kind,
        subject: subject("Your verification code"),
        html: [
          greeting,
          paragraph(`Confirm that the e-mail address${account} is yours, for your ${PRODUCT} account.`),
          code("Your verification code"),
          paragraph("Enter it on the page that asked for it. It works for 24 hours."),
          paragraph("If you did not ask for it, ignore this mail: nothing changes without the code."),
          footer,
        ].join("\n"),
      };
    case "sign_in_code":
      return {
        kind,
        subject: subject("Your sign-in code"),
        html: [
          greeting,
          paragraph(`Someone is signing in to the ${PRODUCT} account${account} with its password.`),
          code("Your sign-in code"),
          paragraph(`Enter it on the sign-in page (${signInLink}) to finish signing in. It works for a few minutes.`),
          paragraph("If this is not you, change your password: someone else knows it."),
        ].join("\n"),
      };
  }
}

/** The text of a mail's HTML as a mail reader shows it: paragraphs as blank lines, tags gone, entities read. */
export function textOf(html: string): string {
  return html
    .replace(/<\/p>\s*/g, "\n\n")
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<a href="([^"]*)">([^<]*)<\/a>/g, (_, href: string, label: string) => (label === href ? label : `${label} (${href})`))
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}
