/**
 * `npm start`: the demo start. Builds the web app when its sources are newer
 * than the build, starts the BankID simulator unless BANKID_URL points at a
 * real BankID, then runs the server with demo data and the development aids
 * on (anything set in the environment wins). The simulator's control side
 * listens where the server does (HOST), so that a phone that reaches the
 * server reaches the simulator's "BankID app" page too: BANKID_APP_URL points
 * there, and the server gives a phone that address under the host name the
 * phone used (a loopback name would mean the phone itself). Unless
 * STRIPE_SECRET_KEY is set, the payment simulator runs too, and the server
 * is given its address and key (STRIPE_API_BASE, STRIPE_SECRET_KEY); its card
 * page also listens on HOST. The camera simulator runs too, and the demo
 * store's cameras are on it.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const built = path.join(root, "apps/web/dist/index.html");

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

const sources = [
  "apps/web/src",
  "apps/web/index.html",
  "apps/web/customer.html",
  "apps/web/vite.config.ts",
  "packages/contracts/src",
].map((p) => path.join(root, p));
const sourceTime = Math.max(
  ...sources.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newest(p) : statSync(p).mtimeMs)),
);
if (!existsSync(built) || statSync(built).mtimeMs < sourceTime) {
  process.stdout.write("Building the web app...\n");
  const result = spawnSync("npm", ["run", "build", "-w", "@glide/web"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The simulator runs as its own process, like the outside system it stands in for. */
async function startBankIdSimulator(): Promise<void> {
  const dir = path.resolve(process.env.DATA_DIR ?? "./data", "bankid-simulator");
  const child = spawn(
    process.execPath,
    [
      path.join(root, "tools/bankid-simulator/main.ts"),
      "--dir",
      dir,
      "--rp-port",
      process.env.SIMULATOR_RP_PORT ?? "8443",
      "--control-port",
      process.env.SIMULATOR_CONTROL_PORT ?? "8444",
      "--host",
      process.env.HOST ?? "127.0.0.1",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const settings = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      if (!out.includes("BANKID_CA=")) return;
      process.stdout.write(out);
      resolve(Object.fromEntries([...out.matchAll(/^\s+(BANKID_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!])));
    });
    child.on("exit", (code) => reject(new Error(`The BankID simulator stopped (exit ${code})`)));
  });
  const { BANKID_APP_URL: appUrl, ...rpSettings } = settings;
  Object.assign(process.env, rpSettings);
  if (appUrl) process.env.BANKID_APP_URL ??= appUrl;
  // The simulator goes when the server goes.
  process.on("exit", () => child.kill());
}

/** The payment simulator, the same way: its own process, its settings read from what it prints. */
async function startPaymentSimulator(): Promise<void> {
  const port = process.env.PAYMENT_SIMULATOR_PORT;
  const child = spawn(
    process.execPath,
    [
      path.join(root, "tools/payment-simulator/main.ts"),
      ...(port ? ["--port", port] : []),
      "--host",
      process.env.HOST ?? "127.0.0.1",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const settings = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      if (!out.includes("STRIPE_SECRET_KEY=") || !out.endsWith("\n")) return;
      process.stdout.write(out);
      resolve(Object.fromEntries([...out.matchAll(/^\s+(STRIPE_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!])));
    });
    child.on("exit", (code) => reject(new Error(`The payment simulator stopped (exit ${code})`)));
  });
  Object.assign(process.env, settings);
  // Its hosted card page, where the shopper's "Lägg till kort" leads.
  if (settings.STRIPE_API_BASE) process.env.CARD_PAGE_URL ??= `${settings.STRIPE_API_BASE}/card`;
  process.on("exit", () => child.kill());
}

/**
 * The camera simulator: an ONVIF recorder with four cameras, RTSP and
 * snapshots. The demo store's cameras point at it (DEMO_CAMERA_SYSTEM), on
 * fixed ports so that they still answer after a restart.
 */
async function startCameraSimulator(): Promise<void> {
  const run = (httpPort: string, rtspPort: string) => {
    const child = spawn(
      process.execPath,
      [
        path.join(root, "tools/camera-simulator/main.ts"),
        "--http-port",
        httpPort,
        "--rtsp-port",
        rtspPort,
        "--password",
        process.env.CAMERA_SIMULATOR_PASSWORD ?? "demo-camera",
        "--host",
        process.env.HOST ?? "127.0.0.1",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    return new Promise<Record<string, string>>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        if (!out.includes("CAMERA_SIM_CONTROL=") || !out.endsWith("\n")) return;
        process.stdout.write(out);
        process.on("exit", () => child.kill());
        resolve(Object.fromEntries([...out.matchAll(/^\s+(CAMERA_SIM_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!])));
      });
      child.on("exit", (code) => reject(new Error(`The camera simulator stopped (exit ${code})`)));
    });
  };
  const http = process.env.CAMERA_SIMULATOR_HTTP_PORT ?? "8446";
  const rtsp = process.env.CAMERA_SIMULATOR_RTSP_PORT ?? "8554";
  const settings = await run(http, rtsp).catch(() => {
    process.stdout.write(`Ports ${http} and ${rtsp} are taken; the camera simulator takes free ones.\n`);
    return run("0", "0");
  });
  const at = new URL(settings.CAMERA_SIM_HTTP!);
  at.username = encodeURIComponent(settings.CAMERA_SIM_USER!);
  at.password = encodeURIComponent(settings.CAMERA_SIM_PASSWORD!);
  process.env.DEMO_CAMERA_SYSTEM ??= at.toString().replace(/\/$/, "");
}

if (!process.env.BANKID_URL) await startBankIdSimulator();
await startCameraSimulator();
if (!process.env.STRIPE_SECRET_KEY) await startPaymentSimulator();

process.env.DEMO_DATA ??= "true";
process.env.DEV_TOOLS ??= "true";
await import("../apps/server/src/main.ts");
