/**
 * The confusables table of registration numbers (registration-number.ts), `confusables.json`: unhomoglyph's mapping
 * of Unicode's confusables.txt, less the characters a number's key never holds. The key maps the characters of
 * NFD(lowercase(NFKC(number))), so an uppercase letter, a fullwidth form or a mathematical letter never reaches
 * the mapping: 4,055 of its 6,311 entries, two thirds of what the institution writes' bundles carried
 * (docs/cold-starts.md). `npm run confusables` writes the file; test/unit/confusables.test.ts fails while it
 * differs from what the installed unhomoglyph gives, and checks that every code point keys as with the full mapping.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import prototypes from "unhomoglyph/data.json" with { type: "json" };

export const TABLE_FILE = fileURLToPath(new URL("./confusables.json", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Every code point as it can stand in a number, alone and between letters (a final sigma lowercases so only there). */
export function* contexts(): Generator<string> {
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    yield c;
    yield `a${c}`;
    yield `${c}a`;
  }
}

/** The characters of NFD(lowercase(NFKC(s))) over every context: all that the key's mapping can be asked for. */
function reachable(): Set<string> {
  const out = new Set<string>();
  for (const s of contexts()) for (const c of s.normalize("NFKC").toLowerCase().normalize("NFD")) out.add(c);
  return out;
}

/** The entries of the full mapping that a number's key can reach, in the mapping's order. */
export function numberPrototypes(full: Record<string, string> = prototypes as Record<string, string>): Record<string, string> {
  const reach = reachable();
  return Object.fromEntries(Object.entries(full).filter(([c]) => reach.has(c)));
}

/** The table file's text, formatted as the repository is (Biome). */
export function tableText(): string {
  return execFileSync(join("node_modules", ".bin", "biome"), ["format", `--stdin-file-path=${TABLE_FILE}`], {
    cwd: ROOT,
    input: JSON.stringify(numberPrototypes()),
    encoding: "utf8",
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(TABLE_FILE, tableText());
  console.log(`wrote ${TABLE_FILE}`);
}
