// GET `paths.docs`, public: the docs dialect of the one pipeline (shared/openapi/serve.ts).
import { CONTENT_SECURITY_POLICY, gzippedPage, PAGE_HTML } from "../../shared/openapi/page.js";
import { acceptsGzip, publicDocs } from "../../shared/openapi/serve.js";

export const handler = publicDocs(async (event) => {
  // `Referrer-Policy: no-referrer` and the security headers come with every answer of the pipeline.
  const headers = {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": CONTENT_SECURITY_POLICY,
    vary: "accept-encoding",
  };
  if (!acceptsGzip(event)) return { statusCode: 200, headers, body: PAGE_HTML };
  return { statusCode: 200, headers: { ...headers, "content-encoding": "gzip" }, body: gzippedPage(), isBase64Encoded: true };
});
