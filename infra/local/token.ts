/**
 * `npm run -s token -- <email> [--super-admin] [--account <id>] [--name <name>]`: prints only a fresh ID
 * token on stdout, for the stack `npm start` runs. Everything else goes to stderr.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { issueToken } from "./cognito.js";
import { STACK_FILE, type StackInfo } from "./stack.js";

// The SDK's notice that its 2027 releases need Node 22 (engines says >=20) would repeat in every local process.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const HELP = `Usage: npm run -s token -- <email> [--super-admin] [--account <id>] [--name <name>]

Creates or updates <email> in the local Cognito user pool of \`npm start\` and prints a fresh ID token
(valid 24 hours) on stdout, and nothing else. Use -s (--silent) so npm's own banner stays out of stdout:

  TOKEN=$(npm run -s token -- ada@example.com --super-admin --account acme --name "Ada Admin")
  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:3000/api/v1/institutions

Options:
  --super-admin     put the user in the cohort_super_admin group; without it the user is taken out of it
  --account <id>    custom:account_id; default: derived from the e-mail domain, acct-<domain>
                    (ada@example.com -> acct-example.com), so users of one domain share an account
  --name <name>     the name claim; without it a new user has none and an existing user keeps theirs
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
  const token = await issueToken(stack, email, {
    superAdmin: values["super-admin"] ?? false,
    ...(values.account !== undefined && { account: values.account }),
    ...(values.name !== undefined && { name: values.name }),
  });
  process.stdout.write(`${token}\n`);
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      "super-admin": { type: "boolean" },
      account: { type: "string" },
      name: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
