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

/**
 * Cloudscape's AppLayout chooses at run time among three layouts: classic, visual refresh, and the toolbar
 * layout that only consoles setting a global flag get. This package's theme is always visual refresh
 * (ALWAYS_VISUAL_REFRESH) and the console sets no such flag, so only the visual refresh layout ever renders;
 * the other two (with the drag-and-drop library the toolbar's drawers use) are 170 kB of the frame's 565 kB
 * chunk that every cold load would download and compile for nothing. They are left out; if one were ever
 * chosen, it throws, and the error boundary says so.
 */
function onlyVisualRefreshLayout(): Plugin {
  const unused = new Set(["./classic", "./visual-refresh-toolbar"]);
  const STUB = "\0console:unused-app-layout";
  let replaced = 0;
  return {
    name: "console:only-visual-refresh-layout",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      if (!importer?.endsWith("/@cloudscape-design/components/app-layout/internal.js") || !unused.has(source)) return null;
      replaced++;
      return STUB;
    },
    load(id) {
      if (id !== STUB) return null;
      return "export default function UnusedAppLayout() { throw new Error('This AppLayout variant is not in the console build (web/vite.config.ts).'); }";
    },
    buildEnd() {
      // A Cloudscape release that moves these files makes this a no-op: say so rather than grow silently.
      if (replaced !== unused.size)
        this.warn(`left out ${replaced} of ${unused.size} unused AppLayout variants; see onlyVisualRefreshLayout`);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  plugins: [react(), fontsAsFiles(), onlyVisualRefreshLayout()],
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
