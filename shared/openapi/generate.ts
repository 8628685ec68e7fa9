/**
 * The TypeScript types of the API document, as any client would generate them (`openapi-typescript`), kept
 * in `api-types.ts` for the tests' typed client: `npm run openapi:types` writes them; a test fails while the
 * committed file differs from what the current document gives.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { buildDocument } from "./document.js";

export const TYPES_FILE = fileURLToPath(new URL("./api-types.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The types file's text: openapi-typescript's output under a header, formatted as the repository is (Biome). */
export async function generateTypes(): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(buildDocument("throw"))));
  const text = `// Generated from the API document by \`npm run openapi:types\` (openapi-typescript); do not edit.\n\n${astToString(ast)}`;
  return execFileSync(join("node_modules", ".bin", "biome"), ["format", `--stdin-file-path=${TYPES_FILE}`], {
    cwd: ROOT,
    input: text,
    encoding: "utf8",
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(TYPES_FILE, await generateTypes());
  console.log(`wrote ${TYPES_FILE}`);
}
