/**
 * The transport-level contract on every route of shared/routes.ts, through the real gateway: the 64 KiB
 * body limit (413 `{error: "Request body too large"}` one byte past it, in bytes not characters, and not
 * at it), malformed JSON (400 `{error: "Malformed JSON body"}`, whatever the method and content type),
 * bytes that are not UTF-8, blank bodies (no body), and path ids the router must not trip over (encoded
 * slashes, dot segments, NUL, unicode, very long: 404; a request target past 16 KiB: 431). Without a valid
 * token, the body is not looked at: 401 whatever it is (docs/contract/README.md). Never a 5xx.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../shared/routes.js";
import { token, uniq, uniqEmail } from "../support/api.js";
import { idClaims, signJwt } from "../support/jwt.js";
import { hit, hostileString, printTally, runs, seg, send } from "./support.js";

const MAX_BODY = 64 * 1024;
const TOO_LARGE = { error: "Request body too large" };
const MALFORMED = { error: "Malformed JSON body" };

let owner: string;

beforeAll(async () => {
  owner = await token(uniqEmail("transport"), { superAdmin: true, account: uniq("acct") });
});

afterAll(() => printTally("transport (every route)"));

const label = (r: (typeof routes)[number]) => `${r.method} ${r.path}`;
/** The route's path with a malformed id in each parameter. */
const pathOf = (r: (typeof routes)[number], id = "not-an-id") => r.path.replace(/\{[^}]+\}/g, seg(id));

/** A JSON object of exactly `size` bytes (UTF-8), padded with `fill` (1–4 bytes per character). */
function jsonOfBytes(size: number, fill = "a"): string {
  const head = '{"institution":{"name":"Sized"},"pad":"';
  const tail = '"}';
  const room = size - Buffer.byteLength(head + tail);
  const unit = Buffer.byteLength(fill);
  let pad = fill.repeat(Math.floor(room / unit));
  pad += "a".repeat(room - Buffer.byteLength(pad));
  const text = head + pad + tail;
  if (Buffer.byteLength(text) !== size) throw new Error("size arithmetic");
  return text;
}

/**
 * Not JSON, and not blank. A leading BOM is left out of the question: the local gateway decodes bodies with
 * TextDecoder, which drops it (API Gateway would pass it on, and JSON.parse would then refuse it).
 */
const isMalformed = (s: string) => {
  if (s.trim() === "") return false;
  try {
    JSON.parse(s.replace(/^\ufeff/, ""));
    return false;
  } catch {
    return true;
  }
};

const malformedJson = fc
  .oneof(
    fc.constantFrom(
      "{",
      "}",
      "{'a':1}",
      '{"a":}',
      "[1,]",
      "NaN",
      "undefined",
      '{"a":1}}',
      "\u0000",
      "tru",
      "01",
      '{"__proto__":}',
      '{"institution":{"name":"x"},}',
      '"unterminated',
      "{\"a\":'b'}",
      "/* comment */ {}",
      "{a:1}",
      "[",
      "\\",
    ),
    fc.tuple(fc.json(), fc.nat(), hostileString).map(([json, cut, junk]) => json.slice(0, cut % (json.length + 1)) + junk),
    hostileString,
  )
  .filter(isMalformed);

const contentType = fc.constantFrom(
  undefined,
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/json; charset=utf-16",
  "multipart/form-data; boundary=x",
);

describe("transport contract on every route", () => {
  // The API document's public routes read no body and take no id (test/integration/openapi.test.ts).
  // The SCIM routes take a directory's token, not an ID token: their transport is test/hostile/scim.test.ts's.
  for (const r of routes.filter((route) => !route.public && route.auth !== "scim")) {
    describe(label(r), () => {
      it("413 one byte past 64 KiB (bytes, not characters), not at 64 KiB; 413 for anything larger", async () => {
        const at = await hit(label(r), r.method, pathOf(r), {
          token: owner,
          raw: jsonOfBytes(MAX_BODY),
          headers: { "content-type": "application/json" },
        });
        expect(at.status, at.text).not.toBe(413);
        expect(at.status, at.text).toBeLessThan(500);
        for (const [size, fill] of [
          [MAX_BODY + 1, "a"],
          [MAX_BODY + 1, "é"],
          [MAX_BODY + 2, "\ud83d\ude00"],
        ] as const) {
          const text = jsonOfBytes(size, fill);
          expect(text.length <= MAX_BODY || fill === "a").toBe(true); // fewer characters than bytes, for the multibyte fills
          const res = await hit(label(r), r.method, pathOf(r), {
            token: owner,
            raw: text,
            headers: { "content-type": "application/json" },
          });
          expect({ status: res.status, body: res.body }).toEqual({ status: 413, body: TOO_LARGE });
        }
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: MAX_BODY + 1, max: 512 * 1024 }),
            fc.constantFrom("a", "ж", "\u202e", "\u0000"),
            async (size, fill) => {
              const res = await hit(label(r), r.method, pathOf(r), { token: owner, raw: jsonOfBytes(size, fill) });
              expect({ status: res.status, body: res.body }).toEqual({ status: 413, body: TOO_LARGE });
            },
          ),
          runs(4),
        );
      });

      it("400 for malformed JSON, whatever the content type; blank bodies are no body", async () => {
        await fc.assert(
          fc.asyncProperty(malformedJson, contentType, async (raw, type) => {
            const res = await hit(label(r), r.method, pathOf(r), { token: owner, raw, ...(type && { headers: { "content-type": type } }) });
            expect({ raw, status: res.status, body: res.body }).toEqual({ raw, status: 400, body: MALFORMED });
          }),
          runs(20),
        );
        for (const raw of ["", " ", "\n\t  \r\n"]) {
          const res = await hit(label(r), r.method, pathOf(r), { token: owner, raw });
          expect(res.status).toBeLessThan(500);
          expect(res.body).not.toEqual(MALFORMED);
        }
        // Bytes that are not UTF-8 arrive base64-encoded; decoded, they are not JSON.
        const bytes = await hit(label(r), r.method, pathOf(r), { token: owner, raw: Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x80, 0x7d]) });
        expect({ status: bytes.status, body: bytes.body }).toEqual({ status: 400, body: MALFORMED });
      });

      if (!r.public) {
        it("authentication comes before the body: without a valid token, malformed or oversized bodies are 401", async () => {
          const now = Math.floor(Date.now() / 1000);
          const badTokens = [undefined, "garbage", signJwt(idClaims({ iat: now - 7200, exp: now - 60 }))];
          await fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...badTokens),
              fc.oneof(malformedJson, fc.constant(jsonOfBytes(MAX_BODY + 1)), fc.constant("{")),
              async (tok, raw) => {
                const res = await hit(label(r), r.method, pathOf(r), {
                  ...(tok !== undefined && { token: tok }),
                  raw,
                  headers: { "content-type": "application/json" },
                });
                expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { message: "Unauthorized" } });
              },
            ),
            runs(8),
          );
        });
      }

      if (r.path.includes("{")) {
        it("404 for ids the router and the handler must not trip over; 431 past 16 KiB", async () => {
          // Long ids share the request target between the route's parameters, so it stays below 16 KiB.
          const params = (r.path.match(/\{/g) ?? []).length;
          const weird = fc.oneof(
            fc.constantFrom("%2F", "a%2Fb", "%2E%2E", "..%2F..%2Fadmin", "%00", "%", "%%", "%E0%A4%A", "%C0%AF", "a;b=c", "~", "%20"),
            fc.constantFrom(2000, 6000, 12000).map((n) => "x".repeat(Math.floor(n / params))),
            fc.string({ unit: "binary", minLength: 1, maxLength: 30 }).map(seg),
          );
          await fc.assert(
            fc.asyncProperty(weird, fc.constantFrom("?institution_id=x", "", "?a=b&a=c"), async (rawId, query) => {
              // Sent raw (already encoded): the gateway decodes each segment once.
              const path = r.path.replace(/\{[^}]+\}/g, rawId) + query;
              const res = await hit(`${label(r)} (path)`, r.method, path, { token: owner, raw: r.method === "GET" ? undefined : "{}" });
              expect(res.status, `${path.slice(0, 120)} → ${res.text}`).toBe(404);
              expect(Object.keys(res.body)).toEqual([res.body.message ? "message" : "error"]);
            }),
            runs(20),
          );
          const long = await send(r.method, r.path.replace(/\{[^}]+\}/g, "x".repeat(17 * 1024)), { token: owner });
          expect(long.status).toBe(431);
        });
      }
    });
  }
});
