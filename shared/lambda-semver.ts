/**
 * In a deployed bundle, this module stands in for `semver` (an esbuild alias, `BUNDLE_ALIAS` in
 * infra/api-function.ts). Its one importer there is the X-Ray SDK's patcher for the AWS SDK v2
 * (aws-xray-sdk-core's patchers/aws_p.js: `semver.gte(AWS.VERSION, …)`), which no function calls: they use
 * the SDK v3, traced per client. The whole of semver (28 KiB, and its regular expressions compiled at import)
 * would load with the Tracer in every function for it. test/infra/lean-bundles.test.ts fails if anything else
 * in a bundle imports semver.
 */

const numbers = (version: string): number[] => (/^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim()) ?? []).slice(1, 4).map(Number);

/** `a >= b` for plain `x.y.z` versions (pre-release tags aside), as the patcher needs. */
export function gte(a: string, b: string): boolean {
  const [x, y] = [numbers(a), numbers(b)];
  if (x.length !== 3 || y.length !== 3) throw new TypeError(`Invalid Version: ${x.length === 3 ? b : a}`);
  for (let i = 0; i < 3; i++) if ((x[i] as number) !== (y[i] as number)) return (x[i] as number) > (y[i] as number);
  return true;
}
