// GET `paths.openapi`, public: the docs dialect of the one pipeline (shared/openapi/serve.ts).
import { openApiDocument } from "../../shared/openapi/document.js";
import { publicDocs } from "../../shared/openapi/serve.js";

let body: string | undefined;

export const handler = publicDocs(async () => {
  body ??= JSON.stringify(openApiDocument());
  return { statusCode: 200, headers: { "content-type": "application/json; charset=utf-8" }, body };
});
