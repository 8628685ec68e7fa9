/**
 * One way in (docs/iam.md, docs/code-structure.md, docs/one-way-in.md), as `LOCAL_CLOUDFRONT=true npm start` runs it: a second
 * gateway process on the test stack, started from the entry and with the environment the local stack gives its own
 * (infra/local/stack.ts `gatewayEnvironment`), plus `LOCAL_CLOUDFRONT=true`. It makes its origin secret after its
 * modules have loaded, so this shows that they read it when a request comes. Its `url` plays the console's
 * distribution (adds the secret and `CloudFront-Viewer-Address`), `LOCAL_ORIGIN_PORT` the API's own custom domain,
 * which anyone can reach.
 *
 * Around CloudFront, every route of the route table answers 403 to a valid credential: the JSON API's and the docs'
 * functions themselves, the SCIM routes' Lambda authorizer with API Gateway's own `{"message":"Forbidden"}`. Through
 * it they answer. A forged `CloudFront-Viewer-Address` never reaches the trail.
 */
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processEnvironment } from "../../infra/local/env.js";
import { accepts, freePort, gatewayService, type Service } from "../../infra/local/services.js";
import { gatewayEnvironment } from "../../infra/local/stack.js";
import { messages } from "../../shared/errors.js";
import { ORIGIN_VERIFY_HEADER } from "../../shared/origin.js";
import { type Route, routeKey, routes } from "../../shared/routes.js";
import { stack, token, uniq } from "../support/api.js";
import { allEvents, INST, OPENAPI } from "../support/flows.js";
import { connect, entraUser, SCIM } from "../support/scim.js";

/** The viewer: another loopback address than the edge's, so the recorded address tells which one was trusted. */
const VIEWER_IP = "127.0.0.2";
/** What a client writes into CloudFront's header itself, hoping to be recorded as someone else. */
const FORGED = "6.6.6.6";

let gateway: Service;
/** The distribution and the API's own domain. */
let url: string;
let originUrl: string;
let owner: string;
let institutionId: string;
let scimToken: string;

beforeAll(async () => {
  const [port, originPort] = [await freePort(), await freePort()];
  url = `http://127.0.0.1:${port}`;
  originUrl = `http://127.0.0.1:${originPort}`;
  gateway = gatewayService({
    port,
    output: join(stack.logDir, `gateway-cloudfront-${process.pid}.log`),
    env: {
      ...gatewayEnvironment(stack, {
        appBaseUrl: url,
        webhookRetryBaseSeconds: 1,
        // The run's own gateway consumes the stream and runs the timers; a second consumer would deliver twice.
        workers: false,
        digestTimer: false,
        // As `npm start`: no clock header.
        clockHeader: false,
        handlerEnv: { AWS_REQUEST_LOG: stack.awsRequestLog },
      }),
      ...processEnvironment({ LOCAL_CLOUDFRONT: "true", LOCAL_ORIGIN_PORT: String(originPort) }),
    },
  });
  await gateway.start();
  // The origin's port opens right after the distribution's.
  for (let i = 0; !(await accepts(originPort)); i++) {
    if (i > 100) throw new Error(`the gateway's origin port ${originPort} never opened`);
    await new Promise((r) => setTimeout(r, 100));
  }

  owner = await token(`${uniq("owner")}@example.com`, { superAdmin: true, account: uniq("oneway") });
  const created = await send(url, "POST", INST, bearer(owner), { institution: { name: uniq("One Way") } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  institutionId = (created.body.institution as { id: string }).id;
  scimToken = (await connect(owner, institutionId)).token;
}, 120_000);
afterAll(() => gateway?.stop());

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One request from the viewer's address; a string body is sent as it is. */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method, localAddress: VIEWER_IP, headers: { ...headers, ...(payload && { "content-type": "application/json" }) } },
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

const bearer = (tok: string) => ({ authorization: `Bearer ${tok}` });

const writes = (route: Route) => ["POST", "PUT", "PATCH"].includes(route.method);

/** A route's request with a valid credential (the owner's ID token, or the directory's SCIM token), ids filled in. */
function requestOf(route: Route, id: string, body: unknown) {
  const path = route.path.replace("{id}", route.path.startsWith(INST) ? id : "x").replace(/\{[^}]+\}/g, "x");
  const credential = bearer(route.auth === "scim" ? scimToken : owner);
  return { method: route.method, path, credential, body: writes(route) ? body : undefined };
}

/** The two refusals of a request around CloudFront: the function's own, and API Gateway's for the SCIM authorizer. */
const REFUSED = { status: 403, body: { error: messages.notThroughCloudFront } };
const AUTHORIZER_REFUSED = { status: 403, body: { message: "Forbidden" } };

/** Runs `fn` over the routes a few at a time: each first request loads its handler in the gateway. */
async function eachRoute<T>(fn: (route: Route) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < routes.length; i += 4) out.push(...(await Promise.all(routes.slice(i, i + 4).map(fn))));
  return out;
}

describe("around CloudFront (the API's own domain)", () => {
  it("every route of the route table answers 403 to a valid credential without the secret, the SCIM authorizer with API Gateway's own body", async () => {
    expect(routes.filter((r) => r.auth === "scim").length).toBeGreaterThan(10);
    expect(routes.filter((r) => r.public).length).toBeGreaterThanOrEqual(4);
    const answers = await eachRoute(async (route) => {
      // The real institution's id and a well-formed body: a request that got through would act on it.
      const { method, path, credential, body } = requestOf(route, institutionId, {});
      const res = await send(originUrl, method, path, { ...credential, "cloudfront-viewer-address": `${FORGED}:443` }, body);
      return [routeKey(route), res];
    });
    const expected = routes.map((route) => [routeKey(route), route.auth === "scim" ? AUTHORIZER_REFUSED : REFUSED]);
    expect(answers).toEqual(expected);
  }, 300_000);

  it("a wrong secret is no secret; a SCIM request without any credential stays API Gateway's 401", async () => {
    const wrong = { [ORIGIN_VERIFY_HEADER]: "guess" };
    expect(await send(originUrl, "GET", INST, { ...bearer(owner), ...wrong })).toEqual(REFUSED);
    expect(await send(originUrl, "GET", `${SCIM}/Users`, { ...bearer(scimToken), ...wrong })).toEqual(AUTHORIZER_REFUSED);
    expect(await send(originUrl, "GET", OPENAPI, wrong)).toEqual(REFUSED);
    expect(await send(originUrl, "GET", `${SCIM}/Users`)).toEqual({ status: 401, body: { message: "Unauthorized" } });
  });

  it("nothing refused was written: the owner still has the one institution, and its directory no user", async () => {
    const list = await send(url, "GET", INST, bearer(owner));
    expect((list.body.institutions as { id: string }[]).map((i) => i.id)).toEqual([institutionId]);
    const users = await send(url, "GET", `${SCIM}/Users`, bearer(scimToken));
    expect(users).toMatchObject({ status: 200, body: { totalResults: 0 } });
  });
});

describe("through CloudFront (the distribution)", () => {
  it("every route answers past the secret: a write reads its body (400 for a malformed one), nothing is refused", async () => {
    const answers = await eachRoute(async (route) => {
      // Unknown ids and a malformed body: this pass must act on nothing (no deletion, no token rotation, no export).
      const { method, path, credential, body } = requestOf(route, "x", "{not json");
      const res = await send(url, method, path, credential, body);
      const refused = res.status === 403 && (res.body.error === REFUSED.body.error || res.body.message === "Forbidden");
      return [routeKey(route), refused ? "refused" : writes(route) ? res.status : "answered"];
    });
    expect(answers).toEqual(routes.map((route) => [routeKey(route), writes(route) ? 400 : "answered"]));
  }, 300_000);

  it("records the viewer's address from CloudFront's header, never a forged one or the edge's, for the JSON API and SCIM", async () => {
    // A viewer's own CloudFront-Viewer-Address and x-origin-verify are replaced by CloudFront's.
    const forged = { "cloudfront-viewer-address": `${FORGED}:443`, [ORIGIN_VERIFY_HEADER]: "guess" };
    const created = await send(url, "POST", INST, { ...bearer(owner), ...forged }, { institution: { name: uniq("Through") } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body.institution as { id: string }).id;
    const user = await send(url, "POST", `${SCIM}/Users`, { ...bearer(scimToken), ...forged }, entraUser(`${uniq("person")}@example.com`));
    expect(user.status, JSON.stringify(user.body)).toBe(201);

    const trail = await allEvents(owner);
    const made = trail.find((e) => e.event_type === "institution_created" && e.details.institution_id === id);
    const provisioned = trail.find((e) => e.event_type === "administrator_provisioned");
    expect([made?.ip_address, provisioned?.ip_address]).toEqual([VIEWER_IP, VIEWER_IP]);
    // No event of the owner's trail names the forged address (nor the edge's): every one was recorded from the
    // viewer through CloudFront, or from this file's calls to the run's own gateway (connect()); the owner's sign-in,
    // recorded by the pool's trigger, has no address (Cognito gives a trigger none).
    expect(trail.length).toBeGreaterThanOrEqual(4);
    const viaApi = trail.filter((e) => e.event_type !== "sign_in");
    expect(viaApi.filter((e) => e.ip_address !== VIEWER_IP && e.ip_address !== "127.0.0.1")).toEqual([]);
    expect(trail.map((e) => e.ip_address)).not.toContain(FORGED);
  });
});

describe("the machines' API (docs/api-keys.md): institution API keys", () => {
  it("a key answers through CloudFront; around it, at the machines' mapping, the key authorizer refuses it (403) before any look-up", async () => {
    const made = await send(url, "POST", `${INST}/${institutionId}/api_keys`, bearer(owner), {
      name: uniq("edge"),
      scopes: ["cohorts:read"],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = made.body.key as string;
    const cohorts = `${INST}/${institutionId}/cohorts`;
    // Through the distribution: the edge sends the key to the machines' API, which lets it in.
    expect((await send(url, "GET", cohorts, bearer(key))).status).toBe(200);
    // Around CloudFront, at the machines' API's mapping on the origin domain: no secret, refused, cached answer or not.
    expect(await send(originUrl, "GET", `/machine${cohorts}`, bearer(key))).toEqual(AUTHORIZER_REFUSED);
    expect(await send(originUrl, "GET", `/machine${cohorts}`, { ...bearer(key), [ORIGIN_VERIFY_HEADER]: "guess" })).toEqual(
      AUTHORIZER_REFUSED,
    );
    // Around CloudFront on the people's API: no function there chooses, and its JWT authorizer knows no key.
    expect(await send(originUrl, "GET", cohorts, bearer(key))).toEqual({ status: 401, body: { message: "Unauthorized" } });
    // A route no scope opens, through the distribution: the machines' API refuses it.
    expect(await send(url, "GET", `${INST}/${institutionId}/api_keys`, bearer(key))).toEqual({
      status: 403,
      body: { error: "API keys cannot call this route" },
    });
  });
});
