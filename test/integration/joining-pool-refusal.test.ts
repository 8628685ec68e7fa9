/**
 * Register when the user pool refuses a password that the policy check passed (a deployed pool whose policy
 * was tightened): Cognito's InvalidPasswordException must become 422 `{errors}` and the user just created must
 * go again. The local Cognito enforces no password policy, so it cannot produce that refusal: this test stands
 * in for that one answer only (`setPassword` reports "refused"), in this process, against the real local
 * Cognito and DynamoDB for everything else.
 */
import { AdminGetUserCommand } from "@aws-sdk/client-cognito-identity-provider";
import { describe, expect, it, vi } from "vitest";
import { cognitoClient } from "../../infra/local/cognito.js";
import { visitorFrom } from "../../shared/caller.js";
import { ValidationFailed } from "../../shared/errors.js";
import { stack, token, uniq, uniqEmail } from "../support/api.js";
import { createInstitution, inviteMailed, storedInvitation } from "../support/flows.js";

vi.mock("../../shared/users.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../shared/users.js")>();
  // The pool's answer to AdminSetUserPassword, as a tightened deployed policy would give it.
  return { ...real, setPassword: vi.fn(async () => "refused" as const) };
});

const { registerFromInvitation } = await import("../../shared/invitations/join.js");

describe("register, when the pool refuses the password", () => {
  it("answers 422 {errors}, deletes the user it created, and leaves the invitation active", async () => {
    const account = uniq("acct");
    const domain = `${uniq("pool")}.test`;
    const owner = await token(uniqEmail("owner", domain), { superAdmin: true, account });
    const inst = await createInstitution(owner);
    const email = uniqEmail("joiner", domain);
    const inv = await inviteMailed(owner, inst.id, email);
    const visitor = visitorFrom("127.9.9.9");

    const refused = registerFromInvitation(visitor, { token: inv.token, name: "Nia New", password: "Correct-Horse-9-battery" });
    await expect(refused).rejects.toBeInstanceOf(ValidationFailed);
    await expect(refused).rejects.toMatchObject({ errors: ["Password does not meet the requirements of the user pool"] });

    const cognito = cognitoClient(stack.cognitoEndpoint, stack.region);
    try {
      await expect(cognito.send(new AdminGetUserCommand({ UserPoolId: stack.userPoolId, Username: email }))).rejects.toMatchObject({
        name: "UserNotFoundException",
      });
    } finally {
      cognito.destroy();
    }
    const stored = await storedInvitation(inst.id, inv.id);
    expect(stored?.used_at).toBeUndefined();
    expect(stored?.revoked_at).toBeUndefined();
  });
});
