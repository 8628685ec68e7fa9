// GET `paths.openapi`, public: a handler of its own, see shared/openapi/serve.ts for why not `api()`.
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { openApiDocument } from "../../shared/openapi/document.js";
import { type PublicResult, refusedAroundCloudFront } from "../../shared/openapi/serve.js";
import { SECURITY_HEADERS } from "../../shared/security-headers.js";

let body: string | undefined;

export const handler = async (event: APIGatewayProxyEventV2): Promise<PublicResult> => {
  const refused = refusedAroundCloudFront(event);
  if (refused) return refused;
  body ??= JSON.stringify(openApiDocument());
  return { statusCode: 200, headers: { "content-type": "application/json; charset=utf-8", ...SECURITY_HEADERS }, body };
};
