/** A function bundled as `cdk synth` bundles it (the `BUNDLING` options of infra/api-function.ts), outside CDK. */
import { type BuildOptions, build } from "esbuild";
import { BUNDLING, ESBUILD_TARGET } from "../../infra/api-function.js";

/** Builds one ESM bundle with the stack's esbuild options; `input` says what to bundle and where to write it. */
export async function bundleAsDeployed(input: Pick<BuildOptions, "entryPoints" | "stdin" | "outfile">): Promise<void> {
  await build({
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
    logLevel: "error",
  });
}
