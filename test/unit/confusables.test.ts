/**
 * The registration numbers' confusables table (shared/institutions/confusables.json) is unhomoglyph's mapping less
 * what a number's key never reaches: it must be what the installed package gives, and every code point, alone and
 * between letters, must key as it does with the full mapping (TR39's skeleton over all of confusables.txt).
 */
import { readFileSync } from "node:fs";
import full from "unhomoglyph/data.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { contexts, TABLE_FILE, tableText } from "../../shared/institutions/confusables-generate.js";
import { registrationNumberKey } from "../../shared/institutions/registration-number.js";

const mapping = full as Record<string, string>;

/** The key as registration-number.ts makes it, over the full mapping. */
function fullKey(number: string): string {
  let out = "";
  for (const c of number.normalize("NFKC").toLowerCase().normalize("NFD")) out += Object.hasOwn(mapping, c) ? mapping[c] : c;
  return out.normalize("NFD").toLowerCase();
}

describe("the confusables table", () => {
  it("is current: what `npm run confusables` writes from the installed unhomoglyph", () => {
    expect(readFileSync(TABLE_FILE, "utf8"), "run `npm run confusables`").toBe(tableText());
  }, 60_000);

  it("is smaller than the full mapping, and keys every code point as the full mapping does", () => {
    const table = JSON.parse(readFileSync(TABLE_FILE, "utf8")) as Record<string, string>;
    expect(Object.keys(table).length).toBeLessThan(Object.keys(mapping).length / 2);
    const differ: string[] = [];
    for (const s of contexts()) if (registrationNumberKey(s) !== fullKey(s)) differ.push(s);
    expect(differ).toEqual([]);
    // Look-alikes still fold, and a dropped entry's character (an uppercase Cyrillic letter) folds through NFKC and case.
    expect(registrationNumberKey("АС-1")).toBe(registrationNumberKey("AC-l"));
    expect(registrationNumberKey("ＡＣ‐1")).toBe(registrationNumberKey("ac-1"));
    expect(Object.hasOwn(mapping, "А") && !Object.hasOwn(table, "А")).toBe(true);
  }, 120_000);
});
