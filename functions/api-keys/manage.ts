/**
 * The institution API key routes (docs/api-keys.md) in one function, by method: each a thin handler of the JSON
 * dialect calling one use case. One function, not three: the API's stack stays under its resource budget
 * (docs/api-keys.md).
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from "aws-lambda";
import { createApiKey, listApiKeys, revokeApiKey } from "../../shared/api-keys/service.js";
import { api, created, ok } from "../../shared/http.js";

const byMethod = {
  POST: api(async ({ caller, params, body }) => created(await createApiKey(caller, params.id, body))),
  GET: api(async ({ caller, params }) => ok(await listApiKeys(caller, params.id))),
  DELETE: api(async ({ caller, params }) => ok(await revokeApiKey(caller, params.id, params.key_id))),
};

export const handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => {
  const method = event.requestContext.http.method as keyof typeof byMethod;
  return (Object.hasOwn(byMethod, method) ? byMethod[method] : byMethod.GET)(event, context);
};
