/**
 * What a browser downloads to show each page: Chromium opens it on the real
 * server and lists the files it fetches from our origin; each is then
 * fetched again with brotli, with gzip only, and with no compression, and
 * the bytes on the wire are added up. Returns its section of bench/results.md.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { root, withServer } from "./lib.ts";

/** ARCHITECTURE.md §9: JS + CSS to first render of /customer/*, gzipped. */
const SHOPPER_BUDGET_KB = 120;
const dist = path.join(root, "apps/web/dist");

const PAGES = [
  { name: "Shopper app", url: "/customer?store_id=demo" },
  { name: "Admin console", url: "/login" },
];
const ENCODINGS = ["br", "gzip", "identity"] as const;
type Encoding = (typeof ENCODINGS)[number];

/** One GET with the given Accept-Encoding; the bytes as they came over the wire. */
function download(base: string, url: string, encoding: Encoding): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${url}`, { headers: { "accept-encoding": encoding } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on("end", () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${url} answered ${res.statusCode}`));
        else resolve({ bytes, encoding: String(res.headers["content-encoding"] ?? "identity") });
      });
    });
    req.on("error", reject);
  });
}

/**
 * The files Chromium fetches from our origin to show the page, lazily loaded
 * route modules included, until the network is quiet. API calls are not
 * counted: they are data, not page weight.
 */
async function firstRenderAssets(browser: Browser, base: string, url: string): Promise<string[]> {
  const page = await browser.newPage();
  const found = new Set<string>();
  page.on("request", (request) => {
    const u = new URL(request.url());
    if (u.origin === base && !u.pathname.startsWith("/api/")) found.add(u.pathname);
  });
  await page.goto(`${base}${url}`, { waitUntil: "networkidle" });
  await page.close();
  found.delete(new URL(`${base}${url}`).pathname);
  return [...found].sort();
}

type PageFigures = {
  name: string;
  url: string;
  assets: string[];
  kb: Record<Encoding, number>;
  /** Console texts found in this page's first-render code: there should be none in the shopper app. */
  consoleCode: string[];
};

/** Texts only the console's code carries; finding one in the shopper's files means console code came along. */
const CONSOLE_MARKERS = ["Platform Dashboard", "Global Product Database", "Toggle Sidebar", "Manage Modules"];

export async function bundleBench(): Promise<string> {
  const build = spawnSync("npm", ["run", "build", "-w", "@glide/web"], { cwd: root, encoding: "utf8" });
  if (build.status !== 0 || !existsSync(path.join(dist, "customer.html"))) {
    return `## Page weight\n\nNot measured: the web build failed.\n\n\`\`\`\n${build.stdout}${build.stderr}\n\`\`\`\n`;
  }
  const browser = await chromium
    .launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" })
    .catch((err: Error) => err);
  if (browser instanceof Error) return `## Page weight\n\nNot measured: Chromium did not start (${browser.message}).\n`;
  const measured = await withServer({ DEMO_DATA: "true" }, async (server) => {
    const figures: PageFigures[] = [];
    for (const page of PAGES) {
      const assets = await firstRenderAssets(browser, server.base, page.url);
      const kb = {} as Record<Encoding, number>;
      for (const encoding of ENCODINGS) {
        let bytes = 0;
        for (const url of [page.url, ...assets]) {
          const got = await download(server.base, url, encoding);
          if (encoding !== "identity" && got.encoding !== encoding) {
            throw new Error(`${url} came ${got.encoding}, not ${encoding}`);
          }
          bytes += got.bytes;
        }
        kb[encoding] = bytes / 1024;
      }
      const code = assets
        .filter((a) => /\.(?:js|css)$/.test(a))
        .map((a) => readFileSync(path.join(dist, a), "utf8"))
        .join("\n");
      const consoleCode = CONSOLE_MARKERS.filter((marker) => code.includes(marker));
      figures.push({ name: page.name, url: page.url, assets, kb, consoleCode });
    }
    return figures;
  })
    .catch((err: Error) => err)
    .finally(() => browser.close());
  // Like the other sections, a failure is reported in place rather than losing the whole run.
  if (measured instanceof Error) return `## Page weight\n\nNot measured: ${measured.message}\n`;
  return bundleReport(measured);
}

function bundleReport(pages: PageFigures[]): string {
  const kb = (v: number) => v.toFixed(1);
  const shopper = pages[0]!;
  const met = shopper.kb.gzip <= SHOPPER_BUDGET_KB && shopper.consoleCode.length === 0;
  const rows = pages.map(
    (p) =>
      `| ${p.name} | \`${p.url}\` | ${p.assets.length + 1} | ${kb(p.kb.br)} | ${kb(p.kb.gzip)} | ${kb(p.kb.identity)} |`,
  );
  return `## Page weight: what a browser downloads to show each page

Budget: shopper pages, JS + CSS to first render of \`/customer/*\` ≤ ${SHOPPER_BUDGET_KB} KB gzipped, and no console code (ARCHITECTURE §9).

- Shopper app: **${met ? "met" : "not met"}**; ${kb(shopper.kb.gzip)} KB with gzip (the HTML and the icon counted too), ${kb(shopper.kb.br)} KB with brotli; console texts in its code (${CONSOLE_MARKERS.map((m) => `"${m}"`).join(", ")}): ${shopper.consoleCode.length ? shopper.consoleCode.join(", ") : "none"}.

| page | URL | files | brotli KB | gzip KB | uncompressed KB |
|---|---|---:|---:|---:|---:|
${rows.join("\n")}

### How it was measured

- \`npm run build -w @glide/web\`, then the real server (PGlite, fresh data folder, demo data) on 127.0.0.1. Chromium opens each page (1280 × 720) and waits until the network is quiet; every file it fetched from our origin counts (the HTML, scripts, style sheets, lazily loaded route modules, icons), API calls do not.
- Each file is fetched once per column with \`Accept-Encoding: br\`, \`gzip\` or \`identity\`; the figure is the bytes of the response bodies as sent (headers not counted). The build writes brotli (quality 11) and gzip (level 9) copies; the server sends the accepted one.
- Files in the first render: ${pages.map((p) => `${p.name}: ${p.assets.map((a) => `\`${path.basename(a)}\``).join(", ")}`).join("; ")}.
`;
}
