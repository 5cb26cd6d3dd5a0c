/**
 * `npm test`: type check, lint, unit and HTTP tests (PGlite, and PostgreSQL
 * too when TEST_DATABASE_URL is set), then Playwright in Debian's headless Chromium.
 * Ends with one line: "N passed, N failed". A step whose process fails, or
 * a suite that ran no test, counts as a failure even when no test failed:
 * green must mean that every test ran.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { databaseBlindTests } from "./database-tests.ts";
import { type Counts, playwrightCounts, suiteOutcome, vitestCounts, vitestFailures } from "./outcome.ts";

const root = path.resolve(import.meta.dirname, "..");
const out = mkdtempSync(path.join(tmpdir(), "glide-test-results-"));
const { TEST_DATABASE_URL, ...baseEnv } = process.env;
let passed = 0;
let failed = 0;
/** Why steps failed beyond their failing tests, repeated above the total so they are not lost in the scroll. */
const problems: string[] = [];

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = baseEnv): boolean {
  process.stdout.write(`\n── ${title}\n`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  process.stdout.write(`── ${title}: ${Math.round((performance.now() - started) / 1000)} s\n`);
  if (result.status === 0) return true;
  const how = result.error
    ? result.error.message
    : result.signal
      ? `was stopped by ${result.signal}`
      : `exited with status ${result.status}`;
  problems.push(`${title}: ${how}`);
  return false;
}

/** A step that is one check (type check, lint): counts as one pass or one failure. */
function check(title: string, command: string, args: string[]): void {
  if (run(title, command, args)) passed++;
  else failed++;
}

/** Adds a suite's counts from its report (scripts/outcome.ts says how a crash or an empty run counts). */
function tally(title: string, ok: boolean, counts: Counts | null): void {
  const outcome = suiteOutcome(title, ok, counts);
  passed += outcome.passed;
  failed += outcome.failed;
  if (outcome.problem) problems.push(outcome.problem);
}

/**
 * Installs Debian `pkg` (as root, when `present` says it is missing) for
 * `what`; without root, says how and answers false.
 */
function ensureDebian(pkg: string, what: string, present: () => boolean): boolean {
  if (present()) return true;
  if (process.getuid?.() !== 0) {
    process.stderr.write(`${what} need Debian's ${pkg}: run \`sudo apt-get install -y ${pkg}\` and try again.\n`);
    return false;
  }
  process.stdout.write(`\n── Installing Debian's ${pkg} for ${what}\n`);
  const env = { ...baseEnv, DEBIAN_FRONTEND: "noninteractive" };
  return (
    run("apt-get update", "apt-get", ["update", "-qq"], env) &&
    run(`apt-get install ${pkg}`, "apt-get", ["install", "-y", "-qq", pkg], env)
  );
}

/**
 * The browser tests run in Debian's headless Chromium (package
 * chromium-headless-shell), installed here when missing; without root, a full
 * Debian chromium already there will do.
 */
const ensureChromium = () =>
  ensureDebian(
    "chromium-headless-shell",
    "the browser tests",
    () =>
      existsSync("/usr/bin/chromium-headless-shell") || (process.getuid?.() !== 0 && existsSync("/usr/bin/chromium")),
  );

/** A Vitest pass started in the background, its output kept in a file until it is shown. */
type Pass = {
  title: string;
  file: string;
  log: string;
  started: number;
  done: Promise<{ status: number | null; ended: number }>;
};

function startVitest(title: string, file: string, env: NodeJS.ProcessEnv, only: string[] = []): Pass {
  const log = `${file}.log`;
  const output = openSync(log, "w");
  const args = ["vitest", "run", ...only, "--reporter=default", "--reporter=json", `--outputFile=${file}`];
  const child = spawn("npx", args, { cwd: root, stdio: ["ignore", output, output], env });
  const done = new Promise<{ status: number | null; ended: number }>((resolve) => {
    child.on("error", () => resolve({ status: null, ended: performance.now() }));
    child.on("close", (code) => resolve({ status: code, ended: performance.now() }));
  });
  return { title, file, log, started: performance.now(), done };
}

/** Waits for a pass, shows its output and time, and adds its counts and failures. */
async function finishVitest(pass: Pass): Promise<void> {
  const { status, ended } = await pass.done;
  const seconds = Math.round((ended - pass.started) / 1000);
  process.stdout.write(`\n── ${pass.title}\n${readFileSync(pass.log, "utf8")}── ${pass.title}: ${seconds} s\n`);
  const ok = status === 0;
  if (!ok) problems.push(`${pass.title}: ${status === null ? "could not start" : `exited with status ${status}`}`);
  if (!existsSync(pass.file)) {
    tally(pass.title, ok, null);
    return;
  }
  const report = JSON.parse(readFileSync(pass.file, "utf8"));
  tally(pass.title, ok, vitestCounts(ok, report));
  for (const failure of vitestFailures(report, root)) problems.push(`${pass.title}: ${failure}`);
}

check("Type check", "npm", ["run", "-s", "typecheck"]);
check("Lint", "npm", ["run", "-s", "lint"]);
// The two passes run side by side: alone, each left 12–25 % of two cores idle, and together they took 307 s
// instead of 217 + 132. Each shows its output when it is over.
const passes = [startVitest("Unit and HTTP tests on PGlite", path.join(out, "vitest-pglite.json"), baseEnv)];
// The cluster test (apps/server/src/cluster.test.ts) puts Debian's HAProxy in front of three instances; it fails
// with the reason when HAProxy is missing.
if (TEST_DATABASE_URL && !ensureDebian("haproxy", "the cluster tests", () => existsSync("/usr/sbin/haproxy"))) {
  problems.push("Cluster tests: HAProxy is missing");
}
if (TEST_DATABASE_URL) {
  // Only the server's tests meet a database: the contracts', the web app's and the scripts' would run as they just
  // did, and so would the server's that never read which database the suite is on (scripts/database-tests.ts).
  const blind = databaseBlindTests(root);
  process.stdout.write(
    `\n── The PostgreSQL pass leaves out ${blind.length} server test files that never see its database\n`,
  );
  passes.push(
    startVitest("HTTP tests on PostgreSQL", path.join(out, "vitest-postgres.json"), { ...baseEnv, TEST_DATABASE_URL }, [
      "apps/server/",
      ...blind.map((file) => `--exclude=${file}`),
    ]),
  );
}
for (const pass of passes) await finishVitest(pass);
if (TEST_DATABASE_URL) {
  // Alone, after the others: three servers, HAProxy and a rolling restart whose live carts are timed.
  const env = { ...baseEnv, TEST_DATABASE_URL, GLIDE_CLUSTER_TEST: "1" };
  await finishVitest(
    startVitest("Cluster test: three instances behind HAProxy", path.join(out, "vitest-cluster.json"), env),
  );
}

if (!ensureChromium()) {
  failed++;
  problems.push("Browser tests: Chromium is missing");
} else if (!run("Build the web app", "npm", ["run", "-s", "build"])) failed++;
else {
  const title = "Browser tests (Playwright, desktop and phone)";
  const file = path.join(out, "playwright.json");
  // The config picks free ports unless E2E_PORT is set, and names any port that is taken.
  const ok = run(title, "npx", ["playwright", "test", "-c", "apps/web/e2e/playwright.config.ts"], {
    ...baseEnv,
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
  });
  if (!existsSync(file)) tally(title, ok, null);
  else {
    tally(title, ok, playwrightCounts(JSON.parse(readFileSync(file, "utf8")).stats));
  }
}

if (problems.length > 0) process.stdout.write(`\n── Failed steps\n${problems.map((p) => `  ${p}\n`).join("")}`);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
