/**
 * The Lambda authorizers' one wrapper (shared/failures.ts, the SSO triggers' too) around the real handler modules: an
 * unexpected failure is logged at ERROR once, naming the authorizer, and thrown again (API Gateway answers it 500); a
 * refusal (`Unauthorized`, API Gateway's 401) is thrown as it is and logs nothing at ERROR, so a bad token never
 * counts as a failure. What they write is read back as CloudWatch reads it, one JSON line each, and matched as their
 * log groups' metric filter matches (`{ $.level = "ERROR" }`, infra/monitoring.ts `failureCount`).
 *
 * The unexpected failure is a DynamoDB that is not there: this file points the handlers at a port nothing listens
 * on (a real connection refused, no stand-in), before it imports them, as Lambda reads its environment at start.
 */
import type { APIGatewayRequestAuthorizerEventV2 } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closedPort, errorLines, invokeCapturing } from "../support/invoke-capturing.js";

Object.assign(process.env, { DYNAMODB_ENDPOINT: `http://127.0.0.1:${await closedPort()}`, POWERTOOLS_LOG_LEVEL: "INFO" });
delete process.env.POWERTOOLS_DEV;
// No origin secret: the authorizers look the token up (the one-way-in refusal is not what this file is about).
delete process.env.ORIGIN_VERIFY_SECRET;
// Imported after the environment above (no static import reaches shared/): the clients and the Logger read it at construction.
const scim = (await import("../../functions/scim/authorizer.js")).handler;
const keys = (await import("../../functions/api-keys/authorizer.js")).handler;
const { UNAUTHORIZED } = await import("../../shared/failures.js");

/** Runs one invocation as `handler`'s function with this Authorization header. */
const invoke = (handler: string, run: (event: APIGatewayRequestAuthorizerEventV2) => Promise<unknown>, authorization: string) =>
  invokeCapturing(handler, run, {
    headers: { authorization },
    identitySource: [authorization],
  } as unknown as APIGatewayRequestAuthorizerEventV2);

/** A well-formed secret of `prefix` (`scim_`, `iak_`): 43 base64url characters, so the authorizer looks it up. */
const plausible = (prefix: string) => `Bearer ${prefix}${"A".repeat(43)}`;

afterEach(() => vi.restoreAllMocks());

describe("an authorizer's unexpected failure (DynamoDB unreachable)", () => {
  for (const [handler, run, prefix] of [
    ["scim/authorizer", scim, "scim_"],
    ["api-keys/authorizer", keys, "iak_"],
  ] as const) {
    it(`is logged once at ERROR, naming ${handler}, and thrown as it was (API Gateway's 500)`, async () => {
      const { thrown, docs } = await invoke(handler, run, plausible(prefix));
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown?.message).not.toBe(UNAUTHORIZED);
      const errors = errorLines(docs);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ level: "ERROR", message: "authorizer failed", handler, error: { message: thrown?.message } });
      // The token never reaches the log line.
      expect(JSON.stringify(errors[0])).not.toContain("A".repeat(43));
    });
  }
});

describe("an authorizer's refusal", () => {
  for (const [handler, run] of [
    ["scim/authorizer", scim],
    ["api-keys/authorizer", keys],
  ] as const) {
    it(`is thrown as Unauthorized (API Gateway's 401) and logs nothing at ERROR (${handler}, a malformed token)`, async () => {
      const { thrown, docs } = await invoke(handler, run, "Bearer not-a-token");
      expect(thrown?.message).toBe(UNAUTHORIZED);
      expect(errorLines(docs)).toEqual([]);
    });
  }
});
