/**
 * IAM, proven from here (docs/iam.md): the AWS requests the functions made during the test run
 * (recorded by infra/local/aws-requests.ts) evaluated against the policies the synthesized template gives each
 * function's role, with @cloud-copilot/iam-simulate (AGPL-3.0: a devDependency, never in a bundle). A request
 * AWS would deny fails the run (global-setup.ts); the grants no request used are listed, and on a full run an
 * API function's fail it too, unless named in `DEPLOYED_ONLY` (least privilege, measured).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runSimulation, type Simulation } from "@cloud-copilot/iam-simulate";
import { type CfnResource, type NestedStack, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { APP_CLIENT_HANDLER } from "../../infra/app-client.js";
import { BACKFILL_HANDLER } from "../../infra/backfill.js";
import type { IamRequest } from "../../infra/local/aws-requests.js";
import { TEST_ACCOUNT } from "../../infra/local/aws-requests.js";
import { LOCAL_EXPORTS_BUCKET } from "../../infra/local/env.js";
import { LOCAL_MAIL_CONFIGURATION_SET, LOCAL_MAIL_FROM } from "../../infra/local/stack.js";
import type { InstitutionAdminStack } from "../../infra/stack.js";
import { build, type Json } from "../infra/support.js";

/** The local stack's names for the template's resources (the recorded ARNs are built from them). */
export interface LocalNames {
  readonly region: string;
  readonly tables: { readonly main: string; readonly events: string; readonly idempotency: string };
  /** The sender address of invitation mail (`MAIL_FROM`). */
  readonly mailFrom: string;
  /** The configuration set every send names (`SES_CONFIGURATION_SET`). */
  readonly mailConfigurationSet: string;
  /** The local user pool's id (cognito-local's). */
  readonly userPoolId: string;
}

/** Where a run keeps its local names, beside its request log, so that its log can be checked again later. */
export const NAMES_FILE = "names.json";

/** The local names of a running local stack (its region, tables and pool; the mail names are fixed). */
export const localNames = (stack: Pick<LocalNames, "region" | "tables" | "userPoolId">): LocalNames => ({
  region: stack.region,
  tables: stack.tables,
  userPoolId: stack.userPoolId,
  mailFrom: LOCAL_MAIL_FROM,
  mailConfigurationSet: LOCAL_MAIL_CONFIGURATION_SET,
});

/**
 * Grants that only requests made in AWS use, each with the reason the test run cannot make them. The check
 * reports them apart and does not count them as unused; one the run did use, or one the template does not
 * have, is an error of this list. docs/iam.md lists the same grants (test/integration/iam.test.ts checks it).
 */
export const DEPLOYED_ONLY: readonly { handler: string; sid?: string; action: string; reason: string }[] = [
  {
    handler: "exports/create",
    sid: "StartExportWorker",
    action: "lambda:InvokeFunction",
    reason: "the local stack runs the export worker in the gateway's process (shared/exports/dispatch.ts); in AWS the route invokes it",
  },
  {
    handler: "exports/create",
    sid: "MainWrite",
    action: "dynamodb:UpdateItem",
    reason: "marks the export failed and frees its slot when invoking the worker fails, which only an invocation in AWS can",
  },
  {
    handler: "trail/digest",
    sid: "SignDigests",
    action: "kms:Sign",
    reason: "the local digester signs with a key file: there is no local KMS",
  },
  {
    handler: "trail/digest",
    sid: "CopyDigests",
    action: "s3:PutObject",
    reason: "the locked copies of the digests go to a bucket of the deployed stack only",
  },
  {
    handler: "streaming/consume",
    action: "events:PutEvents",
    reason: "there is no local event bus: locally the consumer delivers to the webhooks only",
  },
];

/** A function's role policies, resolved to the ARNs the local names give. */
export interface FunctionPolicies {
  readonly handler: string;
  readonly statements: readonly Json[];
  /** A function of the API (a route's, or the SCIM authorizer), whose unused grants fail a full run. */
  readonly api?: boolean;
}

/**
 * Grants the platform uses with the function's role, not its code: the runtime (its log stream, X-Ray segments)
 * and the event source mapping (reading the stream, sending to its dead-letter queue). Never recorded here.
 */
const PLATFORM_ACTIONS = /^(logs:|xray:|sqs:|dynamodb:(ListStreams|DescribeStream|GetRecords|GetShardIterator)$)/;

const arn = (region: string, service: string, resource: string) => `arn:aws:${service}:${region}:${TEST_ACCOUNT}:${resource}`;

/** The function name the local gateway gives a handler (`lambdaContext`), so that ARNs of functions read alike. */
const functionName = (handler: string) => `institution-admin-${handler.replace(/\//g, "-")}`;

/**
 * Every function of the stack and its handler: the routes', the SCIM authorizer and the machines' API's two (the key
 * authorizer and the `$default` refusal, in its nested stack, docs/api-keys.md): the API functions, `api`; the
 * streaming ones, the digest function, and the user pool's (the SSO triggers, and the pool's own in nested stacks of
 * their own, infra/pool-triggers.ts, which the local Lambda endpoint runs), the app client's custom resource and the
 * upgrade's backfill (infra/backfill.ts).
 */
function functionsOf(stack: InstitutionAdminStack): Map<string, { role: CfnResource; fn: CfnResource; api: boolean }> {
  const api = new Map([
    ...stack.functions,
    ...(stack.scimAuthorizerFunction ? [["scim/authorizer", stack.scimAuthorizerFunction] as const] : []),
    ...stack.machineApi.functions,
  ]);
  const all = new Map<string, NodejsFunction>([
    ...api,
    ...stack.streaming.functionsByHandler,
    ["trail/digest", stack.trail.digestFunction],
    // The user pool's: its SSO triggers (docs/sso.md), its own functions (pool-triggers.ts), and the console app
    // client's custom resource.
    ...stack.ssoTriggers.functions,
    ...stack.poolTriggers.functionsByHandler,
    [APP_CLIENT_HANDLER, stack.consoleClient.function],
    // The upgrade's backfill of the senders' records (infra/backfill.ts), a custom resource too.
    [BACKFILL_HANDLER, stack.sentRecordsBackfill.function],
  ]);
  const out = new Map<string, { role: CfnResource; fn: CfnResource; api: boolean }>();
  for (const [handler, fn] of all) {
    if (!fn.role) throw new Error(`${handler} has no role`);
    out.set(handler, { role: fn.role.node.defaultChild as CfnResource, fn: fn.node.defaultChild as CfnResource, api: api.has(handler) });
  }
  return out;
}

/** A template's resources and what its parameters are (a nested stack's, as its parent passes them). */
interface TemplateScope {
  readonly stack: Stack;
  readonly resources: Record<string, Json>;
  readonly parameters: Record<string, Json>;
}

/**
 * Each function's identity policies from the synthesized template (a nested stack's for the functions that live
 * there), with CloudFormation's intrinsics resolved
 * as the deployed stack would resolve them, the names being the local stack's (a table's ARN is
 * `arn:aws:dynamodb:<region>:123456789012:table/<its local name>`).
 */
export function rolePolicies(names: LocalNames, stack: InstitutionAdminStack, resources: Record<string, Json>): FunctionPolicies[] {
  const { region } = names;
  const fns = functionsOf(stack);
  const id = (c: { node: { defaultChild?: unknown } }) => stack.getLogicalId(c.node.defaultChild as CfnResource);
  const physical = new Map<string, string>([
    [id(stack.mainTable), names.tables.main],
    [id(stack.eventsTable), names.tables.events],
    [id(stack.idempotencyTable), names.tables.idempotency],
    [id(stack.streaming.bucket), LOCAL_EXPORTS_BUCKET],
    // Deployed only: no local KMS, bus or digest bucket (the local digester signs with a key file).
    [id(stack.trail.bucket), "institution-admin-digests"],
    [id(stack.trail.signingKey), "trail-signing-key"],
    [id(stack.streaming.bus), "institution-admin-events"],
    [id(stack.userPool), names.userPoolId],
    [id(stack.mailConfigurationSet), names.mailConfigurationSet],
    ...[...fns].map(([handler, { fn }]) => [Stack.of(fn).getLogicalId(fn), functionName(handler)] as [string, string]),
  ]);
  const pseudo: Record<string, string> = {
    "AWS::Region": region,
    "AWS::AccountId": TEST_ACCOUNT,
    "AWS::Partition": "aws",
    "AWS::URLSuffix": "amazonaws.com",
    "AWS::StackName": stack.stackName,
  };
  /** The intrinsics of one template: the stack's, or a nested stack's, whose parameters its parent passes. */
  const resolverOf = (scope: TemplateScope) => {
    for (const [logicalId, r] of Object.entries(scope.resources)) {
      if (r.Type === "AWS::SES::EmailIdentity") physical.set(logicalId, names.mailFrom);
    }
    const nameOf = (logicalId: string) => physical.get(logicalId) ?? logicalId;
    const attribute = (logicalId: string, attr: string): string => {
      const type = scope.resources[logicalId]?.Type as string | undefined;
      const name = nameOf(logicalId);
      if (type === "AWS::DynamoDB::Table")
        return attr === "StreamArn" ? arn(region, "dynamodb", `table/${name}/stream/*`) : arn(region, "dynamodb", `table/${name}`);
      if (type === "AWS::S3::Bucket") return `arn:aws:s3:::${name}`;
      if (type === "AWS::KMS::Key") return arn(region, "kms", `key/${name}`);
      if (type === "AWS::Logs::LogGroup") return arn(region, "logs", `log-group:${name}:*`);
      if (type === "AWS::Lambda::Function") return arn(region, "lambda", `function:${name}`);
      if (type === "AWS::Events::EventBus") return arn(region, "events", `event-bus/${name}`);
      if (type === "AWS::Cognito::UserPool") return arn(region, "cognito-idp", `userpool/${name}`);
      return `arn:aws:cloudformation:${region}:${TEST_ACCOUNT}:${logicalId}/${attr}`;
    };
    const resolve = (v: Json): Json => {
      if (Array.isArray(v)) return v.map(resolve);
      if (v === null || typeof v !== "object") return v;
      const [key, arg] = (Object.entries(v)[0] ?? []) as [string | undefined, Json];
      if (Object.keys(v).length === 1) {
        if (key === "Ref") return pseudo[arg as string] ?? (arg in scope.parameters ? scope.parameters[arg] : nameOf(arg as string));
        if (key === "Fn::GetAtt") return attribute(arg[0], arg[1]);
        if (key === "Fn::Join") return (resolve(arg[1]) as string[]).join(arg[0]);
        if (key === "Fn::Select") return resolve(arg[1])[Number(resolve(arg[0]))];
        if (key === "Fn::Split") return String(resolve(arg[1])).split(arg[0]);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    };
    return resolve;
  };

  const main: TemplateScope = { stack, resources, parameters: {} };
  const resolveMain = resolverOf(main);
  const scopes = new Map<Stack, TemplateScope>([[stack, main]]);
  /** A nested stack's template, its parameters resolved as the parent passes them. */
  const scopeOf = (s: Stack): TemplateScope => {
    const known = scopes.get(s);
    if (known) return known;
    const nested = s as NestedStack;
    const resource = resources[stack.getLogicalId(nested.nestedStackResource as CfnResource)];
    const passed = (resource?.Properties?.Parameters ?? {}) as Record<string, Json>;
    const scope = {
      stack: s,
      resources: Template.fromStack(s).toJSON().Resources as Record<string, Json>,
      parameters: Object.fromEntries(Object.entries(passed).map(([k, v]) => [k, resolveMain(v)])),
    };
    scopes.set(s, scope);
    return scope;
  };

  return [...fns].map(([handler, { role, api }]) => {
    const scope = scopeOf(Stack.of(role));
    const resolve = scope === main ? resolveMain : resolverOf(scope);
    const roleId = scope.stack.getLogicalId(role);
    const statements: Json[] = [];
    for (const r of Object.values(scope.resources)) {
      if (r.Type === "AWS::IAM::Policy" && (r.Properties.Roles as Json[]).some((x) => x.Ref === roleId)) {
        statements.push(...resolve(r.Properties.PolicyDocument).Statement);
      }
    }
    for (const p of scope.resources[roleId]?.Properties?.Policies ?? []) statements.push(...resolve(p.PolicyDocument).Statement);
    if ((scope.resources[roleId]?.Properties?.ManagedPolicyArns ?? []).length > 0)
      throw new Error(`${handler}: managed policies are not evaluated`);
    return { handler, statements, api };
  });
}

/** Every distinct request the run's processes recorded. */
export function readRecorded(dir: string): IamRequest[] {
  if (!existsSync(dir)) return [];
  const lines = new Set<string>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(dir, f), "utf8").split("\n")) if (line) lines.add(line);
  }
  return [...lines].sort().map((l) => JSON.parse(l) as IamRequest);
}

/** What IAM answers to one request of `policies`' function, and the statements (by index) that allowed it. */
export async function evaluate(
  policies: FunctionPolicies,
  request: Omit<IamRequest, "fn">,
): Promise<{ decision: string; allowedBy: { statement: number; actions: string[]; resources: string[] }[] }> {
  const simulation: Simulation = {
    identityPolicies: [
      {
        name: policies.handler,
        policy: { Version: "2012-10-17", Statement: policies.statements.map((s, i) => ({ ...s, Sid: `S${i}` })) },
      },
    ],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    request: {
      action: request.action,
      principal: `arn:aws:iam::${TEST_ACCOUNT}:role/${functionName(policies.handler)}`,
      resource: { accountId: TEST_ACCOUNT, resource: request.resource },
      contextVariables: request.context as Record<string, string | string[]>,
    },
  };
  const result = await runSimulation(simulation, {});
  if (result.resultType === "error") return { decision: `invalid: ${JSON.stringify(result.errors)}`, allowedBy: [] };
  const analysis = result.resultType === "single" ? result.result.analysis : undefined;
  const allowedBy = (analysis?.identityAnalysis?.allowStatements ?? []).map((s) => ({
    statement: Number(s.explain.identifier.slice(1)),
    actions: [s.explain.actions ?? []].flat().flatMap((a) => (a.matches ? [a.action] : [])),
    resources: [s.explain.resources ?? []].flat().flatMap((r) => (r.matches ? [r.resource] : [])),
  }));
  return { decision: result.overallResult, allowedBy };
}

export interface IamCheck {
  readonly requests: number;
  readonly denied: readonly string[];
  /** `<handler> <statement>: …`, per grant no recorded request used (the deployed-only ones left out). */
  readonly unused: readonly string[];
  /** Those of API functions (a route's, or the SCIM authorizer), idle ones' included: a full run fails on any. */
  readonly unusedApi: readonly string[];
  /** Entries of `DEPLOYED_ONLY` that are wrong: a grant the run used after all, or one the template lacks. */
  readonly staleExceptions: readonly string[];
  /** Functions the run never invoked (their grants are not judged, but an API function's count as unused). */
  readonly idle: readonly string[];
  readonly report: string;
}

/** One run's requests, and the local names its ARNs were built from. */
export interface RecordedRun {
  readonly names: LocalNames;
  readonly recorded: readonly IamRequest[];
}

const short = (resource: string) => resource.replace(/^arn:aws:[a-z0-9-]+:[a-z0-9-]*:\d*:/, "").replace(/^arn:aws:s3:::/, "s3:::");

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Evaluates every recorded request of one run; lists the denied ones and the grants nothing used. */
export async function checkRequests(names: LocalNames, recorded: readonly IamRequest[]): Promise<IamCheck> {
  return checkRuns([{ names, recorded }]);
}

/**
 * Evaluates the requests of several runs (each against the template resolved with its own local names) as one:
 * the denied requests of any, and the grants none of them used. A full run's files can so be checked from the
 * logs of runs of parts of them.
 */
export async function checkRuns(runs: readonly RecordedRun[]): Promise<IamCheck> {
  const { stack, resources } = build({}, { id: "IamCheck", validate: false });
  const denied: string[] = [];
  /** Per handler, `<statement>|<action>|<resource index>` of each grant a request used. */
  const used = new Map<string, Set<string>>();
  let template: FunctionPolicies[] = [];
  let requests = 0;
  for (const { names, recorded } of runs) {
    const policies = rolePolicies(names, stack, resources);
    template = policies;
    const byHandler = new Map(policies.map((p) => [p.handler, p]));
    requests += recorded.length;
    for (const r of recorded) {
      const fn = byHandler.get(r.fn);
      const line = `${r.fn}: ${r.action} on ${short(r.resource)}${r.context["dynamodb:LeadingKeys"] ? ` keys ${JSON.stringify(r.context["dynamodb:LeadingKeys"])}` : ""}`;
      if (!fn) {
        denied.push(`${line} (no such function in the template)`);
        continue;
      }
      const { decision, allowedBy } = await evaluate(fn, r);
      if (decision !== "Allowed") denied.push(`${line}: ${decision}`);
      const marks = used.get(r.fn) ?? new Set<string>();
      for (const a of allowedBy) {
        const granted = asList<string>(fn.statements[a.statement]?.Resource);
        for (const action of a.actions) for (const res of a.resources) marks.add(`${a.statement}|${action}|${granted.indexOf(res)}`);
      }
      used.set(r.fn, marks);
    }
  }

  const unused: string[] = [];
  const unusedApi: string[] = [];
  const deployedOnly: string[] = [];
  const idle: string[] = [];
  const named = new Set<(typeof DEPLOYED_ONLY)[number]>();
  for (const { handler, statements, api } of template) {
    const marks = used.get(handler);
    if (!marks) idle.push(handler);
    statements.forEach((s, i) => {
      const name = `${handler} ${s.Sid ?? `statement ${i}`}`;
      const res = asList<string>(s.Resource);
      const exception = (a: string) => DEPLOYED_ONLY.find((e) => e.handler === handler && e.action === a && (e.sid ?? s.Sid) === s.Sid);
      const actions = asList<string>(s.Action).filter((a) => !PLATFORM_ACTIONS.test(a));
      for (const a of actions) {
        const e = exception(a);
        if (!e) continue;
        named.add(e);
        if (marks && [...marks].some((m) => m.startsWith(`${i}|${a}|`))) continue; // used: a stale entry, below
        deployedOnly.push(`${name}: ${a} on ${res.map(short).join(", ")}: ${e.reason}`);
      }
      const judged = actions.filter((a) => !exception(a));
      if (judged.length === 0) return;
      const mine = [...(marks ?? [])].filter((m) => m.startsWith(`${i}|`)).map((m) => m.split("|"));
      const idleActions = judged.filter((a) => !mine.some((m) => m[1] === a));
      const idleResources = res.filter((_, n) => !mine.some((m) => Number(m[2]) === n));
      if (idleActions.length === 0 && idleResources.length === 0) return;
      const lines: string[] = [];
      if (idleActions.length === judged.length) lines.push(`${name}: nothing used (${judged.join(", ")} on ${res.map(short).join(", ")})`);
      else {
        if (idleActions.length > 0) lines.push(`${name}: ${idleActions.join(", ")} never used`);
        if (idleResources.length > 0) lines.push(`${name}: ${idleResources.map(short).join(", ")} never used`);
      }
      if (marks) unused.push(...lines);
      if (api) unusedApi.push(...lines);
    });
  }
  const staleExceptions = DEPLOYED_ONLY.flatMap((e) => {
    const where = `${e.handler}${e.sid ? ` ${e.sid}` : ""} ${e.action}`;
    if (!named.has(e)) return [`${where}: no such grant in the template`];
    const fn = template.find((p) => p.handler === e.handler);
    const usedIt = fn?.statements.some(
      (s, i) =>
        (e.sid ?? s.Sid) === s.Sid &&
        asList<string>(s.Action).includes(e.action) &&
        [...(used.get(e.handler) ?? [])].some((m) => m.startsWith(`${i}|${e.action}|`)),
    );
    return usedIt ? [`${where}: a request of the run used it, so it is not deployed-only`] : [];
  });
  const report = [
    `IAM: ${requests} distinct AWS requests of ${used.size} functions${runs.length > 1 ? ` from ${runs.length} runs` : ""} evaluated against their roles in the synthesized template.`,
    ...(denied.length > 0 ? ["Denied (AWS would refuse these):", ...denied.map((d) => `  ${d}`)] : ["Denied: none."]),
    `Grants no recorded request used (${unused.length}, ${unused.filter((u) => unusedApi.includes(u)).length} of API functions; the platform's own, logs, X-Ray and the stream mapping's, left out):`,
    ...unused.map((u) => `  ${u}`),
    `Deployed-only grants, named in DEPLOYED_ONLY (test/support/iam.ts) and docs/iam.md (${deployedOnly.length}):`,
    ...deployedOnly.map((d) => `  ${d}`),
    ...(staleExceptions.length > 0 ? ["DEPLOYED_ONLY entries that are wrong:", ...staleExceptions.map((x) => `  ${x}`)] : []),
    ...(idle.length > 0 ? [`Functions the run did not invoke (grants not judged): ${idle.join(", ")}`] : []),
  ].join("\n");
  return { requests, denied, unused, unusedApi, staleExceptions, idle, report };
}
