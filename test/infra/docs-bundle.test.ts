/**
 * The docs functions as Lambda runs them: bundled by esbuild with the stack's own options (infra/stack.ts),
 * then run from a directory with no node_modules, so the page's Swagger UI can only come from the bundle.
 * And the API document stays out of every other function's bundle (cold starts).
 */

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handlers } from "../../shared/routes.js";
import { bundleAsDeployed } from "../support/bundle.js";
import { document } from "../support/contract.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Bundles must stay well below Lambda's 250 MB; this keeps the page function's cold start in view. */
const MAX_PAGE_BUNDLE_BYTES = 2.5 * 1024 * 1024;

type Result = { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean };
type Handler = (event: unknown) => Promise<Result>;

/** A request as API Gateway hands it over: the pipeline reads the source address of every one. */
const request = (headers: Record<string, string>) => ({ headers, requestContext: { http: { sourceIp: "192.0.2.1" } } });

let dir: string;

async function bundle(handler: string): Promise<string> {
  const outfile = join(dir, handler, "index.mjs");
  await bundleAsDeployed({ entryPoints: [join(ROOT, "functions", `${handler}.ts`)], outfile });
  return outfile;
}

beforeAll(() => {
  // Outside the project: no node_modules above it to fall back on.
  dir = mkdtempSync(join(tmpdir(), "docs-bundle-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the docs functions, bundled as deployed", () => {
  it("the page function carries Swagger UI in its bundle and serves the page from it alone", async () => {
    const file = await bundle("docs/page");
    const size = statSync(file).size;
    console.log(`[docs bundle] docs/page: ${(size / 1024).toFixed(0)} KiB`);
    expect(size).toBeLessThan(MAX_PAGE_BUNDLE_BYTES);
    const { handler } = (await import(pathToFileURL(file).href)) as { handler: Handler };

    const plain = await handler(request({}));
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toContain("SwaggerUIBundle");
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    const gzipped = await handler(request({ "accept-encoding": "gzip, deflate, br" }));
    expect(gzipped).toMatchObject({ isBase64Encoded: true, headers: { "content-encoding": "gzip" } });
    expect(gunzipSync(Buffer.from(gzipped.body, "base64")).toString("utf8")).toBe(plain.body);
  });

  it("the document function serves the document", async () => {
    const file = await bundle("docs/openapi");
    console.log(`[docs bundle] docs/openapi: ${(statSync(file).size / 1024).toFixed(0)} KiB`);
    const { handler } = (await import(pathToFileURL(file).href)) as { handler: Handler };
    const res = await handler(request({}));
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it("no other function's bundle holds the API document or its converter", async () => {
    const entries = [...handlers().keys()].map((h) => join(ROOT, "functions", `${h}.ts`));
    const { metafile } = await build({
      entryPoints: entries,
      bundle: true,
      platform: "node",
      format: "esm",
      outdir: join(dir, "graph"),
      write: false,
      metafile: true,
      // Packages stay imports (listed in the metafile), which is all this needs and much faster to build.
      packages: "external",
      logLevel: "error",
    });
    const leaks: string[] = [];
    for (const [out, meta] of Object.entries(metafile.outputs)) {
      if (!meta.entryPoint || meta.entryPoint.includes("functions/docs/")) continue;
      const loaded = [...Object.keys(meta.inputs), ...meta.imports.map((i) => i.path)].filter((i) =>
        /shared\/openapi\/|@valibot\/to-json-schema|swagger-ui-dist/.test(i),
      );
      if (loaded.length > 0) leaks.push(`${out}: ${loaded.join(", ")}`);
    }
    expect(Object.keys(metafile.outputs).filter((o) => o.endsWith(".js")).length).toBe(entries.length);
    expect(leaks).toEqual([]);
    // And the check sees an import: the document function does load both.
    const docs = Object.values(metafile.outputs).find((m) => m.entryPoint?.endsWith("functions/docs/openapi.ts"));
    expect(docs?.imports.map((i) => i.path)).toContain("@valibot/to-json-schema");
  });
});
