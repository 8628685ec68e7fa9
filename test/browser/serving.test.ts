/**
 * How the local gateway serves the console (infra/local/console.ts): the page for the console's routes, the
 * build's files with their caching, `/config.json`, and nothing from outside the build; and the build's size.
 */
import { readdirSync, readFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleSizes, DIST_DIR } from "../../infra/local/console-build.js";
import { paths } from "../../shared/routes.js";
import { stack } from "../support/api.js";

const get = (path: string, init?: RequestInit) => fetch(new URL(path, stack.apiUrl), { redirect: "manual", ...init });

describe("the console on the local gateway", () => {
  it("names its origin in the stack info, the API's own", () => {
    expect(stack.consoleUrl).toBe(`${stack.apiUrl}/`);
  });

  it("serves the page at / and, for the console's routes, the same page (no-store, nosniff, a CSP)", async () => {
    const managedLogin = new URL(stack.cognitoDomain).origin;
    const root = await get("/");
    const html = await root.text();
    expect(root.status).toBe(200);
    expect(root.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html).toContain('<div id="root">');
    for (const path of ["/institutions", "/institutions/01KAAAAAAAAAAAAAAAAAAAAAAA/edit", "/invitations/accept?token=abc", "/alerts"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe(html);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      // The page may talk to Cognito for sign-in and to the pool's managed login (single sign-on's token
      // exchange), and to nothing else beyond its origin.
      const connect = csp.split("; ").find((d) => d.startsWith("connect-src "));
      expect(new Set(connect?.split(" ").slice(1))).toEqual(new Set(["'self'", new URL(stack.cognitoEndpoint).origin, managedLogin]));
    }
  });

  it("serves /config.json with exactly the keys the console reads", async () => {
    const res = await get("/config.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.json()).toEqual({
      region: stack.region,
      userPoolId: stack.userPoolId,
      userPoolClientId: stack.userPoolClientId,
      cognitoEndpoint: stack.cognitoEndpoint,
      // The pool's managed login, an origin (infra/local/stack.ts).
      cognitoDomain: stack.cognitoDomain,
      mfa: "optional",
    });
  });

  it("serves the hashed build files cacheable for good, with their types", async () => {
    const assets = readdirSync(join(DIST_DIR, "assets"));
    const js = assets.find((f) => f.endsWith(".js"));
    const css = assets.find((f) => f.endsWith(".css"));
    const font = assets.find((f) => f.endsWith(".woff2"));
    for (const [file, type] of [
      [js, /^text\/javascript/],
      [css, /^text\/css/],
      [font, /^font\/woff2$/],
    ] as const) {
      expect(file).toBeDefined();
      const res = await get(`/assets/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("content-type"), file).toMatch(type);
      expect(res.headers.get("cache-control"), file).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options"), file).toBe("nosniff");
    }
  });

  it("sends text files gzipped to a client that takes gzip, and plain to one that does not", async () => {
    const js = readdirSync(join(DIST_DIR, "assets")).find((f) => f.endsWith(".js")) as string;
    const raw = readFileSync(join(DIST_DIR, "assets", js));
    // fetch() asks for gzip and unpacks it: the body is the file, the headers say how it travelled.
    const zipped = await get(`/assets/${js}`);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("accept-encoding");
    expect(Buffer.from(await zipped.arrayBuffer()).equals(raw)).toBe(true);
    const plain = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      httpGet(new URL(`/assets/${js}`, stack.apiUrl), { headers: { "accept-encoding": "identity" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      }).on("error", reject);
    });
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.equals(raw)).toBe(true);
  });

  it("serves the icon every page links, and /favicon.ico for clients that ask for it anyway (no 404 on any page)", async () => {
    const page = await (await get("/")).text();
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    const svg = await get("/favicon.svg");
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(await svg.text()).toMatch(/^<svg /);
    const ico = await get("/favicon.ico");
    expect(ico.status).toBe(200);
    expect(ico.headers.get("content-type")).toBe("image/x-icon");
    const bytes = Buffer.from(await ico.arrayBuffer());
    // An ICO header (reserved 0, type 1 = icon) with one image.
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
  });

  it("answers 404 for a missing build file rather than the page, and serves nothing outside the build", async () => {
    for (const path of [
      "/assets/missing-0000.js",
      "/missing-icon.ico",
      "/.build-stamp",
      "/assets/../../package.json",
      "/assets/%2e%2e/%2e%2e/package.json",
      "/%2e%2e/infra/local/console.ts",
    ]) {
      const res = await get(path);
      const body = await res.text();
      expect(res.status, path).toBe(404);
      expect(body, path).not.toContain("<html");
      expect(body, path).not.toContain("institution-admin-api");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("leaves /api/ to the API: an unknown API path is the gateway's JSON 404, a route still wants a token", async () => {
    const unknown = await get(`${paths.api}/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Not Found" });
    const route = await get(paths.institutions);
    expect(route.status).toBe(401);
    // Only GET and HEAD reach the console.
    const post = await get("/institutions", { method: "POST", body: "{}" });
    expect(post.status).toBe(404);
    expect(await post.json()).toEqual({ message: "Not Found" });
  });

  it("keeps the built JavaScript and CSS under 600 KB gzipped, all pages together", () => {
    const { jsGzipKb, cssGzipKb } = bundleSizes();
    expect(jsGzipKb).toBeGreaterThan(50);
    expect(cssGzipKb).toBeGreaterThan(10);
    expect(jsGzipKb + cssGzipKb).toBeLessThan(600);
  });
});
