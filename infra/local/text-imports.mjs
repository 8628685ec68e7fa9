/**
 * Node module hooks for the local gateway: `import x from "…" with { type: "text" }` gives the file's text,
 * as esbuild does when it bundles a function for Lambda (the API reference page inlines Swagger UI so).
 * Plain .mjs: hooks run in their own thread, without tsx.
 */
import { readFileSync } from "node:fs";

const MARK = "as-text";

export async function resolve(specifier, context, next) {
  if (context.importAttributes?.type !== "text") return next(specifier, context);
  const { url } = await next(specifier, { ...context, importAttributes: {} });
  // Node knows no "text" type: the module is re-keyed as plain JavaScript that exports the text.
  return { url: `${url}${url.includes("?") ? "&" : "?"}${MARK}`, importAttributes: {}, shortCircuit: true };
}

export async function load(url, context, next) {
  if (!url.endsWith(MARK)) return next(url, context);
  const file = new URL(url);
  file.search = "";
  return { format: "module", source: `export default ${JSON.stringify(readFileSync(file, "utf8"))};`, shortCircuit: true };
}
