/**
 * `npm run -s token -- <email> [--super-admin] [--account <id>] [--name <name>] [--password <pw> [--temporary]]`:
 * prints only a fresh ID token on stdout, for the stack `npm start` runs. Everything else goes to stderr.
 *
 * It changes a password only when told to (`--password`). Without it, a new user gets a random password and
 * an existing one keeps theirs: the script signs in with the password it set last, which it keeps in
 * `.local/passwords.json` (per user pool, readable by this user alone), and otherwise says that it needs
 * `--password`. Running the README's commands twice must not lock its first user out of the console.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import {
  AdminAddUserToGroupCommand,
  AdminGetUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminUpdateUserAttributesCommand,
  type AttributeType,
} from "@aws-sdk/client-cognito-identity-provider";
import { SUPER_ADMIN_GROUP } from "../../shared/caller.js";
import { paths } from "../../shared/paths.js";
import { cognitoClient, createUserWithTemporaryPassword, issueIdToken, signIn, type TokenOptions } from "./cognito.js";
import { STACK_FILE, type StackInfo } from "./stack.js";

/** The passwords this script set, per user pool and user: `{ "<userPoolId>": { "<email>": "<password>" } }`. */
export const PASSWORDS_FILE = join(dirname(STACK_FILE), "passwords.json");

const HELP = `Usage: npm run -s token -- <email> [--super-admin] [--account <id>] [--name <name>] [--password <pw> [--temporary]]

Creates or updates <email> in the local Cognito user pool of \`npm start\` and prints a fresh ID token
(valid 24 hours) on stdout, and nothing else. Use -s (--silent) so npm's own banner stays out of stdout:

  TOKEN=$(npm run -s token -- ada@example.com --super-admin --account acme --name "Ada Admin")
  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:3000${paths.institutions}

Options:
  --super-admin     put the user in the cohort_super_admin group; without it the user is taken out of it
  --account <id>    custom:account_id; default for a new user: derived from the e-mail domain, acct-<domain>
                    (ada@example.com -> acct-example.com), so users of one domain share an account; an
                    existing user keeps theirs
  --name <name>     the name claim; without it a new user has none and an existing user keeps theirs
  --password <pw>   make <pw> the user's permanent password, to sign in to the console (consoleUrl in
                    .local/stack.json) with it. Without it the password is never changed: a new user gets a
                    random one, and for an existing user the script signs in with the password it set last
                    (kept in .local/passwords.json); when it knows none (the user chose one in the console), it
                    stops and asks for --password
  --temporary       with --password: make it a temporary password instead, as an administrator creating a
                    user does; the first sign-in in the console asks for a new one. Prints no token.
  -h, --help        this text
`;

function fail(message: string): never {
  process.stderr.write(`token: ${message}\n`);
  process.exit(1);
}

type Passwords = Record<string, Record<string, string>>;

function readPasswords(): Passwords {
  if (!existsSync(PASSWORDS_FILE)) return {};
  try {
    return JSON.parse(readFileSync(PASSWORDS_FILE, "utf8")) as Passwords;
  } catch {
    return {};
  }
}

/** Remembers (or, with `undefined`, forgets) the password of `email` in `pool`. */
function rememberPassword(pool: string, email: string, password: string | undefined): void {
  const all = readPasswords();
  const users = { ...all[pool] };
  if (password === undefined) delete users[email];
  else users[email] = password;
  writeFileSync(PASSWORDS_FILE, `${JSON.stringify({ ...all, [pool]: users }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(PASSWORDS_FILE, 0o600);
}

/** The user's attributes, or undefined when the pool has no such user. */
async function existingUser(stack: StackInfo, username: string): Promise<Map<string, string> | undefined> {
  const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  try {
    const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: username }));
    return new Map((user.UserAttributes ?? []).map((a) => [a.Name ?? "", a.Value ?? ""]));
  } catch (err) {
    if ((err as Error).name === "UserNotFoundException") return undefined;
    throw err;
  } finally {
    cognito.destroy();
  }
}

/** Sets what was asked (account, name, group) on an existing user, and leaves the password alone. */
async function updateUser(stack: StackInfo, username: string, opts: Omit<TokenOptions, "password">): Promise<void> {
  const { userPoolId: UserPoolId } = stack;
  const attributes: AttributeType[] = [];
  if (opts.account !== undefined) attributes.push({ Name: "custom:account_id", Value: opts.account });
  if (opts.name !== undefined) attributes.push({ Name: "name", Value: opts.name });
  const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  try {
    if (attributes.length > 0) {
      await cognito.send(new AdminUpdateUserAttributesCommand({ UserPoolId, Username: username, UserAttributes: attributes }));
    }
    const group = { UserPoolId, Username: username, GroupName: SUPER_ADMIN_GROUP };
    await cognito.send(opts.superAdmin ? new AdminAddUserToGroupCommand(group) : new AdminRemoveUserFromGroupCommand(group));
  } finally {
    cognito.destroy();
  }
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (err) {
    fail(`${(err as Error).message}\n\n${HELP}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stderr.write(HELP);
    return;
  }
  const [given, ...extra] = positionals;
  if (!given || extra.length > 0) fail(`expected exactly one e-mail address\n\n${HELP}`);
  const email = given.trim().toLowerCase();

  const notRunning = "the local stack is not running: start it with `npm start` (in another terminal) and try again";
  if (!existsSync(STACK_FILE)) fail(notRunning);
  const stack = JSON.parse(readFileSync(STACK_FILE, "utf8")) as StackInfo;
  try {
    await fetch(`${stack.cognitoEndpoint}/health`, { signal: AbortSignal.timeout(2000) });
  } catch {
    fail(`${notRunning} (nothing answers at ${stack.cognitoEndpoint}; ${STACK_FILE} is stale)`);
  }
  const existing = await existingUser(stack, email);
  const opts = {
    superAdmin: values["super-admin"] ?? false,
    // An existing user keeps their account unless one is given: a token must not move them to another trail.
    ...((values.account ?? existing?.get("custom:account_id")) !== undefined && {
      account: values.account ?? existing?.get("custom:account_id"),
    }),
    ...(values.name !== undefined && { name: values.name }),
  };
  const consoleUrl = stack.consoleUrl ?? `${stack.apiUrl}/`;
  const kept = relative(process.cwd(), PASSWORDS_FILE) || PASSWORDS_FILE;

  if (values.temporary) {
    if (values.password === undefined) fail(`--temporary needs --password <pw>\n\n${HELP}`);
    await createUserWithTemporaryPassword(stack, email, values.password, opts);
    rememberPassword(stack.userPoolId, email, undefined); // the user chooses the next one
    process.stderr.write(`${email} has a temporary password: sign in at ${consoleUrl} and choose a new one.\n`);
    return;
  }

  if (values.password !== undefined) {
    const token = await issueIdToken(stack, email, { ...opts, password: values.password });
    rememberPassword(stack.userPoolId, email, values.password);
    process.stdout.write(`${token}\n`);
    process.stderr.write(`Sign in at ${consoleUrl} as ${email} with that password.\n`);
    return;
  }

  if (existing === undefined) {
    const password = `${randomBytes(18).toString("base64url")}aA1!`;
    const token = await issueIdToken(stack, email, { ...opts, password });
    rememberPassword(stack.userPoolId, email, password);
    process.stdout.write(`${token}\n`);
    return;
  }

  const known = readPasswords()[stack.userPoolId]?.[email];
  function needsPassword(why: string): never {
    fail(
      `${email} exists, and ${why}. This script changes a password only when told to: run it again with ` +
        `--password '<the password>' (that password then becomes theirs).`,
    );
  }
  if (known === undefined) needsPassword(`its password was not set by this script (none for it in ${kept})`);
  await updateUser(stack, email, opts);
  let token: string;
  try {
    token = await signIn(stack, email, known);
  } catch (err) {
    needsPassword(`signing in with the password this script set last (in ${kept}) failed: ${(err as Error).message}`);
  }
  process.stdout.write(`${token}\n`);
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      "super-admin": { type: "boolean" },
      account: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      temporary: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
