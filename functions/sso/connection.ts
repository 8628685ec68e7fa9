/**
 * The SSO connection's four routes (docs/sso.md) in one function, by method: each a thin handler of the shared
 * stack calling one use case. One function, not four: the stack's resource count.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from "aws-lambda";
import { api, created, ok } from "../../shared/http.js";
import { connect, disconnect, showConnection, updateConnection } from "../../shared/sso/service.js";

const byMethod = {
  POST: api(async ({ caller, params, body }) => created(await connect(caller, params.id, body))),
  GET: api(async ({ caller, params }) => ok(await showConnection(caller, params.id))),
  PATCH: api(async ({ caller, params, body }) => ok(await updateConnection(caller, params.id, body))),
  DELETE: api(async ({ caller, params }) => ok(await disconnect(caller, params.id))),
};

export const handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => {
  const method = event.requestContext.http.method as keyof typeof byMethod;
  return (Object.hasOwn(byMethod, method) ? byMethod[method] : byMethod.GET)(event, context);
};
