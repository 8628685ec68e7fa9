/**
 * Hostile input against the two public routes that join from an invitation (docs/joining.md), through the real
 * gateway without a token, each request from a loopback address of its own (test/support/visitor.ts: the
 * probing bound is keyed by the source address, and the oracles want the handler's answer to each input):
 * random JSON bodies, wrong types, pollution keys, raw bytes; then bodies around a real token with hostile
 * names and passwords.
 *
 * The oracle: never a 5xx; a body without a current token is 422 `Invalid or expired invitation` (or 400 for
 * malformed JSON); with a real token, 201 only for a name of one line, 1–128 code points after trim, and a
 * password of at least 12 characters with a lowercase and an uppercase letter, a digit and a symbol; otherwise
 * 422 `{errors}`, and then no user-pool user exists for the invited e-mail and the invitation is unused.
 */
import { AdminGetUserCommand } from "@aws-sdk/client-cognito-identity-provider";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { paths } from "../../shared/routes.js";
import { stack, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution, inviteMailed, storedInvitation } from "../support/flows.js";
import { visit } from "../support/visitor.js";
import { anyString, hostileJson, pollution, runs, tried, withKeys, wrongType } from "./support.js";

const OPEN = paths.invitationsOpen;
const REGISTER = paths.invitationsRegister;
const INVALID = { error: "Invalid or expired invitation" };
const GOOD_PASSWORD = "Correct-Horse-9-battery";

/** The contract's name rule, stated here on its own: a string, one line, 1–128 code points after trim. */
function nameOk(name: unknown): boolean {
  if (typeof name !== "string") return false;
  const t = name.toWellFormed().trim();
  const n = [...t].length;
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the variation selectors are listed on purpose, each on its own
  return n >= 1 && n <= 128 && !/[\p{Cc}\p{Cf}\u2028\u2029\u115F\u1160\u3164\uFFA0\u034F\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u2800]/u.test(t);
}

/** The pool's policy, stated here on its own (infra/identity.ts): 12+ characters, lower, upper, digit, symbol. */
function passwordOk(password: unknown): boolean {
  if (typeof password !== "string") return false;
  const p = password.toWellFormed();
  return (
    [...p].length >= 12 &&
    [...p].length <= 256 &&
    p === p.trim() &&
    /[a-z]/.test(p) &&
    /[A-Z]/.test(p) &&
    /[0-9]/.test(p) &&
    /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(p.trim())
  );
}

async function poolHas(email: string): Promise<boolean> {
  const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
  try {
    await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: email }));
    return true;
  } catch (err) {
    if ((err as Error).name === "UserNotFoundException") return false;
    throw err;
  } finally {
    cognito.destroy();
  }
}

describe("hostile input: open and register without a token", () => {
  let owner: string;
  let institutionId: string;
  const domain = `${uniq("hj")}.test`;

  beforeAll(async () => {
    owner = await token(uniqEmail("owner", domain), { superAdmin: true, account: uniq("acct") });
    institutionId = (await createInstitution(owner)).id;
  }, 120_000);

  it("random bodies, wrong types, pollution keys: 422 Invalid or expired invitation (400 malformed JSON), never 5xx", async () => {
    const body = fc.oneof(
      hostileJson,
      fc.record({ token: wrongType("string"), name: anyString, password: anyString }),
      fc.record({ token: anyString, name: wrongType("string"), password: wrongType("string") }),
      pollution({ token: "A".repeat(43), polluted: true }),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(OPEN, REGISTER), async (b, path) => {
        const res = await visit("POST", path, { body: b });
        tried(`POST ${path}`, res.status);
        expect(res.status, JSON.stringify(b)?.slice(0, 200)).toBe(422);
        expect(res.body).toEqual(INVALID);
      }),
      runs(120),
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom(OPEN, REGISTER), async (raw, path) => {
        const res = await visit("POST", path, { rawBody: raw });
        tried(`POST ${path}`, res.status);
        expect(res.status).toBeLessThan(500);
        expect([400, 422]).toContain(res.status);
      }),
      runs(60),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 300_000);

  it("a real token with hostile names and passwords: 201 only for a valid pair, else 422 {errors} and nothing created", async () => {
    let current = await inviteMailed(owner, institutionId, uniqEmail("joiner", domain));
    let created = 0;
    const name = fc.oneof(
      { weight: 3, arbitrary: anyString },
      { weight: 1, arbitrary: wrongType("string") },
      { weight: 1, arbitrary: fc.constant("Nia New") },
    );
    const password = fc.oneof(
      { weight: 3, arbitrary: anyString },
      { weight: 1, arbitrary: wrongType("string") },
      { weight: 1, arbitrary: fc.constant(GOOD_PASSWORD) },
      { weight: 1, arbitrary: fc.tuple(anyString, fc.constant("aA1!")).map(([s, tail]) => `${s}${tail}`) },
    );
    await fc.assert(
      fc.asyncProperty(
        name,
        password,
        fc.dictionary(fc.constantFrom("__proto__", "constructor", "email", "role", "account_id"), anyString),
        async (n, p, extra) => {
          const b = withKeys({ token: current.token, name: n, password: p }, extra);
          const res = await visit("POST", REGISTER, { body: b });
          tried(`POST ${REGISTER}`, res.status);
          expect(res.status, JSON.stringify(b).slice(0, 300)).toBeLessThan(500);
          if (nameOk(n) && passwordOk(p)) {
            expect(res.status, JSON.stringify(b).slice(0, 300)).toBe(201);
            expect(res.body).toMatchObject({ role: "cohort_admin", message: "Account created" });
            expect(await poolHas(current.email)).toBe(true);
            created++;
            // The token is used: the next runs get a fresh invitation (a few mails, far below the bounds).
            current = await inviteMailed(owner, institutionId, uniqEmail("joiner", domain));
            return;
          }
          expect(res.status, JSON.stringify(b).slice(0, 300)).toBe(422);
          expect(res.body.errors).toEqual(expect.arrayContaining([expect.any(String)]));
          expect(await poolHas(current.email)).toBe(false);
          expect((await storedInvitation(institutionId, current.id))?.used_at).toBeUndefined();
        },
      ),
      runs(80),
    );
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(40);
  }, 300_000);
});
