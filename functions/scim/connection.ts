/**
 * The directory connection's four routes (docs/contract/scim.md#the-connection) in one function, by method: each is a thin handler of
 * the shared stack calling one use case. One function, not four: the stack stays under CloudFormation's 500
 * resources.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from "aws-lambda";
import { api, created, ok } from "../../shared/http.js";
import { connectDirectory, disconnectDirectory, showConnection, updateMappings } from "../../shared/scim/connection.js";

const byMethod = {
  POST: api(async ({ caller, params }) => {
    const { created: isNew, scim } = await connectDirectory(caller, params.id);
    return isNew ? created({ scim }) : ok({ scim });
  }),
  GET: api(async ({ caller, params }) => ok(await showConnection(caller, params.id))),
  PATCH: api(async ({ caller, params, body }) => ok(await updateMappings(caller, params.id, body))),
  DELETE: api(async ({ caller, params }) => ok(await disconnectDirectory(caller, params.id))),
};

export const handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => {
  const method = event.requestContext.http.method as keyof typeof byMethod;
  return (Object.hasOwn(byMethod, method) ? byMethod[method] : byMethod.GET)(event, context);
};
