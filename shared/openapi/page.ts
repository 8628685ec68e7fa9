/**
 * The API reference page: Swagger UI from its npm package, inlined into one HTML response, so the page needs
 * nothing but this function (no CDN, no asset routes). It loads the document from `openapi.json` beside it;
 * "Authorize" takes an ID token for "Try it out" on the same origin. Only the docs page function imports this.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import css from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import bundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };

// Relative to /api/v1/docs, so the page works wherever the API is mounted.
const init = `window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
});`;

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Swagger UI needs inline styles (it sets style attributes); scripts run only if they are these two. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(bundle)} ${sha256(init)}`,
  "style-src 'unsafe-inline'",
  "img-src data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

// The source map comment would send browsers looking for a file this page does not serve.
const style = css.replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$/, "");

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Institution Administration API</title>
<style>${style}</style>
</head>
<body>
<div id="swagger-ui"></div>
<script>${bundle}</script>
<script>${init}</script>
</body>
</html>
`;

let gzipped: string | undefined;
/** The page gzipped, base64 (as a Lambda returns binary): about a quarter of the bytes. Made on first use. */
export function gzippedPage(): string {
  gzipped ??= gzipSync(PAGE_HTML, { level: 9 }).toString("base64");
  return gzipped;
}
