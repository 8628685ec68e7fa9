/**
 * The API document and its reference page as a client meets them, through the local gateway: both without
 * a token, the document the tests check every response against, Swagger UI from its npm package with
 * nothing fetched from elsewhere (in a real browser, Try it out included), and a typed client generated
 * from the document (openapi-typescript + openapi-fetch) driving a real flow.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import createClient, { type Middleware } from "openapi-fetch";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { paths as ApiPaths } from "../../shared/openapi/api-types.js";
import { paths } from "../../shared/routes.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { assertConforms, document } from "../support/contract.js";
import { DOCS, OPENAPI } from "../support/flows.js";

const swaggerBundle = readFileSync(createRequire(import.meta.url).resolve("swagger-ui-dist/swagger-ui-bundle.js"), "utf8");
const operationCount = Object.values(document.paths).reduce((n, item) => n + Object.keys(item as object).length, 0);

describe(`GET ${paths.openapi}`, () => {
  it("needs no token, and is the document every response of the tests is checked against", async () => {
    const res = await call("GET", OPENAPI);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(document)));
    expect(res.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  });

  it("has no authorizer: a bad token changes nothing, while the same token is refused on a protected route", async () => {
    expect((await call("GET", OPENAPI, { token: "not-a-token" })).status).toBe(200);
    expect(await call("GET", paths.institutions, { token: "not-a-token" })).toMatchObject({ status: 401 });
  });
});

describe(`GET ${paths.docs}`, () => {
  it("serves Swagger UI from its npm package, inlined, under a policy that runs only its own scripts", async () => {
    const res = await call("GET", DOCS, { headers: { "accept-encoding": "identity" } });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.text).toContain(swaggerBundle);
    expect(res.text).toContain('url: "openapi.json"');
    // Nothing to load from anywhere: no src or href attribute at all.
    expect(res.text.replace(swaggerBundle, "")).not.toMatch(/<(script|link|img)\b[^>]*\b(src|href)=/i);
    const csp = res.headers["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]{44}' 'sha256-[A-Za-z0-9+/=]{44}'(;|$)/);
    expect(csp).toContain("connect-src 'self'");
  });

  it("is gzipped for a client that takes gzip", async () => {
    const plain = await call("GET", DOCS, { headers: { "accept-encoding": "identity" } });
    const res = await call("GET", DOCS, { headers: { "accept-encoding": "gzip" } });
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(Number(res.headers["content-length"])).toBeLessThan(Number(plain.headers["content-length"]) / 3);
    expect(res.text).toBe(plain.text);
  });

  it("works in a browser: every operation listed, Try it out with a token, nothing fetched elsewhere, no policy violation", async () => {
    const owner = await token(uniqEmail("docs"), { superAdmin: true, account: uniq("acct") });
    const origin = new URL(stack.apiUrl).origin;
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      const elsewhere: string[] = [];
      const violations: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(`${origin}/`) || url.startsWith("data:")) return route.continue();
        elsewhere.push(url);
        return route.abort();
      });
      page.on("console", (msg) => {
        if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
      });
      expect(stack.docsUrl).toBe(`${stack.apiUrl}${DOCS}`);
      await page.goto(stack.docsUrl);
      await page.locator(".opblock").first().waitFor({ timeout: 30_000 });
      expect(await page.locator(".opblock").count()).toBe(operationCount);

      await page.locator("button.authorize").first().click();
      await page.locator(".modal-ux input").first().fill(owner);
      // The first scheme (bearerAuth, the ID token); the SCIM routes have their own (scimBearer).
      await page.locator(".modal-ux button.authorize").first().click();
      await page.locator(".modal-ux button.btn-done").first().click();

      const list = page.locator("#operations-Institutions-listInstitutions");
      await list.locator(".opblock-summary").click();
      await list.locator("button.try-out__btn").click();
      await list.locator("button.execute").click();
      await expect
        .poll(() => list.locator(".live-responses-table tbody .response-col_status").first().textContent(), { timeout: 20_000 })
        .toMatch(/200/);
      expect(await list.locator(".live-responses-table tbody .response-col_description").first().textContent()).toContain('"institutions"');

      expect(elsewhere).toEqual([]);
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000); // a browser, and 1.9 MB of script to parse, on a shared 2-core machine
});

describe("a client generated from the document (openapi-typescript types, openapi-fetch)", () => {
  /** The typed client's responses are checked against the document too, as call()'s are. */
  const conforms: Middleware = {
    async onResponse({ request, response }) {
      const text = await response.clone().text();
      const headers = Object.fromEntries(response.headers);
      const body = /\bjson\b/.test(headers["content-type"] ?? "") ? JSON.parse(text) : text;
      assertConforms(request.method, new URL(request.url).pathname, { status: response.status, headers, body });
      return response;
    },
  };

  it("creates an institution, reads it, lists it, updates it, and reads a typed error", async () => {
    const owner = await token(uniqEmail("typed"), { superAdmin: true, account: uniq("acct") });
    const api = createClient<ApiPaths>({ baseUrl: stack.apiUrl, headers: { authorization: `Bearer ${owner}` } });
    api.use(conforms);

    const name = `Typed College ${uniq("n")}`;
    const created = await api.POST(paths.institutions, {
      body: { institution: { name, contact_email: "desk@typed.test", settings: { auto_finalize: true } } },
    });
    expect(created.response.status).toBe(201);
    const id = created.data?.institution.id ?? "";
    expect(created.data?.message).toBe("Institution created successfully");

    const shown = await api.GET(`${paths.institutions}/{id}`, { params: { path: { id } } });
    expect(shown.data).toMatchObject({ institution: { id, name }, role: "cohort_super_admin", is_super_admin: true });
    expect(shown.data?.settings.auto_finalize).toBe(true);
    expect(shown.data?.settings.allow_student_enrollment).toBe(true);

    const listed = await api.GET(paths.institutions);
    expect(listed.data?.institutions.map((i) => i.id)).toContain(id);

    const updated = await api.PATCH(`${paths.institutions}/{id}`, {
      params: { path: { id } },
      body: { institution: { address: "1 Typed Way" } },
    });
    expect(updated.data?.institution.address).toBe("1 Typed Way");

    const refused = await api.POST(paths.institutions, { body: { institution: { name: "" } } });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toEqual({ errors: ["Name can't be blank"] });
  });
});
