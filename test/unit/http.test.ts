import type { Context } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseGroups, viewerIp } from "../../shared/caller.js";
import { Forbidden, ServiceUnavailable, TooManyRequests, toResponse } from "../../shared/errors.js";
import { type ApiEvent, api, MAX_BODY_BYTES, ok } from "../../shared/http.js";
import { paths } from "../../shared/routes.js";

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
