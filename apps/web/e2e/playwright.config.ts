import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { freePorts, portInUse } from "./support/ports.ts";

// The config is read by the runner and again by every worker: the runner
// chooses, and the workers inherit its choices through the environment.
// Each worker has a stack of its own (server, fresh database, BankID and
// camera simulators): the specs change global settings and count dashboard
// totals, so two workers must never share one. A worker finds its stack by
// Playwright's TEST_PARALLEL_INDEX, which stays the same when a worker is
// replaced after a failure.
/**
 * One worker left about half of two cores idle (the specs wait on timers,
 * the server and the simulators); two keep both busy. E2E_WORKERS chooses.
 */
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
const PORTS_PER_STACK = 5;
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "glide-e2e-"));
if (!process.env.E2E_PORTS_CHECKED) {
  // A chosen port keeps its neighbours for the simulators and the next stacks, so runs on different ports do not collide.
  const ports = process.env.E2E_PORT
    ? Array.from({ length: WORKERS * PORTS_PER_STACK }, (_, index) => Number(process.env.E2E_PORT) + index)
    : await freePorts(WORKERS * PORTS_PER_STACK);
  for (const port of ports) {
    const code = await portInUse(port);
    if (code) {
      throw new Error(
        `Port ${port} for the browser tests' servers and simulators is already in use by another program (${code}). ` +
          "Stop that program, or set E2E_PORT to another first port (or leave it unset to pick free ports).",
      );
    }
  }
  process.env.E2E_PORT_LIST = ports.join(",");
  process.env.E2E_PORTS_CHECKED = "1";
}

/** One worker's server and simulators: their ports and the server's data folder. */
function stack(index: number) {
  const [web, rp, control, cameraHttp, cameraRtsp] = (process.env.E2E_PORT_LIST ?? "")
    .split(",")
    .slice(index * PORTS_PER_STACK, (index + 1) * PORTS_PER_STACK)
    .map(Number);
  const dataDir = path.join(process.env.E2E_DATA_DIR ?? "", `stack-${index}`);
  return { web, rp, control, cameraHttp, cameraRtsp, dataDir };
}
/** This worker's stack; the runner's is the first. */
const own = stack(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
/** The BankID simulator's control side: tests approve sign-ins there, as the user's app would. */
export const SIMULATOR_CONTROL_URL = `http://127.0.0.1:${own.control}`;
export const E2E_ADMIN = { email: "e2e-admin@example.se", password: "e2e password that is long" };
/** The camera simulator npm start runs beside the server: an ONVIF recorder with four channels (the fourth without PTZ). */
export const CAMERA_SIMULATOR = {
  host: "127.0.0.1",
  httpPort: own.cameraHttp,
  rtspPort: own.cameraRtsp,
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
  // The specs of one worker share its stack: they run one at a time there,
  // so totals on the dashboard are the specs' own.
  workers: WORKERS,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two stacks share two cores: a screen that shows within a second alone can
  // take several while the other worker runs axe (a session's detail took over
  // five seconds once). The limits are for what never comes, not for speed.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json"]],
  use: {
    baseURL: `http://localhost:${own.web}`,
    // A failed test keeps its trace (actions, DOM snapshots, network) without the screencast: recording every test's
    // screens kept Chromium's compositor and browser processes busy for about a quarter of the run (README, "Test it"),
    // and the failure's own screenshot below still shows the screen.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    { name: "phone", use: { ...devices["Pixel 7"], launchOptions: chromium } },
  ],
  // Per worker, the demo start: the server, the BankID simulator it signs
  // shoppers in with, and the camera simulator.
  webServer: Array.from({ length: WORKERS }, (_, index) => {
    const { web, rp, control, cameraHttp, cameraRtsp, dataDir } = stack(index);
    return {
      name: `stack ${index}`,
      command: `"${process.execPath}" scripts/start.ts`,
      cwd: path.resolve(import.meta.dirname, "../../.."),
      url: `http://localhost:${web}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
      env: {
        PORT: String(web),
        DATA_DIR: dataDir,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        LOG_LEVEL: "warn",
        DEMO_DATA: "false",
        DEV_TOOLS: "true",
        SIMULATOR_RP_PORT: String(rp),
        SIMULATOR_CONTROL_PORT: String(control),
        CAMERA_SIMULATOR_HTTP_PORT: String(cameraHttp),
        CAMERA_SIMULATOR_RTSP_PORT: String(cameraRtsp),
        CAMERA_SIMULATOR_PASSWORD: CAMERA_SIMULATOR.password,
        // Short, so the entry QR's timeout can be seen without waiting ten minutes.
        ENTRY_TOKEN_TTL_SECONDS: "20",
      },
    };
  }),
});
