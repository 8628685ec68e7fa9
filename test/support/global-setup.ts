/**
 * Starts the whole local stack once per test run, on free ports, with DynamoDB in memory and a fresh
 * Cognito directory, and stops it after the last file. Its state and logs go to
 * `.local/test-runs/<time>-<pid>/`; the five newest runs are kept for reading after a failure.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { LOCAL_DIR, LOCAL_MAIL_FROM, startLocalStack } from "../../infra/local/stack.js";
import { startControlServer } from "./control.js";
import { startTestDns } from "./dns-server.js";
import "./stack-info.js";

const RUNS_DIR = join(LOCAL_DIR, "test-runs");
const KEEP_RUNS = 5;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Old run directories go, except those of runs still going (colleagues share the checkout). */
function pruneRuns(): void {
  const runs = readdirSync(RUNS_DIR)
    .filter((d) => /^\d{8}-\d{6}-\d+$/.test(d))
    .sort();
  for (const dir of runs.slice(0, Math.max(0, runs.length - KEEP_RUNS))) {
    const pid = Number(dir.split("-")[2]);
    if (pid !== process.pid && !alive(pid)) rmSync(join(RUNS_DIR, dir), { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(RUNS_DIR, { recursive: true });
  pruneRuns();
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dataDir = join(RUNS_DIR, `${stamp.slice(0, 8)}-${stamp.slice(8)}-${process.pid}`);

  // Ten years of retention: the tests seed events at fixed instants of 2024. The retention tests read with a
  // clock moved past it; the digest tests run the digester themselves, on the hour's periods.
  // Every AWS request the functions make, checked against their roles at the end of the run (docs/iam.md).
  const awsRequestLog = join(dataDir, "aws-requests");
  // Verified domains' TXT records (DESIGN.md §18): the functions resolve through this server on loopback.
  const dns = await startTestDns();
  const stack = await startLocalStack({
    dataDir,
    persistent: false,
    eventRetentionDays: 3650,
    digestPeriodSeconds: 3600,
    digestTimer: false,
    // Webhook retries after 1, 2, 4… s instead of 30, 60, 120… s, so a test sees them.
    webhookRetryBaseSeconds: 1,
    handlerEnv: { AWS_REQUEST_LOG: awsRequestLog },
    dnsResolvers: dns.address,
    // The tests move the clock per request (x-local-clock-offset); `npm start` refuses the header.
    clockHeader: true,
  });
  const control = await startControlServer(stack, dns);
  project.provide("stack", { ...stack.info(), controlUrl: control.url, logDir: stack.logDir, awsRequestLog });
  console.log(`[local stack] API ${stack.apiUrl}; logs in ${stack.logDir}`);

  return async () => {
    await control.close();
    await stack.stop();
    await dns.close();
    // After the last file: a request AWS would deny fails the run. Vitest only logs an error thrown here ("error
    // during close") and keeps its exit code, so the code is set here: 1 until the check passes, so that a check
    // cut short (the teardown timeout) fails the run too.
    const { checkRequests, readRecorded } = await import("./iam.js");
    const recorded = readRecorded(awsRequestLog);
    if (recorded.length === 0) return;
    const exitCode = process.exitCode;
    process.exitCode = 1;
    const check = await checkRequests(
      { region: stack.region, tables: stack.tables, mailFrom: LOCAL_MAIL_FROM, userPoolId: stack.userPoolId },
      recorded,
    );
    console.log(check.report);
    if (check.denied.length > 0) {
      throw new Error(`IAM would deny ${check.denied.length} request(s) the functions made (docs/iam.md):\n${check.denied.join("\n")}`);
    }
    process.exitCode = exitCode;
  };
}
