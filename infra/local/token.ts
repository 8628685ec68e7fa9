/**
 * `npm run -s token -- <email> [--super-admin] [--account <id>] [--name <name>] [--password <pw> [--temporary]]`:
 * prints only a fresh ID token on stdout, for the stack `npm start` runs. Everything else goes to stderr.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { paths } from "../../shared/paths.js";
import { createUserWithTemporaryPassword, issueIdToken } from "./cognito.js";
import { STACK_FILE, type StackInfo } from "./stack.js";

const HELP = `Usage: npm run -s token -- <email> [--super-admin] [--account <id>] [--name <name>] [--password <pw> [--temporary]]

Creates or updates <email> in the local Cognito user pool of \`npm start\` and prints a fresh ID token
(valid 24 hours) on stdout, and nothing else. Use -s (--silent) so npm's own banner stays out of stdout:

  TOKEN=$(npm run -s token -- ada@example.com --super-admin --account acme --name "Ada Admin")
  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:3000${paths.institutions}

Options:
  --super-admin     put the user in the cohort_super_admin group; without it the user is taken out of it
  --account <id>    custom:account_id; default: derived from the e-mail domain, acct-<domain>
                    (ada@example.com -> acct-example.com), so users of one domain share an account
  --name <name>     the name claim; without it a new user has none and an existing user keeps theirs
  --password <pw>   make <pw> the user's permanent password, to sign in to the console (consoleUrl in
                    .local/stack.json) with it; without it every call sets a fresh random one
  --temporary       with --password: make it a temporary password instead, as an administrator creating a
                    user does; the first sign-in in the console asks for a new one. Prints no token.
  -h, --help        this text
`;

function fail(message: string): never {
  process.stderr.write(`token: ${message}\n`);
  process.exit(1);
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
  const [email, ...extra] = positionals;
  if (!email || extra.length > 0) fail(`expected exactly one e-mail address\n\n${HELP}`);

  const notRunning = "the local stack is not running: start it with `npm start` (in another terminal) and try again";
  if (!existsSync(STACK_FILE)) fail(notRunning);
  const stack = JSON.parse(readFileSync(STACK_FILE, "utf8")) as StackInfo;
  try {
    await fetch(`${stack.cognitoEndpoint}/health`, { signal: AbortSignal.timeout(2000) });
  } catch {
    fail(`${notRunning} (nothing answers at ${stack.cognitoEndpoint}; ${STACK_FILE} is stale)`);
  }
  const opts = {
    superAdmin: values["super-admin"] ?? false,
    ...(values.account !== undefined && { account: values.account }),
    ...(values.name !== undefined && { name: values.name }),
  };
  const consoleUrl = stack.consoleUrl ?? `${stack.apiUrl}/`;
  if (values.temporary) {
    if (values.password === undefined) fail(`--temporary needs --password <pw>\n\n${HELP}`);
    await createUserWithTemporaryPassword(stack, email, values.password, opts);
    process.stderr.write(`${email} has a temporary password: sign in at ${consoleUrl} and choose a new one.\n`);
    return;
  }
  const token = await issueIdToken(stack, email, { ...opts, ...(values.password !== undefined && { password: values.password }) });
  process.stdout.write(`${token}\n`);
  if (values.password !== undefined) process.stderr.write(`Sign in at ${consoleUrl} as ${email} with that password.\n`);
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
