/**
 * Starts the whole local stack once per test run, on free ports, with DynamoDB in memory and a fresh
 * Cognito directory, and stops it after the last file. Its state and logs go to
 * `.local/test-runs/<time>-<pid>/`; the five newest runs are kept for reading after a failure.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { startLocalDns } from "../../infra/local/dns-server.js";
import { LOCAL_DIR, startLocalStack } from "../../infra/local/stack.js";
import { startControlServer } from "./control.js";
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
  // Verified domains' TXT records (docs/sso.md): the functions resolve through this server on loopback, the
  // one `npm start` runs, with the run's own records file (the tests publish through the control server).
  const dns = await startLocalDns({ file: join(dataDir, "dns.json") });
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
  // The names the requests' ARNs are built from, beside them: `npx tsx test/support/iam-report.ts` checks a kept
  // run's log again (docs/iam.md).
  const { localNames, NAMES_FILE } = await import("./iam.js");
  const names = localNames(stack);
  mkdirSync(awsRequestLog, { recursive: true });
  writeFileSync(join(awsRequestLog, NAMES_FILE), `${JSON.stringify(names, null, 2)}\n`);
  const control = await startControlServer(stack, dns);
  project.provide("stack", { ...stack.info(), controlUrl: control.url, logDir: stack.logDir, awsRequestLog });
  console.log(`[local stack] API ${stack.apiUrl}; logs in ${stack.logDir}`);

  return async () => {
    await control.close();
    await stack.stop();
    await dns.close();
    // After the last file: a request AWS would deny fails the run, and so, on a full run, does a grant of an API
    // function that no request used (least privilege, measured: docs/iam.md). Vitest only logs an error thrown
    // here ("error during close") and keeps its exit code, so the code is set here: 1 until the check passes, so
    // that a check cut short (the teardown timeout) fails the run too.
    const { checkRequests, readRecorded } = await import("./iam.js");
    const recorded = readRecorded(awsRequestLog);
    if (recorded.length === 0) return;
    const exitCode = process.exitCode;
    process.exitCode = 1;
    const check = await checkRequests(names, recorded);
    console.log(check.report);
    if (check.denied.length > 0) {
      throw new Error(`IAM would deny ${check.denied.length} request(s) the functions made (docs/iam.md):\n${check.denied.join("\n")}`);
    }
    const full = await fullRun(project);
    if (full === true) {
      const wrong = [...check.unusedApi, ...check.staleExceptions];
      if (wrong.length > 0) {
        throw new Error(
          `A full run leaves ${check.unusedApi.length} grant(s) of API functions unused and ${check.staleExceptions.length} DEPLOYED_ONLY entr(ies) wrong: ` +
            `grant each function the calls it makes (shared/routes.ts), or name a deployed-only grant with its reason (docs/iam.md):\n${wrong.join("\n")}`,
        );
      }
      console.log("IAM: a full run: every grant of the API functions was used, or is named deployed-only.");
    } else console.log(`IAM: unused grants not judged: ${full}.`);
    process.exitCode = exitCode;
  };
}

/**
 * Whether this run is a full one, whose requests are all the tests make: every test file ran, none failed, and
 * no test was filtered out by name. Else why not (unused grants are then only reported).
 */
async function fullRun(project: TestProject): Promise<true | string> {
  const { vitest } = project;
  if (vitest.config.testNamePattern !== undefined) return "tests were filtered by name";
  if (project.config.dir !== undefined && resolve(project.config.dir) !== resolve(project.config.root))
    return "the run was of one directory";
  const all = (await project.globTestFiles()).testFiles.map((f) => resolve(f));
  const ran = new Set(vitest.state.getFilepaths().map((f) => resolve(f)));
  const missing = all.filter((f) => !ran.has(f));
  if (missing.length > 0) return `${missing.length} of ${all.length} test files did not run`;
  const failed = vitest.state.getFailedFilepaths();
  if (failed.length > 0) return `${failed.length} test file(s) failed`;
  return true;
}
