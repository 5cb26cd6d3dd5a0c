import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { freePorts, portInUse } from "./support/ports.ts";

// The config is read by the runner and again by every worker: the runner
// chooses, and the workers inherit its choices through the environment.
// One fresh database per run.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "glide-e2e-"));
if (!process.env.E2E_PORTS_CHECKED) {
  if (process.env.E2E_PORT) {
    // A chosen port keeps its neighbours for the simulator, so runs on different ports do not collide.
    const base = Number(process.env.E2E_PORT);
    process.env.E2E_SIMULATOR_RP_PORT ??= String(base + 1);
    process.env.E2E_SIMULATOR_CONTROL_PORT ??= String(base + 2);
    process.env.E2E_CAMERA_HTTP_PORT ??= String(base + 3);
    process.env.E2E_CAMERA_RTSP_PORT ??= String(base + 4);
  } else {
    const [web, rp, control, cameraHttp, cameraRtsp] = await freePorts(5);
    process.env.E2E_PORT = String(web);
    process.env.E2E_SIMULATOR_RP_PORT = String(rp);
    process.env.E2E_SIMULATOR_CONTROL_PORT = String(control);
    process.env.E2E_CAMERA_HTTP_PORT = String(cameraHttp);
    process.env.E2E_CAMERA_RTSP_PORT = String(cameraRtsp);
  }
  const wanted = [
    ["E2E_PORT (the server)", process.env.E2E_PORT],
    ["E2E_SIMULATOR_RP_PORT (BankID simulator)", process.env.E2E_SIMULATOR_RP_PORT],
    ["E2E_SIMULATOR_CONTROL_PORT (BankID simulator control)", process.env.E2E_SIMULATOR_CONTROL_PORT],
    ["E2E_CAMERA_HTTP_PORT (camera simulator, ONVIF and pictures)", process.env.E2E_CAMERA_HTTP_PORT],
    ["E2E_CAMERA_RTSP_PORT (camera simulator, RTSP)", process.env.E2E_CAMERA_RTSP_PORT],
  ] as const;
  for (const [name, value] of wanted) {
    const code = await portInUse(Number(value));
    if (code) {
      throw new Error(
        `Port ${value} for ${name} is already in use by another program (${code}). ` +
          "Stop that program, or set E2E_PORT to another port (or leave it unset to pick free ports).",
      );
    }
  }
  process.env.E2E_PORTS_CHECKED = "1";
}
const port = Number(process.env.E2E_PORT);
const simulatorRpPort = Number(process.env.E2E_SIMULATOR_RP_PORT);
const simulatorControlPort = Number(process.env.E2E_SIMULATOR_CONTROL_PORT);
/** The BankID simulator's control side: tests approve sign-ins there, as the user's app would. */
export const SIMULATOR_CONTROL_URL = `http://127.0.0.1:${simulatorControlPort}`;
export const E2E_ADMIN = { email: "e2e-admin@example.se", password: "e2e password that is long" };
/** The camera simulator npm start runs beside the server: an ONVIF recorder with four channels (the fourth without PTZ). */
export const CAMERA_SIMULATOR = {
  host: "127.0.0.1",
  httpPort: Number(process.env.E2E_CAMERA_HTTP_PORT),
  rtspPort: Number(process.env.E2E_CAMERA_RTSP_PORT),
  user: "admin",
  password: "e2e-camera",
};

/**
 * Debian's Chromium in its headless build when it is there (what `npm test`
 * installs): the same engine without the windowed browser's software GPU
 * process, which took a core of a two-core machine. The full browser otherwise.
 */
const CHROMIUM_EXECUTABLE =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => existsSync(file)) ??
  "/usr/bin/chromium";

const chromium = {
  executablePath: CHROMIUM_EXECUTABLE,
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
  // The demo start: the server, the BankID simulator it signs shoppers in with, and the camera simulator.
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
      SIMULATOR_RP_PORT: String(simulatorRpPort),
      SIMULATOR_CONTROL_PORT: String(simulatorControlPort),
      CAMERA_SIMULATOR_HTTP_PORT: String(CAMERA_SIMULATOR.httpPort),
      CAMERA_SIMULATOR_RTSP_PORT: String(CAMERA_SIMULATOR.rtspPort),
      CAMERA_SIMULATOR_PASSWORD: CAMERA_SIMULATOR.password,
      // Short, so the entry QR's timeout can be seen without waiting ten minutes.
      ENTRY_TOKEN_TTL_SECONDS: "20",
    },
  },
});
