/**
 * `npm run load [-- --seconds 20 --connections 8]`: a bounded load run against the local gateway on
 * loopback. Starts its own local stack (in-memory DynamoDB Local, cognito-local, local SES, gateway on free
 * ports; logs under `.local/load-runs/`), makes 6 users in 3 accounts, runs autocannon for the given time
 * with a mix of reads and writes (bench/load/run.ts), prints requests/s, latency and the count of every
 * accepted write against the tables, and exits non-zero if any check fails. Nothing leaves 127.0.0.1.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { issueIdToken } from "../../infra/local/cognito.js";
import { localHandlerEnv, MEASUREMENT_BOUNDS } from "../../infra/local/env.js";
import { LOCAL_DIR, startLocalStack } from "../../infra/local/stack.js";

function option(name: string, envName: string, fallback: number, max: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i >= 0 ? process.argv[i + 1] : process.env[envName];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be an integer from 1 to ${max}, got "${raw}"`);
  return n;
}

async function main(): Promise<number> {
  const seconds = option("seconds", "LOAD_SECONDS", 20, 300);
  const connections = option("connections", "LOAD_CONNECTIONS", 8, 64);
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const runsDir = join(LOCAL_DIR, "load-runs");
  const dataDir = join(runsDir, `${stamp.slice(0, 8)}-${stamp.slice(8)}-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  // The logs of the five newest runs are kept.
  const runs = readdirSync(runsDir)
    .filter((d) => /^\d{8}-\d{6}-\d+$/.test(d))
    .sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - 5))) rmSync(join(runsDir, old), { recursive: true, force: true });

  console.log("starting the local stack…");
  const stack = await startLocalStack({ dataDir, persistent: false, tablePrefix: "load", handlerEnv: MEASUREMENT_BOUNDS });
  try {
    // The audit reads the tables through shared/clients.ts, which reads these at import.
    Object.assign(process.env, localHandlerEnv(stack));
    const { runLoad, formatReport } = await import("./run.js");

    const tag = stamp.slice(8);
    const users = [];
    for (let a = 0; a < 3; a++) {
      const account = `load-acct-${tag}-${a}`;
      for (let u = 0; u < 2; u++) {
        const token = await issueIdToken(stack, `load-${a}-${u}-${tag}@load.test`, {
          superAdmin: true,
          account,
          name: `Load User ${a}.${u}`,
        });
        const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { sub: string };
        users.push({ token, userId: claims.sub, accountId: account });
      }
    }
    console.log(`API ${stack.apiUrl}; ${users.length} users in 3 accounts; ${connections} connections for ${seconds} s…`);
    const report = await runLoad({ apiUrl: stack.apiUrl, users, seconds, connections, tag });
    console.log(`\n${formatReport(report, { seconds, connections, users })}\n`);
    console.log(`logs: ${stack.logDir}`);
    return report.failures.length === 0 ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error((err as Error).stack ?? err);
    process.exit(1);
  },
);
