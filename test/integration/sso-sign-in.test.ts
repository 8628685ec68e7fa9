/**
 * A federated sign-in (docs/sso.md#signing-in) as the user pool drives it: the handler modules the
 * stack deploys as the pool's triggers (functions/sso/pre-*.ts), invoked with Cognito's event shapes on the local
 * stack (DynamoDB Local, the local Cognito with its federation stand-ins), after a real domain verification and
 * SSO connection over HTTP. Trust (another institution's domain refused and recorded, nothing granted), linking
 * (the same `sub` before and after), JIT with a mapped role and with the default role, the owner untouched, and
 * require SSO (the password refused but the super admin's; the join route's 409), with the events in the owner's trail.
 */
import { AdminCreateUserCommand, AdminGetUserCommand } from "@aws-sdk/client-cognito-identity-provider";
import type { PreAuthenticationTriggerEvent, PreSignUpTriggerEvent, PreTokenGenerationTriggerEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handler as preAuthenticationHandler } from "../../functions/sso/pre-authentication.js";
import { handler as preSignUpHandler } from "../../functions/sso/pre-sign-up.js";
import { handler as preTokenGenerationHandler } from "../../functions/sso/pre-token-generation.js";
import { cognitoClient } from "../../infra/local/cognito.js";
import { asFunction } from "../../infra/local/function-scope.js";
import { dynamo } from "../../shared/clients.js";
import { MAX_MEMBERS } from "../../shared/institutions/model.js";
import { getInstitution } from "../../shared/institutions/repository.js";
import { paths } from "../../shared/routes.js";
import { discover } from "../../shared/sso/discover.js";
import { SignInRefused } from "../../shared/sso/trigger.js";
import { call, stack, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution, inviteMailed } from "../support/flows.js";
import { expectWithinDesign, requestCounter } from "../support/requests.js";
import { challengeOf, type IdpServer, idpServer, publishTxt, samlMetadata } from "../support/sso.js";
import { visit } from "../support/visitor.js";
import { grantAccess, userIdOf } from "./helpers.js";

const INST = paths.institutions;
// Each as its own function, as the pool invokes it: the run's IAM check judges their requests (docs/iam.md).
const preSignUp = (e: PreSignUpTriggerEvent) => asFunction("sso/pre-sign-up", () => preSignUpHandler(e));
const preTokenGeneration = (e: PreTokenGenerationTriggerEvent) =>
  asFunction("sso/pre-token-generation", () => preTokenGenerationHandler(e));
const preAuthentication = (e: PreAuthenticationTriggerEvent) => asFunction("sso/pre-authentication", () => preAuthenticationHandler(e));
const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
const counted = requestCounter(dynamo);
let idp: IdpServer;
let owner: string;

beforeAll(async () => {
  [owner, idp] = await Promise.all([token(uniqEmail("ssi-owner"), { superAdmin: true, account: uniq("acct") }), idpServer()]);
});
afterAll(async () => {
  await idp?.close();
  cognito.destroy();
});

/** An institution with a verified domain and a SAML connection; its provider name and domain. */
async function connected(sso: Record<string, unknown>) {
  const inst = await createInstitution(owner, { name: uniq("Federated College") });
  const domain = `${uniq("fed")}.test`;
  const added = await call("POST", `${INST}/${inst.id}/domains`, { token: owner, body: { domain } });
  await publishTxt(challengeOf(domain), [added.body.domain.verification.record_value]);
  const verified = await call("POST", `${INST}/${inst.id}/domains/${added.body.domain.id}/verify`, { token: owner });
  expect(verified.body.domain.state).toBe("verified");
  const path = `/${uniq("saml")}/metadata.xml`;
  idp.serve(path, samlMetadata({ entityId: `${idp.url}/${uniq("entity")}`, ssoUrl: `${idp.url}/sso` }));
  const res = await call("POST", `${INST}/${inst.id}/sso`, {
    token: owner,
    body: { type: "saml", metadata_url: `${idp.url}${path}`, ...sso },
  });
  expect(res.status, res.text).toBe(201);
  return { inst, domain, provider: res.body.sso.provider_name as string, connection: res.body.sso.id as string };
}

const common = (userName: string) => ({
  version: "1",
  region: stack.region,
  userPoolId: stack.userPoolId,
  userName,
  callerContext: { awsSdkVersion: "aws-sdk-unknown-unknown", clientId: stack.userPoolClientId },
});

function signUpEvent(provider: string, subject: string, email: string): PreSignUpTriggerEvent {
  return {
    ...common(`${provider}_${subject}`),
    triggerSource: "PreSignUp_ExternalProvider",
    request: { userAttributes: { email, name: "Fed Person" }, validationData: {} },
    response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
  };
}

/**
 * Cognito's federated user after its first sign-in. Cognito names it `<provider>_<subject>`; the local Cognito's pool
 * takes e-mail user names only, so here it is named by its e-mail (the triggers read the user name from the event).
 */
async function federatedUser(_provider: string, _subject: string, email: string): Promise<{ userName: string; sub: string }> {
  const userName = email;
  await cognito.send(
    new AdminCreateUserCommand({
      UserPoolId: stack.userPoolId,
      Username: userName,
      MessageAction: "SUPPRESS",
      UserAttributes: [
        { Name: "email", Value: email },
        { Name: "email_verified", Value: "true" },
      ],
    }),
  );
  return { userName, sub: await subOf(userName) };
}

async function subOf(username: string): Promise<string> {
  const out = await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: username }));
  return out.UserAttributes?.find((a) => a.Name === "sub")?.Value ?? "";
}

function tokenEvent(
  userName: string,
  attrs: { sub: string; email: string; provider: string; groups?: string; account?: string },
): PreTokenGenerationTriggerEvent {
  return {
    ...common(userName),
    triggerSource: "TokenGeneration_HostedAuth",
    request: {
      userAttributes: {
        sub: attrs.sub,
        email: attrs.email,
        name: "Fed Person",
        identities: JSON.stringify([{ userId: "x", providerName: attrs.provider, providerType: "SAML", primary: "true" }]),
        ...(attrs.groups !== undefined && { "custom:sso_groups": attrs.groups }),
        ...(attrs.account !== undefined && { "custom:account_id": attrs.account }),
      },
      groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] },
    },
    response: { claimsOverrideDetails: {} },
  } as PreTokenGenerationTriggerEvent;
}

async function ownerTrail(type: string) {
  const res = await call("GET", paths.securityEvents, { token: owner, query: { event_type: type, limit: 200 } });
  expect(res.status, res.text).toBe(200);
  return res.body.events as { user_email: string | null; details: Record<string, unknown> }[];
}

async function administrators(institutionId: string) {
  const res = await call("GET", `${INST}/${institutionId}/administrators`, { token: owner, query: { limit: 100 } });
  expect(res.status, res.text).toBe(200);
  return (res.body.administrators ?? res.body.data) as { user_id: string; role: string }[];
}

describe("a federated sign-in", () => {
  it("JIT: a new person on the verified domain becomes an administrator with the highest mapped role, the default otherwise; recorded", async () => {
    const { inst, domain, provider, connection } = await connected({
      role_mappings: JSON.parse('{"IT":"cohort_super_admin","Staff":"cohort_admin"}'),
      jit: { enabled: true, default_role: "cohort_admin" },
    });
    const email = `ada.${uniq("p")}@${domain}`;
    const subject = uniq("subject");
    const up = await preSignUp(signUpEvent(provider, subject, email));
    expect(up.response).toMatchObject({ autoConfirmUser: true, autoVerifyEmail: true });
    const ada = await federatedUser(provider, subject, email);
    const out = await preTokenGeneration(tokenEvent(ada.userName, { sub: ada.sub, email, provider, groups: "[Staff, IT]" }));
    const account = String(inst.account_id);
    expect(out.response.claimsOverrideDetails?.claimsToAddOrOverride).toEqual({ email_verified: "true", "custom:account_id": account });

    // The default role for someone whose groups map to nothing.
    const email2 = `bo.${uniq("p")}@${domain}`;
    const subject2 = uniq("subject");
    await preSignUp(signUpEvent(provider, subject2, email2));
    const bo = await federatedUser(provider, subject2, email2);
    await preTokenGeneration(tokenEvent(bo.userName, { sub: bo.sub, email: email2, provider, groups: '["Visitors"]' }));
    // A second sign-in changes nothing but its record.
    await preTokenGeneration(tokenEvent(bo.userName, { sub: bo.sub, email: email2, provider, account }));

    const admins = await administrators(inst.id);
    expect(admins.find((a) => a.user_id === ada.sub)?.role).toBe("cohort_super_admin");
    expect(admins.find((a) => a.user_id === bo.sub)?.role).toBe("cohort_admin");
    const provisioned = (await ownerTrail("administrator_provisioned")).filter((e) => e.details.institution_id === inst.id);
    // The institution by id and by name (docs/contract/events.md).
    const named = { institution_id: inst.id, institution_name: inst.name };
    expect(provisioned.map((e) => e.details).sort((a, b) => String(a.email).localeCompare(String(b.email)))).toEqual([
      { ...named, user_id: ada.sub, email, role: "cohort_super_admin", source: "sso", sso_connection: connection },
      { ...named, user_id: bo.sub, email: email2, role: "cohort_admin", source: "sso", sso_connection: connection },
    ]);
    // The person is the actor.
    expect(provisioned.map((e) => e.user_email).sort()).toEqual([email, email2].sort());
    const signIns = (await ownerTrail("sso_sign_in")).filter((e) => e.details.institution_id === inst.id);
    expect(signIns).toHaveLength(3);
    expect(signIns.filter((e) => e.details.jit === "provisioned")).toHaveLength(2);
    for (const e of signIns) expect(e.details.provider_name).toBe(provider);
  });

  it("trust: an e-mail outside the IdP's institution's verified domains (another institution's included) is refused and recorded; nothing granted", async () => {
    const a = await connected({ jit: { enabled: true, default_role: "cohort_super_admin" } });
    const b = await connected({});
    const before = await administrators(b.inst.id);
    for (const email of [`victim@${b.domain}`, "someone@gmail.com", `x@sub.${a.domain}`]) {
      await expect(preSignUp(signUpEvent(a.provider, uniq("s"), email))).rejects.toThrow(/not on your institution's verified domains/);
    }
    // A later sign-in whose e-mail the IdP changed to another's domain: refused before any token.
    const victimEmail = `victim@${b.domain}`;
    await expect(
      preTokenGeneration(tokenEvent(`${a.provider}_${uniq("s")}`, { sub: uniq("sub"), email: victimEmail, provider: a.provider })),
    ).rejects.toThrow(/not on your institution's verified domains/);
    const refused = (await ownerTrail("sso_sign_in_refused")).filter((e) => e.details.provider_name === a.provider);
    expect(refused).toHaveLength(4);
    for (const e of refused) {
      expect(e.details).toEqual({ provider_name: a.provider, reason: "email_outside_domains" });
      expect(e.user_email).toBeNull();
    }
    expect(await administrators(b.inst.id)).toEqual(before);
    expect((await administrators(a.inst.id)).length).toBe(1);
    // A provider that is no institution's: refused, nothing to record anywhere.
    await expect(preSignUp(signUpEvent("nobody-0000000000", uniq("s"), `x@${a.domain}`))).rejects.toThrow(/not connected/);
    // Refusals, not failures: the triggers' wrapper logs none of them at ERROR (test/unit/sso-trigger-failures.test.ts).
    await expect(preSignUp(signUpEvent("nobody-0000000000", uniq("s"), `x@${a.domain}`))).rejects.toBeInstanceOf(SignInRefused);
  });

  it("linking: a pool user with the e-mail gets the federated identity linked, and keeps its sub; the owner is never touched", async () => {
    const { inst, domain, provider } = await connected({ jit: { enabled: true, default_role: "cohort_super_admin" } });
    const email = `linked.${uniq("p")}@${domain}`;
    const native = await token(email, { account: String(inst.account_id) });
    const sub = await userIdOf(native);
    const subject = uniq("subject");
    await preSignUp(signUpEvent(provider, subject, email));
    const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: email }));
    const attrs = Object.fromEntries((user.UserAttributes ?? []).map((x) => [x.Name, x.Value]));
    expect(attrs.sub).toBe(sub);
    expect(JSON.parse(String(attrs.identities))).toEqual([expect.objectContaining({ providerName: provider, userId: subject })]);
    // Its sign-in is the linked user's: same sub, JIT gives it access.
    await preTokenGeneration(tokenEvent(email, { sub, email, provider, account: String(inst.account_id) }));
    expect((await administrators(inst.id)).find((a) => a.user_id === sub)?.role).toBe("cohort_super_admin");

    // The owner signing in through the IdP keeps its seat as it is.
    const ownerSub = await userIdOf(owner);
    const ownerBefore = (await administrators(inst.id)).find((a) => a.user_id === ownerSub);
    const ownerEmail = `owner.${uniq("p")}@${domain}`;
    await preTokenGeneration(tokenEvent(ownerEmail, { sub: ownerSub, email: ownerEmail, provider, account: String(inst.account_id) }));
    expect((await administrators(inst.id)).find((a) => a.user_id === ownerSub)).toEqual(ownerBefore);
  });

  it("require SSO: a password sign-in on the domain is refused naming the SSO, the super admin's is not; joining from an invitation is 409", async () => {
    const { inst, domain } = await connected({ require_sso: true });
    const email = `pw.${uniq("p")}@${domain}`;
    const event = (e: string, sub: string): PreAuthenticationTriggerEvent =>
      ({
        ...common(e),
        triggerSource: "PreAuthentication_Authentication",
        request: { userAttributes: { email: e, sub }, validationData: {} },
        response: {},
      }) as PreAuthenticationTriggerEvent;
    await expect(preAuthentication(event(email, uniq("sub")))).rejects.toThrow(`${inst.name} requires single sign-on`);
    // A refusal, not a failure: nothing at ERROR, no alarm (shared/sso/trigger.ts).
    await expect(preAuthentication(event(email, uniq("sub")))).rejects.toBeInstanceOf(SignInRefused);
    // The institution's super admin keeps the password.
    const ownerSub = await userIdOf(owner);
    await expect(preAuthentication(event(`boss@${domain}`, ownerSub))).resolves.toBeDefined();
    // Another domain: no SSO required.
    await expect(preAuthentication(event("someone@example.org", uniq("sub")))).resolves.toBeDefined();
    // A federated user's later sign-in runs the trigger too (Cognito's federated trigger sources): it has no password.
    const federated = event(email, uniq("sub"));
    federated.request.userAttributes["cognito:user_status"] = "EXTERNAL_PROVIDER";
    await expect(preAuthentication(federated)).resolves.toBeDefined();

    const inv = await inviteMailed(owner, inst.id, `joiner.${uniq("p")}@${domain}`);
    const res = await visit("POST", paths.invitationsRegister, {
      body: { token: inv.token, name: "Joe Joiner", password: "Correct-Horse-9-battery" },
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toEqual({ error: "Sign in with your institution's single sign-on to accept this invitation" });
  });

  it("the seat limit: at 95 administrators the sign-in succeeds without access, and is recorded so", async () => {
    const { inst, domain, provider } = await connected({ jit: { enabled: true, default_role: "cohort_admin" } });
    for (let n = 1; n < MAX_MEMBERS; n++) await grantAccess(inst.id, uniq("seat"), "cohort_admin");
    expect(Object.keys((await getInstitution(inst.id))?.members ?? {})).toHaveLength(MAX_MEMBERS);
    const email = `late.${uniq("p")}@${domain}`;
    const subject = uniq("subject");
    await preSignUp(signUpEvent(provider, subject, email));
    const late = await federatedUser(provider, subject, email);
    const out = await preTokenGeneration(tokenEvent(late.userName, { sub: late.sub, email, provider }));
    expect(out.response.claimsOverrideDetails?.claimsToAddOrOverride).toMatchObject({ email_verified: "true" });
    expect(Object.keys((await getInstitution(inst.id))?.members ?? {})).toHaveLength(MAX_MEMBERS);
    expect((await getInstitution(inst.id))?.members[late.sub]).toBeUndefined();
    const signIns = (await ownerTrail("sso_sign_in")).filter((e) => e.details.institution_id === inst.id);
    expect(signIns.map((e) => e.details)).toEqual([
      { provider_name: provider, institution_id: inst.id, institution_name: inst.name, jit: "seat_limit" },
    ]);
    expect((await ownerTrail("administrator_provisioned")).filter((e) => e.details.institution_id === inst.id)).toEqual([]);
  }, 90_000);

  it("round trips: discover reads at most three items in two round trips; a JIT sign-in makes four GetItems and one transaction", async () => {
    const { domain, provider } = await connected({ jit: { enabled: true, default_role: "cohort_admin" } });
    const email = `rt.${uniq("p")}@${domain}`;
    const found = await counted(() => discover({ email }));
    expect(found.result.sso?.provider_name).toBe(provider);
    expect(found.requests.map((r) => r.command)).toEqual(["GetItem", "GetItem", "GetItem"]);
    expectWithinDesign(found.requests, { maxItemsRead: 3, change: false });

    const subject = uniq("subject");
    await preSignUp(signUpEvent(provider, subject, email));
    const person = await federatedUser(provider, subject, email);
    const signedIn = await counted(() => preTokenGeneration(tokenEvent(person.userName, { sub: person.sub, email, provider })));
    // The provider's institution; the institution and its connection side by side; the domain's guard; the commit.
    expect(signedIn.requests.map((r) => r.command)).toEqual(["GetItem", "GetItem", "GetItem", "GetItem", "TransactWriteItems"]);
    expectWithinDesign(signedIn.requests, { maxItemsRead: 4, change: true });
  });
});
