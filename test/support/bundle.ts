/** A function bundled as `cdk synth` bundles it (the `BUNDLING` options of infra/api-function.ts), outside CDK. */
import { type BuildOptions, build, type Metafile } from "esbuild";
import { BUNDLE_ALIAS, BUNDLING, ESBUILD_TARGET } from "../../infra/api-function.js";
import { ROOT } from "../../infra/local/services.js";

/**
 * Builds one ESM bundle with the stack's esbuild options; `input` says what to bundle and where to write it,
 * and `define` what the stack defines for that function (bundlingDefine). `plainSdk` leaves out the stack's
 * aliases (BUNDLE_ALIAS; the bench's reference: the SDK as it comes). Returns esbuild's metafile.
 */
export async function bundleAsDeployed(
  input: Pick<BuildOptions, "entryPoints" | "stdin" | "outfile" | "define"> & { plainSdk?: boolean },
): Promise<Metafile> {
  const { plainSdk, ...options } = input;
  const { metafile } = await build({
    ...options,
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
    // BUNDLING.esbuildArgs' alias, resolved from the project root as CDK runs esbuild.
    alias: plainSdk ? {} : { ...BUNDLE_ALIAS },
    absWorkingDir: ROOT,
    metafile: true,
    logLevel: "error",
  });
  return metafile;
}
