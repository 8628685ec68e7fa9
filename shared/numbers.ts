/** `raw` as a positive integer, or an error naming `what`. No imports: config, settings and the CDK app share it. */
export function positiveInt(what: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${what} must be a positive integer, got "${raw}"`);
  return n;
}
