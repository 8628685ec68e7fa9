/**
 * The two public docs functions' dialect of the one pipeline (shared/pipeline.ts): the origin secret first, as for
 * every function, then no caller (these routes have no authorizer) and no body (they read none, so none is
 * refused: the API document says so). What they answer is constant, built once per container.
 */
import { toResponse } from "../errors.js";
import { type Dialect, type HttpEvent, type HttpResult, type PipelineContext, pipeline } from "../pipeline.js";

export type PublicResult = HttpResult & { statusCode: number; headers: Record<string, string> };

/** True when the client takes gzip (API Gateway passes the header through, names lower-cased). */
export function acceptsGzip(event: Pick<HttpEvent, "headers">): boolean {
  const value = event.headers?.["accept-encoding"] ?? "";
  return value.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    return coding === "gzip" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

const docs: Dialect<HttpEvent, PipelineContext> = {
  // The JSON API's `{error}`: a refusal around CloudFront reads the same from every function.
  answer: (err) => {
    const { status, headers, body } = toResponse(err);
    return { statusCode: status, headers: { "content-type": "application/json; charset=utf-8", ...headers }, body: JSON.stringify(body) };
  },
  readsBody: false,
  // The page sets its own policy, which lets Swagger UI's two scripts run; helmet's would forbid them.
  helmet: { contentSecurityPolicy: false },
};

/** Wraps a docs handler. */
export const publicDocs = (fn: (event: HttpEvent) => Promise<PublicResult>) => pipeline(docs, fn);
