/**
 * Builds the console (web/ → web/dist) when its sources changed since the last build: `npm start` and the
 * test run call this, so what they serve is never an old build, and an unchanged console costs a hash of
 * its sources (milliseconds) instead of a Vite build (seconds).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { ROOT } from "./services.js";

export const WEB_DIR = join(ROOT, "web");
export const DIST_DIR = join(WEB_DIR, "dist");
/** The hash of the sources the build in DIST_DIR was made from (outside the build, which is deployed as it is). */
const STAMP = join(ROOT, ".local", "console-build-stamp");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Everything the build reads that can change: the sources, the page, the build's config, the dependencies. */
export function sourceHash(): string {
  const inputs = [
    ...files(join(WEB_DIR, "src")),
    join(WEB_DIR, "index.html"),
    join(WEB_DIR, "vite.config.ts"),
    join(ROOT, "package-lock.json"),
  ].sort();
  const hash = createHash("sha256");
  for (const f of inputs) hash.update(relative(ROOT, f)).update("\0").update(readFileSync(f)).update("\0");
  return hash.digest("hex");
}

export function consoleIsBuilt(): boolean {
  return existsSync(join(DIST_DIR, "index.html")) && existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === sourceHash();
}

/** Runs `vite build` (in a process of its own) unless web/dist is the build of the current sources, or `force`. */
export async function ensureConsoleBuilt(opts: { log?: (line: string) => void; force?: boolean } = {}): Promise<"fresh" | "built"> {
  if (!opts.force && consoleIsBuilt()) return "fresh";
  const hash = sourceHash();
  const vite = join(createRequire(import.meta.url).resolve("vite/package.json"), "..", "bin", "vite.js");
  opts.log?.("Building the console (web/ → web/dist)…");
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, "build", "--config", join(WEB_DIR, "vite.config.ts"), "--logLevel", "warn"], {
      cwd: ROOT,
      // The test runner's NODE_ENV=test would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output.slice(-4000)}`))));
  });
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${hash}\n`);
  opts.log?.(`Built the console in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return "built";
}

export interface BundleSizes {
  /** Every JavaScript file of the build, gzipped, in KiB (all pages: the budget counts them all). */
  readonly jsGzipKb: number;
  readonly cssGzipKb: number;
}

/** The built console's JS and CSS as they travel gzipped (fonts and HTML are not counted). */
export function bundleSizes(distDir = DIST_DIR): BundleSizes {
  let js = 0;
  let css = 0;
  for (const f of files(join(distDir, "assets"))) {
    if (f.endsWith(".js")) js += gzipSync(readFileSync(f)).length;
    else if (f.endsWith(".css")) css += gzipSync(readFileSync(f)).length;
  }
  const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
  return { jsGzipKb: kb(js), cssGzipKb: kb(css) };
}

// `npm run build:web`: always builds, and records what it built from.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureConsoleBuilt({ force: true, log: (line) => console.log(line) }).then(
    () => {
      const { jsGzipKb, cssGzipKb } = bundleSizes();
      console.log(`web/dist: JS ${jsGzipKb} KB + CSS ${cssGzipKb} KB gzipped`);
    },
    (err: unknown) => {
      console.error((err as Error).message);
      process.exit(1);
    },
  );
}
