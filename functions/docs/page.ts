// GET `paths.docs`, public: a handler of its own, see shared/openapi/serve.ts for why not `api()`.
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { CONTENT_SECURITY_POLICY, gzippedPage, PAGE_HTML } from "../../shared/openapi/page.js";
import { acceptsGzip, type PublicResult, refusedAroundCloudFront } from "../../shared/openapi/serve.js";
import { SECURITY_HEADERS } from "../../shared/security-headers.js";

export const handler = async (event: APIGatewayProxyEventV2): Promise<PublicResult> => {
  const refused = refusedAroundCloudFront(event);
  if (refused) return refused;
  const headers = {
    "content-type": "text/html; charset=utf-8",
    ...SECURITY_HEADERS,
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "referrer-policy": "no-referrer",
    vary: "accept-encoding",
  };
  if (!acceptsGzip(event)) return { statusCode: 200, headers, body: PAGE_HTML };
  return { statusCode: 200, headers: { ...headers, "content-encoding": "gzip" }, body: gzippedPage(), isBase64Encoded: true };
};
