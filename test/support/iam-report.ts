/**
 * The test run's IAM check (docs/iam.md) on kept request logs, without running the tests again: after a change of
 * grants, or to judge a full run's files from runs of parts of them.
 *
 *   npx tsx test/support/iam-report.ts                       # the newest run in .local/test-runs
 *   npx tsx test/support/iam-report.ts <run dir> <run dir>…  # those runs' requests as one
 *   npx tsx test/support/iam-report.ts --full <run dir>…     # and fail as a full run would on unused grants
 *
 * A run directory is `.local/test-runs/<time>-<pid>` (its `aws-requests/`, with the local names its ARNs were
 * built from). Exit code 1 when AWS would deny a request, or with `--full` when a grant of an API function was
 * unused or a DEPLOYED_ONLY entry is wrong. The test run keeps its five newest runs.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { LOCAL_DIR } from "../../infra/local/stack.js";
import { checkRuns, type LocalNames, NAMES_FILE, readRecorded } from "./iam.js";

const args = process.argv.slice(2);
const full = args.includes("--full");
const given = args.filter((a) => a !== "--full");
const runsDir = join(LOCAL_DIR, "test-runs");
const newest = () => {
  const runs = existsSync(runsDir) ? readdirSync(runsDir).filter((d) => /^\d{8}-\d{6}-\d+$/.test(d)) : [];
  const last = runs.sort().at(-1);
  if (!last) throw new Error(`No test run in ${runsDir}: run some tests first (npx vitest run <file>)`);
  return join(runsDir, last);
};
const dirs = given.length > 0 ? given.map((d) => resolve(d)) : [newest()];

const runs = dirs.map((dir) => {
  const log = join(dir, "aws-requests");
  const namesFile = join(log, NAMES_FILE);
  if (!existsSync(namesFile))
    throw new Error(`${namesFile} is missing: not a test run's directory, or one from before the names were kept`);
  return { names: JSON.parse(readFileSync(namesFile, "utf8")) as LocalNames, recorded: readRecorded(log) };
});
console.log(`Runs: ${dirs.join(", ")}`);
const check = await checkRuns(runs);
console.log(check.report);
const failed = check.denied.length > 0 || (full && check.unusedApi.length + check.staleExceptions.length > 0);
if (full) {
  console.log(
    failed
      ? `As a full run: ${check.unusedApi.length} unused grant(s) of API functions, ${check.staleExceptions.length} wrong DEPLOYED_ONLY entr(ies).`
      : "As a full run: every grant of the API functions was used, or is named deployed-only.",
  );
}
process.exitCode = failed ? 1 : 0;
