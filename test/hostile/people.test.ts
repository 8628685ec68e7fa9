/**
 * Hostile input against the caller's own routes (docs/contract/people.md), through the real gateway: random bodies (any JSON,
 * hostile keys and strings, prototype-pollution payloads, `totp` of every type, `user_id`s naming others) and random
 * query strings.
 *
 * The oracle is the contract's (docs/contract/people.md): `PUT /me/mfa` answers 400 unless the body holds an `mfa`
 * object, 422 `{errors}` unless its `totp` is a boolean, and otherwise 200 (`false`) or the state's 422 (`true`
 * before an authenticator app is set up); `POST /me/sign_out_everywhere` takes no body and answers 200 whatever
 * object it is sent (400 for a body that is no JSON object is not its case: any JSON parses); never a 5xx. Each 200
 * recorded exactly one event, in the caller's own trail, and nothing else; every stored value keeps the
 * recorded-value rule; another person named in the input is untouched.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../shared/routes.js";
import { eventsOf } from "../integration/helpers.js";
import { token, uniq, uniqEmail } from "../support/api.js";
import {
  eventsOutsideWhitelist,
  hit,
  hostileJson,
  hostileQuery,
  printTally,
  queryString,
  runs,
  send,
  targetTooLong,
  withKeys,
  wrongType,
} from "./support.js";

const MFA = `${paths.me}/mfa`;
const EVERYWHERE = `${paths.me}/sign_out_everywhere`;
const UNVERIFIED = /^Set up the authenticator app first/;

let caller: string;
let other: string;
let otherId: string;
beforeAll(async () => {
  [caller, other] = await Promise.all([
    token(uniqEmail("hostile-me"), { account: uniq("acct") }),
    token(uniqEmail("hostile-other"), { account: uniq("acct") }),
  ]);
  otherId = JSON.parse(Buffer.from(other.split(".")[1] ?? "", "base64url").toString("utf8")).sub;
});

afterAll(() => printTally("your account"));

/** Bodies of PUT /me/mfa: any JSON; `mfa` of any type; `totp` of any type or a boolean; with others' ids and pollution. */
const mfaBody: fc.Arbitrary<unknown> = fc.oneof(
  hostileJson,
  fc.record({ mfa: hostileJson }),
  fc.record({ mfa: fc.record({ totp: fc.oneof(fc.boolean(), wrongType("boolean")) }) }),
  fc.boolean().map((totp) => withKeys({ mfa: withKeys({ totp }, { user_id: "OTHER" }) }, { user_id: "OTHER" })),
);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** What `body` holds as `totp`, after JSON: the oracle's input. */
function totpOf(body: unknown): { mfa: boolean; totp?: unknown } {
  if (!isObject(body) || !isObject(body.mfa)) return { mfa: false };
  return { mfa: true, totp: Object.hasOwn(body.mfa, "totp") ? body.mfa.totp : undefined };
}
const named = (body: unknown): unknown => JSON.parse(JSON.stringify(body ?? null).replaceAll('"OTHER"', JSON.stringify(otherId)));

describe("hostile input: the caller's own account", () => {
  let changes = 0;

  it("PUT /me/mfa: 200 / 400 / 422 as the body says, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(mfaBody, hostileQuery, async (raw, query) => {
        const body = named(raw);
        const res = await hit("PUT /me/mfa", "PUT", `${MFA}?${queryString(query)}`, { token: caller, json: body });
        if (targetTooLong(res)) return;
        const { mfa, totp } = totpOf(body);
        if (!mfa) {
          expect({ status: res.status, body: res.body }, res.text).toEqual({
            status: 400,
            body: { error: "param is missing or the value is empty: mfa" },
          });
        } else if (typeof totp !== "boolean") {
          expect({ status: res.status, body: res.body }, res.text).toEqual({
            status: 422,
            body: { errors: ["Totp must be true or false"] },
          });
        } else if (totp) {
          // No authenticator app was ever set up for this caller.
          expect(res.status, res.text).toBe(422);
          expect(res.body.error).toMatch(UNVERIFIED);
        } else {
          expect(res.status, res.text).toBe(200);
          expect(res.body.mfa).toEqual({ totp: false });
          changes++;
        }
      }),
      { ...runs(80), examples: [[{ mfa: { totp: false } }, []]] },
    );
    expect(changes).toBeGreaterThan(0);
  });

  it("POST /me/sign_out_everywhere: 200 whatever it is sent, never 5xx", async () => {
    let signedOut = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileJson, fc.constant({ user_id: "OTHER" })), hostileQuery, async (raw, query) => {
        const res = await hit("POST /me/sign_out_everywhere", "POST", `${EVERYWHERE}?${queryString(query)}`, {
          token: caller,
          json: named(raw),
        });
        if (targetTooLong(res)) return;
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({ message: "Signed out everywhere: every session must sign in again" });
        signedOut++;
      }),
      runs(40),
    );
    // Each answered 200 recorded one event, in the caller's trail; the other person's trail has none of them.
    const mine = await eventsOf(caller);
    expect(mine.filter((e) => e.event_type === "signed_out_everywhere")).toHaveLength(signedOut);
    expect(mine.filter((e) => e.event_type === "mfa_disabled")).toHaveLength(changes);
    expect(mine.filter((e) => e.event_type === "mfa_enabled")).toEqual([]);
    expect((await eventsOf(other)).filter((e) => e.event_type !== "sign_in")).toEqual([]);
    expect(eventsOutsideWhitelist(mine as unknown as Record<string, unknown>[])).toEqual([]);
    // The other person can still use the API: nothing of theirs changed.
    expect((await send("GET", paths.institutions, { token: other })).status).toBe(200);
  });
});
