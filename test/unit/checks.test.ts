/**
 * `npm test`, and so CI, runs what the README promises besides the tests: the type check of both projects
 * (`npm run typecheck`, so that a type-level test such as test/unit/result-types.test.ts can fail the run) and the
 * linter (`npm run lint`). The commands are package.json's own; the type check's two projects and the linter run
 * at once, beside the other test files. A failure shows their output.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../infra/local/services.js";

const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
/** `a && b` runs b only after a: here each part runs on its own, all at once. */
const commands = [...(scripts.typecheck ?? "").split("&&"), scripts.lint ?? ""].map((c) => c.trim());

/** Runs `command` as npm would (the project's binaries first on the PATH); resolves with its exit code and output. */
function run(command: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], {
      cwd: ROOT,
      env: { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe.concurrent("the checks of package.json", () => {
  it("are the type check of both projects and the linter", () => {
    expect(commands).toEqual(["tsc --noEmit", "tsc --noEmit -p web", "biome check ."]);
  });

  for (const command of commands) {
    // Minutes on a loaded 2-core machine: the type check of the whole project is the slowest file of the run.
    it(`\`${command}\` passes`, { timeout: 15 * 60_000 }, async () => {
      const { code, output } = await run(command);
      expect(code, `${command}:\n${output}`).toBe(0);
    });
  }
});
