/**
 * The decoder lab (decoder-lab/): a page with the shopper scanner's decoder
 * for tests and the bench, built by Vite on its own into a temporary folder
 * (never into the app's dist) and served from 127.0.0.1, which browsers
 * treat as a secure origin, so the page may open the camera.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";

const labRoot = path.join(import.meta.dirname, "decoder-lab");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".gray": "application/octet-stream",
};

export interface DecoderLabServer {
  /** The lab page, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** Frames the page fetches as /frames/<name>.gray. */
  frames: Map<string, Uint8Array>;
  close(): Promise<void>;
}

/** Builds the lab page (a few seconds) and serves it; `close` stops the server and deletes the build. */
export async function startDecoderLab(): Promise<DecoderLabServer> {
  const outDir = mkdtempSync(path.join(tmpdir(), "glide-decoder-lab-"));
  await build({
    configFile: false,
    root: labRoot,
    base: "./",
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, reportCompressedSize: false },
  });
  const frames = new Map<string, Uint8Array>();
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://lab").pathname);
    const frame = /^\/frames\/(.+)\.gray$/.exec(pathname);
    let body: Uint8Array | undefined;
    if (frame) body = frames.get(frame[1]!);
    else {
      const file = path.join(outDir, pathname === "/" ? "index.html" : pathname);
      if (file.startsWith(outDir) && statSync(file, { throwIfNoEntry: false })?.isFile()) body = readFileSync(file);
    }
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const type = TYPES[path.extname(pathname)] ?? (pathname === "/" ? TYPES[".html"]! : "application/octet-stream");
    res.writeHead(200, { "content-type": type, "content-length": body.length, "cache-control": "no-store" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    frames,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
