/**
 * The uniqueness key of a registration number (docs/contract/institutions.md, docs/security.md): two numbers that look alike are one
 * number. NFKC first (`ＡＣ-1` is `AC-1`), case folded, then the Unicode TR39 skeleton, which maps every
 * confusable character to its prototype (Cyrillic `АС-1`, `AC-l` and `AC‐1` with U+2010 are all `AC-1`).
 *
 * The skeleton is TR39's own algorithm, NFD → prototype of each character → NFD, over the mapping of
 * Unicode's confusables.txt as the `unhomoglyph` package ships it (nodeca; its data, not its function:
 * the function compiles one regular expression of 6,311 alternatives at import, ~20 ms of cold start on
 * every function that loads it, where a lookup per character costs nothing), less the characters that
 * NFKC and lowercasing leave out of a key (confusables.json, written by confusables-generate.ts). Only the
 * functions that write a number's guard (create, update, delete) reach this module, so only their bundles
 * carry the table (~40 KB), and they import it dynamically (repository.ts): it is evaluated when a number is
 * first checked, not at every cold start.
 */

import { type Key, keys } from "../tables.js";
import prototypes from "./confusables.json" with { type: "json" };

const mapping = prototypes as Record<string, string>;

/** TR39 skeleton: NFD, each character replaced by its prototype, NFD again. */
export function skeleton(s: string): string {
  let out = "";
  for (const c of s.normalize("NFD")) out += Object.hasOwn(mapping, c) ? mapping[c] : c;
  return out.normalize("NFD");
}

/** The key under which a number is unique in its account. */
export const registrationNumberKey = (number: string): string => skeleton(number.normalize("NFKC").toLowerCase()).toLowerCase();

/** The guard item's key of `number` in `accountId`. */
export const registrationGuard = (accountId: string, number: string): Key =>
  keys.registrationNumber(accountId, registrationNumberKey(number));
