/**
 * The key authorizer of the machines' API (docs/api-keys.md): a Lambda REQUEST authorizer (payload
 * 2.0, simple responses) on every route of that API. The key's SHA-256 hash names its lookup item, in one
 * GetItem; an unknown, revoked or expired key throws `Unauthorized`, which API Gateway answers 401
 * `{"message":"Unauthorized"}` before any function runs. API Gateway caches an answer for at most 60 s by the
 * `Authorization` header (infra/machine-api.ts), so a revoked key stops within a minute; an expired one at once,
 * as the functions check `expires_at` again (shared/caller.ts `keyCallerFrom`).
 *
 * One way in (docs/one-way-in.md): with an origin secret configured, a request without it is refused first,
 * whatever its key, with `isAuthorized: false` (API Gateway's 403 `{"message":"Forbidden"}`); no key is looked up.
 * People never come here: the edge sends only `Authorization: Bearer iak_…` to this API. Anything else it throws
 * (DynamoDB unreachable) API Gateway answers 500, and it is logged once at ERROR, which the function's alarm counts
 * (shared/failures.ts, docs/operations.md).
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from "aws-lambda";
import { keyContext } from "../../shared/api-keys/use.js";
import type { KeyContext } from "../../shared/caller.js";
import { authorizer, unauthorized } from "../../shared/failures.js";
import { fromOrigin } from "../../shared/origin.js";

type Answer = APIGatewaySimpleAuthorizerWithContextResult<KeyContext> | { isAuthorized: false };

export const handler = authorizer("api-keys/authorizer", async (event: APIGatewayRequestAuthorizerEventV2): Promise<Answer> => {
  if (!fromOrigin(event.headers)) return { isAuthorized: false };
  const context = await keyContext(event.headers?.authorization ?? event.identitySource?.[0]);
  if (!context) throw unauthorized();
  return { isAuthorized: true, context };
});
