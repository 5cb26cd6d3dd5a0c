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
 * page also listens on HOST, and it keeps its customers, cards and payments
 * in DATA_DIR (payment-simulator.json) from one start to the next. The camera simulator runs too, and the demo
 * store's cameras are on it.
 *
 * The server and the simulators each run in a process of their own, and
 * stopping the start stops them all: SIGINT, SIGTERM or SIGHUP to this
 * process or to npm, npm gone, or this process killed outright.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";

const root = path.resolve(import.meta.dirname, "..");
const built = path.join(root, "apps/web/dist/index.html");

/** The processes this one started: they go when it goes, whatever ends it. */
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGTERM");
});

let server: ChildProcess | null = null;
let stopping = false;
/**
 * The first SIGINT, SIGTERM or SIGHUP stops the server, and its exit ends
 * this process (and so the simulators, after it); before the server runs, it
 * ends this process at once. Only the first: npm passes on the Ctrl-C the
 * terminal has sent here already, and a second signal would cut the server's
 * graceful close short (it takes at most 10 s, main.ts).
 */
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  if (server) server.kill("SIGTERM");
  else process.exit(128 + constants.signals[signal]);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);

/** A process's parent and name, from /proc (Linux); null where there is no /proc or no such process. */
function processInfo(pid: number): { ppid: number; name: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return state === "Z"
      ? null
      : { ppid: Number(ppid), name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) };
  } catch {
    return null;
  }
}
const alive = (pid: number) => {
  if (existsSync("/proc/self/stat")) return processInfo(pid) !== null;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * Under npm the start also ends when npm goes: npm passes SIGINT and SIGTERM
 * on (package.json's `exec` makes this process npm's child, not a shell's),
 * but a SIGHUP ends npm and passes nothing. Where a shell still stands
 * between (`sh -c`, as Playwright's web server runs it), its parent is watched
 * too, since a shell that dies of a SIGTERM does not pass it on either. On
 * losing one of them the start shuts down as on SIGTERM. Run by hand (node
 * scripts/start.ts, nohup...) it watches nothing: signals reach it directly.
 */
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  const shell = processInfo(parent);
  const watched = [parent, ...(shell && /^(ba|da|z|k|a)?sh$/.test(shell.name) ? [shell.ppid] : [])];
  const watch = setInterval(() => {
    if (process.ppid === parent && watched.every(alive)) return;
    clearInterval(watch);
    stop("SIGTERM");
  }, 500);
  watch.unref();
}

/**
 * A process of its own, in a process group of its own, so that a terminal's
 * Ctrl-C reaches only this process, which stops them in order. Each is
 * loaded with exit-with-parent.ts: it stops when this process is gone, even
 * killed outright.
 */
function startProcess<O extends "pipe" | "inherit">(script: string, args: string[], stdout: O) {
  const started = spawn(
    process.execPath,
    ["--import", path.join(root, "scripts/exit-with-parent.ts"), path.join(root, script), ...args],
    { stdio: ["ignore", stdout, "inherit"], detached: true },
  );
  children.add(started);
  started.on("exit", () => children.delete(started));
  return started;
}

/** A simulator, like the outside system it stands in for; its settings come on stdout. */
const simulator = (script: string, args: string[]) =>
  startProcess(script, args, "pipe") as ChildProcessByStdio<null, Readable, null>;

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
// WEB_DIST names a build of one's own, served as it is.
if (!process.env.WEB_DIST && (!existsSync(built) || statSync(built).mtimeMs < sourceTime)) {
  process.stdout.write("Building the web app...\n");
  const result = spawnSync("npm", ["run", "build", "-w", "@glide/web"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** The BankID simulator, its settings read from what it prints. */
async function startBankIdSimulator(): Promise<void> {
  const dir = path.resolve(process.env.DATA_DIR ?? "./data", "bankid-simulator");
  const child = simulator("tools/bankid-simulator/main.ts", [
    "--dir",
    dir,
    "--rp-port",
    process.env.SIMULATOR_RP_PORT ?? "8443",
    "--control-port",
    process.env.SIMULATOR_CONTROL_PORT ?? "8444",
    "--host",
    process.env.HOST ?? "127.0.0.1",
  ]);
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
}

/** The payment simulator, the same way: its own process, its settings read from what it prints. */
async function startPaymentSimulator(): Promise<void> {
  const port = process.env.PAYMENT_SIMULATOR_PORT;
  // Beside the database: the payments the server has recorded are still there after a restart, so they can be refunded.
  const stateFile = path.resolve(process.env.DATA_DIR ?? "./data", "payment-simulator.json");
  const child = simulator("tools/payment-simulator/main.ts", [
    ...(port ? ["--port", port] : []),
    "--host",
    process.env.HOST ?? "127.0.0.1",
    "--state-file",
    stateFile,
  ]);
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
}

/**
 * What the demo's entrance (channel 1) and exit (channel 4) cameras show: one of the group photos that ship with
 * the @vladmandic/face-api package (a development dependency), so the face check sees the same people at both.
 * None when the package is not installed: the cameras then show their drawn store wall, and the exit the QR code.
 */
function demoFaces(): string[] {
  const photo = path.join(root, "node_modules", "@vladmandic", "face-api", "demo", "sample1.jpg");
  return existsSync(photo) ? ["--show", `1=${photo}`, "--show", `4=${photo}`] : [];
}

/**
 * The camera simulator: an ONVIF recorder with four cameras, RTSP and
 * snapshots. The demo store's cameras point at it (DEMO_CAMERA_SYSTEM), on
 * fixed ports so that they still answer after a restart.
 */
async function startCameraSimulator(): Promise<void> {
  const run = (httpPort: string, rtspPort: string) => {
    const child = simulator("tools/camera-simulator/main.ts", [
      ...demoFaces(),
      "--http-port",
      httpPort,
      "--rtsp-port",
      rtspPort,
      "--password",
      process.env.CAMERA_SIMULATOR_PASSWORD ?? "demo-camera",
      "--host",
      process.env.HOST ?? "127.0.0.1",
    ]);
    return new Promise<Record<string, string>>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        if (!out.includes("CAMERA_SIM_CONTROL=") || !out.endsWith("\n")) return;
        process.stdout.write(out);
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
server = startProcess("apps/server/src/main.ts", [], "inherit");
// The server's end is the start's: the same exit code, and the simulators go with it.
server.on("exit", (code, signal) => process.exit(code ?? 128 + constants.signals[signal!]));
