/**
 * The verified domains' four routes (docs/sso.md) in one function, by API Gateway's route key: each a thin
 * handler of the shared stack calling one use case. One function, not four: the stack's resource count.
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from "aws-lambda";
import { addDomain, deleteDomain, listDomains, verifyDomain } from "../../shared/domains/service.js";
import { api, created, ok } from "../../shared/http.js";

const byRoute = {
  GET: api(async ({ caller, params }) => ok(await listDomains(caller, params.id))),
  POST: api(async ({ caller, params, body }) => created(await addDomain(caller, params.id, body))),
  VERIFY: api(async ({ caller, params }) => ok(await verifyDomain(caller, params.id, params.domain_id))),
  DELETE: api(async ({ caller, params }) => ok(await deleteDomain(caller, params.id, params.domain_id))),
};

export const handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => {
  const method = event.requestContext.http.method;
  // The route key, not the raw path, tells the verify route from adding: API Gateway matched it already.
  const key = (method === "POST" && event.routeKey.endsWith("/verify") ? "VERIFY" : method) as keyof typeof byRoute;
  return (Object.hasOwn(byRoute, key) ? byRoute[key] : byRoute.GET)(event, context);
};
