import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// One fresh database per run; workers inherit the folder through the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "glide-e2e-"));
const port = Number(process.env.E2E_PORT ?? 3100);
/** The BankID simulator's control side: tests approve sign-ins there, as the user's app would. */
export const SIMULATOR_CONTROL_URL = `http://127.0.0.1:${port + 2}`;
export const E2E_ADMIN = { email: "e2e-admin@example.se", password: "e2e password that is long" };

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: ".",
  outputDir: path.join(process.env.E2E_DATA_DIR, "results"),
  // The specs share one server and one database: run them one at a time so
  // totals on the dashboard are the specs' own.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [["list"], ["json"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    { name: "phone", use: { ...devices["Pixel 7"], launchOptions: chromium } },
  ],
  // The demo start: the server and the BankID simulator it signs shoppers in with.
  webServer: {
    command: `"${process.execPath}" scripts/start.ts`,
    cwd: path.resolve(import.meta.dirname, "../../.."),
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: "warn",
      DEMO_DATA: "false",
      DEV_TOOLS: "true",
      SIMULATOR_RP_PORT: String(port + 1),
      SIMULATOR_CONTROL_PORT: String(port + 2),
      // Short, so the entry QR's timeout can be seen without waiting ten minutes.
      ENTRY_TOKEN_TTL_SECONDS: "20",
    },
  },
});
