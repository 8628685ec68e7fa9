/** A function bundled as `cdk synth` bundles it (the `BUNDLING` options of infra/api-function.ts), outside CDK. */
import { type BuildOptions, build, type Metafile } from "esbuild";
import { BUNDLING, ESBUILD_TARGET } from "../../infra/api-function.js";

/**
 * Builds one ESM bundle with the stack's esbuild options; `input` says what to bundle and where to write it,
 * and `define` what the stack defines for that function (bundlingDefine). Returns esbuild's metafile.
 */
export async function bundleAsDeployed(input: Pick<BuildOptions, "entryPoints" | "stdin" | "outfile" | "define">): Promise<Metafile> {
  const { metafile } = await build({
    ...input,
    bundle: true,
    platform: "node",
    target: ESBUILD_TARGET,
    format: "esm",
    minify: BUNDLING.minify,
    sourcemap: BUNDLING.sourceMap,
    sourcesContent: BUNDLING.sourcesContent,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner },
    external: BUNDLING.externalModules,
    metafile: true,
    logLevel: "error",
  });
  return metafile;
}
