/**
 * The machines' API's `$default` route (docs/api-keys.md; infra/machine-api.ts): what a valid key gets on any route
 * that API does not serve. A route of the route table that no scope opens (deleting or transferring the
 * institution, SSO, SCIM, the key routes, creating institutions, the account's trail) answers 403
 * `{error: "API keys cannot call this route"}`; anything else 404 `{"message":"Not Found"}`, as API Gateway
 * answers an unknown route. It runs in the one pipeline (the origin secret first), in the docs' dialect: no
 * body is read, errors are the JSON API's `{error}`.
 */
import { Forbidden, toResponse } from "../errors.js";
import { type Dialect, type HttpEvent, type HttpResult, type PipelineContext, pipeline } from "../pipeline.js";
import { routes } from "../routes.js";
import { MACHINE_PATH_PREFIX } from "./model.js";
import { NOT_FOR_KEYS } from "./scopes.js";

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResult => ({
  statusCode: status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body: JSON.stringify(body),
});

const refusing: Dialect<HttpEvent, PipelineContext> = {
  answer: (err) => {
    const { status, headers, body } = toResponse(err);
    return json(status, body, headers);
  },
  readsBody: false,
};

/** Each route as API Gateway matches it: `{name}` is one non-empty segment. */
const patterns = routes.map((r) => ({
  method: r.method,
  path: new RegExp(`^${r.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`),
}));

/** Whether `method` and `path` name a route of the route table. */
export function isTableRoute(method: string, path: string): boolean {
  const bare = path.startsWith(`${MACHINE_PATH_PREFIX}/`) ? path.slice(MACHINE_PATH_PREFIX.length) : path;
  return patterns.some((p) => p.method === method && p.path.test(bare));
}

export const refused = pipeline(refusing, async (event: HttpEvent) => {
  if (isTableRoute(event.requestContext.http.method, event.rawPath)) throw new Forbidden(NOT_FOR_KEYS);
  return json(404, { message: "Not Found" });
});
