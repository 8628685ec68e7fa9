/**
 * A local stand-in for the API Gateway HTTP API: routes by `shared/routes.ts`, verifies the Cognito ID token
 * as the JWT authorizer does, and invokes the same handlers with payload format 2.0 events.
 *
 * It plays the machines' API too (docs/api-keys.md): a request under `/api/` whose `Authorization`
 * is `Bearer iak_…` goes there, as the edge's CloudFront function sends it (on the API's own domain in CloudFront
 * mode: a path under `/machine`, its mapping). That API serves the routes a key may call (`machineRoutes()`),
 * each behind the key authorizer (functions/api-keys/authorizer.ts), run as API Gateway runs it, its answers
 * cached by the header for 60 s of the domain's clock; anything else goes to its `$default` route
 * (functions/api-keys/refused.ts), behind the same authorizer.
 *
 * Run as a program (`node --import tsx infra/local/gateway.ts`, as stack.ts does) it reads its settings from
 * the environment, which is also the handlers' environment: handlers are imported only on first use, after
 * MAIN_TABLE & co. are in place, and a handler that is missing or broken fails only its own routes.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { register } from "node:module";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { JwtRsaVerifier } from "aws-jwt-verify";
import type { JwtPayload } from "aws-jwt-verify/jwt-model";
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { MACHINE_PATH_PREFIX } from "../../shared/api-keys/model.js";
import { KEY_BEARER } from "../../shared/api-keys/scopes.js";
import { CLOCK_OFFSET_HEADER, withClockOffset } from "../../shared/clock.js";
import { ORIGIN_VERIFY_HEADER } from "../../shared/origin.js";
import { type HttpMethod, machineRoutes, type Route, routeKey, routes, rule } from "../../shared/routes.js";
import { SECURITY_HEADERS } from "../../shared/security-headers.js";
import { CORE, environment, readSettings } from "../../shared/settings.js";
import { type ConsoleSite, consoleSiteFromEnv } from "./console.js";
import { startDigestTimer } from "./digest-timer.js";
import { asFunction } from "./function-scope.js";
import { loadHandler } from "./handlers.js";
import { lambdaContext } from "./lambda-context.js";

export { lambdaContext };

// Handlers import files as text where the deployed bundle has them inlined by esbuild (the API reference page).
register("./text-imports.mjs", import.meta.url);

/** API Gateway's request payload limit. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** API Gateway's integration timeout. */
const INTEGRATION_TIMEOUT_MS = 30_000;

// --- routing ---------------------------------------------------------------------------------------

interface CompiledRoute {
  readonly route: Route;
  readonly routeKey: string;
  /** A literal segment, or null for a `{name}` segment at that position. */
  readonly segments: readonly (string | null)[];
  readonly paramNames: readonly (string | undefined)[];
  /** Ends in a greedy `{name+}`: it takes the rest of the path, an empty rest (a trailing slash) included. */
  readonly greedy: boolean;
}

const compile = (table: readonly Route[]): readonly CompiledRoute[] =>
  table.map((route) => {
    const parts = route.path.split("/").slice(1);
    return {
      route,
      routeKey: routeKey(route),
      segments: parts.map((p) => (/^\{[^}]+\}$/.test(p) ? null : p)),
      paramNames: parts.map((p) => /^\{([^}+]+)\+?\}$/.exec(p)?.[1]),
      greedy: /^\{[^}]+\+\}$/.test(parts.at(-1) ?? ""),
    };
  });

/** The people's API: every route of the table. */
const compiled = compile(routes);
/** The machines' API (docs/api-keys.md): the routes a key may call, and the public ones. */
const machineCompiled = compile(machineRoutes());

export interface RouteMatch {
  readonly route: Route;
  readonly routeKey: string;
  readonly pathParameters: Record<string, string>;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The route for `method` and raw `path`, as API Gateway picks it: among routes whose every segment matches,
 * the one with a literal segment where the others have a parameter, leftmost difference first.
 * No route for the method, whatever other methods exist, is no match (API Gateway answers 404).
 */
export function matchRoute(method: string, path: string, api: "people" | "machines" = "people"): RouteMatch | undefined {
  const parts = path.split("/").slice(1);
  let best: CompiledRoute | undefined;
  for (const c of api === "machines" ? machineCompiled : compiled) {
    const last = c.segments.length - 1;
    if (c.route.method !== method || (c.greedy ? parts.length < c.segments.length : c.segments.length !== parts.length)) continue;
    const matches = c.segments.every((seg, i) => (c.greedy && i === last) || (seg === null ? (parts[i] ?? "") !== "" : seg === parts[i]));
    if (!matches) continue;
    if (!best || moreSpecific(c, best)) best = c;
  }
  if (!best) return undefined;
  const { greedy, paramNames } = best;
  const pathParameters: Record<string, string> = {};
  paramNames.forEach((name, i) => {
    const value = greedy && i === paramNames.length - 1 ? parts.slice(i).join("/") : (parts[i] ?? "");
    if (name !== undefined) pathParameters[name] = decodeSegment(value);
  });
  return { route: best.route, routeKey: best.routeKey, pathParameters };
}

/** Any route that matches without a greedy parameter wins over one with it (API Gateway's order). */
function moreSpecific(a: CompiledRoute, b: CompiledRoute): boolean {
  if (a.greedy !== b.greedy) return !a.greedy;
  for (let i = 0; i < a.segments.length; i++) {
    const aLiteral = a.segments[i] !== null;
    const bLiteral = b.segments[i] !== null;
    if (aLiteral !== bLiteral) return aLiteral;
  }
  return false;
}

// --- authorization ---------------------------------------------------------------------------------

/**
 * Claims as API Gateway hands them to Lambda: every value a string, arrays flattened to `[a b]`
 * (so `cognito:groups` ["a","b"] arrives as "[a b]", which shared/caller.ts `parseGroups` reads).
 */
export function flattenClaims(payload: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) out[key] = `[${value.map(String).join(" ")}]`;
    else if (typeof value === "object") out[key] = JSON.stringify(value);
    else out[key] = String(value);
  }
  return out;
}

export interface AuthConfig {
  /** `iss` of the tokens: `<cognito-local issuer domain>/<pool id>`. */
  readonly issuer: string;
  /** The app client id. */
  readonly audience: string;
  /** Where the pool's JWKS is served (plain http, which aws-jwt-verify will not fetch itself). */
  readonly jwksUrl: string;
}

type Verify = (token: string) => Promise<JwtPayload>;

/** How far in the future a token's `iat` may lie (clock skew), as docs/contract/README.md#identity-and-access allows. */
const MAX_IAT_SKEW_SECONDS = 5 * 60;

/**
 * The claims API Gateway's JWT authorizer requires besides the signature, issuer and audience: an ID
 * token, with `exp` and `sub`, not issued in the future beyond the clock skew. (aws-jwt-verify checks
 * `exp` only when it is present.)
 */
function checkClaims(payload: JwtPayload): void {
  if (payload.token_use !== "id") throw new Error("not an ID token");
  if (typeof payload.exp !== "number") throw new Error("no exp");
  if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("no sub");
  if (typeof payload.iat === "number" && payload.iat > Date.now() / 1000 + MAX_IAT_SKEW_SECONDS) throw new Error("iat in the future");
}

async function createVerifier(auth: AuthConfig): Promise<Verify> {
  const verifier = JwtRsaVerifier.create({
    issuer: auth.issuer,
    audience: auth.audience,
    jwksUri: auth.jwksUrl,
    customJwtCheck: ({ payload }) => checkClaims(payload),
  });
  let lastError: unknown;
  // cognito-local may still be starting: try for about ten seconds.
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const res = await fetch(auth.jwksUrl, { signal: AbortSignal.timeout(2000) });
      if (!res.ok) throw new Error(`GET ${auth.jwksUrl}: ${res.status}`);
      verifier.cacheJwks((await res.json()) as Parameters<typeof verifier.cacheJwks>[0]);
      return (token) => verifier.verify(token);
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`cannot load the JWKS from ${auth.jwksUrl}: ${String(lastError)}`);
}

/** The token from `Authorization: Bearer <token>` (API Gateway also takes the bare token). */
function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  const token = m ? m[1] : header.trim();
  return token && !/\s/.test(token) ? token : undefined;
}

// --- events ----------------------------------------------------------------------------------------

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** API Gateway's `requestContext.time`, e.g. `12/Mar/2020:19:03:58 +0000`. */
function clfTime(d: Date): string {
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export interface EventInput {
  readonly req: IncomingMessage;
  readonly match: RouteMatch;
  readonly rawPath: string;
  readonly rawQueryString: string;
  readonly body: Buffer;
  readonly claims: Record<string, string>;
  readonly requestId: string;
  readonly now: Date;
  /** Through the CloudFront emulation: the headers CloudFront sets (replacing the viewer's) and its edge's address. */
  readonly edge?: { readonly headers: Readonly<Record<string, string>>; readonly sourceIp: string };
  /** A Lambda authorizer's context (the SCIM routes): `requestContext.authorizer.lambda` instead of the JWT's claims. */
  readonly lambda?: Record<string, unknown>;
}

/** The connection's peer: the viewer, when nothing stands between. */
function viewerAddress(req: IncomingMessage): { ip: string; port: number } {
  return { ip: (req.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, ""), port: req.socket.remotePort ?? 0 };
}

/** A payload format 2.0 event, as API Gateway builds it for a route with a JWT authorizer. */
export function buildEvent(input: EventInput): APIGatewayProxyEventV2WithJWTAuthorizer {
  const { req, match, rawPath, rawQueryString, body, now } = input;
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (!values) continue;
    if (name === "cookie") cookies = values.flatMap((v) => v.split(/;\s*/)).filter(Boolean);
    else headers[name] = values.join(",");
  }
  Object.assign(headers, input.edge?.headers);
  // Own keys, as API Gateway's JSON gives them: `__proto__` and `constructor` are parameters like any other.
  const merged = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(rawQueryString)) merged.set(k, merged.has(k) ? `${merged.get(k)},${v}` : v);
  const query: Record<string, string> = Object.fromEntries(merged);

  const host = headers.host ?? "localhost";
  const sourceIp = input.edge?.sourceIp ?? viewerAddress(req).ip;
  let eventBody: string | undefined;
  let isBase64Encoded = false;
  if (body.length > 0) {
    try {
      eventBody = utf8.decode(body);
    } catch {
      eventBody = body.toString("base64");
      isBase64Encoded = true;
    }
  }
  return {
    version: "2.0",
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies && { cookies }),
    headers,
    ...(Object.keys(query).length > 0 && { queryStringParameters: query }),
    ...(Object.keys(match.pathParameters).length > 0 && { pathParameters: match.pathParameters }),
    requestContext: {
      accountId: "123456789012",
      apiId: "local",
      authorizer: input.lambda
        ? ({ lambda: input.lambda } as unknown as { jwt: { claims: Record<string, string>; scopes: string[] } })
        : { jwt: { claims: input.claims, scopes: null as unknown as string[] } },
      domainName: host,
      domainPrefix: host.split(".")[0] ?? host,
      http: {
        method: match.route.method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp,
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: input.requestId,
      routeKey: match.routeKey,
      stage: "$default",
      time: clfTime(now),
      timeEpoch: now.getTime(),
    },
    ...(eventBody !== undefined && { body: eventBody }),
    isBase64Encoded,
  };
}

// --- handlers --------------------------------------------------------------------------------------

type LambdaHandler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => Promise<unknown>;
// --- the Lambda authorizers: the SCIM routes', and the machines' API's key authorizer ----------------

type AuthorizerHandler = (
  event: unknown,
  context: Context,
) => Promise<{ isAuthorized?: unknown; context?: Record<string, unknown> } | undefined>;

/**
 * Runs a Lambda REQUEST authorizer (`name`: functions/scim/authorizer.ts for the SCIM routes,
 * functions/api-keys/authorizer.ts for the machines' API) as API Gateway does with payload format 2.0 and simple
 * responses, identity source `$request.header.Authorization`: no header, or an empty one → 401
 * `{"message":"Unauthorized"}` without invoking it; it throws `Unauthorized` → the same 401; `isAuthorized` false
 * (a request without the origin secret) → 403 `{"message":"Forbidden"}`; anything else it throws, or a malformed
 * answer → 500. Allowed: its `context` for the handler. It sees the request as the handler will: with
 * CloudFront's headers and the edge's address when it came through CloudFront. (Caching, for the key
 * authorizer, is the caller's: `startGateway`.)
 */
async function runLambdaAuthorizer(
  name: "scim/authorizer" | "api-keys/authorizer",
  req: IncomingMessage,
  match: RouteMatch,
  rawPath: string,
  rawQueryString: string,
  region: string,
  edge: EventInput["edge"],
): Promise<{ refused: Reply; context?: never } | { refused?: never; context: Record<string, unknown> }> {
  const refuse = (status: number, message: string) => ({ refused: json(status, message) });
  const header = req.headers.authorization;
  if (!header || header.trim() === "") return refuse(401, "Unauthorized");
  const authorizer = await loadHandler<AuthorizerHandler>(name);
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (!values) continue;
    if (name === "cookie") cookies = values.flatMap((v) => v.split(/;\s*/)).filter(Boolean);
    else headers[name] = values.join(",");
  }
  Object.assign(headers, edge?.headers);
  const queryStringParameters = Object.fromEntries(new URLSearchParams(rawQueryString));
  const event = {
    version: "2.0",
    type: "REQUEST",
    routeArn: `arn:aws:execute-api:${region}:123456789012:local/$default/${match.routeKey === DEFAULT_ROUTE_KEY ? "$default" : `${match.route.method}${match.route.path}`}`,
    identitySource: [header],
    routeKey: match.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies && { cookies }),
    headers,
    queryStringParameters,
    pathParameters: match.pathParameters,
    requestContext: {
      accountId: "123456789012",
      apiId: "local",
      domainName: headers.host ?? "localhost",
      http: {
        method: match.route.method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: edge?.sourceIp ?? viewerAddress(req).ip,
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: "$default",
    },
  };
  try {
    const res = await asFunction(name, () => authorizer(event, lambdaContext(name, region, Date.now() + 10_000)));
    if (res?.isAuthorized === true) return { context: res.context ?? {} };
    if (res?.isAuthorized === false) return refuse(403, "Forbidden");
    return refuse(500, "Internal Server Error");
  } catch (err) {
    if ((err as Error).message === "Unauthorized") return refuse(401, "Unauthorized");
    console.error(`[gateway] ${name}: ${(err as Error).stack ?? err}`);
    return refuse(500, "Internal Server Error");
  }
}

// --- the machines' API ------------------------------------------------------------------------------

/** The route key API Gateway gives a request its API has no route for, when it has a `$default` route. */
const DEFAULT_ROUTE_KEY = "$default";

/** How long API Gateway caches the key authorizer's answer by the `Authorization` header (infra/machine-api.ts). */
export const KEY_AUTHORIZER_CACHE_SECONDS = 60;

/** The machines' API's `$default` route, for a request it has no route for: a key refused (shared/api-keys/refusal.ts). */
function defaultRoute(method: string, rawPath: string): RouteMatch {
  const route: Route = {
    method: method as HttpMethod,
    path: rawPath,
    handler: "api-keys/refused",
    rule: rule.any,
    who: "",
    access: {},
  };
  return { route, routeKey: DEFAULT_ROUTE_KEY, pathParameters: {} };
}

// --- the clock ------------------------------------------------------------------------------------

/**
 * A request may run with the domain's clock moved (shared/clock.ts), so a test reaches an invitation's
 * expiry or a cooldown's end without waiting: milliseconds, ahead when positive. Local only: API Gateway
 * knows no such header, and the deployed functions never move their clock.
 */
function clockOffset(raw: string | string[] | undefined): number | "invalid" {
  if (raw === undefined) return 0;
  const ms = Number(raw);
  return typeof raw === "string" && /^-?\d+$/.test(raw) && Number.isSafeInteger(ms) ? ms : "invalid";
}

// --- the server ------------------------------------------------------------------------------------

export interface GatewayOptions {
  readonly port: number;
  readonly host?: string;
  readonly auth: AuthConfig;
  readonly region?: string;
  /** One line per request; default stdout. */
  readonly log?: (line: string) => void;
  /** The console, for GETs outside `/api/` (console.ts). */
  readonly console?: ConsoleSite;
  /**
   * CloudFront mode (docs/one-way-in.md): `url` plays the console's distribution, which adds the origin secret
   * (`x-origin-verify`) and `CloudFront-Viewer-Address` to every request, and `originUrl` the API's own custom
   * domain, which passes requests as they come. The handlers' `ORIGIN_VERIFY_SECRET` must be `secret`.
   */
  readonly cloudFront?: { readonly secret: string; readonly originPort?: number };
  /** Honour `x-local-clock-offset` (the test run's stack only); otherwise a request carrying it gets 400. */
  readonly clockHeader?: boolean;
  /**
   * Play the edge's choice and the machines' API (default true). `false` is the people's API alone, as it was
   * before institution API keys: the bench measures people's reads through both, interleaved.
   */
  readonly machines?: boolean;
}

/** The address the CloudFront emulation's requests come from, as an edge's would (a documentation range). */
export const LOCAL_EDGE_IP = "198.51.100.10";

export interface Gateway {
  readonly url: string;
  /** In CloudFront mode, the API's own domain (requests arrive without CloudFront's headers). */
  readonly originUrl?: string;
  readonly server: Server;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const json = (status: number, message: string): Reply => ({
  status,
  headers: { "content-type": "application/json", ...SECURITY_HEADERS },
  body: Buffer.from(JSON.stringify({ message })),
});

/** The handler's result written as API Gateway does for format 2.0. */
function toReply(result: unknown): Reply {
  if (typeof result !== "object" || result === null || !("statusCode" in result)) {
    // No statusCode: API Gateway takes the whole result as a JSON body with 200.
    return { status: 200, headers: { "content-type": "application/json" }, body: Buffer.from(JSON.stringify(result ?? null)) };
  }
  const r = result as APIGatewayProxyStructuredResultV2;
  const headers: Record<string, string | string[]> = {};
  // Lambda's result travels as JSON: a header whose value is undefined (helmet's way of removing
  // `Server` and `X-Powered-By`) never reaches API Gateway, so it is not sent here either.
  for (const [k, v] of Object.entries(r.headers ?? {})) if (v !== undefined && v !== null) headers[k.toLowerCase()] = String(v);
  if (r.cookies?.length) headers["set-cookie"] = r.cookies;
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body, r.isBase64Encoded ? "base64" : "utf8");
  return { status: r.statusCode ?? 200, headers, body };
}

function readBody(req: IncomingMessage): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers["content-length"] ?? 0) > MAX_PAYLOAD_BYTES;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk); // past the limit, drain and drop, so the client still reads the 413
    });
    req.on("end", () => resolve(tooLarge ? "too-large" : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export async function startGateway(opts: GatewayOptions): Promise<Gateway> {
  const verify = await createVerifier(opts.auth);
  const region = opts.region ?? process.env.AWS_REGION ?? "us-east-1";
  const log = opts.log ?? ((line: string) => console.log(line));
  /**
   * The key authorizer's allowed answers, by identity source (the `Authorization` header, and the origin header
   * the deployed cache keys on too), until when in the domain's time: so a test moves past the cache with the
   * clock header, as a revoked key's requests would after a minute.
   */
  const keyAnswers = new Map<string, { context: Record<string, unknown>; until: number }>();

  /** The key authorizer, with API Gateway's cache (`KEY_AUTHORIZER_CACHE_SECONDS`); allowed answers only are kept. */
  async function keyAuthorizer(req: IncomingMessage, match: RouteMatch, rawPath: string, rawQueryString: string, edge: EventInput["edge"]) {
    const offset = opts.clockHeader ? clockOffset(req.headers[CLOCK_OFFSET_HEADER]) : 0;
    const domainNow = Date.now() + (offset === "invalid" ? 0 : offset);
    const identity = JSON.stringify([req.headers.authorization, edge?.headers[ORIGIN_VERIFY_HEADER] ?? req.headers[ORIGIN_VERIFY_HEADER]]);
    const cached = keyAnswers.get(identity);
    if (cached && cached.until > domainNow) return { context: cached.context };
    keyAnswers.delete(identity);
    const answer = await withClockOffset(offset === "invalid" ? 0 : offset, () =>
      runLambdaAuthorizer("api-keys/authorizer", req, match, rawPath, rawQueryString, region, edge),
    );
    if (answer.context) {
      if (keyAnswers.size >= 10_000) keyAnswers.delete(keyAnswers.keys().next().value as string);
      keyAnswers.set(identity, { context: answer.context, until: domainNow + KEY_AUTHORIZER_CACHE_SECONDS * 1000 });
    }
    return answer;
  }

  async function handle(req: IncomingMessage, requestId: string, viaCloudFront: boolean, atEdge: boolean): Promise<Reply> {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const rawPath = q < 0 ? url : url.slice(0, q);
    const rawQueryString = q < 0 ? "" : url.slice(q + 1);
    // The edge sends a key to the machines' API; on the API's own domain, that API is mapped under a path.
    const withMachines = opts.machines !== false;
    const mapped = withMachines && !atEdge && rawPath.startsWith(`${MACHINE_PATH_PREFIX}/`);
    const machines = mapped || (withMachines && atEdge && rawPath.startsWith("/api/") && KEY_BEARER.test(req.headers.authorization ?? ""));
    const method = req.method ?? "GET";
    const routed = machines
      ? (matchRoute(method, mapped ? rawPath.slice(MACHINE_PATH_PREFIX.length) : rawPath, "machines") ?? defaultRoute(method, rawPath))
      : matchRoute(method, rawPath);
    const body = await readBody(req);
    if (body === "too-large") return json(413, "Request Entity Too Large");
    if (!routed) return (await opts.console?.(method, rawPath, req.headers["accept-encoding"])) ?? json(404, "Not Found");
    const match: RouteMatch = routed;

    // Through the distribution, CloudFront's headers replace the viewer's, and the request comes from an edge.
    const viewer = viewerAddress(req);
    const edge =
      viaCloudFront && opts.cloudFront
        ? {
            headers: { [ORIGIN_VERIFY_HEADER]: opts.cloudFront.secret, "cloudfront-viewer-address": `${viewer.ip}:${viewer.port}` },
            sourceIp: LOCAL_EDGE_IP,
          }
        : undefined;

    // Public routes (the API document and its page) have no authorizer, deployed or here.
    let payload: JwtPayload | undefined;
    let lambda: Record<string, unknown> | undefined;
    if (machines && !match.route.public) {
      const allowed = await keyAuthorizer(req, match, rawPath, rawQueryString, edge);
      if (allowed.refused) return allowed.refused;
      lambda = allowed.context;
    } else if (match.route.auth === "scim") {
      const allowed = await runLambdaAuthorizer("scim/authorizer", req, match, rawPath, rawQueryString, region, edge);
      if (allowed.refused) return allowed.refused;
      lambda = allowed.context;
    } else if (!match.route.public) {
      const token = bearer(req.headers.authorization);
      if (!token) return json(401, "Unauthorized");
      try {
        payload = await verify(token);
      } catch {
        return json(401, "Unauthorized");
      }
    }

    let handler: LambdaHandler;
    try {
      handler = await loadHandler<LambdaHandler>(match.route.handler);
    } catch (err) {
      console.error(`[gateway] ${match.routeKey}: cannot load handler functions/${match.route.handler}.ts: ${(err as Error).stack ?? err}`);
      return json(500, "Internal Server Error");
    }
    // Only a stack started for tests moves the clock: on `npm start` anyone could date events in others' trails.
    if (!opts.clockHeader && req.headers[CLOCK_OFFSET_HEADER] !== undefined) {
      return json(400, `${CLOCK_OFFSET_HEADER} is honoured only by a local stack started for tests`);
    }
    const offset = clockOffset(req.headers[CLOCK_OFFSET_HEADER]);
    if (offset === "invalid") return json(400, `${CLOCK_OFFSET_HEADER} must be an integer number of milliseconds`);
    const now = new Date();
    const deadline = now.getTime() + INTEGRATION_TIMEOUT_MS;
    const claims = payload ? flattenClaims(payload) : {};
    const event = buildEvent({
      req,
      match,
      rawPath,
      rawQueryString,
      body,
      claims,
      requestId,
      now,
      ...(edge && { edge }),
      ...(lambda && { lambda }),
    });
    try {
      const result = await withTimeout(
        // As that function: the AWS request recorder of the test run attributes its requests to it (docs/iam.md).
        asFunction(match.route.handler, () =>
          withClockOffset(offset, () => Promise.resolve(handler(event, lambdaContext(match.route.handler, region, deadline)))),
        ),
        INTEGRATION_TIMEOUT_MS,
      );
      if (result === "timeout") {
        console.error(`[gateway] ${match.routeKey}: handler timed out after ${INTEGRATION_TIMEOUT_MS} ms (request ${requestId})`);
        return json(503, "Service Unavailable");
      }
      return toReply(result);
    } catch (err) {
      // An exception escaping the handler is a Lambda error: API Gateway answers 500 without details.
      console.error(`[gateway] ${match.routeKey}: handler threw (request ${requestId}): ${(err as Error).stack ?? err}`);
      return json(500, "Internal Server Error");
    }
  }

  const listener = (viaCloudFront: boolean, atEdge: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const requestId = randomUUID();
    handle(req, requestId, viaCloudFront, atEdge)
      .catch((err: unknown): Reply => {
        console.error(`[gateway] ${req.method} ${req.url?.split("?")[0]}: ${(err as Error).stack ?? err}`);
        return json(500, "Internal Server Error");
      })
      .then((reply) => {
        res.writeHead(reply.status, { ...reply.headers, "content-length": reply.body.length, "apigw-requestid": requestId });
        res.end(reply.body);
        // Path only: no query string, headers or bodies in the log (tokens travel in them).
        const ms = Math.round(performance.now() - started);
        log(`${new Date().toISOString()} ${req.method} ${req.url?.split("?")[0]} ${reply.status} ${ms}ms`);
      });
  };
  const listen = async (s: Server, port: number): Promise<string> => {
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, opts.host ?? "127.0.0.1", resolve);
    });
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  // The gateway's URL plays the edge (the console's distribution), with or without CloudFront's headers.
  const server = createServer(listener(opts.cloudFront !== undefined, true));
  const url = await listen(server, opts.port);
  // CloudFront mode: the API's own domain beside the distribution, reachable around it as in AWS.
  const origin = opts.cloudFront ? createServer(listener(false, false)) : undefined;
  const originUrl = origin ? await listen(origin, opts.cloudFront?.originPort ?? 0) : undefined;
  return {
    url,
    ...(originUrl && { originUrl }),
    server,
    close: async () => {
      await Promise.all([close(server), ...(origin ? [close(origin)] : [])]);
    },
  };
}

// --- as a program ----------------------------------------------------------------------------------

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`gateway: missing environment variable ${name}`);
  return value;
}

async function main(): Promise<void> {
  // The handlers read these at import; fail here, once, rather than with a 500 on every route.
  readSettings(CORE(), ["MAIN_TABLE", "EVENTS_TABLE", "AWS_REGION"]);
  // CloudFront mode (LOCAL_CLOUDFRONT=true): a fresh origin secret in the handlers' environment. They read it when
  // they check a request (shared/origin.ts), so it holds though this module loaded theirs already.
  const cloudFront =
    process.env.LOCAL_CLOUDFRONT === "true"
      ? { secret: randomBytes(32).toString("base64url"), originPort: Number(process.env.LOCAL_ORIGIN_PORT ?? 0) }
      : undefined;
  if (cloudFront)
    Object.assign(process.env, environment({ ORIGIN_VERIFY_SECRET: cloudFront.secret, TRUST_CLOUDFRONT_VIEWER_ADDRESS: "true" }));
  const gateway = await startGateway({
    ...(cloudFront && { cloudFront }),
    clockHeader: process.env.LOCAL_CLOCK_HEADER === "true",
    port: Number(process.env.PORT ?? 3000),
    host: process.env.GATEWAY_HOST ?? "127.0.0.1",
    auth: { issuer: env("JWT_ISSUER"), audience: env("JWT_AUDIENCE"), jwksUrl: env("JWKS_URL") },
    console: consoleSiteFromEnv(),
  });
  console.log(
    `[gateway] listening on ${gateway.url}${gateway.originUrl ? ` (CloudFront mode; the API's own domain: ${gateway.originUrl})` : ""}`,
  );
  const stopTimer = process.env.DIGEST_TIMER ? startDigestTimer((line) => console.log(line)) : () => {};
  // The functions AWS invokes without a route (export worker, stream consumer, webhook retrier), in-process.
  const workers = process.env.LOCAL_WORKERS ? await (await import("./workers.js")).startLocalWorkers() : undefined;
  // The user pool's triggers and its activity subscriber (shared/pool-triggers.ts), for cognito-local to invoke.
  const lambdaPort = process.env.LOCAL_LAMBDA_PORT;
  const lambda = lambdaPort
    ? await (await import("./lambda.js")).startLambdaEndpoint(Number(lambdaPort), process.env.AWS_REGION ?? "us-east-1", (line) =>
        console.error(line),
      )
    : undefined;
  if (lambda) console.log(`[gateway] the user pool's functions answer on ${lambda.endpoint}`);
  const stop = () => {
    stopTimer();
    void Promise.all([gateway.close(), workers?.stop(), lambda?.close()]).then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error((err as Error).stack ?? err);
    process.exit(1);
  });
}
