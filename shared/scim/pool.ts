/**
 * The user pool's side of provisioning (DESIGN.md §15): the pool user with an e-mail, found by `ListUsers`
 * (filter `email = "…"`), or made with `AdminCreateUser`, which sends the pool's invitation (a temporary
 * password) to a verified e-mail. Loaded only by a request that grants access to a new person (service.ts
 * imports it dynamically), so the Cognito client is in no other request's way.
 */
import {
  AdminCreateUserCommand,
  type AttributeType,
  CognitoIdentityProviderClient,
  ListUsersCommand,
  UsernameExistsException,
} from "@aws-sdk/client-cognito-identity-provider";
import { localCredentials } from "../clients.js";
import { config } from "../config.js";
import type { PoolUser } from "./provision.js";

const endpoint = process.env.COGNITO_ENDPOINT || undefined;
const client = new CognitoIdentityProviderClient({ region: config.region, endpoint, ...localCredentials(endpoint), maxAttempts: 3 });

function poolId(): string {
  const id = process.env.USER_POOL_ID;
  if (!id) throw new Error("USER_POOL_ID is not set");
  return id;
}

const attribute = (attrs: AttributeType[] | undefined, name: string) => attrs?.find((a) => a.Name === name)?.Value;

async function find(email: string): Promise<PoolUser | undefined> {
  // emailOf (protocol.ts) admits no quote or backslash, so the value needs no escaping in the filter.
  const out = await client.send(new ListUsersCommand({ UserPoolId: poolId(), Filter: `email = "${email}"`, Limit: 2 }));
  const user = out.Users?.find((u) => attribute(u.Attributes, "email")?.toLowerCase() === email);
  const sub = attribute(user?.Attributes, "sub");
  return sub
    ? { user_id: sub, account_id: attribute(user?.Attributes, "custom:account_id"), name: attribute(user?.Attributes, "name") }
    : undefined;
}

/** The pool user with `email`, made (in `accountId`, named `name`, invited by the pool) when there is none. */
export async function findOrCreatePoolUser(email: string, name: string | undefined, accountId: string): Promise<PoolUser> {
  const found = await find(email);
  if (found) return found;
  try {
    const out = await client.send(
      new AdminCreateUserCommand({
        UserPoolId: poolId(),
        Username: email,
        UserAttributes: [
          { Name: "email", Value: email },
          { Name: "email_verified", Value: "true" },
          ...(name ? [{ Name: "name", Value: name }] : []),
          { Name: "custom:account_id", Value: accountId },
        ],
        DesiredDeliveryMediums: ["EMAIL"],
      }),
    );
    const sub = attribute(out.User?.Attributes, "sub");
    if (sub) return { user_id: sub, account_id: accountId, name };
  } catch (err) {
    if (!(err instanceof UsernameExistsException) && (err as Error).name !== "UsernameExistsException") throw err;
  }
  // Made meanwhile by someone else (another request, a person joining): that one.
  const again = await find(email);
  if (!again) throw new Error("the user pool made no user");
  return again;
}
