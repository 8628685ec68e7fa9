/**
 * Bundle size and import time of every function as `cdk synth` bundles it (cdk.out), against a reference
 * bundle that holds only the DynamoDB DocumentClient and one GetItem, built by esbuild with the stack's own
 * options. The import is what a cold start adds before the first request: each runs in a fresh Node
 * process, a reference import right before each function's, round after round. It is CPU-bound (the
 * bundle is read from the page cache), so it is judged by its CPU time, which on a shared machine does not
 * include the waits for a free core that its wall time does; the wall time is kept in the JSON.
 *
 * Reads no environment at import: it runs before the local stack exists.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../infra/local/services.js";
import { bundleAsDeployed } from "../test/support/bundle.js";
import { jsonChild } from "./child.js";
import { fmtBytes, fmtMs, fmtRatio, median, type Row, verdict } from "./report.js";

/** Budgets (issue 34's goals): a function's import CPU time and bundle size at most this many times the reference's. */
export const IMPORT_RATIO = 1.25;
export const SIZE_RATIO = 1.5;
export const ROUNDS = 15;

const CDK_OUT = join(ROOT, "cdk.out");
const TEMPLATE = join(CDK_OUT, "InstitutionAdminApi.template.json");

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Runs `cdk synth` when cdk.out is missing or older than anything it is built from. */
export function ensureSynth(log: (s: string) => void): void {
  const sources = [
    "functions",
    "shared",
    "infra/stack.ts",
    "infra/trail.ts",
    "infra/streaming.ts",
    "infra/api-function.ts",
    "infra/sso-triggers.ts",
    "infra/app-client.ts",
    "infra/identity.ts",
    "infra/machine-api.ts",
    "infra/app.ts",
    "package-lock.json",
    "cdk.json",
    "tsconfig.json",
  ];
  const newestSource = Math.max(...sources.map((s) => newestMtime(join(ROOT, s))));
  if (existsSync(TEMPLATE) && statSync(TEMPLATE).mtimeMs >= newestSource) return;
  log("cdk.out is missing or older than the sources: running cdk synth");
  const res = spawnSync("npx", ["cdk", "synth", "--quiet"], { cwd: ROOT, encoding: "utf8", env: process.env });
  if (res.status !== 0) throw new Error(`cdk synth failed (${res.status}):\n${res.stderr}\n${res.stdout}`);
}

export interface Bundle {
  readonly name: string;
  readonly file: string;
}

/** The functions of the synthesized template, each with its bundle (`asset.<hash>/index.mjs`). */
export function bundles(): Bundle[] {
  type Template = {
    Resources: Record<string, { Type: string; Metadata?: Record<string, string>; Properties?: { Description?: string } }>;
  };
  // The stack's template, and its nested stacks' (the machines' API's functions: infra/machine-api.ts).
  const nested = readdirSync(CDK_OUT).filter((f) => /^InstitutionAdminApi.*\.nested\.template\.json$/.test(f));
  const templates = [TEMPLATE, ...nested.map((f) => join(CDK_OUT, f))].map((f) => JSON.parse(readFileSync(f, "utf8")) as Template);
  const out: Bundle[] = [];
  for (const r of templates.flatMap((t) => Object.values(t.Resources))) {
    const asset = r.Metadata?.["aws:asset:path"];
    const name = r.Properties?.Description?.split(":")[0];
    // Ours are ESM bundles (`index.mjs`); CDK's own custom-resource functions are not measured.
    const file = asset && join(CDK_OUT, asset, "index.mjs");
    if (r.Type === "AWS::Lambda::Function" && file && existsSync(file) && name) out.push({ name, file });
  }
  if (out.length === 0) throw new Error(`no functions in ${TEMPLATE}`);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

const REFERENCE_SOURCE = `
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () =>
  (await db.send(new GetCommand({ TableName: process.env.MAIN_TABLE, Key: { pk: "x", sk: "y" } }))).Item ?? null;
`;

/**
 * The reference: the DocumentClient with the SDK as it comes (its default credential chain included), so that
 * what the stack's bundling leaves out of every function (the chain beyond the environment's credentials,
 * BUNDLE_ALIAS) counts toward the goal, as issue 34 asks. `lambdaCredentials` builds it with the stack's
 * alias too, for the row that shows what the alias alone takes off.
 */
export async function buildReference(dir: string, opts: { lambdaCredentials?: boolean } = {}): Promise<string> {
  const file = join(dir, opts.lambdaCredentials ? "reference-aliased" : "reference", "index.mjs");
  await bundleAsDeployed({
    stdin: { contents: REFERENCE_SOURCE, resolveDir: ROOT, loader: "ts", sourcefile: "reference.ts" },
    outfile: file,
    plainSdk: !opts.lambdaCredentials,
  });
  return file;
}

/** The environment of a deployed function, pointing nowhere on this machine. */
const LAMBDA_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  AWS_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "ASIABENCHBENCHBENCH0",
  AWS_SECRET_ACCESS_KEY: "bench",
  AWS_SESSION_TOKEN: "bench",
  AWS_LAMBDA_FUNCTION_NAME: "bench",
  MAIN_TABLE: "bench-main",
  EVENTS_TABLE: "bench-events",
  MAIL_FROM: "no-reply@example.com",
  APP_BASE_URL: "https://app.example.com",
  DIGEST_KEY_ARN: "arn:aws:kms:us-east-1:111122223333:key/bench",
  DIGEST_BUCKET: "bench-digests",
  NODE_OPTIONS: "--enable-source-maps",
};

interface Import {
  /** Wall time. */
  readonly ms: number;
  /** CPU time, user and system. */
  readonly cpuMs: number;
}

/** Imports `file` in a fresh Node process. */
function importOnce(file: string): Promise<Import> {
  const probe = `
    const c = process.cpuUsage();
    const t = performance.now();
    await import(${JSON.stringify(pathToFileURL(file).href)});
    const ms = performance.now() - t;
    const { user, system } = process.cpuUsage(c);
    process.stdout.write(JSON.stringify({ ms, cpuMs: (user + system) / 1000 }));`;
  return jsonChild<Import>(["--input-type=module", "-e", probe], LAMBDA_ENV, `import of ${file}`);
}

export interface BundleResult {
  readonly name: string;
  readonly bytes: number;
  /** One import per round. */
  readonly imports: Import[];
  /** The reference's import right before each of them. */
  readonly referenceImports: Import[];
}

export interface BundleResults {
  readonly referenceBytes: number;
  /** The reference built with the stack's credentials alias. */
  readonly aliasedReferenceBytes?: number;
  readonly functions: BundleResult[];
  /** Bundle file by function name. */
  readonly files?: Record<string, string>;
}

export async function measureBundles(
  dir: string,
  opts: { rounds?: number; log: (s: string) => void; pick?: (all: Bundle[]) => Bundle[] },
): Promise<BundleResults> {
  ensureSynth(opts.log);
  const referenceFile = await buildReference(dir);
  const targets = (opts.pick ?? ((all) => all))(bundles());
  const functions: BundleResult[] = targets.map((b) => ({ name: b.name, bytes: statSync(b.file).size, imports: [], referenceImports: [] }));
  const rounds = opts.rounds ?? ROUNDS;
  for (let r = 0; r < rounds; r++) {
    for (const [i, b] of targets.entries()) {
      functions[i]?.referenceImports.push(await importOnce(referenceFile));
      functions[i]?.imports.push(await importOnce(b.file));
    }
    opts.log(`  round ${r + 1} of ${rounds}`);
  }
  return {
    referenceBytes: statSync(referenceFile).size,
    aliasedReferenceBytes: statSync(await buildReference(dir, { lambdaCredentials: true })).size,
    functions,
    files: Object.fromEntries(targets.map((b) => [b.name, b.file])),
  };
}

/**
 * The functions no request waits for: the scheduled digest function (infra/trail.ts), the export worker
 * (invoked asynchronously), the stream consumer and the webhook retrier (infra/streaming.ts), and the console app
 * client's custom resource, which runs at deployment (infra/app-client.ts). Their cold start is not budgeted.
 */
export const DIGEST_FUNCTION = "trail/digest";
export const OFF_REQUEST_PATH = new Set([DIGEST_FUNCTION, "exports/worker", "streaming/consume", "webhooks/retry", "sso/app-client"]);

/**
 * Each AWS client beyond DynamoDB, and the only functions whose bundle may hold it (the ones that call that
 * service): a new dependency must not grow the bundles, and cold starts, of the others.
 */
export const CLIENT_HOLDERS: Readonly<Record<string, readonly string[]>> = {
  S3Client: [DIGEST_FUNCTION, "exports/worker", "exports/show"],
  KMSClient: [DIGEST_FUNCTION],
  EventBridgeClient: ["streaming/consume"],
  LambdaClient: ["exports/create"],
  SQSClient: [],
  // The user pool's (shared/cognito.ts): the functions with the pool (route access `users`), the SSO triggers that
  // call it, and the app client's custom resource.
  CognitoIdentityProviderClient: [
    "administrators/transfer",
    "institutions/delete",
    "invitations/open",
    "invitations/register",
    "scim/service",
    "sso/connection",
    "sso/pre-sign-up",
    "sso/pre-token-generation",
    "sso/app-client",
  ],
};

/** One row per client: which bundles, other than the ones allowed it, hold it. */
export function clientRows(r: BundleResults & { files?: Record<string, string> }): Row[] {
  const texts = Object.entries(r.files ?? {}).map(([name, file]) => [name, readFileSync(file, "utf8")] as const);
  return Object.entries(CLIENT_HOLDERS).map(([client, allowed]) => {
    const holders = texts.filter(([name, text]) => !allowed.includes(name) && text.includes(client)).map(([name]) => name);
    const present = texts.filter(([, text]) => text.includes(client)).map(([name]) => name);
    return {
      measure: "bundles",
      subject: allowed.length === 0 ? "every function" : `every function but ${allowed.join(", ")}`,
      figure: `holds the ${client.replace(/Client$/, "")} client`,
      value: holders.length === 0 ? "none" : holders.join(", "),
      floor: "—",
      budget: "none",
      verdict: verdict(holders.length === 0),
      data: { client, allowed, present },
    };
  });
}

/** A function's median import CPU time against the median of the reference imports paired with it. */
export function bundleRows(r: BundleResults): Row[] {
  const alias: Row[] =
    r.aliasedReferenceBytes === undefined
      ? []
      : [
          {
            measure: "bundles",
            subject: "reference",
            figure: "size with the stack's credentials alias",
            value: `${fmtBytes(r.aliasedReferenceBytes)} (${fmtRatio(r.aliasedReferenceBytes / r.referenceBytes)})`,
            floor: fmtBytes(r.referenceBytes),
            budget: "none",
            verdict: verdict(true),
            data: { referenceBytes: r.referenceBytes, aliasedReferenceBytes: r.aliasedReferenceBytes },
          },
        ];
  const rows = r.functions.map((f): Row => {
    const ms = median(f.imports.map((x) => x.cpuMs));
    const refMs = median(f.referenceImports.map((x) => x.cpuMs));
    const size = f.bytes / r.referenceBytes;
    const time = ms / refMs;
    return {
      measure: "bundles",
      subject: f.name,
      figure: "size; import CPU",
      value: `${fmtBytes(f.bytes)} (${fmtRatio(size)}); ${fmtMs(ms)} (${fmtRatio(time)})`,
      floor: `${fmtBytes(r.referenceBytes)}; ${fmtMs(refMs)}`,
      budget: OFF_REQUEST_PATH.has(f.name) ? "— (no request waits for it)" : `≤ ${SIZE_RATIO}×; ≤ ${IMPORT_RATIO}×`,
      verdict: verdict(OFF_REQUEST_PATH.has(f.name) || (size <= SIZE_RATIO && time <= IMPORT_RATIO)),
      data: { ...f, referenceBytes: r.referenceBytes, sizeRatio: size, timeRatio: time },
    };
  });
  return [...alias, ...rows];
}
