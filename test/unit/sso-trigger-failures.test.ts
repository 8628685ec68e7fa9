/**
 * The SSO triggers' one wrapper (shared/sso/trigger.ts) around the real handler modules: an unexpected failure is
 * logged at ERROR once, naming the trigger, and rethrown as it was; a refusal is thrown with the message Cognito
 * shows and logs nothing at ERROR. What they write to stdout and stderr is read back as CloudWatch reads it, one JSON
 * line each, and matched as the log group's metric filter matches (`{ $.level = "ERROR" }`, infra/sso-triggers.ts).
 *
 * The unexpected failure is a DynamoDB that is not there: this file points the handlers at a port nothing listens
 * on (a real connection refused, no stand-in), before it imports them, as Lambda reads its environment at start.
 */
import type { PreAuthenticationTriggerEvent, PreSignUpTriggerEvent, PreTokenGenerationTriggerEvent } from "aws-lambda";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closedPort, errorLines, invokeCapturing } from "../support/invoke-capturing.js";

// biome-ignore lint/suspicious/noExplicitAny: log lines are untyped JSON.
type Json = any;

Object.assign(process.env, { DYNAMODB_ENDPOINT: `http://127.0.0.1:${await closedPort()}`, POWERTOOLS_LOG_LEVEL: "INFO" });
delete process.env.POWERTOOLS_DEV;
// Imported after the environment above (no static import reaches shared/): the clients and the Logger read it at construction.
const preAuthentication = (await import("../../functions/sso/pre-authentication.js")).handler;
const preSignUp = (await import("../../functions/sso/pre-sign-up.js")).handler;
const preTokenGeneration = (await import("../../functions/sso/pre-token-generation.js")).handler;
const { REFUSED_MESSAGES } = await import("../../shared/sso/sign-in.js");
const { TRIGGER_FAILED } = await import("../../shared/sso/trigger.js");

const invoke = invokeCapturing;

const attributes = { sub: "00000000-0000-4000-8000-000000000001", email: "someone@failing.test" };

afterEach(() => vi.restoreAllMocks());

describe("an SSO trigger's unexpected failure", () => {
  it("is logged once at ERROR, naming the trigger, and thrown with a message of no internals (pre authentication, DynamoDB unreachable)", async () => {
    const event = {
      triggerSource: "PreAuthentication_Authentication",
      userPoolId: "local_pool",
      userName: "someone",
      request: { userAttributes: attributes },
      response: {},
    } as unknown as PreAuthenticationTriggerEvent;
    const { thrown, docs } = await invoke("sso/pre-authentication", preAuthentication, event);
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown?.name).not.toBe("SignInRefused");
    // The person reads Cognito's "PreAuthentication failed with error <message>": no host, port or table in it.
    expect(thrown?.message).toBe(TRIGGER_FAILED);
    const cause = (thrown as Json)?.cause as Json | undefined;
    expect(cause?.code).toBe("ECONNREFUSED");
    const errors = errorLines(docs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      level: "ERROR",
      message: "SSO trigger failed",
      trigger: "PreAuthentication",
      handler: "sso/pre-authentication",
      error: { message: cause?.message },
    });
  });

  it("is logged so by pre token generation too, for a bug as for an outage (an event without its attributes)", async () => {
    const event = { triggerSource: "TokenGeneration_HostedAuth", userPoolId: "local_pool", request: {}, response: {} };
    const { thrown, docs } = await invoke(
      "sso/pre-token-generation",
      preTokenGeneration,
      event as unknown as PreTokenGenerationTriggerEvent,
    );
    expect(thrown?.message).toBe(TRIGGER_FAILED);
    expect((thrown as Json)?.cause).toBeInstanceOf(TypeError);
    expect(errorLines(docs)).toEqual([expect.objectContaining({ trigger: "PreTokenGeneration", handler: "sso/pre-token-generation" })]);
  });
});

describe("an SSO trigger's refusal", () => {
  it("is thrown with the message Cognito shows, and logs nothing at ERROR (pre sign-up: no provider in the user name)", async () => {
    const event = {
      triggerSource: "PreSignUp_ExternalProvider",
      userPoolId: "local_pool",
      userName: "noprovider",
      request: { userAttributes: attributes },
      response: {},
    } as unknown as PreSignUpTriggerEvent;
    const { thrown, docs } = await invoke("sso/pre-sign-up", preSignUp, event);
    expect(thrown?.name).toBe("SignInRefused");
    expect(thrown?.message).toBe(REFUSED_MESSAGES.not_connected);
    expect(errorLines(docs)).toEqual([]);
  });
});
