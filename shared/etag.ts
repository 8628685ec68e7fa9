/**
 * Optimistic concurrency over HTTP (docs/contract/README.md#retries-and-concurrent-edits): an item's `version` attribute as a strong `ETag`, and
 * `If-Match` as a test on the version the write will hold its condition on.
 */

/** The strong ETag of a stored version: `"3"`. */
export const etagOf = (version: number): string => `"${version}"`;

/** Whether a stored version satisfies the request's `If-Match`. */
export type VersionCheck = (version: number) => boolean;

/** One element of the list: an entity tag (RFC 9110 §8.8.3), weak or strong; etagc is %x21 / %x23-7E / obs-text. */
const ENTITY_TAG = /^(W\/)?("[\x21\x23-\x7E\x80-\xFF]*")$/;

/**
 * `If-Match` as a version check; `undefined` without the header (then nothing changes). `*` alone matches
 * any stored version; otherwise the header must be a list of entity tags (RFC 9110 §13.1.1, elements split
 * on commas with optional whitespace, empty elements allowed) and one strong tag must equal the version's.
 * A weak tag (`W/"3"`) never matches (strong comparison); a header that is not such a list (`"2"x`,
 * `"2" "3"`, `*, "2"`) matches nothing, so it answers 412. Hand-written: the few lines of grammar that no kept
 * package parses strictly (`fresh` and the like split on commas and compare substrings).
 */
export function ifMatch(header: string | undefined): VersionCheck | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === "*") return () => true;
  const tags = new Set<string>();
  for (const element of header.split(",")) {
    const value = element.replace(/^[ \t]+|[ \t]+$/g, "");
    if (value === "") continue;
    const m = ENTITY_TAG.exec(value);
    if (!m) return () => false;
    if (!m[1] && m[2]) tags.add(m[2]);
  }
  return (version) => tags.has(etagOf(version));
}
