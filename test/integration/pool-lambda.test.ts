/**
 * The user pool's functions on this machine (infra/local/lambda.ts, docs/local-stack.md): the gateway's process
 * answers Lambda's Invoke API for every trigger of the pool's one list (shared/pool-triggers.ts) with the module the
 * stack deploys, where cognito-local invokes them. cognito-local calls PreTokenGeneration on every token it issues
 * and PreSignUp on SignUp; the SSO modules (functions/sso/) act on a federated sign-in only, so a password user is
 * left as it is. The one local addition: PreTokenGeneration's answer gains the `name` claim, which Cognito's ID
 * tokens carry and cognito-local's lack.
 */
import { describe, expect, it } from "vitest";
import { localFunctionName, POOL_TRIGGERS } from "../../shared/pool-triggers.js";
import { REFUSED_MESSAGES } from "../../shared/sso/sign-in.js";
import { stack, token, uniq, uniqEmail } from "../support/api.js";
import { claimsOf } from "./helpers.js";

/** Invokes `handler`'s local function as cognito-local does (`RequestResponse`). */
/** What a trigger answers: the event it was given, with its `response`; or Lambda's error body. */
interface Answer {
  readonly triggerSource?: string;
  readonly response?: unknown;
  readonly errorMessage?: string;
}

async function invoke(handler: string, event: unknown): Promise<{ status: number; error: string | null; body: Answer }> {
  const res = await fetch(`${stack.lambdaEndpoint}/2015-03-31/functions/${localFunctionName(handler)}/invocations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(event),
  });
  return { status: res.status, error: res.headers.get("x-amz-function-error"), body: (await res.json()) as Answer };
}

/** A trigger's event as cognito-local builds it (its LambdaService), for a password user of the local pool. */
function triggerEvent(triggerSource: string, userAttributes: Record<string, string>, response: Record<string, unknown> = {}) {
  return {
    version: "0",
    callerContext: { awsSdkVersion: "2.0.0", clientId: stack.userPoolClientId },
    region: "local",
    userPoolId: stack.userPoolId,
    triggerSource,
    userName: userAttributes.sub ?? uniq("user"),
    request: { userAttributes, clientMetadata: {} },
    response,
  };
}

describe("the pool's functions over Lambda's Invoke API", () => {
  it("a password sign-in through cognito-local: the deployed PreTokenGeneration leaves it as it is, and the ID token gets `name` (local only)", async () => {
    const email = uniqEmail("lambda-name");
    const claims = claimsOf(await token(email, { name: "Lena Lambda", account: uniq("acct") }));
    expect(claims.name).toBe("Lena Lambda");
    expect(claims.email).toBe(email.toLowerCase());
    // The SSO module set nothing of its own: no federated identity.
    expect(claims.identities).toBeUndefined();
  });

  it("PreTokenGeneration runs the deployed SSO module: it refuses a federated sign-in of a provider no institution has", async () => {
    const attributes = {
      sub: crypto.randomUUID(),
      email: uniqEmail("lambda-fed"),
      name: "Fed Eric",
      identities: JSON.stringify([{ userId: "x", providerName: `NoSuch${uniq("idp")}`, providerType: "SAML", primary: "true" }]),
    };
    const refused = await invoke(POOL_TRIGGERS.PreTokenGeneration, triggerEvent("TokenGeneration_HostedAuth", attributes));
    // As Lambda reports an error: 200 with the function's error, which Cognito turns into a refused sign-in.
    expect(refused.status).toBe(200);
    expect(refused.error).toBe("Unhandled");
    expect(refused.body.errorMessage).toBe(REFUSED_MESSAGES.not_connected);

    // cognito-local's own token flows: the module leaves them as they are, and the local step adds `name` alone.
    const { identities: _, ...password } = attributes;
    const answered = await invoke(
      POOL_TRIGGERS.PreTokenGeneration,
      triggerEvent("TokenGeneration_Authentication", password, { claimsOverrideDetails: {} }),
    );
    expect(answered.error).toBeNull();
    expect(answered.body.response).toEqual({ claimsOverrideDetails: { claimsToAddOrOverride: { name: "Fed Eric" } } });
  });

  it("PreSignUp and PreAuthentication leave a password user as they are (no SSO institution has its domain)", async () => {
    const attributes = { sub: crypto.randomUUID(), email: uniqEmail("lambda-pw"), email_verified: "true" };
    const signUp = await invoke(
      POOL_TRIGGERS.PreSignUp,
      triggerEvent("PreSignUp_SignUp", attributes, { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false }),
    );
    expect(signUp.error).toBeNull();
    expect(signUp.body.response).toEqual({ autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false });
    const preAuth = await invoke(POOL_TRIGGERS.PreAuthentication, triggerEvent("PreAuthentication_Authentication", attributes));
    expect(preAuth.error).toBeNull();
    expect(preAuth.body.triggerSource).toBe("PreAuthentication_Authentication");
  });

  it("answers a name that is none of the pool's functions as Lambda does: 404 ResourceNotFoundException", async () => {
    const res = await fetch(`${stack.lambdaEndpoint}/2015-03-31/functions/institution-admin-institutions-list/invocations`, {
      method: "POST",
      body: "{}",
    });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-amzn-errortype")).toBe("ResourceNotFoundException");
  });
});
