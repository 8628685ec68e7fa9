/** The console's build: `npm run build:web` writes web/dist, which the local gateway (and, deployed, S3) serves. */
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * Cloudscape's global styles carry the Open Sans faces inline, as base64 in the CSS (160 kB of the CSS's
 * gzipped size). As files of their own, the browser fetches only the faces a page uses, in parallel and off
 * the render path, and the CSS everything waits for stays small.
 */
function fontsAsFiles(): Plugin {
  const inline = /url\((['"]?)data:font\/woff2;base64,([A-Za-z0-9+/=]+)\1\)/g;
  return {
    name: "console:fonts-as-files",
    apply: "build",
    generateBundle(_options, bundle) {
      for (const asset of Object.values(bundle)) {
        if (asset.type !== "asset" || !asset.fileName.endsWith(".css") || typeof asset.source !== "string") continue;
        const css = asset.source.replace(inline, (_m, _q, base64: string) => {
          const bytes = Buffer.from(base64, "base64");
          const fileName = `assets/font-${createHash("sha256").update(bytes).digest("hex").slice(0, 12)}.woff2`;
          if (!(fileName in bundle)) this.emitFile({ type: "asset", fileName, source: bytes });
          return `url(/${fileName})`;
        });
        // Text shows in the fallback font at once rather than staying invisible while a face loads.
        asset.source = css.replace(/@font-face\{/g, "@font-face{font-display:swap;");
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  plugins: [react(), fontsAsFiles()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Cloudscape's larger pages (tables, charts) are a few hundred kB before gzip; the budget is checked on gzip.
    chunkSizeWarningLimit: 1200,
    reportCompressedSize: false,
  },
  // `npx vite --config web/vite.config.ts` serves the sources with /api and /config.json from a running `npm start`.
  server: {
    proxy: {
      "/api": process.env.CONSOLE_API ?? "http://127.0.0.1:3000",
      "/config.json": process.env.CONSOLE_API ?? "http://127.0.0.1:3000",
    },
  },
});
