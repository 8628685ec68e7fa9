/**
 * The SCIM routes' Lambda REQUEST authorizer (payload 2.0, simple responses; docs/scim.md): the bearer token's
 * hash names the connection, in one GetItem. An unknown, rotated or revoked token throws `Unauthorized`, which
 * API Gateway answers 401 before any handler runs; its body is API Gateway's own `{"message":"Unauthorized"}`
 * (an HTTP API cannot shape it). Results are not cached, so a rotated token stops working at once.
 *
 * One way in (docs/iam.md, docs/code-structure.md): with an origin secret configured, a request without it is refused first,
 * whatever its token, with `isAuthorized: false`, which API Gateway answers 403 `{"message":"Forbidden"}`; no
 * token is looked up for it. (A request without any Authorization header never gets here: API Gateway answers it
 * 401 itself.) Anything else it throws (DynamoDB unreachable) API Gateway answers 500, and it is logged once at ERROR,
 * which the function's alarm counts (shared/failures.ts, docs/operations.md).
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from "aws-lambda";
import { authorizer, unauthorized } from "../../shared/failures.js";
import { fromOrigin } from "../../shared/origin.js";
import type { TokenTarget } from "../../shared/scim/model.js";
import { hashToken, plausibleToken } from "../../shared/scim/token.js";
import { getTokenTarget } from "../../shared/scim/token-target.js";

type Answer = APIGatewaySimpleAuthorizerWithContextResult<TokenTarget> | { isAuthorized: false };

export const handler = authorizer("scim/authorizer", async (event: APIGatewayRequestAuthorizerEventV2): Promise<Answer> => {
  if (!fromOrigin(event.headers)) return { isAuthorized: false };
  const header = event.headers?.authorization ?? event.identitySource?.[0] ?? "";
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header.trim())?.[1];
  if (!token || !plausibleToken(token)) throw unauthorized();
  const target = await getTokenTarget(hashToken(token));
  if (!target) throw unauthorized();
  return {
    isAuthorized: true,
    context: { institution_id: target.institution_id, connection_id: target.connection_id, account_id: target.account_id },
  };
});
