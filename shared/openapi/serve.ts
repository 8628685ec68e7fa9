/**
 * Responses of the two public docs functions. They do not use the shared middy stack (`api()` in
 * shared/http.ts): it builds the verified caller of every request, and these routes have no authorizer
 * and so no caller; nor do they read a body. What they answer is constant, built once per container.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from "aws-lambda";

export type PublicResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

/** True when the client takes gzip (API Gateway passes the header through, names lower-cased). */
export function acceptsGzip(event: Pick<APIGatewayProxyEventV2, "headers">): boolean {
  const value = event.headers?.["accept-encoding"] ?? "";
  return value.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    return coding === "gzip" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}
