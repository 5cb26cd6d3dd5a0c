import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { build, defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const apiTarget = "http://localhost:3000";

// Host is kept (changeOrigin: false) so the API's same-origin check sees the page's own origin.
const proxy = {
  "/api": { target: apiTarget, changeOrigin: false },
  "/ws": { target: apiTarget, changeOrigin: false, ws: true },
};

const customerPage = fileURLToPath(new URL("customer.html", import.meta.url));

/**
 * The shopper app's page (customer.html, served for /customer/*) is built on
 * its own after the console's: in one build the two pages would share one
 * copy of react-router, with everything the console uses of it, and phones
 * would load that too (budget: ARCHITECTURE.md §9). The dev server serves it
 * for /customer/* as the API server does.
 */
function shopperPage(): Plugin[] {
  return [
    {
      name: "glide:shopper-page-build",
      apply: "build",
      async closeBundle(error) {
        if (error) return;
        await build({
          configFile: false,
          root,
          plugins: [react(), tailwindcss()],
          build: { outDir: "dist", emptyOutDir: false, rolldownOptions: { input: customerPage } },
        });
        precompress(path.join(root, "dist"));
      },
    },
    {
      name: "glide:shopper-page-serve",
      apply: "serve",
      configureServer(server) {
        server.middlewares.use((req, _res, next) => {
          if (req.method === "GET" && req.url && /^\/customer(?:[/?]|$)/.test(req.url)) req.url = "/customer.html";
          next();
        });
      },
    },
  ];
}

/**
 * Brotli and gzip copies of every text file, made once at build time at the
 * highest levels; the server sends the one the browser accepts and spends no
 * CPU on it. A copy that would not be smaller is left out.
 */
function precompress(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(?:js|css|html|svg|json|wasm)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const raw = readFileSync(file);
    const copies = {
      br: brotliCompressSync(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      }),
      gz: gzipSync(raw, { level: 9 }),
    };
    for (const [ext, data] of Object.entries(copies))
      if (data.length < raw.length) writeFileSync(`${file}.${ext}`, data);
  }
}

export default defineConfig({
  // Pinned so `vite` behaves the same whether started from the repo root or from apps/web.
  root,
  plugins: [react(), tailwindcss(), ...shopperPage()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
