/**
 * The console (web/, built into web/dist by `npm run build:web`) on the local gateway, as CloudFront serves
 * it deployed: every GET outside `/api/` is a file of the build, or index.html for the console's own routes
 * (`/institutions/…`, `/invitations/accept?token=…`), and `/config.json` tells the console where Cognito is.
 *
 * Headers: HTML and the configuration are never stored (`no-store`); files under `/assets/` carry a content
 * hash in their names, so they may be cached for good. Every answer has `nosniff`; HTML has a CSP that lets
 * the page talk to its own origin and to Cognito only.
 */
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { consoleContentSecurityPolicy, consoleSecurityHeaders, SECURITY_HEADERS } from "../../shared/security-headers.js";

/** What the console reads from `/config.json`: exactly these keys (the CDK stack writes the same file). */
export interface ConsoleConfig {
  readonly region: string;
  /** Amplify (web/src/auth/cognito.ts) takes the pool's id with its app client's. */
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  readonly cognitoEndpoint: string;
  /**
   * The pool's managed login (docs/sso.md), an origin without a trailing slash: single sign-on's
   * `/oauth2/authorize`, `/oauth2/token` and `/logout`. Deployed, the pool's Cognito domain.
   */
  readonly cognitoDomain: string;
  /** The pool's MFA setting, as dev's locally: "optional" or "required". */
  readonly mfa: "optional" | "required";
}

export interface ConsoleSiteOptions {
  /** The build: web/dist. */
  readonly distDir: string;
  readonly config: ConsoleConfig;
}

/** The gateway's reply shape. */
export interface SiteReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Answers a request for the console, or undefined when it is not one (the API's paths, other methods).
 * `acceptEncoding` is the request's header: text files go gzipped to a client that takes it, as CloudFront
 * compresses them deployed.
 */
export type ConsoleSite = (method: string, rawPath: string, acceptEncoding?: string | string[]) => Promise<SiteReply | undefined>;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
};

/** Worth compressing: text, and larger than a packet. */
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".json", ".svg", ".txt", ".map"]);
const MIN_COMPRESS_BYTES = 1024;

/** Names under /assets/ change with their content (Vite's hashes). */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The page's policy (`consoleContentSecurityPolicy`) for the origins of `cognitoEndpoint` and `cognitoDomain`. */
export function contentSecurityPolicy(cognitoEndpoint: string, cognitoDomain = ""): string {
  return consoleContentSecurityPolicy(originOf(cognitoEndpoint), originOf(cognitoDomain));
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return ""; // not a URL: sign-in will fail visibly, the policy stays strict
  }
}

export function consoleSite(opts: ConsoleSiteOptions): ConsoleSite {
  const root = resolve(opts.distDir);
  const configBody = Buffer.from(
    JSON.stringify({
      region: opts.config.region,
      userPoolId: opts.config.userPoolId,
      userPoolClientId: opts.config.userPoolClientId,
      cognitoEndpoint: opts.config.cognitoEndpoint,
      cognitoDomain: opts.config.cognitoDomain,
      mfa: opts.config.mfa,
    }),
  );
  const htmlHeaders = {
    "content-type": TYPES[".html"] as string,
    ...SECURITY_HEADERS,
    // The same set CloudFront sends for the deployed console (one source).
    ...consoleSecurityHeaders(originOf(opts.config.cognitoEndpoint), originOf(opts.config.cognitoDomain)),
  };
  const plain = (status: number, text: string): SiteReply => ({
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...SECURITY_HEADERS },
    body: Buffer.from(text),
  });

  // Each build file gzipped once (a rebuild changes its mtime); the build is a few megabytes at most.
  const gzipped = new Map<string, { mtimeMs: number; gz: Buffer }>();

  /** The reply for a build file, gzipped when the client takes it and it is worth it. */
  async function send(full: string, headers: Record<string, string>, gzip: boolean): Promise<SiteReply> {
    const info = await stat(full);
    const ext = extname(full).toLowerCase();
    if (!gzip || !COMPRESSIBLE.has(ext) || info.size < MIN_COMPRESS_BYTES) return { status: 200, headers, body: await readFile(full) };
    let cached = gzipped.get(full);
    if (cached?.mtimeMs !== info.mtimeMs) {
      cached = { mtimeMs: info.mtimeMs, gz: gzipSync(await readFile(full)) };
      gzipped.set(full, cached);
    }
    return { status: 200, headers: { ...headers, "content-encoding": "gzip", vary: "accept-encoding" }, body: cached.gz };
  }

  /** The file under the build for a URL path, or undefined when the path leaves it or names no file. */
  async function file(rawPath: string): Promise<string | undefined> {
    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      return undefined;
    }
    // No hidden files (the build's stamp), nothing outside the build.
    if (path.includes("\0") || path.split("/").some((part) => part.startsWith("."))) return undefined;
    const full = resolve(root, `.${normalize(`/${path}`)}`);
    if (full !== root && !full.startsWith(root + sep)) return undefined;
    try {
      return (await stat(full)).isFile() ? full : undefined;
    } catch {
      return undefined;
    }
  }

  async function index(gzip: boolean): Promise<SiteReply> {
    try {
      return await send(join(root, "index.html"), htmlHeaders, gzip);
    } catch {
      return plain(503, "The console is not built: run `npm run build:web`, then reload.\n");
    }
  }

  return async (method, rawPath, acceptEncoding) => {
    if (method !== "GET" && method !== "HEAD") return undefined;
    const gzip = /\bgzip\b/i.test(String(acceptEncoding ?? ""));
    if (rawPath === "/api" || rawPath.startsWith("/api/")) return undefined;
    if (rawPath === "/config.json") {
      return {
        status: 200,
        headers: { "content-type": "application/json", ...SECURITY_HEADERS },
        body: configBody,
      };
    }
    if (rawPath === "/" || rawPath === "/index.html") return index(gzip);
    const found = await file(rawPath);
    if (found) {
      const ext = extname(found).toLowerCase();
      if (ext === ".html") return send(found, htmlHeaders, gzip);
      const headers = {
        "content-type": TYPES[ext] ?? "application/octet-stream",
        ...SECURITY_HEADERS,
        // Build files under /assets/ may be kept for good: their names change with their content.
        ...(rawPath.startsWith("/assets/") && { "cache-control": IMMUTABLE }),
      };
      return send(found, headers, gzip);
    }
    // A missing build file is a 404, not the page: a script tag must never receive HTML. Nor does a hidden
    // or escaping path get the page, as if it named one of the console's routes.
    if (rawPath.startsWith("/assets/") || extname(rawPath) !== "" || /\/\.|%2e/i.test(rawPath)) return plain(404, "Not Found\n");
    return index(gzip);
  };
}

/** The site the gateway serves when run as a program: the build in web/dist and the config stack.ts passes. */
export function consoleSiteFromEnv(env: NodeJS.ProcessEnv = process.env): ConsoleSite | undefined {
  const raw = env.CONSOLE_CONFIG;
  if (!raw) return undefined;
  const config = JSON.parse(raw) as ConsoleConfig;
  const distDir = env.CONSOLE_DIR ?? fileURLToPath(new URL("../../web/dist/", import.meta.url));
  return consoleSite({ distDir, config });
}
