/**
 * `npm run dns -- txt <name> <value>` | `list` | `remove <name> [<value>]`: the TXT records that `npm start`'s DNS
 * server answers (dns-server.ts), kept in `.local/dns.json`. The server reads that file at each query, so a record
 * published here answers at once, whether `npm start` runs or starts later; there is no other DNS locally to
 * publish a domain's challenge on (docs/sso.md#the-managed-login-locally).
 */
import { mkdirSync } from "node:fs";
import { dirname, relative } from "node:path";
import { DNS_FILE, type DnsEntry, dnsName, readRecords, writeRecords } from "./dns-server.js";

const HELP = `Usage: npm run dns -- txt <name> <value>
       npm run dns -- list
       npm run dns -- remove <name> [<value>]

The TXT records of the DNS server that \`npm start\` runs on loopback, for verifying a domain locally: the
console shows the record to publish (its name and value), for example

  npm run dns -- txt _institution-admin-challenge.example.edu 'n3N0…'

  txt <name> <value>        add <value> to the TXT records of <name> (kept once)
  list                      every name and its records
  remove <name> [<value>]   remove that value of <name>, or without one every record of <name>

Options:
  --file <path>   the records file (default: .local/dns.json; the tests use one of their own)
  -h, --help      this text

The records stay in the file across restarts. When the shell sets DNS_RESOLVERS, \`npm start\` asks those
resolvers instead, and these records are not read.
`;

/** A bad command line: the message and the usage, exit code 2. */
function fail(message: string): never {
  process.stderr.write(`dns: ${message}\n\n${HELP}`);
  process.exit(2);
}

/** By hand, not parseArgs: a challenge value is base64url, and may begin with "-". */
function parse(argv: readonly string[]): { positionals: string[]; file?: string; help: boolean } {
  const positionals: string[] = [];
  let file: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h" || arg === "--help") help = true;
    else if (arg === "--file") file = argv[++i] ?? fail("--file needs a path");
    else if (arg.startsWith("--file=")) file = arg.slice("--file=".length);
    else positionals.push(arg);
  }
  return { positionals, ...(file !== undefined && { file }), help };
}

/** Labels of letters, digits, hyphens and underscores, 1 to 63 each, at least two, at most 253 in all. */
function checkName(raw: string | undefined): string {
  if (raw === undefined) fail("a name is missing");
  const name = dnsName(raw);
  const labels = name.split(".");
  if (name.length > 253 || labels.length < 2 || !labels.every((l) => /^[a-z0-9_-]{1,63}$/.test(l))) {
    fail(`"${raw}" is not a DNS name (such as _institution-admin-challenge.example.edu)`);
  }
  return name;
}

function show(name: string, entry: DnsEntry): string {
  if (entry.servfail) return `${name}  SERVFAIL`;
  if (entry.txt.length === 0) return `${name}  (no TXT records)`;
  return entry.txt.map((value) => `${name}  TXT  ${JSON.stringify(value)}`).join("\n");
}

function main(): void {
  const { positionals, help, ...given } = parse(process.argv.slice(2));
  if (help) {
    process.stdout.write(HELP);
    return;
  }
  const file = given.file ?? DNS_FILE;
  const shown = relative(process.cwd(), file) || file;
  const [command, ...args] = positionals;
  const records = readRecords(file);
  const save = () => {
    mkdirSync(dirname(file), { recursive: true });
    writeRecords(file, records);
  };

  if (command === "list" && args.length === 0) {
    const lines = [...records].map(([name, entry]) => show(name, entry));
    process.stdout.write(lines.length > 0 ? `${lines.join("\n")}\n` : `no records (${shown})\n`);
    return;
  }
  if (command === "txt" && args.length === 2) {
    const name = checkName(args[0]);
    const value = args[1] as string;
    if (value === "") fail("the value is empty");
    const txt = records.get(name)?.txt ?? [];
    records.set(name, { txt: txt.includes(value) ? txt : [...txt, value] });
    save();
    process.stdout.write(`${show(name, records.get(name) as DnsEntry)}\n`);
    return;
  }
  if (command === "remove" && (args.length === 1 || args.length === 2)) {
    const name = checkName(args[0]);
    const [, value] = args;
    const entry = records.get(name);
    if (!entry || (value !== undefined && !entry.txt.includes(value))) {
      throw new Error(`${value === undefined ? name : `${name} TXT ${JSON.stringify(value)}`} is not published (npm run dns -- list)`);
    }
    const txt = value === undefined ? [] : entry.txt.filter((t) => t !== value);
    if (txt.length === 0) records.delete(name);
    else records.set(name, { txt });
    save();
    process.stdout.write(`removed ${value === undefined ? name : `${name} TXT ${JSON.stringify(value)}`}\n`);
    return;
  }
  const takes = new Map([
    ["txt", "<name> <value>"],
    ["list", "nothing"],
    ["remove", "<name> [<value>]"],
  ]);
  if (command === undefined) fail("a command is missing");
  fail(takes.has(command) ? `${command} takes ${takes.get(command)}` : `no command "${command}"`);
}

try {
  main();
} catch (err) {
  process.stderr.write(`dns: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
