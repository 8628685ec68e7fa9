import type { Context } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseGroups } from "../../shared/caller.js";
import { Forbidden, messages, ServiceUnavailable, TooManyRequests, toResponse } from "../../shared/errors.js";
import { type ApiEvent, api, MAX_BODY_BYTES, ok } from "../../shared/http.js";
import { publicDocs } from "../../shared/openapi/serve.js";
import { ORIGIN_VERIFY_HEADER, viewerIp } from "../../shared/origin.js";
import { paths } from "../../shared/routes.js";
import { type ScimEvent, scimApi } from "../../shared/scim/http.js";

const context = { awsRequestId: "req-123" } as Context;

/** A route whose rule the use case applies (the invitee's): the middleware lets any verified caller through. */
const OPEN_ROUTE = `POST ${paths.invitationsAccept}`;

function event(body?: string, claims: Record<string, unknown> = {}, routeKey = OPEN_ROUTE): ApiEvent {
  return {
    version: "2.0",
    routeKey,
    rawPath: "/x",
    rawQueryString: "",
    headers: {},
    body,
    isBase64Encoded: false,
    requestContext: {
      http: { method: "POST", path: "/x", protocol: "HTTP/1.1", sourceIp: "10.0.0.1", userAgent: "t" },
      authorizer: {
        jwt: { claims: { sub: "u1", email: "U1@Example.com", "cognito:groups": "[cohort_super_admin]", ...claims }, scopes: [] },
      },
    },
  } as unknown as ApiEvent;
}

afterEach(() => vi.restoreAllMocks());

describe("the middy stack", () => {
  const echo = api(async ({ body, caller }) => ok({ body, caller }));

  it("applies a cohort-super-admin route's rule before reading the body: 403 for anyone else, the body next", async () => {
    const superAdminRoute = `POST ${paths.webhooks}`;
    const refused = await echo(event("{not json", { "cognito:groups": "[ops]", sub: `u-${Date.now()}` }, superAdminRoute), context);
    expect({ status: refused.statusCode, body: JSON.parse(String(refused.body)) }).toEqual({
      status: 403,
      body: { error: "Super admin access required" },
    });
    expect((await echo(event("{not json", {}, superAdminRoute), context)).statusCode).toBe(400);
    expect((await echo(event('{"a":1}', {}, superAdminRoute), context)).statusCode).toBe(200);
  });

  it("answers 500 for a route key the table lacks, never serving it without a rule", async () => {
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    expect((await echo(event('{"a":1}', {}, "POST /x"), context)).statusCode).toBe(500);
  });

  it("parses JSON whatever the content type and passes the verified caller", async () => {
    const res = await echo(event('{"a":1}', { email_verified: "true" }), context);
    expect(res.statusCode).toBe(200);
    const parsed = JSON.parse(String(res.body));
    expect(parsed.body).toEqual({ a: 1 });
    // API Gateway hands the boolean claim over as a string; without it the e-mail is not verified.
    const unverified = JSON.parse(String((await echo(event("{}"), context)).body));
    expect(unverified.caller.emailVerified).toBe(false);
    expect(parsed.caller).toMatchObject({
      id: "u1",
      email: "u1@example.com",
      isCohortSuperAdmin: true,
      emailVerified: true,
      accountId: "user:u1",
      ip: "10.0.0.1",
    });
  });

  it("refuses an access token with the authorizer's 401 body", async () => {
    const res = await echo(event("{}", { token_use: "access" }), context);
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(String(res.body))).toEqual({ message: "Unauthorized" });
    expect((await echo(event("{}", { token_use: "id" }), context)).statusCode).toBe(200);
  });

  it("answers 400 Malformed JSON body", async () => {
    const res = await echo(event("{nope"), context);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(String(res.body))).toEqual({ error: "Malformed JSON body" });
  });

  it("reads an escaped lone surrogate as U+FFFD, in plain and base64 bodies; a well-formed pair as sent", async () => {
    let seen: unknown;
    const keep = api(async ({ body }) => {
      seen = body;
      return ok({});
    });
    const text = String.raw`{"a":"x\udfff","b":["\uD800y"],"c":"\ud83d\ude00","d":"\\ud800"}`;
    const want = { a: "x\ufffd", b: ["\ufffdy"], c: "\ud83d\ude00", d: "\\ud800" };
    await keep(event(text), context);
    expect(seen).toEqual(want);
    await keep({ ...event(Buffer.from(text).toString("base64")), isBase64Encoded: true }, context);
    expect(seen).toEqual(want);
  });

  it("answers 413 past 64 KiB, and accepts exactly 64 KiB", async () => {
    const big = await echo(event(JSON.stringify({ a: "x".repeat(MAX_BODY_BYTES) })), context);
    expect(big.statusCode).toBe(413);
    expect(JSON.parse(String(big.body))).toEqual({ error: "Request body too large" });
    const exact = `{"a":"${"x".repeat(MAX_BODY_BYTES - 8)}"}`;
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    expect((await echo(event(exact), context)).statusCode).toBe(200);
  });

  it("answers 500 with a generic body and logs the details with the request id", async () => {
    // Powertools writes each level to stdout or stderr, as Lambda collects both.
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const spies = [
      vi.spyOn(process.stdout, "write").mockImplementation(capture),
      vi.spyOn(process.stderr, "write").mockImplementation(capture),
    ];
    const boom = api(async () => {
      throw new Error("secret internals");
    });
    const res = await boom(event(), context);
    for (const spy of spies) spy.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe('{"error":"Internal server error"}');
    const lines = written
      .flatMap((w) => w.split("\n"))
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "ERROR",
        function_request_id: "req-123",
        error: expect.objectContaining({ message: "secret internals" }),
      }),
    );
  });
});

describe("an institution API key as the caller (docs/api-keys.md)", () => {
  const echo = api(async ({ caller }) => ok({ caller }));
  /** An event of the machines' API: the key authorizer's context instead of the JWT's claims. */
  const keyEvent = (routeKey: string, context: Record<string, unknown> = {}): ApiEvent => {
    const e = event("{}", {}, routeKey);
    const lambda = {
      api_key_id: "01M84M9Q3W6ZK1R2TXY5B8C0DE",
      api_key_name: "SIS sync",
      institution_id: "01M84M2ES7DTY37NE05PPBJBQG",
      account_id: "acme",
      scopes: "cohorts:read cohorts:write",
      expires_at: "",
      ...context,
    };
    return { ...e, requestContext: { ...e.requestContext, authorizer: { lambda } } } as unknown as ApiEvent;
  };
  const cohorts = `${paths.institutions}/{id}/cohorts`;

  it("builds the caller from the key authorizer's context alone: the key, its institution, account and scopes; no user", async () => {
    const res = await echo(keyEvent(`POST ${cohorts}`), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(String(res.body)).caller).toEqual({
      id: "apikey:01M84M9Q3W6ZK1R2TXY5B8C0DE",
      email: "",
      name: null,
      accountId: "acme",
      isCohortSuperAdmin: false,
      emailVerified: false,
      ip: "10.0.0.1",
      apiKey: {
        id: "01M84M9Q3W6ZK1R2TXY5B8C0DE",
        name: "SIS sync",
        institutionId: "01M84M2ES7DTY37NE05PPBJBQG",
        scopes: ["cohorts:read", "cohorts:write"],
        expiresAt: null,
      },
    });
  });

  it("refuses a route outside the key's scopes, naming the scope, and a route without one, before the body", async () => {
    const outside = await echo(keyEvent(`GET ${paths.institutions}/{id}/administrators`), context);
    expect({ status: outside.statusCode, body: JSON.parse(String(outside.body)) }).toEqual({
      status: 403,
      body: { error: "API key lacks the scope administrators:read" },
    });
    const never = await echo({ ...keyEvent(`POST ${paths.webhooks}`), body: "{not json" }, context);
    expect({ status: never.statusCode, body: JSON.parse(String(never.body)) }).toEqual({
      status: 403,
      body: { error: "API keys cannot call this route" },
    });
    // An unknown scope in the context grants nothing.
    expect((await echo(keyEvent(`GET ${cohorts}`, { scopes: "cohorts:readx everything" }), context)).statusCode).toBe(403);
  });

  it("refuses an expired key at once (401), though a cached authorizer answer let it through; a context without a key is 401", async () => {
    const past = await echo(keyEvent(`GET ${cohorts}`, { expires_at: "2001-01-01T00:00:00.000Z" }), context);
    expect({ status: past.statusCode, body: JSON.parse(String(past.body)) }).toEqual({ status: 401, body: { message: "Unauthorized" } });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await echo(keyEvent(`GET ${cohorts}`, { expires_at: future }), context)).statusCode).toBe(200);
    expect((await echo(keyEvent(`GET ${cohorts}`, { api_key_id: "" }), context)).statusCode).toBe(401);
    expect((await echo(keyEvent(`GET ${cohorts}`, { expires_at: "soon" }), context)).statusCode).toBe(401);
  });
});

describe("the log lines of an accept request", () => {
  // A token as the mail carries it (43 base64url characters), sent where a careless client or log could keep it.
  const token = "tK9_x2LqV8mZ3nB7cD1eF4gH6jK0lM5nP8qR2sT9uVw";
  const acceptEvent = (): ApiEvent => {
    const e = event(JSON.stringify({ token }), { email_verified: "true" });
    return {
      ...e,
      routeKey: `POST ${paths.invitationsAccept}`,
      rawPath: paths.invitationsAccept,
      rawQueryString: `token=${token}`,
      queryStringParameters: { token },
      headers: { referer: `https://console.example.com/invitations/accept?token=${token}` },
      requestContext: { ...e.requestContext, http: { ...e.requestContext.http, path: paths.invitationsAccept } },
    } as ApiEvent;
  };

  it("never hold the token, at DEBUG (dev's level) too, answered or failed, from the body, query or Referer", async () => {
    // The stack as a dev function loads it: the level is read once, when the Logger is made.
    const previousLevel = process.env.POWERTOOLS_LOG_LEVEL;
    process.env.POWERTOOLS_LOG_LEVEL = "DEBUG";
    vi.resetModules();
    let debug: { http: typeof import("../../shared/http.js"); telemetry: typeof import("../../shared/telemetry.js") };
    try {
      debug = { http: await import("../../shared/http.js"), telemetry: await import("../../shared/telemetry.js") };
    } finally {
      if (previousLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
      else process.env.POWERTOOLS_LOG_LEVEL = previousLevel;
    }
    expect(debug.telemetry.logger.getLevelName()).toBe("DEBUG");
    const accept = (fail: boolean) =>
      debug.http.api(async () => {
        if (fail) throw new Error("the table is gone");
        return debug.http.ok({ institution_id: "inst-1" });
      });

    const written: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    const spies = [
      vi.spyOn(process.stdout, "write").mockImplementation(capture),
      vi.spyOn(process.stderr, "write").mockImplementation(capture),
    ];
    const statuses: number[] = [];
    try {
      for (const fail of [false, true, false]) statuses.push((await accept(fail)(acceptEvent(), context)).statusCode ?? 0);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(statuses).toEqual([200, 500, 200]);
    const text = written.join("");
    // Every request was logged (so there was something to look at), and no line holds the token or a part of it.
    expect(text.match(/"message":"request"/g)).toHaveLength(3);
    expect(text).toContain(`"route":"POST ${paths.invitationsAccept}"`);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(0, 16));
  });
});

describe("error mapping", () => {
  it("maps domain errors to their status, body and headers", () => {
    expect(toResponse(new Forbidden("Super admin access required"))).toEqual({
      status: 403,
      headers: {},
      body: { error: "Super admin access required" },
    });
    expect(toResponse(new TooManyRequests("slow down", 12.2)).headers).toEqual({ "Retry-After": "13" });
    expect(toResponse(new ServiceUnavailable()).status).toBe(503);
    const timeout = Object.assign(new Error("socket hang"), { name: "TimeoutError" });
    expect(toResponse(timeout)).toMatchObject({ status: 503 });
  });
});

describe("group claims", () => {
  it("reads the flattened and array forms, exactly", () => {
    expect(parseGroups("[cohort_super_admin other]")).toEqual(["cohort_super_admin", "other"]);
    // A group named `"cohort_super_admin"` (quotes included) flattens to this: never the group itself.
    expect(parseGroups('["cohort_super_admin"]')).toEqual(['"cohort_super_admin"']);
    expect(parseGroups('["a","cohort_super_admin"]')).not.toContain("cohort_super_admin");
    expect(parseGroups("[ops,cohort_super_admin]")).not.toContain("cohort_super_admin");
    expect(parseGroups(["a", "b"])).toEqual(["a", "b"]);
    expect(parseGroups("cohort_super_admin")).toEqual(["cohort_super_admin"]);
    expect(parseGroups(undefined)).toEqual([]);
  });
});

describe("the viewer's IP address", () => {
  const at = (headers: Record<string, string>) =>
    ({ headers, requestContext: { http: { sourceIp: "130.176.1.1" } } }) as unknown as Parameters<typeof viewerIp>[0];

  it("behind CloudFront (trusted): CloudFront-Viewer-Address without its port, IPv4 and IPv6", () => {
    expect(viewerIp(at({ "cloudfront-viewer-address": "198.51.100.10:46532" }), true)).toBe("198.51.100.10");
    expect(viewerIp(at({ "cloudfront-viewer-address": "2001:db8:85a3::8a2e:370:7334:46532" }), true)).toBe("2001:db8:85a3::8a2e:370:7334");
  });

  it("not trusted (locally, or a stack not fronted): the connection's address, whatever the header says", () => {
    expect(viewerIp(at({ "cloudfront-viewer-address": "198.51.100.10:46532" }), false)).toBe("130.176.1.1");
  });

  it("a missing or malformed header falls back to the connection's address", () => {
    for (const value of ["", "nonsense", "198.51.100.10", "<script>:1", "999.1.1.1:80"]) {
      expect(viewerIp(at({ "cloudfront-viewer-address": value }), true)).toBe("130.176.1.1");
    }
    expect(viewerIp(at({}), true)).toBe("130.176.1.1");
  });
});

describe("one pipeline, three dialects", () => {
  const scimEvent = (body?: string, headers: Record<string, string> = {}): ScimEvent =>
    ({
      ...event(body),
      routeKey: `POST ${paths.scim}/Users`,
      rawPath: `${paths.scim}/Users`,
      headers,
      requestContext: {
        ...event().requestContext,
        domainName: "api.example.com",
        authorizer: { lambda: { institution_id: "i1", connection_id: "c1", account_id: "a1" } },
      },
    }) as unknown as ScimEvent;
  const jsonApi = api(async ({ caller }) => ok({ ip: caller.ip }));
  const scim = scimApi(async ({ directory }) => ({ status: 200, body: { ip: directory.ip } }));
  const docs = publicDocs(async () => ({ statusCode: 200, headers: { "content-type": "text/plain" }, body: "the document" }));
  const answered = (res: { statusCode?: number; headers?: Record<string, unknown>; body?: string }) => ({
    status: res.statusCode,
    type: String(res.headers?.["content-type"]).split(";")[0],
    body: res.body?.startsWith("{") ? JSON.parse(res.body) : res.body,
  });

  const SECRET = "set-after-the-modules-loaded";
  afterEach(() => {
    delete process.env.ORIGIN_VERIFY_SECRET;
    delete process.env.TRUST_CLOUDFRONT_VIEWER_ADDRESS;
  });

  it("read the origin secret when a request comes, not at import: set later (as LOCAL_CLOUDFRONT=true npm start does), it holds in each", async () => {
    const withSecret = { [ORIGIN_VERIFY_HEADER]: SECRET };
    const calls = (headers: Record<string, string>) =>
      Promise.all([
        jsonApi({ ...event("{not json"), headers }, context),
        scim(scimEvent("{not json", headers), context),
        docs({ ...event(), headers }, context),
      ]);
    // Unset: nothing is checked (the malformed bodies answer 400 in each dialect's shape; the docs read none).
    expect((await calls({})).map((r) => r.statusCode)).toEqual([400, 400, 200]);

    process.env.ORIGIN_VERIFY_SECRET = SECRET;
    for (const headers of [{}, { [ORIGIN_VERIFY_HEADER]: `${SECRET}x` }] as Record<string, string>[]) {
      const [json, directory, document] = (await calls(headers)).map(answered);
      // Before the caller, the rule and the body: 403, each in its own shape.
      expect(json).toEqual({ status: 403, type: "application/json", body: { error: messages.notThroughCloudFront } });
      expect(directory).toEqual({
        status: 403,
        type: "application/scim+json",
        body: { schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "403", detail: messages.notThroughCloudFront },
      });
      expect(document).toEqual({ status: 403, type: "application/json", body: { error: messages.notThroughCloudFront } });
    }
    expect((await calls(withSecret)).map((r) => r.statusCode)).toEqual([400, 400, 200]);
    // And every answer, a refusal included, carries the security headers.
    for (const res of await calls({}))
      expect(res.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  });

  it("trust CloudFront-Viewer-Address only when a secret is configured and the request carried it", async () => {
    const forged = { "cloudfront-viewer-address": "6.6.6.6:443" };
    const ips = async (headers: Record<string, string>) =>
      (await Promise.all([jsonApi({ ...event("{}"), headers }, context), scim(scimEvent("{}", headers), context)])).map(
        (r) => JSON.parse(String(r.body)).ip,
      );
    process.env.TRUST_CLOUDFRONT_VIEWER_ADDRESS = "true";
    // No secret configured: any client could send the header, so it names nobody.
    expect(await ips(forged)).toEqual(["10.0.0.1", "10.0.0.1"]);
    process.env.ORIGIN_VERIFY_SECRET = SECRET;
    expect(await ips({ ...forged, [ORIGIN_VERIFY_HEADER]: SECRET })).toEqual(["6.6.6.6", "6.6.6.6"]);
    process.env.TRUST_CLOUDFRONT_VIEWER_ADDRESS = "false";
    expect(await ips({ ...forged, [ORIGIN_VERIFY_HEADER]: SECRET })).toEqual(["10.0.0.1", "10.0.0.1"]);
  });

  it("differ in their answers only: SCIM's 413 and 400 in the RFC's shape, the docs read no body", async () => {
    const big = JSON.stringify({ a: "x".repeat(MAX_BODY_BYTES) });
    expect(answered(await scim(scimEvent(big), context))).toMatchObject({
      status: 413,
      type: "application/scim+json",
      body: { status: "413", detail: "Request body too large" },
    });
    expect(answered(await scim(scimEvent("{nope"), context))).toMatchObject({
      status: 400,
      body: { status: "400", scimType: "invalidSyntax", detail: "Malformed JSON body" },
    });
    expect(answered(await jsonApi(event(big), context))).toMatchObject({ status: 413, body: { error: "Request body too large" } });
    expect((await docs({ ...event(big) }, context)).statusCode).toBe(200);
    // SCIM's caller is the directory of the Lambda authorizer: without it, 401 in SCIM's shape.
    const anonymous = scimEvent("{}");
    anonymous.requestContext.authorizer = { lambda: {} } as ScimEvent["requestContext"]["authorizer"];
    expect(answered(await scim(anonymous, context))).toMatchObject({ status: 401, type: "application/scim+json", body: { status: "401" } });
  });
});
