/**
 * One way in (DESIGN.md §16, docs/one-way-in.md): the local gateway in CloudFront mode, in this process, on the
 * test stack's tables and user pool. Its `url` plays the console's distribution (adds the origin secret and
 * `CloudFront-Viewer-Address`); its `originUrl` the API's own custom domain, which anyone can reach. Every
 * function refuses a request without the secret (403, before anything else); the viewer's address is recorded
 * from CloudFront's header only on requests that carry it.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Gateway } from "../../infra/local/gateway.js";
import { messages } from "../../shared/errors.js";
import { stack, token, uniq } from "../support/api.js";
import { EVENTS, INST, OPENAPI } from "../support/flows.js";

// Before any module reads them (shared/origin.ts and shared/caller.ts read them once, at load), as the stack
// sets them on a deployed function.
const SECRET = vi.hoisted(() => {
  const secret = `test-origin-secret-${process.pid}`;
  process.env.ORIGIN_VERIFY_SECRET = secret;
  process.env.TRUST_CLOUDFRONT_VIEWER_ADDRESS = "true";
  // The handlers run in this process: their request lines would fill the test output.
  process.env.POWERTOOLS_LOG_LEVEL = "WARN";
  return secret;
});

/** The viewer: another loopback address than the edge's, so the recorded address tells which one was trusted. */
const VIEWER_IP = "127.0.0.2";

let gateway: Gateway;
let tok: string;
let account: string;

beforeAll(async () => {
  const { startGateway } = await import("../../infra/local/gateway.js");
  gateway = await startGateway({
    port: 0,
    auth: {
      issuer: `${stack.cognitoEndpoint}/${stack.userPoolId}`,
      audience: stack.userPoolClientId,
      jwksUrl: `${stack.cognitoEndpoint}/${stack.userPoolId}/.well-known/jwks.json`,
    },
    cloudFront: { secret: SECRET },
    log: () => {},
  });
  account = uniq("oneway");
  tok = await token(`${uniq("admin")}@example.com`, { superAdmin: true, account });
});
afterAll(() => gateway?.close());

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One request from the viewer's address. */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        localAddress: VIEWER_IP,
        headers: { ...headers, ...(payload && { "content-type": "application/json" }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {} });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const auth = () => ({ authorization: `Bearer ${tok}` });

describe("around CloudFront (the API's own domain)", () => {
  it("a direct call without the origin secret gets 403 from every function, whatever it claims to be", async () => {
    const forged = { ...auth(), "cloudfront-viewer-address": "203.0.113.9:443" };
    for (const [method, path, body] of [
      ["GET", INST, undefined],
      ["POST", INST, { institution: { name: uniq("Around") } }],
      ["GET", EVENTS, undefined],
      ["GET", OPENAPI, undefined],
    ] as const) {
      const res = await send(gateway.originUrl as string, method, path, forged, body);
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 403, messages.notThroughCloudFront]);
    }
    const wrong = await send(gateway.originUrl as string, "GET", INST, { ...auth(), "x-origin-verify": `${SECRET}x` });
    expect(wrong.status).toBe(403);
    // Nothing was written: the refused POST made no institution.
    const list = await send(gateway.url, "GET", INST, auth());
    expect(list.status).toBe(200);
    expect(list.body.institutions).toEqual([]);
  });

  it("with the secret (as CloudFront sends it), the same call is answered", async () => {
    const res = await send(gateway.originUrl as string, "GET", INST, { ...auth(), "x-origin-verify": SECRET });
    expect(res.status).toBe(200);
  });
});

describe("through CloudFront (the distribution)", () => {
  it("is answered, and the event records the viewer's address from CloudFront-Viewer-Address, not the edge's or a forged one", async () => {
    const name = uniq("Through");
    // A viewer's own CloudFront-Viewer-Address and x-origin-verify are replaced by CloudFront's.
    const created = await send(
      gateway.url,
      "POST",
      INST,
      { ...auth(), "cloudfront-viewer-address": "203.0.113.9:443", "x-origin-verify": "guess" },
      { institution: { name } },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body.institution as { id: string }).id;

    const events = await send(gateway.url, "GET", `${EVENTS}?event_type=institution_created`, auth());
    expect(events.status).toBe(200);
    const mine = (events.body.events as { details?: { institution_id?: string }; ip_address?: string }[]).find(
      (e) => e.details?.institution_id === id,
    );
    expect(mine?.ip_address).toBe(VIEWER_IP);
  });
});
