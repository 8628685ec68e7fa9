/**
 * Optimistic concurrency over HTTP (DESIGN.md §12): an item's `version` attribute as a strong `ETag`, and
 * `If-Match` as a test on the version the write will hold its condition on.
 */

/** The strong ETag of a stored version: `"3"`. */
export const etagOf = (version: number): string => `"${version}"`;

/** Whether a stored version satisfies the request's `If-Match`. */
export type VersionCheck = (version: number) => boolean;

/**
 * `If-Match` as a version check; `undefined` without the header (then nothing changes). `*` matches any
 * stored version; otherwise one of the listed entity tags must equal the version's, by strong comparison
 * (RFC 9110 §13.1.1): a weak tag (`W/"3"`) or a malformed value never matches, so it answers 412.
 */
export function ifMatch(header: string | undefined): VersionCheck | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === "*") return () => true;
  const tags = new Set<string>();
  for (const m of header.matchAll(/(W\/)?("[^"]*")/g)) if (!m[1] && m[2]) tags.add(m[2]);
  return (version) => tags.has(etagOf(version));
}
