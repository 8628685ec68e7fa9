/**
 * Hostile input against institution API keys (docs/api-keys.md), through the real gateway, its edge choice and the
 * key authorizer: random bodies and ids on the key routes; random, malformed, near-miss and very long
 * `Authorization` headers, a person's token where a key goes and a key where a person's token goes; a key with
 * every scope sending hostile bodies, ids and queries on the routes it may call. Never a 5xx; a near miss never
 * opens anything; the key never sees another institution, and nothing pollutes a prototype.
 */
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyOfHeader } from "../../shared/api-keys/key.js";
import { keyActorId } from "../../shared/api-keys/model.js";
import { SCOPES } from "../../shared/api-keys/scopes.js";
import { db } from "../../shared/clients.js";
import { config } from "../../shared/config.js";
import { paths } from "../../shared/routes.js";
import { eventKeys } from "../../shared/tables.js";
import { token, uniqEmail } from "../support/api.js";
import { keysPath, makeKey } from "../support/api-keys.js";
import { createInstitution, INST, INV } from "../support/flows.js";
import {
  anyString,
  badId,
  expectNoPollution,
  hit,
  hostileJson,
  hostileQuery,
  pollution,
  printTally,
  queryString,
  type RawResult,
  runs,
  seg,
  send,
  sometimes,
  targetTooLong,
  tried,
  wrongType,
} from "./support.js";

let owner: string;
let outsider: string;
let institutionId: string;
/** Another institution, of another account: a key must never see it. */
let elsewhere: string;
/** A key with every scope, and its id. */
let key: string;
let keyId: string;

beforeAll(async () => {
  owner = await token(uniqEmail("hk-owner"), { superAdmin: true });
  outsider = await token(uniqEmail("hk-outsider"), { superAdmin: true });
  institutionId = (await createInstitution(owner)).id;
  elsewhere = (await createInstitution(outsider)).id;
  const made = await makeKey(owner, institutionId, [...SCOPES], { name: "Hostile" });
  key = made.key;
  keyId = made.id;
});

afterAll(async () => {
  // Someone with no institution at all sees none, nor this one: nothing leaked through a prototype.
  await expectNoPollution(await token(uniqEmail("hk-nobody"), { superAdmin: true }), institutionId);
  printTally("api-keys");
});

/** Forgets the key's refusals of this minute: the properties refuse it on purpose, past the probing bound. */
async function forgetKeyRefusals(): Promise<void> {
  const minute = new Date().toISOString().slice(0, 16);
  await db.send(new DeleteCommand({ TableName: config.tables.events, Key: eventKeys.refusals(keyActorId(keyId), minute) }));
}

/** The key's request (`Authorization: Bearer <key>`), counted against `endpoint`. */
async function asKey(endpoint: string, method: string, path: string, json?: unknown): Promise<RawResult> {
  await forgetKeyRefusals();
  return hit(endpoint, method, path, { token: key, ...(json !== undefined && { json }) });
}

const noServerError = (res: RawResult) => expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);

describe("the key routes", () => {
  const body = fc.oneof(
    hostileJson,
    fc.record(
      {
        name: fc.oneof(anyString, wrongType("string")),
        scopes: fc.oneof(fc.array(fc.oneof(fc.constantFrom(...SCOPES), anyString), { maxLength: 5 }), wrongType("object")),
        expires_at: fc.oneof(
          anyString,
          wrongType("string"),
          fc.date().map((d) => (Number.isNaN(d.getTime()) ? "x" : d.toISOString())),
        ),
      },
      { requiredKeys: [] },
    ),
    pollution({ polluted: "yes", scopes: ["cohorts:read"] }),
  );

  it("answer random bodies with 201, 400 or 422, never a 5xx; a made key is revoked again, so the bound is never what refuses", async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await hit(`POST ${INST}/{id}/api_keys`, "POST", keysPath(institutionId), { token: owner, json: b });
        noServerError(res);
        expect([201, 400, 422], res.text).toContain(res.status);
        if (res.status === 201) {
          expect(res.body.key).toMatch(/^iak_[A-Za-z0-9_-]{43}$/);
          expect(Object.keys(res.body.api_key).sort()).toEqual(
            ["created_at", "created_by", "expires_at", "id", "key_preview", "last_used_at", "name", "scopes"].sort(),
          );
          const revoked = await send("DELETE", `${keysPath(institutionId)}/${res.body.api_key.id}`, { token: owner });
          expect(revoked.status).toBe(200);
        }
        if (res.status === 422) expect(Array.isArray(res.body.errors) || typeof res.body.error === "string").toBe(true);
      }),
      runs(60),
    );
  });

  it("answer random institution and key ids with 404 (or 403 to a key), never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(badId, fc.constant("own"), fc.constant("elsewhere")),
        sometimes(badId, 2),
        fc.constantFrom("GET", "POST", "DELETE"),
        fc.boolean(),
        async (inst, keyPart, method, byKey) => {
          const id = inst === "own" ? institutionId : inst === "elsewhere" ? elsewhere : inst;
          const path = method === "DELETE" ? `${keysPath(seg(id))}/${seg(keyPart ?? "01M84M2ES7DTY37NE05PPBJBQG")}` : keysPath(seg(id));
          const endpoint = method === "DELETE" ? `DELETE ${INST}/{id}/api_keys/{key_id}` : `${method} ${INST}/{id}/api_keys`;
          const res = byKey
            ? await asKey(endpoint, method, path, method === "POST" ? {} : undefined)
            : await hit(endpoint, method, path, {
                token: owner,
                ...(method === "POST" && { json: { name: "x", scopes: ["cohorts:read"] } }),
              });
          if (targetTooLong(res)) return;
          noServerError(res);
          // A key is refused every key route, whatever the ids (the machines' API has none of them).
          if (byKey)
            expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { error: "API keys cannot call this route" } });
          else if (inst !== "own") expect(res.status, res.text).toBe(404);
          else if (method === "POST" && res.status === 201)
            await send("DELETE", `${keysPath(institutionId)}/${res.body.api_key.id}`, { token: owner });
          else expect([200, 404], res.text).toContain(res.status);
        },
      ),
      runs(60),
    );
  });
});

describe("the Authorization header", () => {
  const cohorts = () => `${INST}/${institutionId}/cohorts`;
  /** Visible ASCII, spaces and tabs: what an HTTP client will put in a header. */
  const headerText = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e\\t]{0,${max}}$`));
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  /** The real key, one change away: a character replaced, dropped or added, the prefix's case, a character outside base64url. */
  const nearMiss = fc
    .tuple(
      fc.nat(),
      fc.constantFrom(...alphabet.split(""), "+", "/", "=", ".", "~"),
      fc.constantFrom("replace", "drop", "add", "prefix", "shift"),
    )
    .map(([n, c, how]) => {
      const i = 4 + (n % (key.length - 4));
      if (how === "replace") return key.slice(0, i) + (key[i] === c ? (c === "A" ? "B" : "A") : c) + key.slice(i + 1);
      if (how === "drop") return key.slice(0, i) + key.slice(i + 1);
      if (how === "add") return key.slice(0, i) + c + key.slice(i);
      if (how === "prefix") return `IAK_${key.slice(4)}`;
      return key.slice(1) + key[0];
    })
    .filter((k) => k !== key);
  const schemes = fc.constantFrom(
    "Bearer ",
    "bearer ",
    "BEARER ",
    "Bearer  ",
    "Bearer\t",
    "Basic ",
    "",
    "Token ",
    "Bearer iak_",
    " Bearer ",
  );
  const header = fc.oneof(
    fc.tuple(schemes, nearMiss).map(([s, k]) => `${s}${k}`),
    fc.tuple(schemes, headerText(80)).map(([s, k]) => `${s}${k}`),
    // Very long: keys of thousands of characters, up to past the server's header limit.
    fc.tuple(schemes, fc.constantFrom(100, 1000, 8000, 20_000)).map(([s, n]) => `${s}iak_${"A".repeat(n)}`),
    // Shaped right (iak_ + 43 base64url characters), issued by nobody.
    fc.stringMatching(/^[A-Za-z0-9_-]{43}$/).map((s) => `Bearer iak_${s}`),
    // A person's token where a key goes: with the key's prefix in front, or a token that is no token.
    fc.constant("Bearer iak_"),
    fc.constantFrom("Bearer iak_eyJraWQiOiJFWEFNUExFIiwiYWxnIjoiUlMyNTYifQ.eyJzdWIiOiJ4In0.c2ln", "Bearer iak_ iak_"),
    headerText(200),
  );

  it("opens nothing unless it is the key itself; never a 5xx; a near miss is 401", async () => {
    await fc.assert(
      fc.asyncProperty(header, fc.constantFrom("scoped", "never", "people"), async (value, where) => {
        await forgetKeyRefusals();
        const path = where === "scoped" ? cohorts() : where === "never" ? paths.securityEvents : `${INST}/${institutionId}/transfer`;
        const method = where === "people" ? "POST" : "GET";
        const res = await send(method, path, { headers: { authorization: value }, ...(method === "POST" && { json: {} }) });
        tried(`Authorization on ${where} route`, res.status);
        if (res.status === 431 || (value.length > 14_000 && res.status >= 400 && res.status < 500)) return;
        noServerError(res);
        if (keyOfHeader(value) === key) {
          // The key itself, in a spelling the scheme allows: its scoped route answers, the others refuse it.
          expect(res.status, value).toBe(where === "scoped" ? 200 : 403);
          return;
        }
        expect(res.status, `${value.slice(0, 120)} → ${res.text.slice(0, 200)}`).toBe(401);
      }),
      runs(150),
    );
  });

  it("a person's token sent to the machines' API, and a key sent where a person's token is needed, are refused", async () => {
    // The key on routes only people call: the machines' API refuses it (403), whatever the route needs.
    for (const [method, path] of [
      ["GET", paths.securityEvents],
      ["POST", `${INST}/${institutionId}/transfer`],
      ["DELETE", `${INST}/${institutionId}`],
      ["POST", INST],
      ["GET", keysPath(institutionId)],
    ] as const) {
      const res = await send(method, path, { token: key, ...(method !== "GET" && { json: {} }) });
      expect({ status: res.status, body: res.body }, `${method} ${path}`).toEqual({
        status: 403,
        body: { error: "API keys cannot call this route" },
      });
    }
    // Without its scheme the edge does not see a key: the people's API, whose JWT authorizer refuses it.
    expect((await send("GET", cohorts(), { headers: { authorization: key } })).status).toBe(401);
    // A person's ID token dressed as a key reaches the key authorizer, which finds no such key.
    expect((await send("GET", cohorts(), { headers: { authorization: `Bearer iak_${owner}` } })).status).toBe(401);
    // And the person's token itself still works on the people's API.
    expect((await send("GET", cohorts(), { token: owner })).status).toBe(200);
  });
});

describe("a key with every scope, on the routes it may call", () => {
  it("gets 2xx or 4xx for hostile bodies, ids and queries, and only ever its own institution", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("PATCH inst", "POST cohort", "POST invitation", "GET invitations", "GET admins", "GET inst"),
        fc.oneof(fc.constant("own"), fc.constant("elsewhere"), badId),
        hostileJson,
        hostileQuery,
        async (what, inst, json, query) => {
          const id = inst === "own" ? institutionId : inst === "elsewhere" ? elsewhere : inst;
          const q = queryString(query);
          let res: RawResult;
          if (what === "PATCH inst") res = await asKey(`PATCH ${INST}/{id}`, "PATCH", `${INST}/${seg(id)}`, json);
          else if (what === "POST cohort") res = await asKey(`POST ${INST}/{id}/cohorts`, "POST", `${INST}/${seg(id)}/cohorts`, json);
          else if (what === "POST invitation")
            res = await asKey(`POST ${INV}`, "POST", `${INV}?${queryString([["institution_id", id]])}`, json);
          else if (what === "GET invitations")
            res = await asKey(`GET ${INV}`, "GET", `${INV}?${queryString([...query, ["institution_id", id]])}`);
          else if (what === "GET admins")
            res = await asKey(`GET ${INST}/{id}/administrators`, "GET", `${INST}/${seg(id)}/administrators?${q}`);
          else res = await asKey(`GET ${INST}/{id}`, "GET", `${INST}/${seg(id)}?${q}`);
          if (targetTooLong(res)) return;
          noServerError(res);
          if (inst !== "own" && what !== "POST invitation" && what !== "GET invitations") expect(res.status, res.text).toBe(404);
          if (res.status < 300) expect(res.text).not.toContain(elsewhere);
        },
      ),
      runs(80),
    );
    const listed = await send("GET", INST, { token: key });
    expect(listed.body.institutions.map((i: { id: string }) => i.id)).toEqual([institutionId]);
  });
});
