/**
 * A cold request end to end: in a fresh Node process, the time from the import of a function's bundle (as
 * `cdk synth` built it) to the first answer of its own handler, for a real API Gateway event against the
 * local stack's DynamoDB; beside it, interleaved, the reference bundle (bundles.ts: the DocumentClient
 * alone) importing and doing one GetItem against the same DynamoDB. Each API function's event comes from
 * the requests measure's scenario of one of its routes (fresh data per call); a function without one gets
 * its route with the owner's institution as `{id}` and an empty body, and its row says what it answered.
 *
 * As in the import measure, no `AWS_EXECUTION_ENV`: the Tracer is loaded but records nothing (the X-Ray SDK
 * has no daemon here), so a traced call's subsegment is not in these figures.
 */
import type { IncomingMessage } from "node:http";
import { pathToFileURL } from "node:url";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { LOCAL_CREDENTIALS, localHandlerEnv, MEASUREMENT_BOUNDS } from "../infra/local/env.js";
import { buildEvent, flattenClaims, matchRoute } from "../infra/local/gateway.js";
import type { LocalStack } from "../infra/local/stack.js";
import { handlers, paths, routes } from "../shared/routes.js";
import { hashToken } from "../shared/scim/token.js";
import { scimKeys } from "../shared/tables.js";
import { type Bundle, bundles, OFF_REQUEST_PATH } from "./bundles.js";
import { jsonChild } from "./child.js";
import { Api, createdId, newUser } from "./harness.js";
import { fmtMs, fmtRatio, median, type Row, verdict } from "./report.js";
import { type Call, scenarios } from "./requests.js";

/** Budget: a function's cold request at most this many times the reference's (issue 34's goal). */
export const COLD_REQUEST_RATIO = 1.3;
export const ROUNDS = 7;

interface Cold {
  /** Import to answer, wall time. */
  readonly ms: number;
  /** The import alone, wall and CPU time. */
  readonly importMs: number;
  readonly importCpuMs: number;
  /** CPU time of import and first answer, user and system. */
  readonly cpuMs: number;
  readonly status: number;
  /** The same event once more in the same process (a warm request; a write may answer otherwise the second time). */
  readonly warmMs: number;
  readonly warmCpuMs: number;
}

export interface ColdResult {
  readonly name: string;
  readonly route: string;
  readonly runs: Cold[];
  readonly referenceRuns: Cold[];
}

/** Imports `file` in a fresh process and answers `event` with its `handler`. */
function coldOnce(file: string, event: unknown, env: NodeJS.ProcessEnv): Promise<Cold> {
  const probe = `
    const c = process.cpuUsage();
    const t = performance.now();
    const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
    const importMs = performance.now() - t;
    const ic = process.cpuUsage(c);
    const context = { awsRequestId: "cold-request", functionName: "cold", functionVersion: "$LATEST", memoryLimitInMB: "1024",
      invokedFunctionArn: "arn:aws:lambda:us-east-1:123456789012:function:cold", logGroupName: "cold", logStreamName: "cold",
      callbackWaitsForEmptyEventLoop: false, getRemainingTimeInMillis: () => 15000 };
    const event = ${JSON.stringify(event)};
    const out = await handler(structuredClone(event), context);
    const ms = performance.now() - t;
    const { user, system } = process.cpuUsage(c);
    const c2 = process.cpuUsage();
    const t2 = performance.now();
    await handler(structuredClone(event), context);
    const warmMs = performance.now() - t2;
    const w = process.cpuUsage(c2);
    process.stdout.write(JSON.stringify({ ms, importMs, importCpuMs: (ic.user + ic.system) / 1000, cpuMs: (user + system) / 1000,
      status: out?.statusCode ?? 200, warmMs, warmCpuMs: (w.user + w.system) / 1000 }));
    process.exit(0);`;
  return jsonChild<Cold>(["--input-type=module", "-e", probe], env, `cold request of ${file}`);
}

/** An HTTP call as API Gateway hands it to the function: the gateway's own event builder. */
function eventOf(method: string, call: Call, claims: Record<string, string>, lambda?: Record<string, unknown>): unknown {
  const url = new URL(call.path, "http://api.local");
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
  const match = matchRoute(method, url.pathname);
  if (!match) throw new Error(`no route for ${method} ${url.pathname}`);
  const body = call.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(call.body));
  const headers = {
    host: "api.local",
    ...(call.body !== undefined && { "content-type": "application/json" }),
    ...Object.fromEntries(Object.entries(call.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const req = {
    headersDistinct: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    socket: { remoteAddress: "127.0.0.1" },
    httpVersion: "1.1",
  } as unknown as IncomingMessage;
  return buildEvent({
    req,
    match,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    body,
    claims: match.route.public ? {} : claims,
    ...(lambda && { lambda }),
    requestId: "cold-request",
    now: new Date(),
  });
}

/** What the SCIM routes' authorizer hands the service for `token`: its target, read as the authorizer reads it. */
async function tokenTarget(stack: LocalStack, token: string): Promise<Record<string, unknown>> {
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: stack.dynamodbEndpoint, region: stack.region, credentials: LOCAL_CREDENTIALS }),
  );
  try {
    const out = await client.send(new GetCommand({ TableName: stack.tables.main, Key: scimKeys.token(hashToken(token)) }));
    if (!out.Item) throw new Error("the SCIM token's target is missing");
    const { institution_id, connection_id, account_id } = out.Item;
    return { institution_id, connection_id, account_id };
  } finally {
    client.destroy();
  }
}

/** The SCIM authorizer's event (payload 2.0, REQUEST, identity source the Authorization header), as the local gateway builds it. */
function authorizerEvent(token: string, rawPath: string): unknown {
  const http = { method: "GET", path: rawPath, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "" };
  const routeKey = `GET ${rawPath}`;
  return {
    version: "2.0",
    type: "REQUEST",
    routeArn: `arn:aws:execute-api:us-east-1:123456789012:local/$default/GET${rawPath}`,
    identitySource: [`Bearer ${token}`],
    routeKey,
    rawPath,
    rawQueryString: "",
    headers: { authorization: `Bearer ${token}`, host: "api.local" },
    requestContext: {
      accountId: "123456789012",
      apiId: "local",
      domainName: "api.local",
      http,
      requestId: "cold-request",
      routeKey,
      stage: "$default",
    },
  };
}

const claimsOf = (token: string) =>
  flattenClaims(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>);

export async function measureCold(
  stack: LocalStack,
  gatewayUrl: string,
  referenceFile: string,
  opts: { rounds?: number; log: (s: string) => void; pick?: (all: Bundle[]) => Bundle[] },
): Promise<ColdResult[]> {
  const rounds = opts.rounds ?? ROUNDS;
  const api = new Api(gatewayUrl);
  const run = `cold${Date.now().toString(36)}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...localHandlerEnv(stack),
    ...MEASUREMENT_BOUNDS,
    // The reference's plain client finds DynamoDB Local here; ours through DYNAMODB_ENDPOINT.
    AWS_ENDPOINT_URL_DYNAMODB: stack.dynamodbEndpoint,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_LAMBDA_FUNCTION_NAME: "cold",
    POWERTOOLS_LOG_LEVEL: "WARN",
    MAIL_FROM: "no-reply@institution-admin.local",
    APP_BASE_URL: "http://app.local",
  };
  try {
    const owner = await newUser(stack, `cold-owner-${run}@bench.test`, `acct-${run}`);
    const claims = claimsOf(owner.token);
    const all = scenarios(stack, api, owner, run);
    const home = createdId(
      await api.json("POST", paths.institutions, { token: owner.token, body: { institution: { name: `Cold ${run}` } } }, 201),
      "institution",
    );
    const api_ = handlers();
    const authorizers = new Set(["scim/authorizer", "api-keys/authorizer"]);
    const targets: Bundle[] = (opts.pick ?? ((all) => all))(bundles()).filter(
      (b) => (api_.has(b.name) || authorizers.has(b.name)) && !OFF_REQUEST_PATH.has(b.name),
    );
    // The calls of each function: a scenario of one of its routes, else its first route with the fallback event.
    const events = new Map<string, { route: string; next: (i: number) => unknown }>();
    // The SCIM routes run behind their authorizer: a directory connection of the owner's institution, its token
    // for the authorizer, and the authorizer's answer for the service, listing the directory's users.
    // An institution of their own: scim/connection's calls rotate the token of `home`.
    const directory = createdId(
      await api.json("POST", paths.institutions, { token: owner.token, body: { institution: { name: `Cold SCIM ${run}` } } }, 201),
      "institution",
    );
    const scimToken = (
      (await api.json("POST", `${paths.institutions}/${directory}/scim`, { token: owner.token }, 201)) as { scim: { token: string } }
    ).scim.token;
    const users = `${paths.scim}/Users`;
    const scimEvent = eventOf("GET", { path: users }, {}, await tokenTarget(stack, scimToken));
    events.set("scim/authorizer", { route: `the authorizer of GET ${users}`, next: () => authorizerEvent(scimToken, users) });
    events.set("scim/service", { route: `GET ${users}`, next: () => scimEvent });
    // The machines' API's key authorizer (docs/api-keys.md): a key of the owner's institution, looked up by its hash.
    const { key } = (await api.json(
      "POST",
      `${paths.institutions}/${home}/api_keys`,
      { token: owner.token, body: { name: `cold ${run}`, scopes: ["cohorts:read"] } },
      201,
    )) as { key: string };
    const cohorts = `${paths.institutions}/${home}/cohorts`;
    events.set("api-keys/authorizer", { route: `the key authorizer of GET ${cohorts}`, next: () => authorizerEvent(key, cohorts) });
    for (const b of targets) {
      if (events.has(b.name)) continue;
      const own = routes.filter((r) => r.handler === b.name);
      const s = all.find((x) => !x.variant && own.some((r) => `${r.method} ${r.path}` === x.route));
      if (s) {
        const method = s.route.split(" ")[0] as string;
        const next = await s.prepare(rounds);
        // A call's own token (an invitee's) carries its own claims.
        events.set(b.name, { route: s.route, next: (i) => eventOf(method, next(i), claimsOf(next(i).token ?? owner.token)) });
        continue;
      }
      const r = own[0];
      if (!r) continue;
      const path = r.path.replace("{id}", home).replace(/\{[a-z_]+\}/g, "01ARZ3NDEKTSV4RRFFQ69G5FAV");
      const body = r.method === "GET" || r.method === "DELETE" ? undefined : b.name === "exports/create" ? { format: "none" } : {};
      const call: Call = { path, ...(body !== undefined && { body }) };
      events.set(b.name, { route: `${r.method} ${r.path} (no scenario)`, next: () => eventOf(r.method, call, claims) });
    }
    const results = targets
      .filter((b) => events.has(b.name))
      .map((b) => ({
        name: b.name,
        file: b.file,
        route: events.get(b.name)?.route ?? "",
        runs: [] as Cold[],
        referenceRuns: [] as Cold[],
      }));
    for (let i = 0; i < rounds; i++) {
      for (const r of results) {
        r.referenceRuns.push(await coldOnce(referenceFile, {}, env));
        r.runs.push(await coldOnce(r.file, events.get(r.name)?.next(i), env));
      }
      opts.log(`  round ${i + 1} of ${rounds}`);
    }
    return results.map(({ file: _file, ...r }) => r);
  } finally {
    api.close();
  }
}

export function coldRows(results: readonly ColdResult[]): Row[] {
  return results.map((r) => {
    const ms = median(r.runs.map((x) => x.ms));
    const refMs = median(r.referenceRuns.map((x) => x.ms));
    const ratio = ms / refMs;
    const statuses = [...new Set(r.runs.map((x) => x.status))].join("/");
    return {
      measure: "cold",
      subject: r.name,
      figure: `import to first answer (${r.route} → ${statuses})`,
      value: `${fmtMs(ms)} (${fmtRatio(ratio)}); import ${fmtMs(median(r.runs.map((x) => x.importMs)))}, CPU ${fmtMs(median(r.runs.map((x) => x.cpuMs)))}`,
      floor: `${fmtMs(refMs)}; import ${fmtMs(median(r.referenceRuns.map((x) => x.importMs)))}, CPU ${fmtMs(median(r.referenceRuns.map((x) => x.cpuMs)))}`,
      budget: `≤ ${COLD_REQUEST_RATIO}×`,
      verdict: verdict(ratio <= COLD_REQUEST_RATIO),
      data: { ...r, ratio },
    };
  });
}

/** Lambda's CPU share grows with memory: 1,769 MB is one full vCPU (Node runs one thread, so more does not help). */
export const FULL_VCPU_MB = 1_769;
export const MEMORY_SIZES = [512, 1_024, 1_769] as const;
/** Lambda arm64 price, us-east-1, first tier: per GB-second of duration (init included, since August 2025), and per request. */
export const ARM_GB_SECOND_USD = 0.0000133334;
export const REQUEST_USD = 0.0000002;

export interface AtSize {
  readonly mb: number;
  readonly coldMs: number;
  readonly warmMs: number;
  /** Per request, in USD. */
  readonly coldUsd: number;
  readonly warmUsd: number;
}

/**
 * The Power Tuning method without Lambda: the same work at each size, its CPU time (measured here, on one
 * core; the median of the runs) divided by the size's share of a vCPU, plus its time off the CPU (wall minus
 * CPU: the DynamoDB round trips; the run's least, since on a loaded machine the rest is waiting for a core);
 * duration × GB × price, plus the request price. Medians over the API functions.
 */
export function atSizes(results: readonly ColdResult[]): AtSize[] {
  const per = results.map((r) => ({
    cpu: median(r.runs.map((x) => x.cpuMs)),
    offCpu: Math.max(0, Math.min(...r.runs.map((x) => x.ms - x.cpuMs))),
    warmCpu: median(r.runs.map((x) => x.warmCpuMs)),
    warmOff: Math.max(0, Math.min(...r.runs.map((x) => x.warmMs - x.warmCpuMs))),
  }));
  return MEMORY_SIZES.map((mb) => {
    const share = Math.min(1, mb / FULL_VCPU_MB);
    const coldMs = median(per.map((p) => p.cpu / share + p.offCpu));
    const warmMs = median(per.map((p) => p.warmCpu / share + p.warmOff));
    const usd = (ms: number) => (mb / 1024) * (ms / 1000) * ARM_GB_SECOND_USD + REQUEST_USD;
    return { mb, coldMs, warmMs, coldUsd: usd(coldMs), warmUsd: usd(warmMs) };
  });
}

export function memoryRows(results: readonly ColdResult[]): Row[] {
  const usd = (x: number) => `$${(x * 1_000_000).toFixed(2)} per million`;
  return atSizes(results).map((s) => ({
    measure: "cold",
    subject: `every API function at ${s.mb.toLocaleString("en")} MB`,
    figure: "derived: cold request; warm request (time, cost)",
    value: `${fmtMs(s.coldMs)}, ${usd(s.coldUsd)}; ${fmtMs(s.warmMs)}, ${usd(s.warmUsd)}`,
    floor: "—",
    budget: "— (informs the memory size)",
    verdict: "within",
    data: { ...s },
  }));
}
