/**
 * The SCIM 2.0 service (docs/scim.md, RFC 7644) in one function, by route: discovery, then Users and Groups,
 * each a thin handler of the SCIM stack calling one use case. One function, not seventeen: the stack stays
 * under CloudFormation's 500 resources.
 */
import type { Context } from "aws-lambda";
import { SCIM_BASE_PATH } from "../../shared/routes.js";
import { discovery } from "../../shared/scim/discovery.js";
import { type ScimEvent, scimApi } from "../../shared/scim/http.js";
import { notFound } from "../../shared/scim/protocol.js";
import { createResource, deleteResource, listResources, patchResource, replaceResource, showResource } from "../../shared/scim/service.js";

type Handler = ReturnType<typeof scimApi>;

const discover = scimApi(async ({ directory, path }) => ({ status: 200, body: discovery(directory.baseUrl, path) }));

function resource(kind: "User" | "Group"): Record<string, Handler> {
  const base = `${SCIM_BASE_PATH}/${kind}s`;
  return {
    [`GET ${base}`]: scimApi(async ({ directory, query }) => ({ status: 200, body: await listResources(directory, kind, query) })),
    // The list with a trailing slash (`/Users/?filter=…`); a deeper path names no resource.
    [`GET ${base}/{proxy+}`]: scimApi(async ({ directory, params, query }) => {
      if ((params.proxy ?? "") !== "") throw notFound(params.proxy ?? "");
      return { status: 200, body: await listResources(directory, kind, query) };
    }),
    [`POST ${base}`]: scimApi(async ({ directory, body }) => ({ status: 201, body: await createResource(directory, kind, body) })),
    [`GET ${base}/{id}`]: scimApi(async ({ directory, params, query }) => ({
      status: 200,
      body: await showResource(directory, kind, params.id, query),
    })),
    [`PUT ${base}/{id}`]: scimApi(async ({ directory, params, body }) => ({
      status: 200,
      body: await replaceResource(directory, kind, params.id, body),
    })),
    [`PATCH ${base}/{id}`]: scimApi(async ({ directory, params, body }) => ({
      status: 200,
      body: await patchResource(directory, kind, params.id, body),
    })),
    [`DELETE ${base}/{id}`]: scimApi(async ({ directory, params }) => {
      await deleteResource(directory, kind, params.id);
      return { status: 204 };
    }),
  };
}

const byRoute: Record<string, Handler> = { ...resource("User"), ...resource("Group") };

export const handler = (event: ScimEvent, context: Context) =>
  (Object.hasOwn(byRoute, event.routeKey) ? (byRoute[event.routeKey] as Handler) : discover)(event, context);
