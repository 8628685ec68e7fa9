/**
 * Responses of the two public docs functions. They do not use the shared middy stack (`api()` in
 * shared/http.ts): it builds the verified caller of every request, and these routes have no authorizer
 * and so no caller; nor do they read a body. What they answer is constant, built once per container.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";
import { messages } from "../errors.js";
import { fromOrigin } from "../origin.js";
import { SECURITY_HEADERS } from "../security-headers.js";

export type PublicResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

/** True when the client takes gzip (API Gateway passes the header through, names lower-cased). */
export function acceptsGzip(event: Pick<APIGatewayProxyEventV2, "headers">): boolean {
  const value = event.headers?.["accept-encoding"] ?? "";
  return value.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    return coding === "gzip" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}

/** One way in (shared/origin.ts), as `api()` has it: 403 to a request that did not come through CloudFront. */
export function refusedAroundCloudFront(event: Pick<APIGatewayProxyEventV2, "headers">): PublicResult | undefined {
  if (fromOrigin(event.headers)) return undefined;
  return {
    statusCode: 403,
    headers: { "content-type": "application/json; charset=utf-8", ...SECURITY_HEADERS },
    body: JSON.stringify({ error: messages.notThroughCloudFront }),
  };
}
